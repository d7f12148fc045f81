#if canImport(Glibc)
import Glibc
#endif
import PathConfiguration
import Testing

@Suite("Decoding")
struct DecoderTests {
    func loadError(_ text: String, profile: Profile = .hotwireIOS) -> ConfigurationError? {
        do { _ = try PathConfiguration(json: text, options: LoadOptions(profile: profile)); return nil } catch { return error }
    }

    @Test("schema errors name the rule, the key and the place", arguments: [
        ("[]", nil as Int?, 1, 1, "top level must be an object"),
        ("{}", nil, 1, 1, "missing required key \"rules\""),
        ("{\"rules\": {}}", nil, 1, 11, "\"rules\" must be an array"),
        ("{\"rules\": [\n 1]}", 0, 2, 2, "rule 0 must be an object"),
        ("{\"rules\": [{\"patterns\": [], \"properties\": {}},\n {\"properties\": {}}]}", 1, 2, 2, "rule 1 is missing required key \"patterns\""),
        ("{\"rules\": [{\"patterns\": \"/a\", \"properties\": {}}]}", 0, 1, 25, "\"patterns\" must be an array of strings"),
        ("{\"rules\": [{\"patterns\": [\"/a\", 1], \"properties\": {}}]}", 0, 1, 32, "rule 0, pattern 1 must be a string"),
        ("{\"rules\": [{\"patterns\": []}]}", 0, 1, 12, "missing required key \"properties\""),
        ("{\"rules\": [{\"patterns\": [], \"properties\": null}]}", 0, 1, 43, "\"properties\" must be an object, found null"),
    ])
    func schemaErrors(_ text: String, rule: Int?, line: Int, column: Int, message: String) throws {
        let e = try #require(loadError(text))
        #expect(e.code == .schema)
        #expect(e.ruleIndex == rule)
        #expect(e.location?.line == line)
        #expect(e.location?.column == column)
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test("an invalid pattern names rule, pattern, offset in the pattern and the engine's message")
    func invalidPattern() throws {
        let text = "{\"rules\": [\n  {\"patterns\": [\"/ok\"], \"properties\": {}},\n  {\"patterns\": [\"/a\", \"/b(c\"], \"properties\": {}}\n]}"
        let e = try #require(loadError(text))
        #expect(e.code == .invalidPattern)
        #expect(e.ruleIndex == 1)
        #expect(e.patternIndex == 1)
        #expect(e.patternOffset == 4)
        #expect(e.location == SourceLocation(line: 3, column: 23, offset: e.location!.offset))
        #expect(e.message.contains("missing closing parenthesis"), "\(e.message)")
        #expect(e.description.hasPrefix("3:23: rule 1, pattern 1: invalid regular expression \"/b(c\""))
    }

    @Test("lenient skips invalid patterns with a warning and keeps the valid ones")
    func lenient() throws {
        let text = "{\"rules\": [{\"patterns\": [\"([\", \"/x$\"], \"properties\": {\"mixed\": true}}, {\"patterns\": [\"([\"], \"properties\": {\"broken\": true}}]}"
        let config = try PathConfiguration(json: text, options: LoadOptions(profile: .turboIOS, lenient: true))
        #expect(config.warnings.count == 2)
        #expect(config.warnings.allSatisfy { $0.kind == .skippedPattern })
        #expect(config.warnings.map(\.ruleIndex) == [0, 1])
        #expect(config.properties(for: "/a/x").json == "{\"mixed\":true}")
        #expect(config.properties(for: "([").json == "{}")
    }

    @Test("extra rule keys are kept; description feeds explain")
    func extras() throws {
        let config = try PathConfiguration(json: "{\"rules\": [{\"patterns\": [\"/a\"], \"properties\": {}, \"comment\": \"hi\", \"x\": [1]}], \"version\": 2}")
        #expect(config.rules[0].extras.keys == ["comment", "x"])
        #expect(config.rules[0].description == "hi")
        #expect(try config.explain("/a").rules.first?.description == "hi")
    }

    @Test("settings that are not an object become {} with a warning")
    func settingsNotObject() throws {
        let config = try PathConfiguration(json: "{\"settings\": [\"x\"], \"rules\": []}")
        #expect(config.settings.isEmpty)
        #expect(config.warnings.map(\.kind) == [.ignoredSettings])
        #expect(config.warnings[0].location?.column == 14)
    }

    @Test("a repeated key keeps the first value and warns where")
    func duplicateKeys() throws {
        let config = try PathConfiguration(json: "{\"rules\": [{\"patterns\": [\"/a\"], \"properties\": {\"k\": 1,\n \"k\": 2}}]}")
        #expect(config.properties(for: "/a").json == "{\"k\":1}")
        #expect(config.warnings.map(\.kind) == [.duplicateKey])
        #expect(config.warnings[0].location?.line == 2)
        #expect(config.warnings[0].message.contains("line 1"))
        #expect(config.warnings[0].ruleIndex == 0)
    }

    @Test("iOS: a repeated key names the rule it is in, and none outside the rules (Gson refuses these documents)",
          arguments: [Profile.hotwireIOS, .turboIOS])
    func duplicateKeyRule(_ profile: Profile) throws {
        let json = #"{"settings": {"s": 1, "s": 2}, "rules": [{"patterns": ["/a"], "properties": {}}, "#
            + #"{"patterns": ["/b"], "properties": {"k": {"x": 1, "x": 2}}}]}"#
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: profile))
        let warnings = config.warnings.filter { $0.kind == .duplicateKey }
        #expect(warnings.map(\.ruleIndex) == [nil, 1], "\(warnings)")
    }

    @Test("turbo-android stores every value as a string")
    func turboAndroidStrings() throws {
        let config = try PathConfiguration(
            json: "{\"settings\": {\"f\": true, \"n\": 1.50}, \"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"b\": false, \"i\": 3, \"s\": \"x\", \"z\": null}}]}",
            options: LoadOptions(profile: .turboAndroid))
        #expect(config.settings == ["f": .string("true"), "n": .string("1.50")])
        #expect(config.properties(for: "https://a.b/").json == "{\"b\":\"false\",\"i\":\"3\",\"s\":\"x\",\"z\":null}")
    }

    @Test("turbo-android rejects nested values, naming rule and key")
    func turboAndroidNested() throws {
        let e = try #require(loadError("{\"rules\": [{\"patterns\": [], \"properties\": {\"tabs\": [1]}}]}", profile: .turboAndroid))
        #expect(e.code == .schema)
        #expect(e.ruleIndex == 0)
        #expect(e.message.contains("\"tabs\" is an array"))
        #expect(loadError("{\"rules\": [{\"patterns\": [], \"properties\": {\"tabs\": [1]}}]}", profile: .hotwireAndroid) == nil)
    }

    @Test("limits refuse oversized input with a limit error")
    func limits() throws {
        var limits = Limits()
        limits.maxRules = 2
        limits.maxPatternBytes = 8
        let rules = "{\"rules\": [" + Array(repeating: "{\"patterns\": [], \"properties\": {}}", count: 3).joined(separator: ",") + "]}"
        #expect(throws: ConfigurationError.self) { try PathConfiguration(json: rules, options: LoadOptions(limits: limits)) }
        do {
            _ = try PathConfiguration(json: "{\"rules\": [{\"patterns\": [\"/123456789\"], \"properties\": {}}]}", options: LoadOptions(limits: limits))
            Issue.record("accepted an oversized pattern")
        } catch {
            #expect(error.code == .limit)
            #expect(error.patternIndex == 0)
        }
    }

    @Test("a missing file is an I/O error naming the path, with its errno")
    func missingFile() {
        do {
            _ = try PathConfiguration(contentsOfFile: "/nonexistent/pc.json")
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.code == .io)
            #expect(error.message.contains("/nonexistent/pc.json"))
            #expect(error.osError == ENOENT)
        }
    }

    @Test("an unreadable path carries the errno of the call that failed; other errors carry none")
    func osErrors() {
        for (path, expected) in [("/", EISDIR), ("/dev/null/pc.json", ENOTDIR)] {
            do {
                _ = try PathConfiguration(contentsOfFile: path)
                Issue.record("loaded \(path)")
            } catch {
                #expect(error.code == .io)
                #expect(error.osError == expected, "\(path)")
            }
        }
        do {
            _ = try PathConfiguration(contentsOfFile: "/dev/null")
            Issue.record("loaded an empty file")
        } catch {
            #expect(error.code == .invalidJSON)
            #expect(error.osError == nil)
        }
    }

    @Test("settings.tabs reads as typed tabs, skipping malformed entries")
    func tabs() throws {
        let config = try PathConfiguration(json: "{\"settings\": {\"tabs\": [{\"title\": \"Posts\", \"path\": \"/posts\", \"system_image_name\": \"note.text\"}, {\"title\": 1}, {\"title\": \"New\", \"path\": \"/new\"}]}, \"rules\": []}")
        #expect(config.tabs == [Tab(title: "Posts", path: "/posts", systemImageName: "note.text"), Tab(title: "New", path: "/new")])
    }
}
