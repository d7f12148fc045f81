/// `overridden-rule`: a rule that never changes a result, because a later
/// rule applies to every request it does and sets every key it sets.
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
        for i in rules.indices {
            let earlier = rules[i]
            guard !earlier.properties.isEmpty, !(earlier.patterns.isEmpty && earlier.globs.isEmpty) else { continue }
            for j in (i + 1)..<rules.count {
                guard let reason = overrides(rules[j], earlier, in: d) else { continue }
                let keys = earlier.properties.keys.map(JSONWriter.quoted).joined(separator: ", ")
                let later = rules[j].description.map { "rule \(j) (\(JSONWriter.quoted($0)))" } ?? "rule \(j)"
                let message = "never changes a result: \(later) applies wherever it does (\(reason)) and sets every key it sets (\(keys))"
                let at = d.ruleNodes.indices.contains(i) ? d.location(d.ruleNodes[i].offset) : nil
                out.append(d.finding(.overriddenRule, message, at: at, rule: i))
                break
            }
        }
        return out
    }

    /// Why `later` overrides `earlier` (to say in the message), or nil when
    /// it is not certain that it does.
    func overrides(_ later: Rule, _ earlier: Rule, in d: LintDocument) -> String? {
        for (key, value) in earlier.properties {
            guard let laterValue = later.properties[key] else { return nil }
            if d.options.merge == .deep, value.objectValue != nil, laterValue.objectValue != nil { return nil }
        }
        if let laterMethods = later.methods {
            guard let methods = earlier.methods, methods.allSatisfy(laterMethods.contains) else { return nil }
        }
        if let always = later.patterns.first(where: { MatchPlan.Pattern.matchesEverySubject($0) && compilesEverywhere($0, in: d) }) {
            return "its pattern \(JSONWriter.quoted(always)) matches every URL"
        }
        if earlier.patterns.allSatisfy(later.patterns.contains), earlier.globs.allSatisfy(later.globs.contains) {
            return earlier.globs.isEmpty ? "it has all of its patterns" : "it has all of its patterns and globs"
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
