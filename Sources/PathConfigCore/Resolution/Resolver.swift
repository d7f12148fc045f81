/// A configuration's rules from the file (and the profile's built-ins),
/// compiled into one plan for patterns and one for globs.
///
/// A class, read through one reference: as a struct (some 260 bytes) a
/// lookup copied it onto the stack to call `withMatches`.
final class FileRules: Sendable {
    let rules: [Rule]
    let patternPlan: MatchPlan
    /// nil when no rule has a glob.
    let globPlan: MatchPlan?
    /// True when some rule lists `methods`.
    let filtersMethods: Bool

    init(rules: [Rule], patternPlan: MatchPlan, globPlan: MatchPlan?, filtersMethods: Bool) {
        self.rules = rules
        self.patternPlan = patternPlan
        self.globPlan = globPlan
        self.filtersMethods = filtersMethods
    }

    /// The rules that match, in order, whatever the method.
    func run(_ subjects: Lookup) -> PlanResult {
        // Through `?.`, the plan is read in place; bound by `guard let`, it
        // was copied, a retain and a release of each of its parts (about 850
        // instructions a Siesta lookup).
        guard let byGlob = globPlan?.run(subjects.globSubject) else { return patternPlan.run(subjects.patternSubject) }
        return patternPlan.isEmpty ? byGlob : patternPlan.run(subjects.patternSubject).union(globs: byGlob)
    }

    /// Matches a lookup keeps on its stack; one with more runs again into an array.
    static let bufferedMatches = 32

    /// `body` of the rules that apply to `subject` with `method`, in order,
    /// when no rule has globs (`globPlan` is nil): patterns see only the
    /// subject. The rules are listed in a buffer on the stack, valid for the
    /// call: a lookup allocates nothing for them.
    func withMatches<R>(patternSubject subject: PatternSubject, method: String, _ body: (UnsafeBufferPointer<RuleMatch>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: RuleMatch.self, capacity: Self.bufferedMatches) { buffer in
            // The plan's automaton lists them itself (in memory it keeps, or
            // merged into the buffer).
            if case .printableASCII(let bytes) = subject, let found = patternPlan.automatonMatches(bytes, scratch: buffer) {
                return filtersMethods ? applying(Array(found), to: method).withUnsafeBufferPointer(body) : body(found)
            }
            var found = BufferedMatches(buffer)
            patternPlan.run(subject, reportingTo: &found)
            if found.overflowed {
                var all = PlanResult()
                patternPlan.run(subject, reportingTo: &all)
                return applying(all.matches, to: method).withUnsafeBufferPointer(body)
            }
            guard filtersMethods else { return body(found.matches) }
            return applying(Array(found.matches), to: method).withUnsafeBufferPointer(body)
        }
    }

    /// Those of `matches` that apply to a lookup with `method`.
    func applying(_ matches: [RuleMatch], to method: String) -> [RuleMatch] {
        filtersMethods ? matches.filter { rules[$0.ruleIndex].applies(to: method) } : matches
    }
}

/// A rule added from code, compiled.
struct CompiledHostRule: Sendable {
    let rule: Rule
    let patterns: [MatchPlan.Pattern]
    let globs: [MatchPlan.Pattern]
    let predicate: HostRule.Predicate?
    let configurer: HostRule.Configurer?
    /// `HostRule.owner`, kept as long as the rule.
    let owner: (any AnyObject & Sendable)?

    /// Whether the rule applies, and through what; searches that ran out of
    /// their budget are added to `limitExceeded`.
    func match(_ subjects: Lookup, _ request: RuleRequest, limitExceeded: inout [RuleMatch]) throws(ResolveError) -> RuleMatch? {
        var found: RuleMatch?
        if !patterns.isEmpty || !globs.isEmpty {
            found = first(patterns, in: subjects.forPatterns, kind: .pattern, limitExceeded: &limitExceeded)
                ?? first(globs, in: subjects.forGlobs, kind: .glob, limitExceeded: &limitExceeded)
            guard found != nil else { return nil }
        }
        if let predicate {
            let applies: Bool
            do { applies = try predicate(request) } catch {
                throw ResolveError(code: .hostRule, message: "\(rule.label): the predicate failed: \(error)", ruleIndex: rule.index, underlying: error)
            }
            guard applies else { return nil }
        }
        return found ?? RuleMatch(ruleIndex: rule.index, patternIndex: 0, kind: .predicate)
    }

    private func first(_ list: [MatchPlan.Pattern], in subject: MatchSubject, kind: RuleMatch.Kind,
                       limitExceeded: inout [RuleMatch]) -> RuleMatch? {
        for p in list {
            switch p.search(subject) {
            case .match: return RuleMatch(ruleIndex: rule.index, patternIndex: p.index, kind: kind)
            case .noMatch: continue
            case .limitExceeded: limitExceeded.append(RuleMatch(ruleIndex: rule.index, patternIndex: p.index, kind: kind))
            }
        }
        return nil
    }
}

/// Everything one lookup found.
struct Evaluation {
    /// The rules that applied, in order.
    var matches: [RuleMatch] = []
    /// Searches that ran out of their budget (counted as no match).
    var limitExceeded: [RuleMatch] = []
    /// The merged properties.
    var properties = JSONObject()
}

/// Runs every rule against one lookup and merges the properties of those
/// that apply: in rule order (the file's rules, the profile's built-ins,
/// then rules added from code), each one's fixed properties merged by the
/// `MergeMode`, then its configurer, if any, run on the result so far.
enum Resolver {
    /// The properties of `matches` (rules of `rules`), merged in order
    /// (`canonicalKeys`: `MergeMode.apply`).
    static func merge(_ matches: [RuleMatch], of rules: [Rule], by mode: MergeMode, canonicalKeys: Bool) -> JSONObject {
        var merged = JSONObject()
        for m in matches {
            let properties = rules[m.ruleIndex].properties
            if merged.isEmpty && mode == .shallow { merged = properties } else { mode.apply(properties, to: &merged, canonicalKeys: canonicalKeys) }
        }
        return merged
    }

    static func evaluate(file: FileRules, host: [CompiledHostRule], subjects: Lookup, method: String,
                         merge: MergeMode, canonicalKeys: Bool) throws(ResolveError) -> Evaluation {
        let planned = file.run(subjects)
        var out = Evaluation(limitExceeded: planned.limitExceeded)
        out.matches = file.applying(planned.matches, to: method)
        out.properties = Self.merge(out.matches, of: file.rules, by: merge, canonicalKeys: canonicalKeys)
        guard !host.isEmpty else { return out }
        let request = RuleRequest(url: subjects.url, method: method)
        for h in host where h.rule.applies(to: method) {
            guard let m = try h.match(subjects, request, limitExceeded: &out.limitExceeded) else { continue }
            out.matches.append(m)
            merge.apply(h.rule.properties, to: &out.properties, canonicalKeys: canonicalKeys)
            guard let configurer = h.configurer else { continue }
            do { try configurer(&out.properties, request) } catch {
                throw ResolveError(code: .hostRule, message: "\(h.rule.label): the configurer failed: \(error)", ruleIndex: h.rule.index, underlying: error)
            }
        }
        return out
    }
}
