import PathConfiguration
import PathConfigurationFoundation
import Testing

/// Long URLs against patterns that repeat groups: PCRE2 answers wherever ICU
/// (the `foundation` backend, what iOS runs) does, and gives up only on a
/// search that is catastrophic by any measure.
@Suite("Regex engines: long subjects")
struct LongSubjectTests {
    /// A pattern and a way to build a subject of about `length` bytes for it.
    struct Case: CustomTestStringConvertible, Sendable {
        let pattern: String
        /// The subject is "/" + `unit` repeated + `tail`.
        let unit: String
        let tail: String
        /// Whether the subject matches (the search result both engines must give).
        let matches: Bool

        func subject(length: Int) -> String {
            "/" + String(repeating: unit, count: max(1, (length - 1 - tail.utf8.count) / unit.utf8.count)) + tail
        }

        var testDescription: String { "\(pattern) on /\(unit)…\(tail)" }
    }

    static let cases: [Case] = [
        Case(pattern: "^/(x|y)*$", unit: "x", tail: "", matches: true),
        Case(pattern: "^/((x)|(y))*$", unit: "x", tail: "", matches: true),  // 64 KB needs over 20 MiB of heap
        Case(pattern: "^/(x|y)*$", unit: "xy", tail: "!", matches: false),
        Case(pattern: "(ab|cd)+$", unit: "abcd", tail: "", matches: true),
        Case(pattern: "^/((a|b)c)*$", unit: "acbc", tail: "", matches: true),
        Case(pattern: "^/((a|b)c)*$", unit: "acbc", tail: "a", matches: false),
        Case(pattern: "(?:x+y?)*z", unit: "xxy", tail: "z", matches: true),
        Case(pattern: "^/(?:(a|b)+?c)*?$", unit: "abc", tail: "", matches: true),
        Case(pattern: "^/(?:(a|b)+?c)*?$", unit: "abc", tail: "a", matches: false),
        Case(pattern: "^/(?:[^/]+/?)*$", unit: "segment/", tail: "", matches: true),
        Case(pattern: "^/(?:(?:a|b)(?:c|d))+/edit$", unit: "ad", tail: "/edit", matches: true),
    ]

    static let lengths = [1 << 10, 4 << 10, 16 << 10, 64 << 10]

    @Test("PCRE2 and ICU give the same answer, and PCRE2 gives one, on 1 KB to 64 KB",
          arguments: cases, lengths)
    func enginesAgree(_ testCase: Case, length: Int) throws {
        let subject = MatchSubject(testCase.subject(length: length))
        let expected: MatchOutcome = testCase.matches ? .match : .noMatch
        let pcre2 = try PCRE2Engine().compile(testCase.pattern, options: RegexOptions(), limits: Limits())
        let icu = try FoundationEngine().compile(testCase.pattern, options: RegexOptions(), limits: Limits())
        #expect(icu.search(subject) == expected, "ICU")
        #expect(pcre2.search(subject) == expected, "PCRE2")
    }

    @Test("the issue's example: 10,000 x match through a configuration, and explain lists no limit", arguments: Conformance.engineNames)
    func issueExample(engine: String) throws {
        let json = "{\"rules\": [{\"patterns\": [\"^/(x|y)*$\"], \"properties\": {\"long\": true}}]}"
        let config = try PathConfiguration(json: json, options: LoadOptions(engine: Conformance.engine(engine)))
        let url = "https://example.com/" + String(repeating: "x", count: 10_000)
        #expect(config.properties(for: url).json == "{\"long\":true}")
        let explanation = try config.explain(url)
        #expect(explanation.limitExceeded.isEmpty)
        #expect(!explanation.json.contains("limit_exceeded"))
        #expect(explanation.rules.map(\.index) == [0])
    }

    @Test("heapLimitKiB bounds a search: a small budget gives up where the default answers")
    func heapLimitBoundsSearch() throws {
        let subject = MatchSubject("/" + String(repeating: "x", count: 64 << 10))
        var small = Limits()
        small.heapLimitKiB = 20_000
        let limited = try PCRE2Engine().compile("^/((x)|(y))*$", options: RegexOptions(), limits: small)
        #expect(limited.search(subject) == .limitExceeded)
        let roomy = try PCRE2Engine().compile("^/((x)|(y))*$", options: RegexOptions(), limits: Limits())
        #expect(roomy.search(subject) == .match)
        // Both on this thread, alternately: each search runs under its own limits.
        #expect(limited.search(subject) == .limitExceeded)
        #expect(roomy.search(subject) == .match)
    }

    @Test("a catastrophic search still ends as limitExceeded, on long subjects too")
    func catastrophicStillGivesUp() throws {
        let pattern = try PCRE2Engine().compile("^(a+)+$", options: RegexOptions(), limits: Limits())
        for count in [40, 1 << 10, 64 << 10] {
            #expect(pattern.search(MatchSubject(String(repeating: "a", count: count) + "b")) == .limitExceeded, "\(count)")
        }
    }

    @Test("searches on many threads at once each get their own match data")
    func concurrentSearches() async throws {
        let pattern = try PCRE2Engine().compile("^/(x|y)*$", options: RegexOptions(), limits: Limits())
        let subjects = (0..<8).map { i in "/" + String(repeating: "x", count: (16 << 10) + i * 4096) }
        let outcomes = await withTaskGroup(of: [MatchOutcome].self) { group in
            for subject in subjects {
                group.addTask { (0..<20).map { _ in pattern.search(MatchSubject(subject)) } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(outcomes.count == 160)
        #expect(outcomes.allSatisfy { $0 == .match })
    }
}
