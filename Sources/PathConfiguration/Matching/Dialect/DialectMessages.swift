/// Wording for PCRE2's own errors on a translated pattern, where the dialect
/// accepts what PCRE2 rejects.
enum DialectMessages {
    /// PCRE2's message, with the dialect's view added where the two differ
    /// in what they accept.
    static func pcre2Error(_ text: String, dialect: RegexDialect) -> String {
        if text.hasPrefix("lookbehind assertion is not fixed length") {
            return text + " (\(dialect.displayName) accepts a bounded lookbehind of varying length, PCRE2 10.42 needs each alternative"
                + " to have one length; use the foundation backend)"
        }
        return text
    }
}
