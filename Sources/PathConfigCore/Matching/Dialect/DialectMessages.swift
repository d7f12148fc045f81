/// Wording for what the pcre2 backend cannot run although the dialect
/// accepts it: the translation's refusals and PCRE2's own limits.
enum DialectMessages {
    /// `WHAT is valid ICU (iOS accepts it), but ...; ADVICE`: says that the
    /// limit is this library's, not the pattern's, and what a reader can do,
    /// which depends on the dialect. The foundation backend is ICU, so it is
    /// advice for ICU patterns alone, and only Swift hosts and the `pathconfig`
    /// command have it (C, Python and Rust get `PATHCONFIG_E_BACKEND`).
    static func refusal(_ what: String, dialect: RegexDialect) -> String {
        what + " is valid \(dialect.displayName) (\(dialect == .icu ? "iOS" : "Android") accepts it), but libpathconfig's pcre2 backend cannot"
            + " match it exactly; " + advice(dialect)
    }

    /// What a reader can do about a pattern the pcre2 backend refuses.
    static func advice(_ dialect: RegexDialect) -> String {
        "rewrite the pattern without it" + (dialect == .icu
            ? ", or, from Swift or the pathconfig command (not C, Python or Rust), use the foundation backend, which is ICU"
            : " (no backend here runs java.util.regex: the foundation backend is ICU)")
    }

    /// PCRE2's compile error on a translated pattern, and whether it is a
    /// limit of PCRE2 10.42 on a pattern the dialect accepts (then worded
    /// as `refusal`). A lookbehind that reaches PCRE2 has a bounded length
    /// (the translation rejects or refuses an unbounded one), so
    /// PCRE2's "not fixed length" is its own limit; so is "too large", for
    /// a pattern the loader's size limit let through.
    static func pcre2Error(_ text: String, dialect: RegexDialect) -> (message: String, isRefusal: Bool) {
        if text.hasPrefix("lookbehind assertion is not fixed length") {
            return (refusal("a lookbehind whose alternatives have different lengths (\(dialect.displayName) accepts a bounded one;"
                            + " PCRE2 10.42 needs each alternative to have one length)", dialect: dialect), true)
        }
        if text.hasPrefix("lookbehind assertion is too long") {
            return (refusal("a lookbehind longer than 65,535 characters (PCRE2's limit)", dialect: dialect), true)
        }
        if text.hasPrefix("parentheses are too deeply nested") {
            // PCRE2's own limit (250, with the groups the translation
            // adds); ICU's is lower (`holdICULevels`), and the JDK's is
            // its thread's stack.
            return (refusal("groups nested more than 250 deep (PCRE2's limit, counting the groups the translation adds)",
                            dialect: dialect), true)
        }
        if text.hasPrefix("regular expression is too large") {
            // Within the 16 KB limit on patterns, which the loader checks
            // first, PCRE2's 64 KB of compiled code (LINK_SIZE 2) is its
            // own limit, not the dialect's: the apps compile such a pattern.
            return (refusal("a pattern whose translation is too large for PCRE2 (more than its 64 KB of compiled code;"
                            + " runs of one character or class, and case-insensitive ASCII letters, are written compactly)",
                            dialect: dialect), true)
        }
        return (text, false)
    }
}
