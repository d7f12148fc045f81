import PathConfiguration
import Testing

/// The Android profiles read a document as the apps' Gson does: each fact of
/// issue 27's second item, with its message and place. GsonOracleTests runs
/// the same facts, and more, through the real Gson.
@Suite("Gson: what the Android apps do with a document")
struct GsonDocumentTests {
    static let android: [Profile] = [.hotwireAndroid, .turboAndroid]

    static func load(_ text: String, _ profile: Profile) -> Result<PathConfiguration, ConfigurationError> {
        Result { () throws(ConfigurationError) in try PathConfiguration(json: text, options: LoadOptions(profile: profile)) }
    }

    static func error(_ text: String, _ profile: Profile) throws -> ConfigurationError {
        guard case .failure(let e) = load(text, profile) else { throw ConfigurationError(code: .io, message: "loaded under \(profile.rawValue)") }
        return e
    }

    @Test("a trailing comma after the last rule is a null rule: refused at the comma, naming the crash", arguments: android)
    func nullRule(_ profile: Profile) throws {
        let text = "{\"settings\": {}, \"rules\": [\n  {\"patterns\": [\"/new$\"], \"properties\": {}},\n]}"
        let e = try Self.error(text, profile)
        #expect(e.description == "2:44: trailing comma before \"]\": \(profile.rawValue) reads it as a null rule and crashes (NullPointerException) on every lookup")
        #expect(e.ruleIndex == 1)
        // An explicit null is the same rule.
        #expect(try Self.error(#"{"settings": {}, "rules": [null]}"#, profile).message == "rule 0 is null: \(profile.rawValue) reads it as a null rule and crashes (NullPointerException) on every lookup")
        // The iOS apps read the comma as nothing.
        #expect(throws: Never.self) { try Self.load(text, .hotwireIOS).get() }
    }

    @Test("a trailing comma in patterns is a null pattern, which throws once the patterns before it did not match", arguments: android)
    func nullPattern(_ profile: Profile) throws {
        let e = try Self.error(#"{"settings": {}, "rules": [{"patterns": ["/new$",], "properties": {}}]}"#, profile)
        #expect(e.description == "1:49: trailing comma before \"]\": \(profile.rawValue) reads it as a null pattern and crashes (NullPointerException) on every lookup that no earlier pattern of its rule matches")
        #expect(e.ruleIndex == 0 && e.patternIndex == 1)
    }

    @Test("in a value's array, a trailing comma is one more null element (hotwire-android); turbo-android refuses arrays there")
    func valueArrays() throws {
        let text = #"{"settings": {"tabs": [1, 2,]}, "rules": [{"patterns": ["/new"], "properties": {"a": [,"x",,]}}]}"#
        let config = try Self.load(text, .hotwireAndroid).get()
        #expect(config.settings["tabs"] == .array([.number(JSONNumber(Int64(1))), .number(JSONNumber(Int64(2))), .null]))
        #expect(config.properties(for: "/new").json == #"{"a":[null,"x",null,null]}"#)
        #expect(try Self.error(text, .turboAndroid).message.hasPrefix(#"setting "tabs" is an array; the turbo-android profile stores every value as a string, so turbo-android refuses the document (Gson: "Expected a string but was BEGIN_ARRAY")"#))
    }

    @Test("a trailing comma in an object, or a key repeated in properties or settings: Gson refuses the document", arguments: android)
    func refusals(_ profile: Profile) throws {
        let app = profile.rawValue
        #expect(try Self.error("{\"settings\": {},\n \"rules\": [{\"patterns\": [\"/a\"], \"properties\": {\"a\": 1,}}]}", profile).description
                == "2:54: trailing comma before \"}\": \(app) refuses the document (Gson: \"Expected name\") and ignores the whole file")
        #expect(try Self.error(#"{"settings": {}, "rules": [{"patterns": ["/a"], "properties": {"k": 1, "k": 2}}]}"#, profile).description
                == "1:72: rule 0: \"properties\": key \"k\" repeated: \(app) refuses the document (Gson: \"duplicate key: k\") and ignores the whole file")
        #expect(try Self.error(#"{"settings": {"k": 1, "k": 2}, "rules": []}"#, profile).description
                == "1:23: \"settings\": key \"k\" repeated: \(app) refuses the document (Gson: \"duplicate key: k\") and ignores the whole file")
        // MapTypeAdapterFactory throws only when put replaced a value that is not null.
        let replaced = try Self.load(#"{"settings": {"k": null, "k": 2}, "rules": []}"#, profile).get()
        #expect(replaced.settings["k"] == (profile == .turboAndroid ? .string("2") : .number(JSONNumber(Int64(2)))))
        #expect(replaced.warnings.map(\.kind) == [.duplicateKey])
    }

    @Test("a key repeated at the top level or in a rule: the reflective adapter sets the field again, the last value counts", arguments: android)
    func lastValue(_ profile: Profile) throws {
        let text = #"{"settings": {"a": 1}, "rules": [{"patterns": ["/a"], "properties": {"x": 1}, "patterns": ["/b"]}], "settings": {"b": 2}}"#
        let config = try Self.load(text, profile).get()
        #expect(config.settings.keys == ["b"])
        #expect(config.properties(for: "/a").json == "{}")
        #expect(config.properties(for: "/b").json == (profile == .turboAndroid ? #"{"x":"1"}"# : #"{"x":1}"#))
        #expect(config.warnings.map(\.kind) == [.duplicateKey, .duplicateKey])
        #expect(config.warnings[0].message.hasPrefix("duplicate key \"patterns\"; \(profile.rawValue) keeps this last value"))
        // JSONSerialization keeps the first (as this library always has).
        let ios = try Self.load(text, .hotwireIOS).get()
        #expect(ios.settings.keys == ["a"] && ios.properties(for: "/a").json == #"{"x":1}"#)
    }

    @Test("settings null crashes hotwire-android at start-up (turbo-android when a web screen is left: a warning); [1] is refused; [] is empty")
    func settings() throws {
        #expect(try Self.error(#"{"settings": null, "rules": []}"#, .hotwireAndroid).description
                == "1:14: \"settings\" is null: hotwire-android reads it as a null settings map and crashes (NullPointerException) at start-up")
        let turbo = try Self.load(#"{"settings": null, "rules": []}"#, .turboAndroid).get()
        #expect(turbo.warnings.map(\.message) == [#""settings" is null: turbo-android reads it as a null settings map and crashes (NullPointerException) whenever it leaves a web screen; write "settings": {}"#])
        #expect(try Self.load(#"{"rules": []}"#, .turboAndroid).get().warnings.first?.message.hasPrefix(#"no "settings": turbo-android reads it as a null settings map"#) == true)
        #expect(try Self.load(#"{"rules": []}"#, .hotwireAndroid).get().warnings.isEmpty)
        for profile in Self.android {
            #expect(try Self.error(#"{"settings": [1], "rules": []}"#, profile).message
                    == "\"settings\", entry 0 is a number: \(profile.rawValue) refuses the document (Gson: \"Expected BEGIN_ARRAY but was NUMBER\") and ignores the whole file")
            let empty = try Self.load(#"{"settings": [], "rules": []}"#, profile).get()
            #expect(empty.settings.isEmpty && empty.warnings.isEmpty)
            #expect(try Self.load(#"{"settings": [["a", true]], "rules": []}"#, profile).get().settings["a"] == (profile == .turboAndroid ? .string("true") : .bool(true)))
        }
    }

    @Test("what Gson's lenient reader takes: comments, single quotes, unquoted names and values, = and ;, keywords in any case, the )]}' prefix")
    func lenient() throws {
        let text = """
            )]}'
            // The app's configuration
            { settings: {}; # hash comments too
              'rules' => [ /* block */
                {patterns: ['/new$', "/edit$"], properties = {context: modal, 'pull_to_refresh_enabled': FALSE}}
              ]
            }
            """
        for profile in Self.android {
            let config = try Self.load(text, profile).get()
            let expected = profile == .turboAndroid ? #"{"context":"modal","pull_to_refresh_enabled":"false"}"# : #"{"context":"modal","pull_to_refresh_enabled":false}"#
            #expect(config.properties(for: "https://x.dev/posts/1/EDIT").json == expected)
        }
        #expect(throws: ConfigurationError.self) { try Self.load(text, .hotwireIOS).get() }
    }

    @Test("numbers and booleans in patterns are read as strings (TypeAdapters.STRING): their literal, or true and false", arguments: android)
    func scalarPatterns(_ profile: Profile) throws {
        let config = try Self.load(#"{"settings": {}, "rules": [{"patterns": [404, 1.5e3, TRUE], "properties": {"a": 1}}]}"#, profile).get()
        #expect(config.rules[0].patterns == ["404", "1.5e3", "true"])
        #expect(config.properties(for: "https://x.dev/errors/404").json != "{}")
        #expect(throws: ConfigurationError.self) { try Self.load(#"{"rules": [{"patterns": [404], "properties": {}}]}"#, .hotwireIOS).get() }
    }

    @Test("no rules: hotwire-android's data class defaults to none; turbo-android's field is null and every lookup throws")
    func noRules() throws {
        let config = try Self.load("{}", .hotwireAndroid).get()
        #expect(config.rules.count == 3)  // the built-ins alone
        #expect(try Self.error("{\"settings\": {}}", .turboAndroid).message
                == "no \"rules\": turbo-android reads it as a null rules list and crashes (NullPointerException) on every lookup")
        #expect(try Self.error(#"{"settings": {}, "rules": null}"#, .hotwireAndroid).message
                == "\"rules\" is null: hotwire-android reads it as a null rules list and crashes (NullPointerException) at start-up")
    }

    @Test("a rule without patterns or properties: null fields, a crash on every lookup or on each one it matches", arguments: android)
    func nullFields(_ profile: Profile) throws {
        #expect(try Self.error(#"{"settings": {}, "rules": [{"properties": {}}]}"#, profile).message
                == "rule 0 has no \"patterns\": \(profile.rawValue) reads it as a null patterns list and crashes (NullPointerException) on every lookup")
        #expect(try Self.error(#"{"settings": {}, "rules": [{"patterns": ["/a"], "properties": null}]}"#, profile).message
                == "rule 0: \"properties\" is null: \(profile.rawValue) reads it as a null properties map and crashes (NullPointerException) on every lookup the rule matches")
    }

    @Test("Gson 2.12.1 (hotwire-android) refuses nesting past 255 levels; 2.10.1 (turbo-android) has no such limit")
    func nesting() throws {
        // gson-parent-2.12.1 JsonReader.push: `if (stackSize - 1 >= nestingLimit)`, DEFAULT_NESTING_LIMIT = 255;
        // the document's object is the first level, so a value may hold 253 more.
        func document(_ levels: Int) -> String {
            #"{"rules": [], "settings": {"a": "# + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}}"
        }
        #expect(throws: Never.self) { try Self.load(document(253), .hotwireAndroid).get() }
        let e = try Self.error(document(254), .hotwireAndroid)
        #expect(e.message == "nesting deeper than 255 levels: hotwire-android refuses the document (Gson: \"Nesting limit 255 reached\") and ignores the whole file")
        #expect(e.code == .invalidJSON)
        // turbo-android refuses nested values anyway; hotwire-android's limit is Gson's, not this library's (256).
        #expect(try Self.error(document(254), .turboAndroid).message.contains("stores every value as a string"))
        #expect(try Self.error(document(300), .turboAndroid).code == .limit)
    }

    @Test("what Java holds and Swift cannot (a lone surrogate, a null key) is refused, at its place, only where the app keeps it", arguments: android)
    func unholdable(_ profile: Profile) throws {
        let surrogate = try Self.error(#"{"settings": {"a": "x\ud800"}, "rules": []}"#, profile)
        #expect(surrogate.description == "1:22: a \\u escape of a lone surrogate, which \(profile.rawValue) reads but this library cannot hold in a string")
        let nullKey = try Self.error(#"{"settings": {}, "rules": [{"patterns": ["/a"], "properties": [["a", "1"], [null, "x"]]}]}"#, profile)
        #expect(nullKey.description == "1:77: rule 0: \"properties\", entry 1 has a null key, which \(profile.rawValue) reads but this library cannot hold")
        #expect(nullKey.ruleIndex == 0)
        // Skipped by Gson, or replaced by a later value: the configuration never holds them.
        for text in [#"{"comment": "\ud800", "settings": {}, "rules": [{"patterns": ["/a"], "properties": {"x": "\udc00"}, "properties": {}}]}"#,
                     #"{"settings": [[null, "1"]], "rules": [], "settings": {"b": "\ud83d\ude00"}}"#] {
            #expect(throws: Never.self) { try Self.load(text, profile).get() }
        }
        // Where Gson throws, or the app crashes, that is what is said.
        #expect(try Self.error(#"{"settings": {"a": "\ud800"}, "rules": {}}"#, profile).message.hasPrefix("\"rules\" is an object"))
        #expect(try Self.error(#"{"settings": [[null, "1", "2"]], "rules": []}"#, profile).message.contains("(Gson: \"Expected END_ARRAY but was STRING\")"))
        #expect(try Self.error(#"{"settings": [[null, "1"], [null, "2"]], "rules": []}"#, profile).message.contains("(Gson: \"duplicate key: null\")"))
        #expect(try Self.error(#"{"settings": [[null, "1"]], "rules": [{"patterns": ["/a"]}]}"#, profile).message.contains("crashes (NullPointerException)"))
    }

    @Test("a type error before a syntax error is Gson's exception, as Gson fills the classes while it reads", arguments: android)
    func firstError(_ profile: Profile) throws {
        #expect(try Self.error(#"{"settings": {}, "rules": "x",}"#, profile).description
            == "1:27: \"rules\" is a string: \(profile.rawValue) refuses the document (Gson: \"Expected BEGIN_ARRAY but was STRING\") and ignores the whole file")
        #expect(try Self.error(#"{"settings": {}, "rules": 5} x"#, profile).message.contains("Expected BEGIN_ARRAY but was NUMBER"))
        #expect(try Self.error(#"{"settings": {"a": "1", "a": "\x"}, "rules": []}"#, profile).message.contains("Invalid escape sequence"))
        #expect(try Self.error(#"{"settings": [["a""#, profile).message.hasPrefix("the end of input"))
        // With nothing of the wrong type before it, the syntax error.
        #expect(try Self.error(#"{"settings": {}, "rules": [],}"#, profile).message.hasPrefix("trailing comma before \"}\""))
    }

    @Test("an empty document and null: Gson returns null and the apps ignore the file", arguments: android)
    func empty(_ profile: Profile) throws {
        #expect(try Self.error("  // nothing\n", profile).message == "an empty document: \(profile.rawValue)'s Gson reads it as null and the app ignores the file")
        #expect(try Self.error("null", profile).message == "the document is null: \(profile.rawValue)'s Gson reads it as no configuration and the app ignores the file")
        #expect(try Self.error("{\"rules\": []} // trailing", profile).message.hasPrefix("a comment after the document: \(profile.rawValue) refuses the document"))
    }
}
