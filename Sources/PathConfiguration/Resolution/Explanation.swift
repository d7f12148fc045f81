/// Why a URL resolved as it did: the matched string, each rule that matched
/// and through which pattern, and the merged result.
public struct Explanation: Sendable {
    /// One matched rule.
    public struct MatchedRule: Sendable, Hashable {
        /// Index of the rule (built-ins continue after the file's rules).
        public let index: Int
        /// The pattern that matched.
        public let pattern: String
        /// Index of that pattern within the rule.
        public let patternIndex: Int
        /// The rule's `description` or `comment`, if any.
        public let description: String?
        /// True for a profile's built-in rule.
        public let isBuiltIn: Bool
    }

    /// The input as given.
    public let input: String
    /// The string the patterns ran against.
    public let matchedString: String
    /// The rules that matched, in order.
    public let rules: [MatchedRule]
    /// Patterns whose search exceeded the match limit (counted as no match).
    public let limitExceeded: [RuleMatch]
    /// The merged properties.
    public let properties: PathProperties

    /// The explanation as a JSON object: `input`, `matched_string`, `rules`
    /// (`index`, `pattern`, `pattern_index`, `description` when present,
    /// `builtin` when true), `properties`, and `limit_exceeded` when any.
    public var jsonObject: JSONObject {
        var o = JSONObject()
        o["input"] = .string(input)
        o["matched_string"] = .string(matchedString)
        o["rules"] = .array(rules.map { r in
            var e = JSONObject()
            e["index"] = .number(JSONNumber(Int64(r.index)))
            e["pattern"] = .string(r.pattern)
            e["pattern_index"] = .number(JSONNumber(Int64(r.patternIndex)))
            if let d = r.description { e["description"] = .string(d) }
            if r.isBuiltIn { e["builtin"] = .bool(true) }
            return .object(e)
        })
        o["properties"] = .object(properties.object)
        if !limitExceeded.isEmpty {
            o["limit_exceeded"] = .array(limitExceeded.map { m in
                .object(["rule": .number(JSONNumber(Int64(m.ruleIndex))), "pattern_index": .number(JSONNumber(Int64(m.patternIndex)))])
            })
        }
        return o
    }

    /// The compact JSON text of `jsonObject`.
    public var json: String { JSONWriter.compact(jsonObject) }
}
