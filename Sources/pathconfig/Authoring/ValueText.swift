import PathConfiguration

/// How values appear in text reports: compact JSON, or `(absent)` for a key
/// that is not there (never confused with a value: strings are quoted).
enum ValueText {
    /// `value` as compact JSON, or `(absent)`.
    static func text(_ value: JSONValue?) -> String {
        value.map(JSONWriter.compact) ?? "(absent)"
    }

    /// What a profile's column shows where its app crashes on the URL
    /// (`ProfileDifference.crashes` says why).
    static let crash = "(app crashes)"

    /// A matched rule as a person reads it: `rule 3, pattern "/new$": Forms
    /// open as modals` (glob, or predicate; `built-in` and `from code` marked).
    static func rule(_ rule: Explanation.MatchedRule) -> String {
        var text = "rule \(rule.index)"
        switch rule.kind {
        case .pattern: text += ", pattern \(JSONWriter.quoted(rule.pattern))"
        case .glob: text += ", glob \(JSONWriter.quoted(rule.pattern))"
        case .predicate: text += ", host predicate"
        }
        if rule.isBuiltIn { text += " (built-in)" }
        if rule.fromCode { text += " (from code)" }
        if let description = rule.description { text += ": " + description }
        return text
    }

    /// `1 resolves alike`, `3 resolve alike`.
    static func alike(_ n: Int) -> String { n == 1 ? "1 resolves alike" : "\(n) resolve alike" }

    /// `n noun` or `n nouns`.
    static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
