import PathConfiguration
@testable import PathConfigCore
import Testing

/// A pattern that starts with `.` repeated without bound tries its first
/// alternative only where no `.` precedes (`PatternTranslator.leadingDotGuard`):
/// the same matches, against the dialects' own engines and against the
/// same pattern in a group, which the guard leaves alone.
@Suite("Dialect: a pattern that starts with .*")
struct LeadingDotTests {
    /// Whether a translation starts with the guard.
    static func isGuarded(_ translation: PatternTranslation) -> Bool {
        translation.pattern.hasPrefix("(?<!") || translation.pattern.hasPrefix("(*ANY)(?<!")
    }

    @Test("the guard is written for a leading unbounded ., and only there", arguments: [
        (".*x", true), (".+x", true), (".*?x", true), (".+?x", true), (".*+x", true), (".{2,}x", true), (".{0,}", true),
        (".*", true), (".*\\?.*articles_filter=[a-z]+.*", true), ("(?d).*x", true), (".*(?:a|b)", true), (".*a|b", true),
        ("x|.*", false), ("(?s).*x", false), (".{2}x", false), (".{1,3}x", false), ("x.*", false), ("(.*)x", false),
        ("(?:.*x)", false), (".", false), ("..*", false), ("\\.*x", false), ("(?m).*^x", false),
    ] as [(String, Bool)])
    func written(_ pattern: String, _ expected: Bool) throws {
        for dialect in RegexDialect.allCases where !(dialect == .java && pattern == "(?m).*^x") {
            let translation = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: dialect == .java)
            #expect(Self.isGuarded(translation) == expected, "\(dialect) \(pattern.debugDescription): \(translation.pattern)")
        }
    }

    static let leads = [".*", ".+", ".*?", ".+?", ".*+", ".{2,}", ".{0,}", "(?d).*", "(?i).*", "(?s).*", ".{2}"]
    static let tails = [
        "a", "b", "x", "\\?", "[a-z]+", "\\d", ".", ".*", "$", "^", "(?m)^", "(?m)$", "\\b", "\\B", "\\G", "\\A", "\\z", "\\Z",
        "(?<=a)", "(?<!a)", "(?=b)", "(?!b)", "(a)", "\\1", "(?:a|b)", "|", "|b", "|\\d", "\\n", "\\r", "\\R", "(?s).", "\\x{1D400}", "a*",
    ]
    static let subjects = [
        "", "a", "x", "ax", "xa", "ba", "ab?x", "a\nx", "a\r\nx", "\r\n", "\n", "\rx", "a\u{2028}x", "a\u{85}x", "a\u{B}x", "a\u{C}b",
        "\u{1D400}x", "a\u{1D400}", "?a=b", "1a", "a1", "aab", "\nab", "ab\n", "x\r", "a b",
    ]

    /// Patterns of a leading `.` repeat and one to four tail items.
    static let random: [String] = {
        var generator = SplitMix(state: 31)
        return (0..<1_500).map { _ in
            leads.randomElement(using: &generator)!
                + (0..<Int.random(in: 1...4, using: &generator)).map { _ in tails.randomElement(using: &generator)! }.joined()
        }
    }()

    /// Whether the pcre2 backend finds in each subject what it finds with
    /// the pattern in a group (unguarded); how many patterns were guarded.
    static func expectSameAsUnguarded(_ options: RegexOptions) -> Int {
        var guardedCount = 0
        for pattern in random {
            guard let translation = try? PatternTranslator.translate(pattern, dialect: options.dialect, caseInsensitive: options.caseInsensitive),
                  let bare = try? PCRE2Engine().compile(pattern, options: options, limits: Limits()),
                  let grouped = try? PCRE2Engine().compile("(?:" + pattern + ")", options: options, limits: Limits()) else { continue }
            if isGuarded(translation) { guardedCount += 1 }
            for subject in subjects {
                let (a, b) = (bare.search(MatchSubject(subject)), grouped.search(MatchSubject(subject)))
                #expect(a == b, "\(options.dialect) \(pattern.debugDescription) on \(subject.debugDescription): \(a), in a group \(b)")
            }
        }
        return guardedCount
    }

    @Test("ICU: 1,500 random patterns find what ICU finds, and what they find in a group")
    func againstICU() {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        var compiled = 0
        for pattern in Self.random where DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: Self.subjects) {
            compiled += 1
        }
        #expect(compiled > 500)
        #expect(Self.expectSameAsUnguarded(options) > 300)
    }

    @Test("Java: 1,500 random patterns find what the JDK finds, and what they find in a group")
    func againstTheJDK() throws {
        let (wrong, compared) = try JavaSyntaxDifferentialTests.compareWithTheJDK(Self.random, on: Self.subjects, refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 500 * Self.subjects.count)
        #expect(Self.expectSameAsUnguarded(RegexOptions(caseInsensitive: true, unicodeClasses: false, dialect: .java)) > 300)
    }
}
