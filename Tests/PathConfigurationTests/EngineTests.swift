import PathConfiguration
import PathConfigurationFoundation
import Testing

@Suite("Regex engines")
struct EngineTests {
    @Test("both engines reject an invalid pattern", arguments: Conformance.engineNames)
    func invalid(engine: String) {
        #expect(throws: RegexCompileError.self) {
            _ = try Conformance.engine(engine).compile("([", options: RegexOptions(), limits: Limits())
        }
    }

    @Test("PCRE2 reports the offset in Unicode scalars")
    func offsetInScalars() throws {
        do {
            _ = try PCRE2Engine().compile("é(", options: RegexOptions(), limits: Limits())
            Issue.record("compiled")
        } catch {
            #expect(error.offset == 2)
        }
    }

    @Test("unicode classes follow the profile: \\d matches Arabic-Indic digits on iOS only")
    func unicodeClasses() throws {
        let subject = MatchSubject("/items/٣")
        let ios = try PCRE2Engine().compile("/items/\\d$", options: Profile.hotwireIOS.regexOptions, limits: Limits())
        let android = try PCRE2Engine().compile("/items/\\d$", options: Profile.hotwireAndroid.regexOptions, limits: Limits())
        #expect(ios.search(subject) == .match)
        #expect(android.search(subject) == .noMatch)
        let foundation = try FoundationEngine().compile("/items/\\d$", options: Profile.hotwireIOS.regexOptions, limits: Limits())
        #expect(foundation.search(subject) == .match)
    }

    @Test("a catastrophic pattern stops at the match limit and counts as no match")
    func matchLimit() throws {
        var limits = Limits()
        limits.matchLimit = 10_000
        let json = "{\"rules\": [{\"patterns\": [\"^(a+)+$\"], \"properties\": {\"evil\": true}}, {\"patterns\": [\"a\"], \"properties\": {\"ok\": true}}]}"
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS, limits: limits))
        // Not printable ASCII, so the engine searches (not the plain-pattern automaton).
        let input = String(repeating: "a", count: 40) + "é"
        #expect(config.properties(for: input).json == "{\"ok\":true}")
        let explanation = try config.explain(input)
        #expect(explanation.limitExceeded == [RuleMatch(ruleIndex: 0, patternIndex: 0)])
        #expect(explanation.json.contains("\"limit_exceeded\":[{\"rule\":0,\"pattern_index\":0}]"))
    }

    /// What limits-and-security.md says of the match limit: PCRE2's
    /// interpreter counts it afresh at each start position of a search, so a
    /// search that fails at every start may spend it many times over. Here,
    /// with k digits after a start, the two `\d*` try every split of them:
    /// about k²/2 units, at most 20,000 at the first start, and about 1.3
    /// million over the whole search, 33 times the larger limit below.
    @Test("the match limit bounds each start position of a search, not the search")
    func matchLimitPerStartPosition() throws {
        let subject = MatchSubject(String(repeating: "1", count: 200))
        func search(limit: UInt32) throws -> MatchOutcome {
            var limits = Limits()
            limits.matchLimit = limit
            return try PCRE2Engine().compile(#"\d*\d*[!?]"#, options: Profile.turboIOS.regexOptions, limits: limits).search(subject)
        }
        #expect(try search(limit: 40_000) == .noMatch)
        #expect(try search(limit: 10_000) == .limitExceeded)
    }

    @Test("a plain pattern on a printable ASCII subject is decided exactly, in linear time, whatever the match limit")
    func plainPatternHasNoLimit() throws {
        var limits = Limits()
        limits.matchLimit = 10_000
        let json = #"{"rules": [{"patterns": ["^(a+)+$"], "properties": {"evil": true}}, {"patterns": ["^(a|aa)+b$"], "properties": {"b": true}}]}"#
        var options = LoadOptions(profile: .turboIOS, limits: limits)
        let config = try PathConfiguration(json: json, options: options)
        let miss = String(repeating: "a", count: 40) + "!"
        #expect(try config.explain(miss).limitExceeded == [])
        #expect(config.properties(for: miss).json == "{}")
        #expect(config.properties(for: String(repeating: "a", count: 40)).json == #"{"evil":true}"#)
        #expect(config.properties(for: String(repeating: "a", count: 40) + "b").json == #"{"b":true}"#)
        // Without the prefilter the engine runs every search, and gives up on this one.
        options.usePrefilter = false
        let engineOnly = try PathConfiguration(json: json, options: options)
        #expect(try engineOnly.explain(miss).limitExceeded == [RuleMatch(ruleIndex: 0, patternIndex: 0)])
    }
}
