import EntryPointFuzzing
import PathConfiguration
import Testing

/// `ConfigurationPort` keeps what authors wrote: every key it need not
/// change, in its place and as written; a port to the file's own app is the
/// file itself; rewrites that would not load are refused; values are
/// judged by what each app reads (`PortComparison`).
@Suite("port: what authors wrote is kept")
struct PortKeepsWrittenTests {
    /// `document` as `reference` loads it, its text kept.
    static func load(_ document: String, _ reference: Profile) throws -> PathConfiguration {
        var options = LoadOptions(profile: reference)
        options.keepsSource = true
        return try PathConfiguration(json: document, options: options)
    }

    static let team = """
        {
          "$schema": "https://example.com/path-configuration.schema.json",
          "version": 3,
          "lint": {"allow": ["query-string-anchor"]},
          "x_team": {"owner": "mobile", "ratio": 1.50, "big": 12345678901234567890},
          "settings": {"screenshots": false, "zoom": 1.0},
          "rules": [
            {"comment": "Everything", "patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
            {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "weight": 1.50}, "comment": "Forms", "lint": {"allow": ["query-string-anchor"]}},
            {"x_rule": [1, 2.0], "patterns": ["^/admin"], "properties": {"presentation": "replace_root"}}
          ]
        }
        """

    @Test("every key port need not change keeps its place and its text: $schema, version, lint, unknown keys, settings, comment")
    func keepsKeys() throws {
        let port = ConfigurationPort(try Self.load(Self.team, .hotwireIOS), to: [.hotwireAndroid])
        #expect(port.refusals.isEmpty)
        let text = try #require(port.outputs.first?.text)
        let ported = try #require(try JSONValue(parsing: text).objectValue)
        let original = try #require(try JSONValue(parsing: Self.team).objectValue)
        #expect(ported.keys == original.keys)
        for key in ["$schema", "version", "lint", "x_team", "settings"] { #expect(ported[key] == original[key], "\(key)") }
        // Numbers as written: 1.50 stays 1.50, an integer past 64 bits stays whole.
        #expect(text.contains("\"ratio\": 1.50") && text.contains("12345678901234567890") && text.contains("\"zoom\": 1.0"))
        let rules = (ported["rules"]?.arrayValue ?? []).compactMap { $0.objectValue }
        let originalRules = (original["rules"]?.arrayValue ?? []).compactMap { $0.objectValue }
        try #require(rules.count == 3 && originalRules.count == 3)
        #expect(rules.map(\.keys) == originalRules.map(\.keys))
        // comment stays comment (never renamed to description), lint and unknown keys stay.
        #expect(rules[0]["comment"] == .string("Everything") && rules[0]["description"] == nil)
        #expect(rules[1]["lint"] == originalRules[1]["lint"] && rules[1]["comment"] == .string("Forms"))
        #expect(rules[2]["x_rule"] == originalRules[2]["x_rule"])
        // What had to change did: the case flag before each pattern.
        #expect(rules[1]["patterns"] == .array([.string("(?-i)/new$"), .string("(?-i)/edit$")]))
        #expect(rules[1]["properties"] == originalRules[1]["properties"])
    }

    @Test("without the document's text, a file holds settings and rules, each rule's other keys kept as loaded")
    func withoutSource() throws {
        let original = try PathConfiguration(json: Self.team, options: LoadOptions(profile: .hotwireIOS))
        let port = ConfigurationPort(original, to: [.hotwireAndroid])
        let text = try #require(port.outputs.first?.text)
        let ported = try #require(try JSONValue(parsing: text).objectValue)
        #expect(ported.keys == ["settings", "rules"])
        let rules = (ported["rules"]?.arrayValue ?? []).compactMap { $0.objectValue }
        try #require(rules.count == 3)
        #expect(rules[0]["comment"] == .string("Everything") && rules[0]["description"] == nil)
        #expect(rules[1]["lint"] != nil)
    }

    @Test("a port to the file's own app alone is the file, byte for byte, whatever its syntax", arguments: PortFuzzer.apps)
    func identity(app: Profile) throws {
        // Odd spacing, a pattern outside port's subset ((?i)), values of every kind (strings for turbo-android).
        let document = app == .turboAndroid
            ? "{ \"$schema\":\"x\",\"rules\" : [ {\"patterns\":[\"(?i)^/admin\", \"\\\\d{2}\"],\"properties\":{\"context\":\"modal\", \"w\": \"1.50\"},\"comment\":\"c\"} ] ,\"lint\":{}}\n\n"
            : "{ \"$schema\":\"x\",\"rules\" : [ {\"patterns\":[\"(?i)^/admin\", \"\\\\d{2}\"],\"properties\":{\"context\":\"modal\", \"w\": 1.50, \"on\": true},\"comment\":\"c\"} ] ,\"lint\":{}}\n\n"
        let port = ConfigurationPort(try Self.load(document, app), to: [app])
        #expect(port.refusals.isEmpty, "\(port.refusals)")
        #expect(port.outputs.map(\.text) == [document])
        #expect(port.rewrites.isEmpty, "\(port.rewrites)")
    }

    @Test("a rewrite the app's engine would not load is refused, and the pattern is written as it was: b\\?*c from turbo-ios")
    func rewriteThatDoesNotLoad() throws {
        let document = #"{"rules": [{"patterns": ["b\\?*c", "^/x"], "properties": {"context": "modal"}}]}"#
        let port = ConfigurationPort(try Self.load(document, .turboIOS), to: [.hotwireIOS])
        let refusal = try #require(port.refusals.first)
        #expect(port.refusals.count == 1)
        #expect(refusal.app == .hotwireIOS && refusal.ruleIndex == 0 && refusal.patternIndex == 0 && refusal.pattern == #"b\?*c"#)
        #expect(refusal.reason.hasPrefix(#"rewritten for hotwire-ios as "^[^?]*?(?:b(?!)*c)", the pattern would not load there: "#), "\(refusal.reason)")
        let text = try #require(port.outputs.first?.text)
        #expect(!text.contains("(?!)*"))
        #expect(text.contains(#""b\\?*c""#))
        // The other pattern is ported, and the file loads.
        #expect(text.contains(#""^[^?]*?(?:^/x)""#))
        #expect(port.configurations[.hotwireIOS] != nil)
        // Java reads the same rewrite: hotwire-android gets it.
        let android = ConfigurationPort(try Self.load(document, .turboIOS), to: [.hotwireAndroid])
        #expect(android.refusals.isEmpty)
        #expect(android.outputs.first?.text.contains(#""(?-i)^[^?]*?(?:b(?!)*c)""#) == true)
    }

    @Test("a rewrite that grows past the pattern length limit is refused")
    func rewriteTooLong() throws {
        let pattern = "^/" + String(repeating: ".", count: 6_000)
        let document = #"{"rules": [{"patterns": [""# + pattern + #""], "properties": {"context": "modal"}}]}"#
        let port = ConfigurationPort(try Self.load(document, .turboIOS), to: [.hotwireIOS])
        let refusal = try #require(port.refusals.first)
        #expect(refusal.patternIndex == 0)
        #expect(refusal.reason.contains("more than the limit of 16384"), "\(refusal.reason)")
        #expect(port.outputs.first?.text.contains("[^?]") == false)
    }

    @Test("turbo-android is judged by what its readers return: a boolean of the typed catalog is read alike; a key outside it is not")
    func turboAndroidValues() throws {
        let document = #"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": true, "animated": false, "historical_location": false}}, {"patterns": ["/x$"], "properties": {"flag": true}}]}"#
        let port = ConfigurationPort(try Self.load(document, .hotwireIOS), to: [.turboAndroid])
        #expect(port.refusals.map(\.ruleIndex) == [1])
        #expect(port.refusals.first?.reason.hasPrefix("turbo-android keeps every value as a string, so \"flag\": true would read as \"true\"") == true)
        let text = try #require(port.outputs.first?.text)
        #expect(text.contains("\"pull_to_refresh_enabled\": true") && text.contains("\"animated\": false"))
        let ported = try #require(port.configurations[.turboAndroid])
        #expect(ported.properties(for: "https://example.com/a").typed(.pullToRefreshEnabled) == .bool(true))
    }

    @Test("values are written as each app reads them alike: POP as pop for hotwire-ios, true as a boolean for hotwire-android from turbo-android")
    func valuesReadAlike() throws {
        let fromAndroid = ConfigurationPort(try Self.load(#"{"rules": [{"patterns": [".*"], "properties": {"presentation": "POP", "x": "POP"}}]}"#, .hotwireAndroid),
                                            to: [.hotwireAndroid, .hotwireIOS])
        #expect(fromAndroid.refusals.isEmpty)
        // One value both read alike: one file.
        #expect(fromAndroid.outputs.count == 1)
        let text = try #require(fromAndroid.outputs.first?.text)
        #expect(text.contains("\"presentation\": \"pop\"") && text.contains("\"x\": \"POP\""))
        #expect(fromAndroid.rewrites.contains { $0.hasPrefix("values are written as each app reads them alike: \"presentation\": \"POP\" as \"pop\"") })
        // hotwire-android 1.2 casts a boolean, and crashes on "true": from turbo-android, which holds "true", true is written.
        let fromTurbo = ConfigurationPort(try Self.load(#"{"rules": [{"patterns": [".*"], "properties": {"animated": "TRUE"}}]}"#, .turboAndroid),
                                          to: [.hotwireAndroid])
        #expect(fromTurbo.refusals.isEmpty)
        #expect(fromTurbo.outputs.first?.text.contains("\"animated\": true") == true)
        // An Android presentation iOS has no value for is refused, by key and reason.
        let push = ConfigurationPort(try Self.load(#"{"rules": [{"patterns": [".*"], "properties": {"presentation": "push"}}]}"#, .hotwireAndroid),
                                     to: [.hotwireIOS])
        #expect(push.refusals.first?.reason == #"hotwire-ios reads "presentation": "push" as "default", where hotwire-android reads "push", and no value reads so on hotwire-ios"#)
    }

    @Test("the report says \\d, \\w and \\s are spelled out only where a pattern holds one")
    func shorthandLine() throws {
        let without = ConfigurationPort(try Self.load(#"{"rules": [{"patterns": ["/new$"], "properties": {}}]}"#, .hotwireIOS), to: [.hotwireAndroid])
        #expect(!without.rewrites.contains { $0.hasPrefix("\\d, \\w and \\s") })
        let with = ConfigurationPort(try Self.load(#"{"rules": [{"patterns": ["/[\\d]+$"], "properties": {}}]}"#, .hotwireIOS), to: [.hotwireAndroid])
        #expect(with.rewrites.contains { $0.hasPrefix("\\d, \\w and \\s are spelled out") })
    }

    @Test("PortComparison: typed keys as the apps read them, other keys as written, keys neither holds not at all")
    func comparison() throws {
        func properties(_ json: String, _ app: Profile) throws -> PathProperties {
            try PathConfiguration(json: #"{"rules": [{"patterns": [".*"], "properties": "# + json + "}]}", options: LoadOptions(profile: app))
                .resolve("https://example.com/a")
        }
        #expect(PortComparison.mismatches(try properties(#"{"presentation": "pop"}"#, .hotwireIOS),
                                          try properties(#"{"presentation": "POP"}"#, .hotwireAndroid)).isEmpty)
        #expect(PortComparison.mismatches(try properties(#"{"animated": true}"#, .hotwireIOS),
                                          try properties(#"{"animated": true}"#, .turboAndroid)).isEmpty)
        // pull_to_refresh_enabled defaults differ by platform; neither holds it: not compared.
        #expect(PortComparison.mismatches(try properties("{}", .hotwireIOS), try properties("{}", .hotwireAndroid)).isEmpty)
        let differ = PortComparison.mismatches(try properties(#"{"flag": true, "presentation": "POP"}"#, .hotwireIOS),
                                               try properties(#"{"flag": "true", "presentation": "POP"}"#, .hotwireAndroid))
        #expect(differ == [.init(key: "flag", reference: .bool(true), app: .string("true")),
                           .init(key: "presentation", reference: .string("default"), app: .string("pop"))])
    }
}
