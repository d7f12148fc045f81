import Foundation
import PathConfiguration
@testable import PathConfigCore
import PathConfigurationFoundation
import PrefilterFuzzing
import Testing

/// The prefilter against no prefilter, on patterns built to break the
/// required-literal analysis (issue 9, defect 6). `make fuzz-prefilter` runs
/// the same comparison for as long as it is given.
@Suite("Prefilter differential")
struct PrefilterFuzzTests {
    /// Patterns whose required literal was wrong (the rule silently did not
    /// apply), each with a subject it matches.
    static let regressions: [(String, String)] = [
        ("\\pLab", "/xab"),               // `\p` takes one letter: `L`, not `Lab`
        ("\\PLab", "/1ab"),
    ]

    @Test("the patterns the differential fuzzer found match with the prefilter on", arguments: regressions)
    func regression(_ pattern: String, _ subject: String) {
        var tally = PrefilterDifferential.Tally()
        let found = PrefilterDifferential(engines: [PCRE2Engine(), FoundationEngine()])
            .compare(patterns: [pattern], subjects: [subject], tally: &tally)
        #expect(found.map(\.description) == [])
        #expect(tally.matchedPatterns.contains(pattern)) // the case is real: the pattern matches its subject
    }

    /// Backtracking verbs end or cut a PCRE2 match early. No app's dialect
    /// has them, so the dialect layer refuses them before the prefilter is
    /// consulted; the analysis must still not require text past one, since
    /// it reads patterns as written, whatever engine compiles them.
    static let verbRegressions: [(String, String)] = [
        ("x(*ACCEPT)yz", "/x"),           // PCRE2 matches /x: the match ends at (*ACCEPT)
        ("x(*ACCEPT:m)yz", "/x"),
        ("(?:x(*ACCEPT)|q)yz", "/x"),
        ("(*COMMIT)/a(*ACCEPT)bcd", "/a"),
    ]

    @Test("a verb's pattern is refused by every dialect, and requires no text the match can skip", arguments: verbRegressions)
    func verbRegression(_ pattern: String, _ subject: String) {
        for profile in Profile.allCases {
            #expect(throws: RegexCompileError.self) { try PCRE2Engine().compile(pattern, options: profile.regexOptions, limits: Limits()) }
        }
        for caseInsensitive in [false, true] {
            let literal = RequiredLiteral.of(pattern, options: RegexOptions(caseInsensitive: caseInsensitive))
            #expect(literal.map { Array(subject.utf8).firstRange(of: $0) != nil } ?? true,
                    "required \(literal.map { String(decoding: $0, as: UTF8.self) } ?? "") is not in \(subject)")
        }
    }

    /// Sized for a few seconds in a debug build.
    static let seed: UInt64 = 0x9E11_7E12
    static let batches = 500
    static let patternsPerBatch = 8
    static let subjectsPerPattern = 6

    @Test("seeded grammar: prefilter on and off agree on every pattern and subject, both profiles, both engines")
    func seeded() {
        var choices = SeededChoices(seed: Self.seed)
        // The grammar's vocabulary, with characters above U+FFFF, and with those whose case closure is odd, in turn.
        let grammars = [PatternGrammar(), PatternGrammar(wide: true), PatternGrammar(cased: true)]
        let pcre2 = PrefilterDifferential(engines: [PCRE2Engine()])
        let icu = PrefilterDifferential(engines: [FoundationEngine()])
        var tally = PrefilterDifferential.Tally()
        var found: [PrefilterDifferential.Disagreement] = []
        var patterns: Set<String> = []
        for batch in 0..<Self.batches {
            let grammar = grammars[batch % grammars.count]
            let nodes = (0..<Self.patternsPerBatch).map { _ in grammar.pattern(&choices) }
            let subjects = nodes.flatMap { grammar.subjects(for: $0, count: Self.subjectsPerPattern, &choices) }
            found += pcre2.compare(patterns: nodes.map(\.text), subjects: subjects, tally: &tally)
            // ICU has no match budget: only patterns without nested repetition, on short subjects.
            let tame = nodes.filter(\.isTame).map(\.text)
            found += icu.compare(patterns: tame, subjects: subjects.filter { $0.utf8.count <= 32 }, tally: &tally)
            patterns.formUnion(nodes.map(\.text))
        }
        #expect(found.prefix(20).map(\.description) == [])
        #expect(found.count == 0)

        // Not vacuous: many patterns compile, have a required literal, and match.
        let withLiteral = tally.matchedPatterns.filter {
            RequiredLiteral.of($0, options: RegexOptions(caseInsensitive: false)) != nil || RequiredLiteral.of($0, options: RegexOptions(caseInsensitive: true)) != nil
        }
        #expect(patterns.count > Self.batches * Self.patternsPerBatch * 9 / 10)
        #expect(tally.compiled > patterns.count)
        #expect(withLiteral.count > 400)
        // Printable ASCII, as documented (what a plan's automaton can search).
        #expect(patterns.filter { p in [false, true].contains { RequiredLiteral.of(p, options: RegexOptions(caseInsensitive: $0))?
            .contains { !ByteSet.isPrintable($0) } ?? false } } == [])
        #expect(tally.matches > tally.lookups / 4)
    }

    static let seedDirectory = Conformance.repositoryRoot + "/Fuzz/PrefilterDifferential/seeds"

    @Test("the fuzz target's seed corpus and random inputs: prefilter on and off agree")
    func fuzzInputs() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.seedDirectory).sorted()
        var inputs = try names.map { Array(try Data(contentsOf: URL(fileURLWithPath: Self.seedDirectory + "/" + $0))) }
        var choices = SeededChoices(seed: Self.seed)
        for _ in 0..<300 { inputs.append((0..<(8 + choices.below(100))).map { _ in UInt8(truncatingIfNeeded: choices.next()) }) }
        var tally = PrefilterDifferential.Tally()
        var found: [String] = []
        for bytes in inputs {
            guard let input = FuzzInput(bytes) else { continue }
            found += input.compare(tally: &tally).map(\.description)
        }
        #expect(names.count >= 10)
        #expect(found == [])
        #expect(tally.matchedPatterns.contains("\\pLab"))
    }
}
