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

    @Test("PortComparison: typed keys as the apps read them, other keys as written, a typed key neither holds by the defaults")
    func comparison() throws {
        func properties(_ json: String, _ app: Profile) throws -> PathProperties {
            try PathConfiguration(json: #"{"rules": [{"patterns": [".*"], "properties": "# + json + "}]}", options: LoadOptions(profile: app))
                .resolve("https://example.com/a")
        }
        let both = PortComparison.typedKeysRead(by: .hotwireIOS, and: .hotwireAndroid)
        #expect(!both.contains(.viewController) && !both.contains(.uri) && both.contains(.pullToRefreshEnabled))
        #expect(PortComparison.mismatches(try properties(#"{"presentation": "pop", "pull_to_refresh_enabled": false}"#, .hotwireIOS),
                                          try properties(#"{"presentation": "POP"}"#, .hotwireAndroid), typedKeys: both).isEmpty)
        #expect(PortComparison.mismatches(try properties(#"{"animated": true}"#, .hotwireIOS),
                                          try properties(#"{"animated": true, "pull_to_refresh_enabled": "TRUE"}"#, .turboAndroid),
                                          typedKeys: PortComparison.typedKeysRead(by: .hotwireIOS, and: .turboAndroid)).isEmpty)
        // Neither holds pull_to_refresh_enabled: hotwire-ios reads its default, true; hotwire-android its own, false.
        #expect(PortComparison.mismatches(try properties("{}", .hotwireIOS), try properties("{}", .hotwireAndroid), typedKeys: both)
            == [.init(key: "pull_to_refresh_enabled", reference: .bool(true), app: .bool(false))])
        #expect(PortComparison.mismatches(try properties(#"{"pull_to_refresh_enabled": false}"#, .hotwireIOS),
                                          try properties("{}", .hotwireAndroid), typedKeys: both).isEmpty)
        // Not a key both read: view_controller is "web" on iOS and nothing on Android, and not compared.
        #expect(PortComparison.mismatches(try properties("{}", .hotwireIOS), try properties("{}", .hotwireAndroid), typedKeys: []).isEmpty)
        // turbo-android crashes on a missing uri, which no file reproduces: not compared.
        #expect(PortComparison.mismatches(try properties("{}", .turboAndroid), try properties("{}", .hotwireAndroid),
                                          typedKeys: PortComparison.typedKeysRead(by: .turboAndroid, and: .hotwireAndroid)).isEmpty)
        let differ = PortComparison.mismatches(try properties(#"{"flag": true, "presentation": "POP"}"#, .hotwireIOS),
                                               try properties(#"{"flag": "true", "presentation": "POP"}"#, .hotwireAndroid), typedKeys: both)
        #expect(differ == [.init(key: "flag", reference: .bool(true), app: .string("true")),
                           .init(key: "presentation", reference: .string("default"), app: .string("pop")),
                           .init(key: "pull_to_refresh_enabled", reference: .bool(true), app: .bool(false))])
    }

    @Test("a default that differs across platforms is written in a first rule: pull_to_refresh_enabled, and only where no catch-all rule holds it")
    func defaults() throws {
        let android = #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}, {"patterns": ["/feed$"], "properties": {"pull_to_refresh_enabled": true}}]}"#
        let port = ConfigurationPort(try Self.load(android, .hotwireAndroid), to: [.hotwireIOS])
        #expect(port.refusals.isEmpty)
        let ios = try #require(port.configurations[.hotwireIOS])
        #expect(ios.rules.first?.patterns == ["(?i).*"] && ios.rules.first?.properties == ["pull_to_refresh_enabled": .bool(false)])
        #expect(ios.rules.first?.description == "hotwire-android's defaults, written by pathconfig port")
        #expect(try ios.resolve("https://example.com/new").pullToRefreshEnabled == false)
        #expect(try ios.resolve("https://example.com/feed").pullToRefreshEnabled == true)
        #expect(port.rewrites.contains { $0.hasPrefix(#"a first rule (.*) sets "pull_to_refresh_enabled": false for hotwire-ios, "#) })
        // With hotwire-android, whose default it is, the rule is written for both: one file serves them.
        let shared = ConfigurationPort(try Self.load(android, .hotwireAndroid), to: [.hotwireAndroid, .hotwireIOS])
        #expect(shared.outputs.count == 1 && shared.refusals.isEmpty)
        #expect(shared.configurations[.hotwireAndroid]?.rules.first?.properties == ["pull_to_refresh_enabled": .bool(false)])
        // The other way: true for hotwire-android and turbo-android, from hotwire-ios.
        let back = ConfigurationPort(try Self.load(android, .hotwireIOS), to: [.hotwireAndroid, .turboAndroid])
        #expect(back.configurations[.hotwireAndroid]?.rules.first?.properties == ["pull_to_refresh_enabled": .bool(true)])
        #expect(try back.configurations[.turboAndroid]?.resolve("https://example.com/new").pullToRefreshEnabled == true)
        // A rule that matches every URL and holds the key: the default is never read, and no rule is added.
        let everywhere = #"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": false, "uri": "x://web"}}, {"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#
        let none = ConfigurationPort(try Self.load(everywhere, .hotwireAndroid), to: [.hotwireIOS, .turboAndroid])
        #expect(none.refusals.isEmpty)
        #expect(none.configurations[.hotwireIOS]?.rules.filter { !$0.isBuiltIn }.count == 2)
        #expect(!none.rewrites.contains { $0.hasPrefix("a first rule") })
        // So does any pattern that matches every subject, as MatchPlan knows them ("^" here).
        let anchor = everywhere.replacingOccurrences(of: #"[".*"]"#, with: #"["^"]"#)
        #expect(anchor != everywhere)
        #expect(ConfigurationPort(try Self.load(anchor, .hotwireAndroid), to: [.hotwireIOS]).configurations[.hotwireIOS]?
            .rules.filter { !$0.isBuiltIn }.count == 2)
        // turbo-android crashes where no rule sets uri, which hotwire-android reads as null: refused, by key.
        let crash = ConfigurationPort(try Self.load(android, .hotwireAndroid), to: [.turboAndroid])
        #expect(crash.refusals.map(\.reason) == [#"where no rule sets "uri", turbo-android reads a crash (java.lang.NullPointerException: uriString) "#
            + #"and hotwire-android reads null, and no value reads so on turbo-android"#])
        #expect(crash.configurations[.turboAndroid]?.rules.first?.patterns == ["/new$"])
    }
}
