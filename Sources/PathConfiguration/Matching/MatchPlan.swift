/// One rule that matched, and the first of its patterns that did.
public struct RuleMatch: Sendable, Hashable {
    /// Index of the rule in the configuration's `rules`.
    public let ruleIndex: Int
    /// Index of the matching pattern within the rule.
    public let patternIndex: Int

    /// Creates a match.
    public init(ruleIndex: Int, patternIndex: Int) {
        self.ruleIndex = ruleIndex
        self.patternIndex = patternIndex
    }
}

/// What running the plan over one subject found.
struct PlanResult {
    /// Matching rules, in rule order.
    var matches: [RuleMatch] = []
    /// Patterns whose search ran out of its budget (counted as no match).
    var limitExceeded: [RuleMatch] = []
}

/// Every compiled pattern of every rule, ready to run against a subject.
///
/// A rule's patterns are tried in order and the first match decides the rule,
/// so a rule costs at most one successful search. Patterns that failed to
/// compile under `lenient` are absent.
struct MatchPlan: Sendable {
    struct Pattern: Sendable {
        let index: Int
        let compiled: any CompiledPattern
    }

    /// Per rule, its compiled patterns.
    let patternsByRule: [[Pattern]]

    func run(_ subject: MatchSubject) -> PlanResult {
        var result = PlanResult()
        for (ruleIndex, patterns) in patternsByRule.enumerated() {
            for p in patterns {
                switch p.compiled.search(subject) {
                case .match:
                    result.matches.append(RuleMatch(ruleIndex: ruleIndex, patternIndex: p.index))
                case .noMatch:
                    continue
                case .limitExceeded:
                    result.limitExceeded.append(RuleMatch(ruleIndex: ruleIndex, patternIndex: p.index))
                    continue
                }
                break
            }
        }
        return result
    }
}
