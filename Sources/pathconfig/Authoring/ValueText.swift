import PathConfiguration

/// How values appear in text reports: compact JSON, or `(absent)` for a key
/// that is not there (never confused with a value: strings are quoted).
enum ValueText {
    /// `value` as compact JSON, or `(absent)`; a string as `quoted(_:)` shows it.
    static func text(_ value: JSONValue?) -> String {
        if case .string(let s)? = value { return quoted(s) }
        return value.map(JSONWriter.compact) ?? "(absent)"
    }

    /// A string or key quoted as JSON, and followed by its code points where
    /// it is not in Unicode's composed form (NFC), so that another spelling
    /// of it, the composed one, would look the same: `e` and U+0301 (`é`),
    /// U+212A KELVIN SIGN (`K`): `"cafe\u{301}" (U+0063 U+0061 U+0066 U+0065 U+0301)`.
    /// Of two spellings that look alike at most one is composed, so a
    /// report always tells them apart; text written composed, as editors
    /// write it, shows as it is.
    static func quoted(_ s: String) -> String {
        // The standard library's own NFC (Swift compares strings so); no other is at hand without Foundation.
        s._nfcCodeUnits.elementsEqual(s.utf8) ? JSONWriter.quoted(s) : DocumentReading.spelling(s)
    }

    /// A value a difference shows for one side: as `text(_:)`, or, for a
    /// typed read (`written` given), the value the app read followed by
    /// where it came from when that is not the same value as written:
    /// `"large" (default)` where nothing was written (or null),
    /// `true (written "false")` where the app read something else.
    static func text(_ value: JSONValue?, written: [JSONValue?]?, side: Int) -> String {
        guard let written, let value else { return text(value) }
        if PropertyComparison.isCrash(value) { return crash + (written[side].map { " (written \(JSONWriter.compact($0)))" } ?? "") }
        guard let raw = written[side], raw != .null else { return text(value) + " (default)" }
        return JSONComparison.equal(raw, value) ? text(value) : text(value) + " (written \(JSONWriter.compact(raw)))"
    }

    /// A difference's key as the text reports show it: its path, and
    /// ` (typed)` when the values are typed reads.
    static func key(_ difference: ValueDifference) -> String {
        difference.path.text + (difference.isTyped ? " (typed)" : "")
    }

    /// What a profile's column shows where its app crashes on the URL
    /// (`ProfileDifference.crashes` says why), or reading a typed key.
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
