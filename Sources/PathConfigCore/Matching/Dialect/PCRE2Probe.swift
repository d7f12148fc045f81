import CPCRE2

/// Asks the linked PCRE2 what it accepts, so the dialect tables never
/// promise a property this PCRE2 build does not have.
enum PCRE2Probe {
    /// Names PCRE2 accepted, lower-cased: at most PCRE2's own table, since a
    /// refusal is not remembered.
    private static let accepted = Locked<Set<String>>([])

    /// Whether PCRE2 compiles `\p{text}` (`text` is ASCII).
    static func acceptsProperty(_ text: String) -> Bool {
        let key = text.lowercased()
        if accepted.withLock({ $0.contains(key) }) { return true }
        guard let code = compile("\\p{" + key + "}", options: UInt32(PCRE2_UTF)) else { return false }
        pcre2_code_free_8(code)
        accepted.withLock { _ = $0.insert(key) }
        return true
    }

    /// How many of `codePoints` (no surrogates) `pattern` (PCRE2, UTF)
    /// matches, each alone; nil when PCRE2 does not compile it.
    static func count(of codePoints: [UInt32], matching pattern: String) -> Int? {
        guard let code = compile("^(?:" + pattern + ")$", options: UInt32(PCRE2_UTF | PCRE2_UCP)) else { return nil }
        defer { pcre2_code_free_8(code) }
        guard let match = pcre2_match_data_create_from_pattern_8(code, nil) else { return nil }
        defer { pcre2_match_data_free_8(match) }
        return codePoints.count { value in
            let subject = Array(String(Character(Unicode.Scalar(value)!)).utf8)
            return pcre2_match_8(code, subject, subject.count, 0, 0, match, nil) >= 0
        }
    }

    /// `pattern` compiled (the caller frees it), or nil when PCRE2 rejects it.
    static func compile(_ pattern: String, options: UInt32) -> OpaquePointer? {
        let bytes = Array(pattern.utf8)
        var errorCode: Int32 = 0
        var errorOffset = 0
        return pcre2_compile_8(bytes, bytes.count, options, &errorCode, &errorOffset, nil)
    }
}
