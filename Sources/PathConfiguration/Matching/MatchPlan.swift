/// One rule that matched, and what of it matched first.
public struct RuleMatch: Sendable, Hashable {
    /// What kind of matcher decided the rule.
    public enum Kind: String, Sendable, Hashable {
        /// One of its regular-expression `patterns`.
        case pattern
        /// One of its `globs`.
        case glob
        /// Its host predicate (a rule added from code without a matching
        /// pattern or glob).
        case predicate
    }

    /// Index of the rule in the configuration's ordered rules.
    public let ruleIndex: Int
    /// Index of the matching pattern (or glob) within the rule; 0 for a predicate.
    public let patternIndex: Int
    /// Whether `patternIndex` counts `patterns` or `globs`, or a predicate decided.
    public let kind: Kind

    /// Creates a match.
    public init(ruleIndex: Int, patternIndex: Int, kind: Kind = .pattern) {
        self.ruleIndex = ruleIndex
        self.patternIndex = patternIndex
        self.kind = kind
    }
}

/// What running the plan over one subject found.
struct PlanResult {
    /// Matching rules, in rule order.
    var matches: [RuleMatch] = []
    /// Patterns whose search ran out of its budget (counted as no match).
    var limitExceeded: [RuleMatch] = []

    /// The rules matched by this result's patterns or `globs`' globs, in rule
    /// order; a rule both match is decided by its pattern (patterns come first).
    func union(globs: PlanResult) -> PlanResult {
        var out = PlanResult()
        out.matches.reserveCapacity(matches.count + globs.matches.count)
        var i = 0, j = 0
        while i < matches.count || j < globs.matches.count {
            if j == globs.matches.count || (i < matches.count && matches[i].ruleIndex <= globs.matches[j].ruleIndex) {
                if j < globs.matches.count, globs.matches[j].ruleIndex == matches[i].ruleIndex { j += 1 }
                out.matches.append(matches[i]); i += 1
            } else {
                out.matches.append(globs.matches[j]); j += 1
            }
        }
        out.limitExceeded = (limitExceeded + globs.limitExceeded).sorted { ($0.ruleIndex, $0.kind == .glob ? 1 : 0) < ($1.ruleIndex, $1.kind == .glob ? 1 : 0) }
        return out
    }
}

/// Every compiled pattern of every rule, with a prefilter that decides which
/// of them can possibly match a subject.
///
/// Most patterns have a required literal (`/comments/` in
/// `^/posts/\d+/comments/\d+$`). One Aho–Corasick pass over the subject finds
/// which literals occur; only patterns whose literal occurs, plus the few
/// without one, reach the regex engine. Candidates run in rule order and a
/// rule's first matching pattern decides it, so the result is exactly that
/// of trying every pattern (the tests compare both on the benchmark corpora
/// and on fuzzed patterns, `PrefilterFuzzTests`).
struct MatchPlan: Sendable {
    struct Pattern: Sendable {
        let index: Int
        let compiled: any CompiledPattern
    }

    /// Per rule, its compiled patterns (patterns rejected under `lenient` are absent).
    let patternsByRule: [[Pattern]]
    /// What the plan's patterns are: a rule's `patterns` or its `globs`.
    let kind: RuleMatch.Kind
    private let prefilter: Prefilter?

    /// A pattern's place: its rule, and its position in `patternsByRule[rule]`.
    /// Ordered by rule, then position: candidates run in that order.
    private struct Slot: Sendable, Comparable {
        let rule: Int
        let position: Int

        static func < (a: Slot, b: Slot) -> Bool { (a.rule, a.position) < (b.rule, b.position) }
    }

    private struct Prefilter: Sendable {
        let matcher: LiteralMatcher
        /// For each literal, the slots of the patterns that require it.
        let slotsByLiteral: [[Slot]]
        /// Slots of the patterns without a required literal, sorted.
        let unfiltered: [Slot]
        let caseInsensitive: Bool
    }

    /// Builds the plan; `literals[r][s]` is the required literal of
    /// `patternsByRule[r][s]` (nil when it has none). Without `usePrefilter`
    /// every pattern runs on every lookup, as the reference apps do.
    init(patternsByRule: [[Pattern]], literals: [[[UInt8]?]], caseInsensitive: Bool, usePrefilter: Bool, kind: RuleMatch.Kind = .pattern) {
        self.patternsByRule = patternsByRule
        self.kind = kind
        guard usePrefilter else { prefilter = nil; return }
        var ids: [[UInt8]: Int] = [:]
        var distinct: [[UInt8]] = []
        var slotsByLiteral: [[Slot]] = []
        var unfiltered: [Slot] = []
        for (r, ruleLiterals) in literals.enumerated() {
            for (s, literal) in ruleLiterals.enumerated() {
                let slot = Slot(rule: r, position: s)
                guard let literal else { unfiltered.append(slot); continue }
                if let id = ids[literal] {
                    slotsByLiteral[id].append(slot)
                } else {
                    ids[literal] = distinct.count
                    distinct.append(literal)
                    slotsByLiteral.append([slot])
                }
            }
        }
        prefilter = distinct.isEmpty ? nil : Prefilter(matcher: LiteralMatcher(distinct), slotsByLiteral: slotsByLiteral,
                                                      unfiltered: unfiltered, caseInsensitive: caseInsensitive)
    }

    func run(_ subject: MatchSubject) -> PlanResult {
        guard let prefilter,
              // Unicode case folding can turn non-ASCII text into ASCII letters
              // (the Kelvin sign matches `k`): only ASCII subjects are prefiltered
              // under case-insensitive matching.
              !(prefilter.caseInsensitive && subject.utf8.contains(where: { $0 >= 0x80 }))
        else { return runAll(subject) }
        var found: [Int] = []
        subject.utf8.withUnsafeBufferPointer { buf in
            prefilter.matcher.scan(buf, fold: prefilter.caseInsensitive) { found.append($0) }
        }
        var candidates = prefilter.unfiltered
        if !found.isEmpty {
            found.sort()
            var last = -1
            for id in found where id != last {
                candidates.append(contentsOf: prefilter.slotsByLiteral[id])
                last = id
            }
            candidates.sort()
        }
        var result = PlanResult()
        var decidedRule = -1
        for slot in candidates {
            let r = slot.rule
            if r == decidedRule { continue }
            let pattern = patternsByRule[r][slot.position]
            switch pattern.compiled.search(subject) {
            case .match:
                result.matches.append(RuleMatch(ruleIndex: r, patternIndex: pattern.index, kind: kind))
                decidedRule = r
            case .noMatch:
                break
            case .limitExceeded:
                result.limitExceeded.append(RuleMatch(ruleIndex: r, patternIndex: pattern.index, kind: kind))
            }
        }
        return result
    }

    /// Tries every pattern of every rule, in order.
    private func runAll(_ subject: MatchSubject) -> PlanResult {
        var result = PlanResult()
        for (ruleIndex, patterns) in patternsByRule.enumerated() {
            for p in patterns {
                switch p.compiled.search(subject) {
                case .match:
                    result.matches.append(RuleMatch(ruleIndex: ruleIndex, patternIndex: p.index, kind: kind))
                case .noMatch:
                    continue
                case .limitExceeded:
                    result.limitExceeded.append(RuleMatch(ruleIndex: ruleIndex, patternIndex: p.index, kind: kind))
                    continue
                }
                break
            }
        }
        return result
    }
}
