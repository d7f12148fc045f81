import Foundation
import PathConfiguration
import PathConfigurationFoundation
import Testing
@testable import PathConfigCore

/// Long patterns on the pcre2 backend: PCRE2 10.42 as Debian builds it
/// (LINK_SIZE 2) holds at most 64 KB of compiled code, and a pattern may be
/// `Limits.maxPatternBytes` (16 KB) long. The shapes that hit the ceiling
/// (a run of `.`, of a case-insensitive `k`, of `[a-z]`, a long alternation
/// of case-insensitive words) compile and match as ICU and the JDK do; what
/// still cannot compile is refused as unsupported, never rejected as invalid.
@Suite("Dialect: patterns up to the 16 KB limit")
struct PatternSizeTests {
    static let limit = Limits().maxPatternBytes

    /// `unit` repeated as often as fits in the limit.
    static func filled(_ unit: String) -> String {
        String(repeating: unit, count: limit / unit.utf8.count)
    }

    /// Three-letter words, `aaa|bbb|...|zzz` over and over, up to the limit.
    static var alternation: String {
        var words: [String] = []
        var length = -1
        var k = 0
        while true {
            let letter = Character(Unicode.Scalar(UInt8(0x61 + k % 26)))
            let word = String(repeating: letter, count: 3)
            if length + 1 + word.utf8.count > limit { break }
            words.append(word)
            length += 1 + word.utf8.count
            k += 1
        }
        return words.joined(separator: "|")
    }

    static var shapes: [String] { [filled("."), filled("k"), filled("[a-z]"), alternation] }

    /// Subjects for each shape: matching, one character short, broken by
    /// a line terminator, and the case variants the dialects take or not.
    static func subjects(_ n: Int) -> [String] {
        [String(repeating: "k", count: n), String(repeating: "k", count: n - 1), String(repeating: "K", count: n),
         String(repeating: "k\u{212A}", count: n / 2 + 1), String(repeating: "\u{B}", count: n),
         String(repeating: "a", count: n / 2) + "\n" + String(repeating: "a", count: n / 2),
         String(repeating: "s\u{17F}\u{131}\u{130}", count: n / 4 + 1), String(repeating: "z", count: n), "/x/sss/", "/ſſſ/", "IIİ", "\u{131}\u{131}\u{131}",
         "/abc", "QQQ", "xyz", ""]
    }

    @Test("every shape at the limit compiles under the Java dialect and matches as the JDK does")
    func javaShapes() throws {
        let options = Profile.hotwireAndroid.regexOptions
        #expect(options.dialect == .java && options.caseInsensitive)
        var questions: [JavaOracle.Question] = []
        let cases = Self.shapes.map { ($0, Self.subjects(Self.limit)) }
        for (pattern, subjects) in cases {
            #expect(pattern.utf8.count <= Self.limit && pattern.utf8.count > Self.limit - 6)
            for subject in subjects { questions.append(.finds(pattern: pattern, subject: subject, caseInsensitive: true)) }
        }
        let answers = try JavaOracle.ask(questions)
        var k = 0
        for (pattern, subjects) in cases {
            let compiled: any CompiledPattern
            do {
                compiled = try PCRE2Engine().compile(pattern, options: options, limits: Limits())
            } catch {
                Issue.record("\(pattern.prefix(12))… (\(pattern.utf8.count) bytes): \(error.message)")
                k += subjects.count
                continue
            }
            for subject in subjects {
                let java = answers[k] == "1"
                k += 1
                let pcre2 = compiled.search(MatchSubject(subject)) == .match
                #expect(pcre2 == java, "\(pattern.prefix(12))… on \(subject.prefix(12).debugDescription)…: PCRE2 \(pcre2), JDK \(java)")
            }
        }
    }

    @Test("every shape at the limit compiles under the ICU dialect and matches as ICU does")
    func icuShapes() throws {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        for pattern in Self.shapes {
            let outcome = DialectHarness.compileBoth(pattern, options: options)
            guard let (icu, pcre2) = outcome.patterns else {
                Issue.record("\(pattern.prefix(12))…: ICU \(outcome.icu), PCRE2 \(outcome.pcre2)")
                continue
            }
            for subject in Self.subjects(Self.limit) {
                DialectHarness.expectAgreement(String(pattern.prefix(12)) + "…", options: options, icu: icu, pcre2: pcre2, subject: subject)
            }
        }
    }

    @Test("an ASCII letter under PCRE2's own (?i) matches, over every code point, the set the translation says it does")
    func pcre2CaselessLetters() throws {
        let universe = Set(DialectHarness.universe)
        for c in UInt32(0x41)...0x7A {
            guard let claimed = PatternTranslator.pcre2Caseless(c) else { continue }
            let members = DialectHarness.pcre2Scan("(?i)" + String(Unicode.Scalar(UInt8(c))), caseInsensitive: false)
            #expect(members == Set(claimed).intersection(universe), "\(Unicode.Scalar(UInt8(c)))")
        }
        // The JDK's sets that PCRE2's (?i) stands for, and the one it cannot.
        #expect(JavaCaseFolding.single(0x6B) == PatternTranslator.pcre2Caseless(0x6B))
        #expect(JavaCaseFolding.inSlice(0x53) == PatternTranslator.pcre2Caseless(0x53))
        #expect(JavaCaseFolding.single(0x69) != PatternTranslator.pcre2Caseless(0x69))
        let translation = try PatternTranslator.translate("/kkkkk/ai+", dialect: .java, caseInsensitive: true).pattern
        #expect(translation == "\\/(?i)k{5}(?-i)\\/[Aa][Ii\\x{130}-\\x{131}]+")
    }

    /// A run of one atom written `n` times, as `countRepeat` writes it.
    static func run(_ unit: String, _ n: Int) -> String {
        n <= 3 ? String(repeating: unit, count: n) : unit + "{\(n - 1)}" + unit
    }

    @Test("a run of one atom is X{n}X from its fourth copy, across every new digit of n, each byte tracing to its copy", arguments: [
        ("a", "a", RegexDialect.icu), ("\\.", "\\.", .icu), ("[ab]", "[ab]", .java), ("\u{E9}", "\\x{E9}", .icu),
    ])
    func runs(_ unit: String, _ written: String, _ dialect: RegexDialect) throws {
        let unitScalars = unit.unicodeScalars.count
        for n in Array(1...120) + [998, 999, 1000, 1001, 1002, 9_999, 10_000, 10_001] {
            let pattern = "/" + String(repeating: unit, count: n)
            let translation = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false)
            #expect(translation.pattern == "\\/" + Self.run(written, n), "\(n) copies")
            #expect(try PatternTranslator.translate(pattern + "+", dialect: dialect, caseInsensitive: false).pattern
                    == "\\/" + Self.run(written, n) + "+", "\(n) copies and +")
            // Each byte names the copy it came from: the count, the first;
            // the copy apart, the last.
            let bytes = translation.bytes.count
            #expect(translation.sourceOffsets.count == bytes + 1)
            let lastCopy = 1 + (n - 1) * unitScalars
            #expect(translation.originalOffset(forByte: bytes - 1) == lastCopy, "\(n) copies")
            #expect(translation.originalOffset(forByte: 2) == 1, "\(n) copies")
            #expect(translation.originalOffset(forByte: bytes) == 1 + n * unitScalars)
        }
    }

    @Test("a pattern within the limit whose translation PCRE2 still cannot hold is refused as unsupported, saying why")
    func tooLargeIsUnsupported() throws {
        let pattern = Self.filled("[a-z]9")
        #expect(pattern.utf8.count <= Self.limit)
        for options in [Profile.hotwireAndroid.regexOptions, RegexOptions(dialect: .icu)] {
            do {
                _ = try PCRE2Engine().compile(pattern, options: options, limits: Limits())
                Issue.record("compiled under \(options.dialect)")
            } catch {
                #expect(error.isUnsupported, "\(error.message)")
                #expect(error.message.contains("too large") && error.message.contains("cannot match it"), "\(error.message)")
            }
        }
        // Loading: an error strictly, a warning when lenient, both saying "unsupported".
        let json = "{\"rules\": [{\"patterns\": [\(JSONWriter.quoted(pattern))], \"properties\": {\"hit\": true}}]}"
        do {
            _ = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid))
            Issue.record("loaded")
        } catch {
            #expect(error.message.contains("unsupported regular expression"), "\(error.message)")
        }
        let lenient = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid, lenient: true))
        #expect(lenient.warnings.contains { $0.message.contains("unsupported regular expression") })
    }
}
