import PrefilterFuzzing

/// One input of `pathconfig-fuzz-dialect`: a pattern and the subjects to
/// search it in, decoded from the fuzzer's bytes.
///
/// The first byte picks the form. Even: the rest drives `DialectGrammar`
/// (0x3E, one even byte in 128: a long shape up to the 16 KB limit instead,
/// rare because a long pattern takes a hundred times a short one's time in
/// the instrumented build), wide where the byte has 0x04 set and cased where
/// it has 0x20 (`DialectGrammar.init(wide:cased:)`). Odd: raw
/// text, the pattern up to the first NUL byte (at most 16 KB) and up to six
/// subjects after it, NUL-separated, so that the fuzzer reaches syntax the
/// grammar does not know and seeds can name exact cases (`encode`).
public struct DialectInput: Sendable {
    /// The pattern.
    public let pattern: String
    /// The strings it is searched in (never more than `DialectInput.maxSubjects`).
    public let subjects: [String]
    /// Whether ICU and the JDK, which have no match budget, may search the
    /// subjects: a grammar pattern always; raw text without quantifiers, or
    /// with at most two and two `|`, on subjects of at most 16 bytes.
    /// Otherwise only whether the pattern compiles is compared.
    public let isTame: Bool
    /// A long shape that must compile in both dialects (PatternSizeTests:
    /// runs of `.`, `k`, `[a-z]` and an alternation of words, up to the
    /// limit): a refusal as "too large" is then a violation.
    public let mustCompile: Bool

    /// The pattern size limit (`Limits.maxPatternBytes`).
    public static let limit = 16_384
    /// The most subjects an input has.
    public static let maxSubjects = 8

    /// Decodes `bytes`; nil when empty.
    public init?(_ bytes: [UInt8]) {
        guard let form = bytes.first else { return nil }
        if form & 1 == 0 {
            var c = ByteChoices(Array(bytes.dropFirst()))
            if form == 0x3E {
                let long = DialectGrammar.long(&c, limit: Self.limit)
                pattern = long.pattern
                subjects = long.subjects
                mustCompile = long.mustCompile
            } else {
                var grammar = DialectGrammar(wide: form & 0x04 != 0, cased: form & 0x20 != 0)
                let node = grammar.pattern(&c)
                pattern = node.text
                subjects = Self.subjects(for: node, grammar, &c)
                mustCompile = false
            }
            isTame = true
        } else {
            let parts = bytes.dropFirst().split(separator: 0, maxSplits: Self.maxSubjects, omittingEmptySubsequences: false)
            var text = String(decoding: parts[0], as: UTF8.self)
            while text.utf8.count > Self.limit { text.removeLast() }
            pattern = text
            let given = parts.dropFirst().prefix(Self.maxSubjects).map { String(decoding: $0, as: UTF8.self) }
            // Characters Unicode assigned after 13.0 have properties and case
            // mappings in ICU 76 (Unicode 16) that PCRE2 10.42 (14) and JDK 17
            // (13) lack: a difference of version, not of dialect (docs/format-
            // and-profiles.md, "Dialects"), so such subjects are left out, and
            // such a pattern is only compiled.
            subjects = (given.isEmpty ? [text, "/users/abc/", "/a/", ""] : given).filter(Self.isStable)
            let quantifiers = text.utf8.count(where: { "*+?{".utf8.contains($0) })
            let bars = text.utf8.count(where: { $0 == UInt8(ascii: "|") })
            isTame = Self.isStable(text) && (quantifiers == 0 || (quantifiers <= 2 && bars <= 2 && subjects.allSatisfy { $0.utf8.count <= 16 }))
            mustCompile = false
        }
    }

    /// Whether every character of `s` was assigned by Unicode 13.0 or is
    /// still unassigned.
    static func isStable(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { scalar in
            guard let age = scalar.properties.age else { return true }
            return age.major < 13 || (age.major == 13 && age.minor == 0)
        }
    }

    /// The raw-text form of a pattern and its subjects (a seed).
    public static func encode(pattern: String, subjects: [String]) -> [UInt8] {
        [1] + Array(pattern.utf8) + subjects.flatMap { [0] + Array($0.utf8) }
    }

    /// Subjects for a grammar pattern: samples of it (alone, inside URL
    /// text, with case variants swapped in), and URL paths and queries.
    static func subjects(for node: PatternNode, _ grammar: DialectGrammar, _ c: inout some Choices) -> [String] {
        let mutator = PatternGrammar()
        let first = node.sample(&c)
        var out = [first]
        out.append(c.pick(grammar.fillers) + node.sample(&c) + c.pick(grammar.fillers))
        out.append(mutator.mutate(first, &c))
        out.append(mutator.mutate(mutator.mutate(c.pick(grammar.fillers) + node.sample(&c), &c), &c))
        out.append(c.pick(grammar.urls))
        out.append(first + c.pick(grammar.fillers) + node.sample(&c))
        // Short, so that ICU's and the JDK's backtracking stays small.
        return out.map { s in s.unicodeScalars.count <= 40 ? s : String(String.UnicodeScalarView(s.unicodeScalars.prefix(40))) }
    }
}
