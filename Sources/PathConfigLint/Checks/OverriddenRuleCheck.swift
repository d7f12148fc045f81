import PathConfigCore

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
        let deep = d.options.merge == .deep
        // A rule that overrides rule `i` has every one of `i`'s tokens: each
        // key `i` sets ("k:" and the key; under `merge: deep`, "v:" and a key
        // whose value in `i` is an object, which the later rule must set to
        // something else), and, unless it matches every string, each of
        // `i`'s patterns ("p:") and globs ("g:"). Each token lists the rules
        // that have it, in order; the rarest of `i`'s tokens gives the only
        // rules that can override it, so a file whose rules share a pattern
        // but set other keys costs a pass, not one per pair of rules.
        var catchAll: [Int: String] = [:]
        var catchAllByToken: [String: [Int]] = [:]
        var byToken: [String: [Int]] = [:]
        for (j, rule) in rules.enumerated() {
            var tokens = Set(rule.properties.keys.map { "k:" + $0 })
            if deep { for (key, value) in rule.properties where value.objectValue == nil { tokens.insert("v:" + key) } }
            if let always = rule.patterns.first(where: { MatchPlan.Pattern.matchesEverySubject($0) && compilesEverywhere($0, in: d) }) {
                catchAll[j] = always
                for token in tokens { catchAllByToken[token, default: []].append(j) }
            }
            tokens.formUnion(rule.patterns.map { "p:" + $0 } + rule.globs.map { "g:" + $0 })
            for token in tokens { byToken[token, default: []].append(j) }
        }
        for i in rules.indices {
            let earlier = rules[i]
            guard !earlier.properties.isEmpty, !(earlier.patterns.isEmpty && earlier.globs.isEmpty) else { continue }
            let keyTokens = earlier.properties.map { key, value in deep && value.objectValue != nil ? "v:" + key : "k:" + key }
            let allTokens = keyTokens + earlier.patterns.map { "p:" + $0 } + earlier.globs.map { "g:" + $0 }
            // The rules after `i` in the rarest list of each kind, in order: the first that overrides is the one reported.
            func later(_ index: [String: [Int]], _ tokens: [String]) -> ArraySlice<Int> {
                let lists = tokens.map { index[$0] ?? [] }
                let rarest = lists.min { $0.count < $1.count } ?? []
                return rarest[Self.firstIndex(after: i, in: rarest)...]
            }
            var byPattern = later(byToken, allTokens), byCatchAll = later(catchAllByToken, keyTokens)
            // The two lists merged, in order, each rule once.
            while case let j = min(byPattern.first ?? .max, byCatchAll.first ?? .max), j != .max {
                if byPattern.first == j { byPattern.removeFirst() }
                if byCatchAll.first == j { byCatchAll.removeFirst() }
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

    /// The index of the first element of `sorted` above `i`.
    private static func firstIndex(after i: Int, in sorted: [Int]) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] <= i { lo = mid + 1 } else { hi = mid }
        }
        return lo
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
        // As written, byte for byte: `/café` spelt with U+00E9 and with `e` and U+0301 match different URLs.
        func has(_ all: [String], _ one: String) -> Bool { all.contains { String.sameBytes($0, one) } }
        if earlier.patterns.allSatisfy({ has(later.patterns, $0) }), earlier.globs.allSatisfy({ has(later.globs, $0) }) {
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
