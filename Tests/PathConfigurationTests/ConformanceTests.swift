import PathConfiguration
import Testing

/// Every case of Tests/Fixtures/conformance through every engine.
@Suite("Conformance")
struct ConformanceTests {
    static let iosCases = Conformance.cases(Conformance.ios, "cases")
    static let iosSettingsCases = Conformance.cases(Conformance.ios, "settings_cases")
    static let androidCases = Conformance.cases(Conformance.android, "cases") { $0["kind"] == nil }
    static let androidSettingsCases = Conformance.cases(Conformance.android, "cases") { $0["kind"]?.stringValue == "settings" }

    @Test("the case files are present and complete")
    func caseCounts() {
        #expect(Self.iosCases.count == 44)
        #expect(Self.iosSettingsCases.count == 25)
        #expect(Self.androidCases.count == 96)
        #expect(Self.androidSettingsCases.count == 8)
    }

    @Test("iOS cases", arguments: iosCases, Conformance.engineNames)
    func ios(_ c: Conformance.Case, engine: String) throws {
        let profile = Conformance.profile(forLibrary: c["library"]!.stringValue!)
        let options = LoadOptions(profile: profile, matchQueryStrings: c["options"]?.objectValue?["matchQueryStrings"]?.boolValue,
                                  engine: Conformance.engine(engine))
        let config = try PathConfiguration(json: Conformance.fixtureJSON(Conformance.ios, c["fixture"]!.stringValue!), options: options)
        let input = c["input"]!.stringValue!
        #expect(config.matchedString(for: input) == c["matched_string"]!.stringValue!)
        let properties = config.properties(for: input)
        #expect(unorderedEqual(.object(properties.object), c["expected_properties"]), "got \(properties.json)")
        if let typed = c["expected_typed"]?.objectValue {
            for (key, expected) in typed {
                #expect(properties.typed(TypedKey(rawValue: key)!) == expected, "typed \(key)")
            }
        }
        if let accessors = c["expected_string_accessor"]?.objectValue {
            for (key, expected) in accessors {
                #expect(properties.string(key) == expected.stringValue, "string accessor \(key)")
            }
        }
        if let ruleMatch = c["expected_rule_match"]?.boolValue {
            #expect(try config.matchingRules(for: input).contains { $0.ruleIndex == 0 } == ruleMatch)
        }
    }

    @Test("iOS settings cases", arguments: iosSettingsCases, Conformance.engineNames)
    func iosSettings(_ c: Conformance.Case, engine: String) throws {
        let profile = Conformance.profile(forLibrary: c["library"]!.stringValue!)
        let json = Conformance.fixtureJSON(Conformance.ios, c["fixture"]!.stringValue!)
        let options = LoadOptions(profile: profile, engine: Conformance.engine(engine))
        if c["expected_error"]?.stringValue != nil {
            #expect(throws: ConfigurationError.self) { try PathConfiguration(json: json, options: options) }
            return
        }
        let config = try PathConfiguration(json: json, options: options)
        #expect(unorderedEqual(.object(config.settings), c["expected_settings"]))
        // Decoder- and loader-level tests count the file's rules; configuration-level
        // tests of hotwire-native-ios count the appended built-ins too.
        let source = c["source"]?.stringValue ?? ""
        let documentLevel = source.contains("test_json_") || source.contains("Loader") || source.contains("Decoder")
        let count = documentLevel ? config.documentRuleCount : config.rules.count
        #expect(Int64(count) == c["expected_rule_count"]?.int64Value)
    }

    @Test("Android cases", arguments: androidCases, Conformance.engineNames)
    func android(_ c: Conformance.Case, engine: String) throws {
        let profile = Conformance.profile(forLibrary: c["implementation"]!.stringValue!)
        let options = LoadOptions(profile: profile, engine: Conformance.engine(engine))
        let config = try PathConfiguration(json: Conformance.fixtureJSON(Conformance.android, c["fixture"]!.stringValue!), options: options)
        let input = c["input"]!.stringValue!
        #expect(config.matchedString(for: input) == c["matched_string"]!.stringValue!)
        let properties = config.properties(for: input)
        #expect(unorderedEqual(.object(properties.object), c["expected_properties"]), "got \(properties.json)")
        if let expected = c["expected_property"]?.objectValue, let key = expected["key"]?.stringValue {
            let raw = expected["raw_value"] ?? .null
            #expect(unorderedEqual(properties[key] ?? .null, raw), "raw \(key)")
            let value = TypedKey(rawValue: key).map { properties.typed($0) } ?? (properties[key] ?? .null)
            #expect(unorderedEqual(value, expected["value"]), "value \(key)")
        }
    }

    @Test("Android settings cases", arguments: androidSettingsCases, Conformance.engineNames)
    func androidSettings(_ c: Conformance.Case, engine: String) throws {
        let profile = Conformance.profile(forLibrary: c["implementation"]!.stringValue!)
        let options = LoadOptions(profile: profile, engine: Conformance.engine(engine))
        let config = try PathConfiguration(json: Conformance.fixtureJSON(Conformance.android, c["fixture"]!.stringValue!), options: options)
        let expected = c["expected_setting"]!.objectValue!
        if expected["assertion"]?.stringValue == "size" {
            #expect(Int64(config.settings.count) == expected["value"]?.int64Value)
        } else {
            let key = expected["key"]!.stringValue!
            #expect(unorderedEqual(config.settings[key] ?? .null, expected["value"]))
        }
    }

    @Test("Android's invalid bodies fail to load", arguments: ["Not a valid path configuration", "malformed-json"])
    func androidInvalidBodies(_ body: String) {
        #expect(throws: ConfigurationError.self) { try PathConfiguration(json: body) }
    }
}
