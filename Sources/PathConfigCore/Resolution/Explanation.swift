/// Why a URL resolved as it did: the matched string, each rule that applied
/// and through which pattern, glob or predicate, and the merged result.
public struct Explanation: Sendable {
    /// One rule that applied.
    public struct MatchedRule: Sendable, Hashable {
        /// Index of the rule (built-ins continue after the file's rules, rules
        /// from code after those).
        public let index: Int
        /// The pattern or glob that matched ("" when a predicate decided).
        public let pattern: String
        /// Index of that pattern (or glob) within the rule.
        public let patternIndex: Int
        /// The rule's `description` or `comment`, if any.
        public let description: String?
        /// True for a profile's built-in rule.
        public let isBuiltIn: Bool
        /// What matched: a pattern, a glob or the host predicate.
        public let kind: RuleMatch.Kind
        /// True for a rule added from code.
        public let fromCode: Bool
        /// True when the rule's host configurer ran.
        public let hasConfigurer: Bool

        /// Creates a matched rule.
        public init(index: Int, pattern: String, patternIndex: Int, description: String?, isBuiltIn: Bool,
                    kind: RuleMatch.Kind = .pattern, fromCode: Bool = false, hasConfigurer: Bool = false) {
            self.index = index
            self.pattern = pattern
            self.patternIndex = patternIndex
            self.description = description
            self.isBuiltIn = isBuiltIn
            self.kind = kind
            self.fromCode = fromCode
            self.hasConfigurer = hasConfigurer
        }

        /// The rule as `explain` writes it: `index`, the `pattern` or `glob`
        /// with `pattern_index` (or `predicate: true`), `description` when
        /// present, `builtin`, `from_code` and `configurer` when true.
        public var jsonObject: JSONObject {
            var e = JSONObject()
            e["index"] = .integer(index)
            switch kind {
            case .pattern, .glob:
                e[kind.rawValue] = .string(pattern)
                e["pattern_index"] = .integer(patternIndex)
            case .predicate:
                e["predicate"] = .bool(true)
            }
            if let description { e["description"] = .string(description) }
            if isBuiltIn { e["builtin"] = .bool(true) }
            if fromCode { e["from_code"] = .bool(true) }
            if hasConfigurer { e["configurer"] = .bool(true) }
            return e
        }
    }

    /// The input as given.
    public let input: String
    /// The HTTP method of the lookup.
    public let method: String
    /// The URL the lookup was about (`RuleRequest.url`).
    public let url: String
    /// The string the patterns ran against.
    public let matchedString: String
    /// The rules that applied, in order.
    public let rules: [MatchedRule]
    /// Patterns whose search exceeded the match limit (counted as no match).
    public let limitExceeded: [RuleMatch]
    /// The merged properties.
    public let properties: PathProperties

    /// The explanation as a JSON object: `input`, `method`, `url`,
    /// `matched_string`, `rules` (each as `MatchedRule.jsonObject` writes it),
    /// `properties`, and `limit_exceeded` when any.
    public var jsonObject: JSONObject {
        var o: JSONObject = ["input": .string(input),
                             "method": .string(method),
                             "url": .string(url),
                             "matched_string": .string(matchedString),
                             "rules": .array(rules.map { .object($0.jsonObject) }),
                             "properties": .object(properties.object)]
        if !limitExceeded.isEmpty {
            o["limit_exceeded"] = .array(limitExceeded.map { m in
                var e: JSONObject = ["rule": .integer(m.ruleIndex)]
                e[m.kind == .glob ? "glob_index" : "pattern_index"] = .integer(m.patternIndex)
                return .object(e)
            })
        }
        return o
    }

    /// The compact JSON text of `jsonObject`.
    public var json: String { JSONWriter.compact(jsonObject) }
}
