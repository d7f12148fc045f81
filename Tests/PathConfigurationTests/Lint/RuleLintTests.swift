import Foundation
import PathConfiguration
import Testing

@Suite("Lint: rules a later rule always overrides")
struct OverriddenRuleLintTests {
    static func document(_ rules: String...) -> String { "{\"rules\": [\n" + rules.joined(separator: ",\n") + "\n]}" }

    @Test("a later catch-all rule that sets every key: reported at the earlier rule, naming the later one")
    func catchAllLater() throws {
        let json = Self.document(
            #"  {"comment": "Forms", "patterns": ["/new$"], "properties": {"context": "modal", "pull_to_refresh_enabled": false}}"#,
            #"  {"description": "Everything is a card", "patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true, "title": "x"}}"#)
        let findings = try Lint.run(json, kind: .overriddenRule)
        try #require(findings.count == 1)
        #expect(findings[0].ruleIndex == 0 && findings[0].ruleDescription == "Forms")
        #expect(findings[0].location == SourceLocation(line: 2, column: 3, offset: 14))
        #expect(findings[0].summary == #"rule 0 ("Forms"): has no effect: the later rule 1 ("Everything is a card") applies to every URL this rule applies to (its pattern ".*" matches every URL) and sets every key this rule sets ("context", "pull_to_refresh_enabled"), so its values always win"#)
    }

    @Test("a later rule with the same patterns that sets every key")
    func samePatterns() throws {
        let json = Self.document(
            #"  {"patterns": ["/a$", "/b$"], "properties": {"presentation": "replace"}}"#,
            #"  {"patterns": ["/c"], "properties": {"title": "C"}}"#,
            #"  {"patterns": ["/b$", "/a$", "/z"], "properties": {"presentation": "pop"}}"#)
        let findings = try Lint.run(json, kind: .overriddenRule)
        #expect(findings.map(\.ruleIndex) == [0])
        #expect(findings.first?.message.contains("the later rule 2 applies to every URL this rule applies to (it has all of this rule's patterns)") == true)
    }

    @Test("20,000 rules sharing a pattern: each setting a key of its own is never reported; each of a run setting the same key is, by the next")
    func manyRules() throws {
        let own = "{\"rules\": [" + (0..<20_000).map { #"{"patterns": ["/x"], "properties": {"k\#($0)": \#($0)}}"# }.joined(separator: ",") + "]}"
        #expect(try Lint.run(own, kind: .overriddenRule).isEmpty)
        let same = "{\"rules\": [" + (0..<20_000).map { #"{"patterns": ["/x", "/y\#($0 % 2)"], "properties": {"k": \#($0)}}"# }.joined(separator: ",")
            + #", {"patterns": [".*"], "properties": {"k": "last"}}]}"#
        let findings = try Lint.run(same, kind: .overriddenRule)
        #expect(findings.count == 20_000)
        #expect(findings.prefix(2).map(\.message).allSatisfy { $0.contains("the later rule 2 applies") || $0.contains("the later rule 3 applies") })
        #expect(findings.last?.message.contains("the later rule 20000 applies to every URL this rule applies to (its pattern \".*\" matches every URL)") == true)
    }

    @Test("not reported unless certain", arguments: [
        // the later rule leaves a key of the earlier one alone
        [#"{"patterns": ["/a"], "properties": {"context": "modal", "title": "A"}}"#, #"{"patterns": [".*"], "properties": {"context": "default"}}"#],
        // the catch-all comes first: that is the usual default rule
        [#"{"patterns": [".*"], "properties": {"context": "default"}}"#, #"{"patterns": ["/a"], "properties": {"context": "modal"}}"#],
        // the later rule matches fewer URLs
        [#"{"patterns": ["/a", "/b"], "properties": {"context": "modal"}}"#, #"{"patterns": ["/a"], "properties": {"context": "default"}}"#],
        // a pattern that matches much, but not every string
        [#"{"patterns": ["/a"], "properties": {"context": "modal"}}"#, #"{"patterns": ["^.*$"], "properties": {"context": "default"}}"#],
        // the later rule is limited to some methods
        [#"{"patterns": ["/a"], "properties": {"context": "modal"}}"#, #"{"patterns": [".*"], "methods": ["POST"], "properties": {"context": "default"}}"#],
        // the earlier rule sets nothing
        [#"{"patterns": ["/a"], "properties": {}}"#, #"{"patterns": [".*"], "properties": {"context": "default"}}"#],
        // the same pattern to Swift's ==, spelt apart ("é" and e + U+0301): they match different URLs
        [#"{"patterns": ["/caf\u00e9"], "properties": {"context": "modal"}}"#, #"{"patterns": ["/cafe\u0301"], "properties": {"context": "default"}}"#],
        // and a key spelt apart: one key to the iOS apps, two to the Android ones
        [#"{"patterns": ["/a"], "properties": {"caf\u00e9": 1}}"#, #"{"patterns": [".*"], "properties": {"cafe\u0301": 2}}"#],
    ])
    func notReported(_ rules: [String]) throws {
        #expect(try Lint.run("{\"rules\": [" + rules.joined(separator: ",") + "]}", kind: .overriddenRule).isEmpty)
    }

    @Test("methods: a later rule for every method, or for all of the earlier rule's, overrides")
    func methods() throws {
        let json = Self.document(
            #"  {"globs": ["/volcanos/*"], "methods": ["POST"], "properties": {"headers": {"A": "1"}}}"#,
            #"  {"globs": ["/volcanos/*"], "methods": ["post", "PUT"], "properties": {"headers": {"B": "2"}}}"#)
        #expect(try Lint.run(json, kind: .overriddenRule, profiles: [.siesta]).map(\.ruleIndex) == [0])
    }

    @Test("under merge deep, objects merge: only a non-object value overrides")
    func deepMerge() throws {
        let objects = Self.document(
            #"  {"globs": ["**"], "properties": {"headers": {"A": "1"}}}"#,
            #"  {"globs": ["**"], "properties": {"headers": {"B": "2"}}}"#)
        var load = LoadOptions()
        load.merge = .deep
        #expect(try Lint.run(objects, kind: .overriddenRule, profiles: [.siesta], load: load).isEmpty)
        #expect(try Lint.run(objects, kind: .overriddenRule, profiles: [.siesta]).count == 1)  // shallow: replaced whole
        let replaced = objects.replacingOccurrences(of: #"{"B": "2"}"#, with: "null")
        #expect(try Lint.run(replaced, kind: .overriddenRule, profiles: [.siesta], load: load).count == 1)
    }

    @Test("a catch-all an engine refuses does not count: ICU refuses the empty pattern, which a lenient iOS app skips")
    func emptyPattern() throws {
        let json = Self.document(
            #"  {"patterns": ["/a"], "properties": {"context": "modal"}}"#,
            #"  {"patterns": [""], "properties": {"context": "default"}}"#)
        #expect(try Lint.run(json, kind: .overriddenRule).isEmpty)
        #expect(try Lint.run(json, kind: .overriddenRule, profiles: [.hotwireAndroid, .turboAndroid]).count == 1)
    }
}

@Suite("Lint: typed values")
struct TypedValueLintTests {
    static func properties(_ json: String) -> String { Lint.rule(["/a"], json) }

    @Test("\"true\"/\"false\" for a boolean key: reported for the apps that misread it or crash on it, not for the Android apps that keep strings")
    func stringBoolean() throws {
        let findings = try Lint.run(Self.properties(#"{"pull_to_refresh_enabled": "false", "animated": "TRUE", "title": "true"}"#), kind: .stringBoolean)
        #expect(findings.count == 2)
        #expect(findings.first?.profiles == [.hotwireIOS, .turboIOS, .hotwireAndroid])
        #expect(findings.first?.message == #""pull_to_refresh_enabled": "false" is a string, not the boolean false: hotwire-ios and turbo-ios ignore it and use true instead; "#
                + #"hotwire-android crashes reading it (java.lang.ClassCastException: java.lang.String cannot be cast to java.lang.Boolean); write false without quotes"#)
        #expect(try Lint.run(Self.properties(#"{"animated": "false"}"#), kind: .stringBoolean, profiles: [.turboIOS]).first?.message
                == #""animated": "false" is a string, not the boolean false: turbo-ios ignores it and uses true instead; write false without quotes"#)
        #expect(try Lint.run(Self.properties(#"{"animated": "false"}"#), kind: .stringBoolean, profiles: [.hotwireAndroid, .turboAndroid]).first?.profiles
                == [.hotwireAndroid])
        #expect(try Lint.run(Self.properties(#"{"animated": "false"}"#), kind: .stringBoolean,
                             profiles: [Profile(name: "hotwire-android@1.1.3"), .turboAndroid]).isEmpty)
        #expect(try Lint.run(Self.properties(#"{"animated": false}"#), kind: .stringBoolean).isEmpty)
    }

    @Test("unknown values of the typed keys, per platform, from the TypedKey table", arguments: [
        (#"{"presentation": "push"}"#, [Profile.hotwireIOS, .turboIOS]),         // Android only
        (#"{"presentation": "POP"}"#, [Profile.hotwireIOS, .turboIOS]),          // Android compares case-insensitively
        (#"{"presentation": "modal"}"#, [Profile.hotwireIOS, .turboIOS, .hotwireAndroid, .turboAndroid]),  // the seed documents' mistake
        (#"{"modal_style": "sheet"}"#, [Profile.hotwireIOS, .turboIOS, .hotwireAndroid, .turboAndroid]),
        (#"{"title": 5}"#, [Profile.hotwireIOS, .turboIOS]),
        (#"{"animated": 2}"#, [Profile.hotwireIOS, .turboIOS, .hotwireAndroid]),  // 0 and 1 are NSNumber booleans; "2" is false to turbo-android
        (#"{"context": "modal", "presentation": "replace_root", "title": null, "view-controller": "x"}"#, [Profile]()),
    ])
    func unknown(_ properties: String, _ expected: [Profile]) throws {
        let findings = try Lint.run(Self.properties(properties), kind: .unknownValue)
        #expect(findings.first?.profiles ?? [] == expected)
        #expect(findings.count == (expected.isEmpty ? 0 : 1))
    }

    @Test("the message says what each platform uses instead, and the known values")
    func message() throws {
        let findings = try Lint.run(Self.properties(#"{"presentation": "push"}"#), kind: .unknownValue)
        #expect(findings.first?.message == #""presentation" must be one of the values each app knows: hotwire-ios and turbo-ios ignore "push" and use "default" instead (they know default, pop, replace, refresh, clear_all, replace_root, none)"#)
        let json = Self.properties(#"{"presentation": "push"}"#)
        #expect(findings.first?.location?.column == json.components(separatedBy: #""push""#)[0].unicodeScalars.count + 1)
    }

    @Test("plain words, from the TypedKey table: what the value must be, and what each app reads instead, grouped by what they do", arguments: [
        // A null default: the app reads no value at all (the issue's "uses the default null").
        (#"{"title": 42}"#, [Profile](), #""title" must be a string: hotwire-ios and turbo-ios ignore 42 and read no title"#),
        (#"{"title": 42}"#, [Profile.turboIOS], #""title" must be a string: turbo-ios ignores 42 and reads no title"#),
        // The same default on both platforms: one group; the app that crashes, another.
        (#"{"animated": 2}"#, [Profile](), #""animated" must be true or false: hotwire-ios and turbo-ios ignore 2 and use true instead; hotwire-android crashes reading it (java.lang.ClassCastException: java.lang.Long cannot be cast to java.lang.Boolean)"#),
        // Defaults that differ by platform: a group each, the value named once.
        (#"{"pull_to_refresh_enabled": [true]}"#, [Profile.hotwireIOS, try! Profile(name: "hotwire-android@1.2.0")], #""pull_to_refresh_enabled" must be true or false: hotwire-ios ignores [true] and uses true instead; hotwire-android@1.2.0 crashes reading it (java.lang.ClassCastException: java.util.ArrayList cannot be cast to java.lang.Boolean)"#),
        (#"{"view_controller": 7}"#, [Profile.hotwireIOS, .turboIOS], #""view_controller" must be a string: hotwire-ios and turbo-ios ignore 7 and use "web" instead"#),
        // Known values differ by platform.
        (#"{"presentation": "modal"}"#, [Profile.turboIOS, .turboAndroid], #""presentation" must be one of the values each app knows: turbo-ios ignores "modal" and uses "default" instead (it knows default, pop, replace, refresh, clear_all, replace_root, none); turbo-android ignores it and uses "default" instead (it knows default, push, pop, replace, refresh, clear_all, replace_root, none)"#),
    ])
    func plainMessages(_ properties: String, _ profiles: [Profile], _ expected: String) throws {
        let findings = try Lint.run(Self.properties(properties), kind: .unknownValue, profiles: profiles)
        #expect(findings.map(\.message) == [expected])
        for finding in findings {
            #expect(!finding.message.contains("default null") && !finding.message.contains("which "))
        }
    }

    @Test("a repeated key counts once, with its first value, as when loading")
    func repeated() throws {
        let findings = try Lint.run(Self.properties(#"{"presentation": "pop", "presentation": "push"}"#))
        #expect(findings.map(\.kind) == [.duplicateKey])
    }
}
