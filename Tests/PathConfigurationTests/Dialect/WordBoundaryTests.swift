import CPCRE2
import Foundation
import Testing
import PathConfigurationFoundation
import PathConfiguration
@testable import PathConfigCore

/// `\b` and `\B` on the pcre2 backend (`WordBoundaries`), against the real
/// engines: ICU as Foundation links it, and the JDK's `java.util.regex` run
/// by `java` (`JavaOracle`).
@Suite("Dialect: word boundaries, PCRE2 against ICU and the JDK")
struct WordBoundaryTests {
    // MARK: - Every code point

    /// Where each match of `pattern` starts in `subject`, in code points, on
    /// the pcre2 backend's translation with the boundary callout.
    static func pcre2Starts(_ pattern: String, dialect: RegexDialect, in subject: String) throws -> [Int] {
        let translation = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false)
        var errorCode: Int32 = 0
        var errorOffset = 0
        let code = try #require(pcre2_compile_8(translation.bytes, translation.bytes.count, UInt32(PCRE2_UTF) | WordBoundaries.compileOptions, &errorCode, &errorOffset, nil))
        defer { pcre2_code_free_8(code) }
        let context = pcre2_match_context_create_8(nil)!
        defer { pcre2_match_context_free_8(context) }
        pcre2_set_callout_8(context, WordBoundaries.callout, nil)
        let data = pcre2_match_data_create_8(1, nil)!
        defer { pcre2_match_data_free_8(data) }
        let bytes = Array(subject.utf8)
        var scalarIndex = [Int](repeating: -1, count: bytes.count + 1)
        var n = 0
        for (i, b) in bytes.enumerated() where b & 0xC0 != 0x80 {
            scalarIndex[i] = n
            n += 1
        }
        scalarIndex[bytes.count] = n
        let boundaries = BoundaryTable.current
        boundaries.reset()
        defer { boundaries.reset() }
        var starts: [Int] = []
        var offset = 0
        while offset <= bytes.count {
            let rc = pcre2_match_8(code, bytes, bytes.count, offset, UInt32(PCRE2_NO_UTF_CHECK), data, context)
            guard rc >= 0 else { break }
            let ovector = pcre2_get_ovector_pointer_8(data)!
            let (start, end) = (ovector[0], ovector[1])
            starts.append(scalarIndex[start])
            offset = end > start ? end : start + 1
            while offset < bytes.count && bytes[offset] & 0xC0 == 0x80 { offset += 1 }
        }
        return starts
    }

    /// The same through ICU.
    static func icuStarts(_ pattern: String, in subject: String) throws -> [Int] {
        let regex = try NSRegularExpression(pattern: pattern)
        let utf16 = Array(subject.utf16)
        var scalarAt = [Int](repeating: -1, count: utf16.count + 1)
        var n = 0
        for (i, u) in utf16.enumerated() where !UTF16.isTrailSurrogate(u) {
            scalarAt[i] = n
            n += 1
        }
        scalarAt[utf16.count] = n
        return regex.matches(in: subject, range: NSRange(location: 0, length: utf16.count)).map { scalarAt[$0.range.location] }
    }

    /// `before` and `after` around each code point, joined: the boundaries
    /// around each one say how the engine classes it.
    static func interleaved(_ values: [UInt32], with separator: Character) -> String {
        var s = ""
        s.unicodeScalars.reserveCapacity(values.count * 2 + 1)
        for v in values {
            s.append(separator)
            s.unicodeScalars.append(Unicode.Scalar(v)!)
        }
        s.append(separator)
        return s
    }

    /// The code points where two lists of match starts differ, around
    /// `values` interleaved (two code points each), for a message.
    static func differences(_ a: [Int], _ b: [Int], _ values: [UInt32]) -> [String] {
        Array(Set(a).symmetricDifference(b).sorted().prefix(8)).map { i in
            let k = (i - 1) / 2
            return k >= 0 && k < values.count ? "U+" + String(values[k], radix: 16, uppercase: true) + " (position \(i))" : "position \(i)"
        }
    }

    @Test("ICU: \\b and \\B at every position around every code point of Unicode 14 that ICU and PCRE2 class alike",
          arguments: ["\\b", "\\B"], ["a", " "] as [Character])
    func icuEveryCodePoint(_ pattern: String, _ separator: Character) throws {
        let values = DialectHarness.universe
        let subject = Self.interleaved(values, with: separator)
        let icu = try Self.icuStarts(pattern, in: subject)
        let pcre2 = try Self.pcre2Starts(pattern, dialect: .icu, in: subject)
        #expect(icu.count > 1000)
        let same = icu == pcre2  // (not in #expect, which would diff 300,000 numbers)
        #expect(same, "\(pattern) around \(separator.debugDescription): \(Self.differences(icu, pcre2, values))")
    }

    /// The code points whose classes for the JDK's boundary (Mn; letter or
    /// digit) are the same in JDK 17 (Unicode 13) as in PCRE2's tables
    /// (Unicode 14): what Unicode changed between the two is left out, as
    /// `DialectHarness.universe` leaves out what changed after 14.
    static func javaUniverse() throws -> [UInt32] {
        let values = DialectHarness.universe
        let types = try JavaOracle.ask([.types(String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! })))])[0]
            .split(separator: " ").map { Int($0)! }
        let bytes = Array(String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! })).utf8)
        let data = pcre2_match_data_create_8(3, nil)!
        defer { pcre2_match_data_free_8(data) }
        var kept: [UInt32] = []
        var offset = 0
        bytes.withUnsafeBufferPointer { buf in
            for (k, v) in values.enumerated() {
                let pcre2 = WordBoundaries.classes(of: v, at: offset, in: buf, dialect: .java, matchData: data)
                let (mn, letterOrDigit) = (types[k] == 6, [1, 2, 3, 4, 5, 9].contains(types[k]))
                if pcre2.a == mn && pcre2.b == letterOrDigit { kept.append(v) }
                offset += WordBoundaries.decode(buf, at: offset)?.length ?? 1
            }
        }
        return kept
    }

    @Test("the JDK: \\b at every position around every code point that JDK 17 and PCRE2 class alike, supplementary marks included")
    func javaEveryCodePoint() throws {
        let values = try Self.javaUniverse()
        #expect(values.count > 100_000)
        let subjects = [Self.interleaved(values, with: "a"), Self.interleaved(values, with: " ")]
        let answers = try JavaOracle.ask(subjects.map { .matchStarts(pattern: "\\b", subject: $0) })
        for (subject, answer) in zip(subjects, answers) {
            let java = answer.split(separator: " ").map { Int($0)! }
            let pcre2 = try Self.pcre2Starts("\\b", dialect: .java, in: subject)
            #expect(java.count > 1000)
            let same = java == pcre2
            #expect(same, "\\b around \(subject.first!.debugDescription): \(Self.differences(java, pcre2, values))")
        }
    }

    // MARK: - Patterns and subjects

    /// Characters of every class that matters: word characters of both
    /// dialects or one (`_`, Nl, Mc), marks (BMP and supplementary, Mn and
    /// Me), format characters (ZWJ and ZWNJ are word characters in ICU),
    /// supplementary letters, and neither.
    static let pool: [String] = [
        "a", "Z", "1", "_", " ", "-", "/", "é", "e", "\u{301}", "\u{903}", "\u{488}", "\u{200D}", "\u{200C}", "\u{AD}", "\u{200B}",
        "\u{FEFF}", "\u{10400}", "\u{1D167}", "\u{E0100}", "\u{E0001}", "\u{661}", "\u{203F}", "\u{3B1}", "😀", "\u{2160}", "ª",
        "\u{16EE}", "\u{1D7CE}", "\u{1F3FB}", "\u{FE0F}",
    ]

    static let subjects: [String] = {
        var generator = SplitMix(state: 27)
        var out = ["", "a", "\u{301}", "a\u{301}", "\u{301}a", "a\u{301}\u{301}b", "\u{10400}\u{301}", "\u{10400}\u{1D167}",
                   "a\u{1D167}", "a\u{1D167}b", " \u{301}a", "_\u{301}", "1\u{AD}2", "a\u{200D}b", "\u{1D167}\u{301}"]
        for _ in 0..<1_500 {
            out.append((0..<Int.random(in: 1...6, using: &generator)).map { _ in pool.randomElement(using: &generator)! }.joined())
        }
        return out
    }()

    static let patterns: [String] = [
        "\\b", "\\B", "a\\b", "\\ba", "\\b\\u00e9", "\\u00e9\\b", "\\b\\w+\\b", "\\B\\w", "\\w\\B", "(?<=\\b)\\W", "\\W(?=\\B)", "^\\b",
        "\\b$", "^\\B$", "^\\B", "\\B$", "(?:\\b|-)1", "\\b\\u0301", "\\u0301\\b", "\\u0301\\B", "\\b_", "_\\b", "\\B\\u200d",
        "\\u200d\\b", "\\b\\x{10400}", "\\x{1D167}\\b", "\\x{1D167}\\B", "\\b.\\b", "\\B.\\B", "\\b..\\b", "(?i)\\bA", "a\\b|\\bz",
        "(?:\\ba|\\Bb)", "\\s\\b", "\\b\\s", "\\d\\b", "(?<!\\b)a", "(?=\\b\\p{L})", "\\b(?!\\p{Mn})", "\\b\\b", "\\B\\b",
        "(?s).\\B.", "\\b[^a]", "[ \\-]\\B", "\\B\\x{AD}", "\\x{200B}\\b",
    ]

    /// Quantified boundaries, which Java allows (ICU rejects a quantifier
    /// on an assertion) and `\b{n}` read as a count.
    static let javaOnlyPatterns = ["\\b*a", "\\b+a", "(?:\\b)?x", "\\b{2}a", "a\\b{1,2}", "\\b+$", "\\b?-"]

    /// The patterns the JDK dialect takes: `\B`, and `\b` in a lookbehind,
    /// are refused (`javaRefusals`).
    static var javaPatterns: [String] {
        patterns.filter { !$0.contains("\\B") && !$0.contains("(?<") } + javaOnlyPatterns
    }

    @Test("ICU: each pattern on 1,500 random subjects and some chosen ones, through the whole engine")
    func icuPatterns() throws {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        for pattern in Self.patterns {
            let outcome = DialectHarness.compileBoth(pattern, options: options)
            guard let (icu, pcre2) = outcome.patterns else {
                Issue.record("\(pattern): ICU \(outcome.icu), PCRE2 \(outcome.pcre2)")
                continue
            }
            for subject in Self.subjects {
                DialectHarness.expectAgreement(pattern, options: options, icu: icu, pcre2: pcre2, subject: subject)
            }
        }
        for pattern in Self.javaOnlyPatterns.prefix(2) {
            #expect(throws: RegexCompileError.self) { try PCRE2Engine().compile(pattern, options: options, limits: Limits()) }
            #expect(throws: RegexCompileError.self) { try FoundationEngine().compile(pattern, options: options, limits: Limits()) }
        }
    }

    @Test("the JDK: patterns on the same subjects under an Android profile's options (CASE_INSENSITIVE | UNICODE_CASE)")
    func javaPatterns() throws {
        let options = Profile.hotwireAndroid.regexOptions
        let patterns = Self.javaPatterns
        #expect(patterns.count > 30)
        var questions: [JavaOracle.Question] = []
        for pattern in patterns {
            for subject in Self.subjects { questions.append(.finds(pattern: pattern, subject: subject, caseInsensitive: true)) }
        }
        let answers = try JavaOracle.ask(questions)
        var k = 0
        for pattern in patterns {
            let compiled = try PCRE2Engine().compile(pattern, options: options, limits: Limits())
            for subject in Self.subjects {
                let java = answers[k] == "1"
                k += 1
                let pcre2 = compiled.search(MatchSubject(subject)) == .match
                #expect(pcre2 == java, "\(pattern.debugDescription) on \(subject.unicodeScalars.map { String($0.value, radix: 16) }): PCRE2 \(pcre2), JDK \(java)")
            }
        }
    }

    /// A boundary right after a greedy repeat: PCRE2's auto-possessification
    /// would make the repeat possessive (nothing after it but the callout,
    /// which it steps over), so the repeat never gave back the characters
    /// that put the boundary in place.
    static let afterRepeat = ["/users/.+\\b", ".*\\b", "[a-z/]+\\b", "(.+)\\b", ".{1,5}\\b", "a|.+\\b", "\\w+\\b", "\\p{L}+\\b",
                              ".+?\\b", ".+(?=\\b)", "^.+\\b$", "x.*\\b"]
    static let afterRepeatICU = ["[a-z]+\\B", "\\p{L}+\\B", "\\w+\\B", "\\W?\\B", ".+\\B", "(.+)\\B"]
    static let afterRepeatSubjects = ["/users/abc/", "/a/", "aa", "a", "/", "", "ab cd", "a/", "/users/abc", "é\u{301}/", "xy-", "--"]

    @Test("a boundary after a greedy repeat backtracks into the repeat, as in ICU and the JDK")
    func boundaryAfterGreedyRepeat() throws {
        let icuOptions = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        for pattern in Self.afterRepeat + Self.afterRepeatICU {
            let outcome = DialectHarness.compileBoth(pattern, options: icuOptions)
            guard let (icu, pcre2) = outcome.patterns else {
                Issue.record("\(pattern): ICU \(outcome.icu), PCRE2 \(outcome.pcre2)")
                continue
            }
            for subject in Self.afterRepeatSubjects {
                DialectHarness.expectAgreement(pattern, options: icuOptions, icu: icu, pcre2: pcre2, subject: subject)
            }
        }
        let javaOptions = Profile.hotwireAndroid.regexOptions
        var questions: [JavaOracle.Question] = []
        for pattern in Self.afterRepeat {
            for subject in Self.afterRepeatSubjects { questions.append(.finds(pattern: pattern, subject: subject, caseInsensitive: true)) }
        }
        let answers = try JavaOracle.ask(questions)
        var k = 0
        for pattern in Self.afterRepeat {
            let compiled = try PCRE2Engine().compile(pattern, options: javaOptions, limits: Limits())
            for subject in Self.afterRepeatSubjects {
                let java = answers[k] == "1"
                k += 1
                let pcre2 = compiled.search(MatchSubject(subject)) == .match
                #expect(pcre2 == java, "\(pattern.debugDescription) on \(subject.debugDescription): PCRE2 \(pcre2), JDK \(java)")
            }
        }
        // The reported case itself.
        let users = try PCRE2Engine().compile("/users/.+\\b", options: icuOptions, limits: Limits())
        #expect(users.search(MatchSubject("/users/abc/")) == .match)
    }

    // MARK: - What stays refused, and what it costs

    @Test("the JDK's search and lookbehinds step by UTF-16 unit: \\B holds inside a surrogate pair, \\b is tested there; both refused")
    func javaRefusals() throws {
        let answers = try JavaOracle.ask([
            .utf16MatchStarts(pattern: "\\B", subject: "\u{10400}"),
            .finds(pattern: "(?<=\\b.)x", subject: " ax", caseInsensitive: false),
            .finds(pattern: "(?<=\\b.)x", subject: " \u{10400}x", caseInsensitive: false),
        ])
        // The only \B of "𐐀" is between its surrogates: UTF-8 has no such place.
        #expect(answers[0] == "1")
        // Before x, a letter after a space: but the JDK's lookbehind tests \b
        // between the surrogates of 𐐀, where it is false.
        #expect(answers[1] == "1" && answers[2] == "0")
        for (pattern, construct) in [("a\\B", "\\B"), ("(?<=\\b.)x", "\\b in a lookbehind"), ("(?<!x(?=\\b))y", "\\b in a lookbehind")] {
            do {
                _ = try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: true)
                Issue.record("\(pattern) translated")
            } catch {
                #expect(error.isRefusal && error.message.hasPrefix("the Java construct " + construct), "\(error.message)")
            }
        }
    }

    @Test("boundaries of other kinds stay refused: ICU's under (?w), the JDK's \\b{g}")
    func otherBoundaries() throws {
        for (pattern, dialect, construct) in [("(?w)\\b", RegexDialect.icu, "\\b under (?w)"), ("a(?w:\\B)", .icu, "\\B under (?w)"),
                                              ("\\b{g}", .java, "\\b{g}")] {
            #expect(throws: TranslationError.self) { try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false) }
            do {
                _ = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false)
            } catch {
                #expect(error.isRefusal && error.message.contains(construct), "\(error.message)")
            }
        }
        // `\b{g` without its `}` is the JDK's syntax error; `\b{2}` a repeat count.
        #expect(throws: TranslationError.self) { try PatternTranslator.translate("\\b{g", dialect: .java, caseInsensitive: false) }
        #expect(try PatternTranslator.translate("\\b{2}a", dialect: .java, caseInsensitive: false).pattern == "(?:(?C3)){2}a")
        #expect(try PatternTranslator.translate("(?=\\b)a", dialect: .java, caseInsensitive: false).pattern == "(?=(?C3))a")
        #expect(try PatternTranslator.translate("\\b\\B", dialect: .icu, caseInsensitive: false).pattern == "(?C1)(?C2)")
    }

    @Test("a search builds the boundaries once: 60 KB of marks after a letter, a boundary tested at every position, in linear time")
    func longRunsOfMarks() throws {
        let marks = "a" + String(repeating: "\u{301}", count: 30_000) + "!"
        for dialect in RegexDialect.allCases {
            // Each start position tests one boundary and fails; the JDK
            // looks back over the whole run for each of them.
            let everywhere = try PCRE2Engine().compile("\\b(?!)|x\\b", options: RegexOptions(dialect: dialect), limits: Limits())
            let clock = ContinuousClock()
            let elapsed = clock.measure { #expect(everywhere.search(MatchSubject(marks)) == .noMatch) }
            #expect(elapsed < .seconds(1), "\(dialect): \(elapsed)")
            // Both find the letter before the run: a boundary before the `!`.
            let end = try PCRE2Engine().compile("\\b!", options: RegexOptions(dialect: dialect), limits: Limits())
            #expect(end.search(MatchSubject(marks)) == .match)
            #expect(end.search(MatchSubject(" " + marks.dropFirst())) == .noMatch)
        }
    }

    @Test("threads searching at once each get their own boundaries")
    func threads() async throws {
        let compiled = try PCRE2Engine().compile("\\bab\\b", options: RegexOptions(dialect: .icu), limits: Limits())
        let subjects = ["ab", "xab", "ab\u{301}", "é ab", "\u{10400}ab", "ab_", "a b", " ab "]
        let expected = subjects.map { compiled.search(MatchSubject($0)) }
        #expect(expected == [.match, .noMatch, .noMatch, .match, .noMatch, .noMatch, .noMatch, .match])
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for i in 0..<2_000 {
                        let k = (i + t) % subjects.count
                        if compiled.search(MatchSubject(subjects[k])) != expected[k] { return false }
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}
