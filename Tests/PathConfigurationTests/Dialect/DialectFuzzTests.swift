import PathConfiguration
@testable import PathConfigCore
import Testing

/// Random ICU patterns from a fixed seed, run through both backends: any
/// silent difference, or a pattern one side rejects and the other accepts
/// without a refusal, fails. (The corpus test pins what this found.)
@Suite("Dialect: random ICU patterns, PCRE2 against ICU")
struct DialectFuzzTests {
    static let atoms = [
        "a", "b", "é", "ß", "K", "k", "1", "/", "-", "&", "&&", "--", "[", "]", "[^", "(", ")", "(?:", "(?i)", "(?-i)", "(?m)",
        "(?s)", "(?x)", "(?d)", "(?=", "(?!", "(?<=", "(?>", "(?<n>", "(?i:", "(?#x)", "|", "*", "+", "?", "{2}", "{1,3}", "{2,}",
        "*?", "++", "?+", "+?", "{0,2}+", ".", "^", "$", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\h", "\\v", "\\R", "\\A",
        "\\z", "\\Z", "\\G", "\\u00e9", "\\u0301", "\\x41", "\\x{1F600}", "\\0101", "\\cA", "\\N{LATIN SMALL LETTER A}", "\\p{L}",
        "\\P{Lu}", "\\p{Greek}", "\\p{Alphabetic}", "\\p{javaLowerCase}", "[:alpha:]", "[:^digit:]", "\\Q", "\\E", "\\Q.\\E",
        "\\1", "\\k<n>", " ", "#", "\n", "\r", "\\y", "\\-", "\\.", "{", "}", "\u{2028}", "\u{301}", "[a-z]", "[^a]",
        "[\\w&&[^\\d]]", "[a--b]", "[a-c[x]]", "[\\p{L}--[a-z]]", "[&&]", "[]a]", "[-]", "ss", "SS", "(a)", "(?:a|)", "(?:|b)",
        "a?", "b?", "\\b", "\\B", "\u{301}\\b",
    ]

    static let subjects = [
        "", "a", "b", "ab", "ba", "aa", "abab", "x", "1", "ab1", "a1b", "Ab", "A", "B", "é", "e\u{301}", "é\u{301}", "ß", "ss",
        "SS", "k", "K", "\u{212A}", "a\nb", "a\r\nb", "\r\n", "a\r\n", "a\u{2028}", "/a-b&c", "-", "[", "]", ":", "a b", "a.b",
        "😀", "z",
    ]

    @Test("10,000 random patterns: agree, both reject, or a dialect refusal")
    func random() {
        var generator = SplitMix(state: 9)
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        var compiled = 0
        for _ in 0..<10_000 {
            let count = Int.random(in: 1...7, using: &generator)
            let pattern = (0..<count).map { _ in Self.atoms.randomElement(using: &generator)! }.joined()
            _ = try? PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: true) // never traps
            if DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: Self.subjects) { compiled += 1 }
        }
        #expect(compiled > 3_000)
    }

    /// The JDK's differential refuses back references to groups the JDK
    /// does not restore (`JavaSyntaxDifferentialTests.randomBackReferences`);
    /// ICU restores every group when it backtracks, as PCRE2 does, so the
    /// same patterns agree here with no such refusal.
    @Test("the 2,000 random back-reference patterns of the JDK's differential: ICU restores groups as PCRE2 does")
    func backReferences() {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        let subjects = ["a", "b", "x", "ab", "aab", "abx", "ba", "aba", "abab", "xab", "aaxb", "abba", "axa", "bab", ""]
        var compiled = 0
        for pattern in JavaSyntaxDifferentialTests.randomBackReferences
        where DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: subjects) {
            compiled += 1
        }
        // ICU rejects the many with an unbounded repeat in a lookbehind.
        #expect(compiled > 300)
    }

    /// The JDK's `GroupCurly` forgets what an empty iteration past the
    /// minimum captured (`JavaSyntaxDifferentialTests.emptyIterationPatterns`);
    /// ICU keeps it, as PCRE2 does, so the same patterns agree here.
    @Test("the JDK differential's 1,524 nullable capture groups under every count: ICU keeps an empty iteration's capture as PCRE2 does")
    func emptyIterations() {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        let subjects = ["", "a", "b", "aa", "ab", "ba", "aab", "x", "xa", "a b"]
        var compared: Set<String> = []
        for pattern in JavaSyntaxDifferentialTests.emptyIterationPatterns + JavaSyntaxDifferentialTests.randomEmptyIterations
        where DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: subjects) {
            compared.insert(pattern)
        }
        #expect(compared.count > 900)
        // The shapes the JDK forgets in are compared here, not refused.
        for pattern in ["(^){0,2}\\1", "(^)*\\1", "((^)){0,2}\\1", "a((?=a)){0,2}\\1"] {
            #expect(compared.contains(pattern), "\(pattern) is refused")
        }
    }

    /// Anchors with every kind of quantifier, among a few items, on subjects
    /// with line terminators: ICU's greedy and bounded loops on `^` and `$`
    /// agree with PCRE2's; its lazy and possessive unbounded ones are refused.
    static let anchorAtoms = [
        "^", "$", "^", "$", "a", "b", "\\n", "\\r", ".", "(?m)", "(?d)", "(?:", ")", "|", "\\Z", "\\z", "x?", "(?:a|)",
    ]
    static let anchorQuantifiers = ["", "", "*", "+", "?", "{2}", "{0,2}", "{1,3}", "{0}", "??", "*?", "+?", "?+", "*+", "++", "{0,2}?", "{2,}"]
    static let anchorSubjects = ["", "a", "b", "ab", "ba", "a\n", "\na", "a\nb", "a\r\nb", "\r\n", "\n", "aa", "x", "a\u{2028}", "b\n\n"]

    @Test("5,000 random patterns of quantified anchors: agree, both reject, or a refusal of a lazy or possessive loop")
    func quantifiedAnchors() {
        var generator = SplitMix(state: 27)
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        var compiled = 0
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...5, using: &generator)
            let pattern = (0..<count).map { _ in
                Self.anchorAtoms.randomElement(using: &generator)! + Self.anchorQuantifiers.randomElement(using: &generator)!
            }.joined()
            let refusal = { (message: String) in message.contains("lazy") || message.contains("possessive") || message.contains("under (?m)") }
            if DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: Self.anchorSubjects, refusal: refusal) {
                compiled += 1
            }
        }
        #expect(compiled > 1_000)
    }
}
