import PathConfigModel
import PathConfigMatching
import PathConfigResolution

/// `overridden-rule`: a rule that never changes a result, because a later
/// rule applies to every request it does and sets every key it sets. (Only
/// the order of keys in the merged object can differ: a key the earlier rule
/// set first keeps its place. Apps read the properties as a map.)
///
/// Said only when that is certain for every profile, never on a guess. Rule
/// `j` (after rule `i`, both the file's) overrides `i` when:
/// - `i` sets at least one key, has at least one pattern or glob, and every
///   key it sets is one `j` sets too; under `merge: deep` the two values of
///   a key are not both objects (objects would merge, keeping part of `i`'s);
/// - `j` applies wherever `i` does: one of `j`'s patterns matches every
///   string (`MatchPlan.Pattern.matchesEverySubject`: `.*`, `^`, ...) and
///   every selected profile's engine compiles it, or
///   `j` has each of `i`'s patterns and globs, written the same;
/// - `j` has no `methods`, or has every one of `i`'s (which then has some).
/// Rules added later from code can only override more; built-in rules are
/// not considered.
struct OverriddenRuleCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        var out: [LintFinding] = []
        let rules = d.rules
        // Only two kinds of rule can override another: one with a catch-all
        // pattern, and one that has the other's first pattern (or glob). Index
        // both, so that a long file costs about one pass, not one per pair.
        var catchAll: [Int: String] = [:]
        var byFirst: [String: [Int]] = [:]
        for (j, rule) in rules.enumerated() {
            if let always = rule.patterns.first(where: { MatchPlan.Pattern.matchesEverySubject($0) && compilesEverywhere($0, in: d) }) {
                catchAll[j] = always
            }
            for key in Set(rule.patterns.map { "p" + $0 } + rule.globs.map { "g" + $0 }) { byFirst[key, default: []].append(j) }
        }
        let catchAllRules = catchAll.keys.sorted()
        for i in rules.indices {
            let earlier = rules[i]
            guard !earlier.properties.isEmpty, let first = earlier.patterns.first.map({ "p" + $0 }) ?? earlier.globs.first.map({ "g" + $0 }) else { continue }
            let candidates = Set(catchAllRules.filter { $0 > i } + (byFirst[first] ?? []).filter { $0 > i }).sorted()
            for j in candidates {
                guard let reason = overrides(rules[j], earlier, catchAll: catchAll[j], merge: d.options.merge) else { continue }
                let keys = earlier.properties.keys.map(JSONWriter.quoted).joined(separator: ", ")
                let later = rules[j].description.map { "rule \(j) (\(JSONWriter.quoted($0)))" } ?? "rule \(j)"
                let message = "has no effect: the later \(later) applies to every URL this rule applies to (\(reason)) "
                    + "and sets every key this rule sets (\(keys)), so its values always win"
                let at = d.ruleNodes.indices.contains(i) ? d.location(d.ruleNodes[i].offset) : nil
                out.append(d.finding(.overriddenRule, message, at: at, rule: i))
                break
            }
        }
        return out
    }

    /// Why `later` overrides `earlier` (to say in the message), or nil when
    /// it is not certain that it does; `catchAll` is `later`'s pattern that
    /// matches every string, if it has one.
    func overrides(_ later: Rule, _ earlier: Rule, catchAll: String?, merge: MergeMode) -> String? {
        for (key, value) in earlier.properties {
            guard let laterValue = later.properties[key] else { return nil }
            if merge == .deep, value.objectValue != nil, laterValue.objectValue != nil { return nil }
        }
        if let laterMethods = later.methods {
            guard let methods = earlier.methods, methods.allSatisfy(laterMethods.contains) else { return nil }
        }
        if let catchAll {
            return "its pattern \(JSONWriter.quoted(catchAll)) matches every URL"
        }
        if earlier.patterns.allSatisfy(later.patterns.contains), earlier.globs.allSatisfy(later.globs.contains) {
            return earlier.globs.isEmpty ? "it has all of this rule's patterns" : "it has all of this rule's patterns and globs"
        }
        return nil
    }

    /// Whether every selected profile's engine compiles `pattern` (ICU
    /// refuses the empty pattern, and a lenient load skips it).
    private func compilesEverywhere(_ pattern: String, in d: LintDocument) -> Bool {
        d.profiles.allSatisfy { profile in
            (try? d.options.engine.compile(pattern, options: profile.regexOptions, limits: d.options.limits)) != nil
        }
    }
}
