import Foundation
import PathConfiguration
@testable import PathConfigCore
@testable import PathConfigLint
import Testing

@Suite("Lint: the document")
struct DocumentLintTests {
    @Test("trailing commas: each one, at the comma, with its rule when it is inside one")
    func trailingCommas() throws {
        let json = "{\n  \"rules\": [\n    {\"patterns\": [\"/a\",], \"properties\": {\"context\": \"modal\",}},\n  ],\n}"
        let findings = try Lint.run(json, kind: .trailingComma)
        #expect(findings.map { [$0.location!.line, $0.location!.column] } == [
            Lint.position(of: ",]", in: json), Lint.position(of: ",}", in: json), Lint.position(of: ",\n  ]", in: json),
            Lint.position(of: ",\n}", in: json),
        ])
        #expect(findings.map(\.ruleIndex) == [0, 0, nil, nil])
        #expect(findings.map { $0.message.hasPrefix("trailing comma before \"]\"") } == [true, false, true, false])
        #expect(try Lint.run(json.replacingOccurrences(of: ",]", with: "]").replacingOccurrences(of: ",}", with: "}"), kind: .trailingComma).count == 2)
    }

    @Test("duplicate keys: the repeat, located, with its rule")
    func duplicateKeys() throws {
        let json = "{\"rules\": [\n  {\"patterns\": [\"/a\"], \"properties\": {\"context\": \"modal\", \"context\": \"default\"}}\n]}"
        let findings = try Lint.run(json, kind: .duplicateKey)
        try #require(findings.count == 1)
        #expect(findings[0].ruleIndex == 0)
        #expect(findings[0].location.map { [$0.line, $0.column] } == Lint.position(of: "\"context\"", in: json, occurrence: 1))
        let first = Lint.position(of: "\"context\"", in: json)
        #expect(findings[0].summary == "rule 0: duplicate key \"context\" (first at line \(first[0]), column \(first[1])): hotwire-ios and turbo-ios keep the first value; "
            + "hotwire-android and turbo-android refuse the document (Gson: \"duplicate key: context\") and ignore the whole file")
        #expect(findings[0].profiles == [.hotwireAndroid, .turboAndroid])
    }

    @Test("keys canonically equivalent but spelt apart: repeated to the iOS apps, two keys to Gson; spelt the same, repeated to both")
    func canonicallyEquivalentKeys() throws {
        let json = "{\"rules\": [{\"patterns\": [\"/a\"], \"properties\": {\"caf\u{E9}\": 1, \"cafe\u{301}\": 2, \"caf\u{E9}\": 3}}]}"
        let findings = try Lint.run(json, kind: .duplicateKey)
        try #require(findings.count == 2)
        #expect(findings[0].message.hasSuffix("hotwire-ios and turbo-ios keep the first value"), "\(findings[0].message)")
        // Spelt otherwise than the key it repeats: its code points say how.
        #expect(findings[0].message.hasPrefix("duplicate key \"cafe\u{301}\" (U+0063 U+0061 U+0066 U+0065 U+0301) (first at"))
        #expect(findings[1].message.hasPrefix("duplicate key \"caf\u{E9}\" (first at"))
        #expect(findings[0].profiles.isEmpty)
        #expect(findings[1].message.contains("hotwire-android and turbo-android refuse the document"), "\(findings[1].message)")
        #expect(findings[1].profiles == [.hotwireAndroid, .turboAndroid])
        // To Gson alone, the second spelling is a key of its own: the only
        // repeat is the third, whose first is the first.
        let android = try Lint.run(json, kind: .duplicateKey, profiles: [.hotwireAndroid])
        try #require(android.count == 1)
        #expect(android[0].location.map { [$0.line, $0.column] } == Lint.position(of: "\"caf\u{E9}\": 3", in: json))
        #expect(try Lint.run(json.replacingOccurrences(of: "\"caf\u{E9}\": 3", with: "\"x\": 3"), kind: .duplicateKey, profiles: [.hotwireAndroid, .turboAndroid]).isEmpty)
    }

    @Test("a key spelt apart from an equivalent one of an earlier rule: not portable between the iOS and Android apps")
    func keysSpeltApartAcrossRules() throws {
        let json = "{\"settings\": {}, \"rules\": [{\"patterns\": [\"/a\"], \"properties\": {\"caf\u{E9}\": 1, \"K\": 2}}, "
            + "{\"patterns\": [\"/b\"], \"properties\": {\"cafe\u{301}\": 3, \"\u{212A}\": 4, \"caf\u{E9}\": 5}}]}"
        let findings = try Lint.run(json, kind: .notPortable)
        try #require(findings.count == 2)
        #expect(findings.map { $0.location.map { [$0.line, $0.column] } } == [Lint.position(of: "\"cafe\u{301}\"", in: json, occurrence: 1), Lint.position(of: "\"\u{212A}\"", in: json, occurrence: 1)])
        #expect(findings.allSatisfy { $0.ruleIndex == 1 && $0.severity == .warning })
        let (first, at) = (findings[0].message, Lint.position(of: "\"caf\u{E9}\"", in: json))
        #expect(first.hasPrefix("the key \"cafe\u{301}\" (U+0063 U+0061 U+0066 U+0065 U+0301) and \"caf\u{E9}\" (U+0063 U+0061 U+0066 U+00E9) of rule 0 (line \(at[0]), column \(at[1])) are canonically equivalent: one key to hotwire-ios, turbo-ios"), "\(first)")
        #expect(findings[1].message.hasPrefix("the key \"\u{212A}\" (U+212A) and \"K\" (U+004B) of rule 0"), "\(findings[1].message)")
        // Under the apps of one platform, keys are read one way: nothing to say.
        #expect(try Lint.run(json, kind: .notPortable, profiles: [.hotwireIOS, .turboIOS]).isEmpty)
        #expect(try Lint.run(json, kind: .notPortable, profiles: [.hotwireAndroid, .turboAndroid]).isEmpty)
    }

    @Test("what each app does with a key repeated where Gson keeps the last value or where its first value is null", arguments: [
        // A rule's own field and the document's: Gson's reflective adapter sets the field again.
        (#"{"rules": [{"patterns": ["/a"], "patterns": ["/b"], "properties": {}}], "settings": {}}"#, "keep the last value", "keeps the last value"),
        // In a map, a null first value is replaced without "duplicate key" (MapTypeAdapterFactory checks put's result).
        (#"{"rules": [], "settings": {"k": null, "k": 1}}"#, "keep the last value", "keeps the last value"),
        // A key no app reads.
        (#"{"rules": [{"patterns": ["/a"], "properties": {}, "comment": "x", "comment": "y"}], "settings": {}}"#, "ignore the key", "ignores the key"),
    ])
    func repeatedKeyEffects(_ json: String, android: String, single: String) throws {
        let findings = try Lint.run(json, kind: .duplicateKey)
        try #require(findings.count == 1)
        #expect(findings[0].message.hasSuffix("hotwire-ios and turbo-ios keep the first value; hotwire-android and turbo-android \(android)"), "\(findings[0].message)")
        #expect(findings[0].profiles.isEmpty)
        #expect(try Lint.run(json, kind: .duplicateKey, profiles: [.turboAndroid])[0].message.hasSuffix("turbo-android \(single)"))
    }

    @Test("not portable: globs and methods for the mobile apps, a rule without patterns for hotwire-android, a nested value for turbo-android, nothing for siesta")
    func notPortable() throws {
        let json = """
            {"rules": [
              {"description": "API", "globs": ["/api/**"], "methods": ["GET"], "properties": {"headers": {"Accept": "application/json"}}}
            ]}
            """
        let findings = try Lint.run(json, kind: .notPortable)
        #expect(findings.map { [$0.location!.line, $0.location!.column] } == [
            Lint.position(of: "{\"description", in: json), Lint.position(of: "[\"/api", in: json), Lint.position(of: "[\"GET", in: json),
            Lint.position(of: "{\"Accept", in: json),
        ])
        let mobile: [Profile] = [.hotwireIOS, .turboIOS, .hotwireAndroid, .turboAndroid]
        #expect(findings.map(\.profiles) == [[.hotwireAndroid], mobile, mobile, [.turboAndroid]])
        #expect(findings.map(\.summary) == [
            #"rule 0 ("API"): the hotwire-android app rejects this file: rule 0 has no "patterns": hotwire-android reads it as a null patterns list and crashes (NullPointerException) on every lookup"#,
            #"rule 0 ("API"): "globs" but no "patterns": the hotwire-ios app rejects a rule without "patterns", so this file is not portable to it"#,
            #"rule 0 ("API"): the hotwire-ios app ignores "methods" and applies the rule to every visit"#,
            #"rule 0 ("API"): the turbo-android app rejects this file: property "headers" is an object; the turbo-android profile stores every value as a string, so turbo-android refuses the document (Gson: "Expected a string but was BEGIN_OBJECT") and ignores the whole file"#,
        ])
        #expect(try Lint.run(json, kind: .notPortable, profiles: [.siesta]).isEmpty)
    }

    @Test("settings that are not an object")
    func ignoredSettings() throws {
        let findings = try Lint.run(#"{"settings": [], "rules": []}"#)
        #expect(findings.map(\.kind) == [.ignoredSettings])
        #expect(findings.first?.ruleIndex == nil)
    }

    @Test("findings come sorted by position, and a document that is not a configuration throws the load's error")
    func orderAndErrors() throws {
        let json = "{\"rules\": [\n  {\"patterns\": [\"/x.pdf$\",], \"properties\": {\"presentation\": \"push\"}}\n]}"
        let findings = try Lint.run(json)
        #expect(findings.map(\.kind) == [.unescapedDot, .queryStringAnchor, .trailingComma, .unknownValue])
        let offsets = findings.compactMap(\.location?.offset)
        #expect(offsets == offsets.sorted() && offsets.count == 4)
        #expect(throws: ConfigurationError.self) { try Lint.run("{\"rules\": [}") }
        #expect(throws: ConfigurationError.self) { try Lint.run("{\"rules\": {}}") }
        // No "rules": hotwire-android reads it as none, so lint reads the file as that app does.
        #expect(try Lint.run("{\"settings\": {}}", kind: .notPortable).map(\.profiles) == [[.hotwireIOS], [.turboIOS], [.turboAndroid]])
        #expect(throws: ConfigurationError.self) { try Lint.run("{\"settings\": {}}", profiles: [.hotwireIOS, .turboAndroid]) }
    }

    @Test("a file only Gson reads (comments, unquoted names) is linted as the Android app that loads it reads it")
    func gsonOnly() throws {
        let json = "// the app's rules\n{settings: {}, rules: [\n  {patterns: ['/new$'], properties: {context: 'modal'}}\n]}"
        let findings = try Lint.run(json)
        #expect(findings.map(\.kind) == [.notPortable, .notPortable, .queryStringAnchor])
        #expect(findings[0].message.hasPrefix("the hotwire-ios app rejects this file: unexpected character '/'") && findings[0].profiles == [.hotwireIOS])
        #expect(findings[1].profiles == [.turboIOS])
        #expect(findings[2].location.map { [$0.line, $0.column] } == Lint.position(of: "$'", in: json))  // the $, in single quotes
        #expect(throws: ConfigurationError.self) { try Lint.run(json, profiles: [.hotwireIOS]) }
    }

    @Test("a finding as JSON: every field, null where it does not apply")
    func json() throws {
        let finding = try #require(try Lint.run(Lint.rule(["/new$"]), kind: .queryStringAnchor).first)
        let object = finding.jsonObject
        #expect(object.keys == ["kind", "severity", "line", "column", "rule", "pattern", "description", "profiles", "message"])
        #expect(object["kind"] == .string("query-string-anchor"))
        #expect(object["severity"] == .string("warning"))
        #expect(object["rule"] == .number(JSONNumber(Int64(0))) && object["pattern"] == .number(JSONNumber(Int64(0))))
        #expect(object["description"] == .null)
        #expect(finding.description == "1:31: rule 0: \(finding.message) [query-string-anchor]")
    }

    @Test("every kind's identifier is kebab-case, and the decoder's warning kinds keep their names")
    func kinds() {
        for kind in LintFinding.Kind.allCases {
            #expect(kind.rawValue.allSatisfy { $0.isLowercase || $0 == "-" })
        }
        for kind in ConfigurationWarning.Kind.allCases where kind != .skippedPattern {
            #expect(LintFinding.Kind(rawValue: kind.rawValue) != nil)
        }
    }
}

@Suite("Lint: the seed documents")
struct SeedLintTests {
    /// A seed block as a configuration: the rule arrays wrapped in `{"rules": ...}`.
    static func configuration(_ block: String) -> String? {
        let trimmed = block.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("[") { return "{\"rules\": " + block + "}" }
        return trimmed.contains("\"rules\"") ? block : nil
    }

    @Test("every seed configuration lints; its trailing commas are exactly the ones a plain scan finds")
    func trailingCommas() throws {
        let configurations = Lint.seedBlocks.compactMap { block in Self.configuration(block.json).map { (block.name, $0) } }
        #expect(configurations.count >= 3)
        var total = 0
        for (name, json) in configurations {
            let findings = try Lint.run(json, kind: .trailingComma)
            // The seeds' strings hold no commas: a comma followed by blanks and a closing bracket is a trailing one.
            let bytes = Array(json.utf8)
            var expected: [Int] = []
            for (i, b) in bytes.enumerated() where b == UInt8(ascii: ",") {
                if let next = bytes[(i + 1)...].first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }), next == UInt8(ascii: "]") || next == UInt8(ascii: "}") {
                    expected.append(i)
                }
            }
            #expect(findings.compactMap(\.location?.offset) == expected, "\(name)")
            total += expected.count
        }
        #expect(total >= 5)
    }

    @Test("the Turbo iOS README's example: $ before queries, presentation \"modal\", trailing commas")
    func turboExample() throws {
        let block = try #require(Lint.seedBlocks.first { $0.json.contains("\"enable-feature-x\"") })
        let findings = try Lint.run(block.json)
        #expect(findings.map(\.kind) == [.queryStringAnchor, .queryStringAnchor, .unknownValue, .trailingComma, .trailingComma])
        #expect(findings.map(\.location?.line) == [8, 9, 12, 17, 22])
        #expect(findings[2].summary.hasPrefix(#"rule 0: "presentation" must be one of the values each app knows: hotwire-ios and turbo-ios ignore "modal" and use "default" instead"#))
        // The trailing commas: a null pattern, then a null rule, to Gson.
        #expect(findings[3].message.hasPrefix(#"trailing comma before "]": hotwire-ios and turbo-ios accept it; hotwire-android and turbo-android read it as a null pattern and crash (NullPointerException) on every lookup that no earlier pattern of its rule matches"#))
        #expect(findings[4].message.hasPrefix(#"trailing comma before "]": hotwire-ios and turbo-ios accept it; hotwire-android and turbo-android read it as a null rule and crash (NullPointerException) on every lookup"#))
        #expect(findings[3...].allSatisfy { $0.profiles == [.hotwireAndroid, .turboAndroid] })
        // The configuration loads in the iOS apps despite all of it; the Android apps crash.
        for profile in LintOptions.defaultProfiles {
            let loading = Result { () throws(ConfigurationError) in try PathConfiguration(json: block.json, options: LoadOptions(profile: profile)) }
            if profile.platform == .ios {
                #expect(throws: Never.self) { try loading.get() }
            } else {
                #expect(throws: ConfigurationError.self) { try loading.get() }
            }
        }
    }
}

@Suite("Lint: reading patterns and strings")
struct LintReadingTests {
    @Test("the shape checks leave alone what PatternSyntax does not read",
          arguments: ["/a[.pdf$", "/a.pdf$\\", "/a{x}.pdf$", "/a**.pdf$"])
    func notRead(_ pattern: String) {
        #expect(UnescapedDotCheck.literalDots(pattern).isEmpty)
        #expect(QueryStringAnchorCheck.finalAnchor(pattern) == nil)
        #expect(throws: PatternSyntax.Unsupported.self) { try PatternSyntax.read(pattern, dialect: .icu) }
    }

    @Test("the shape checks read characters however written, and positions in scalars")
    func shapes() throws {
        // \x2E is a literal dot, not an unescaped one, and so is a quoted one; é counts one scalar (two UTF-8 bytes).
        #expect(UnescapedDotCheck.literalDots(#"/a\x2Epdf$"#).isEmpty)
        #expect(UnescapedDotCheck.literalDots(#"\Qa.pdf$\E"#).isEmpty && QueryStringAnchorCheck.finalAnchor(#"\Qa.pdf$\E"#) == nil)
        // Free-spacing white space reads as nothing: the dot still leads ".pdf".
        #expect(UnescapedDotCheck.literalDots("(?x) /a .pdf$") == [8])
        #expect(UnescapedDotCheck.literalDots("/caf\u{E9}(x)/menu.pdf$") == [13])
        #expect(QueryStringAnchorCheck.finalAnchor(#"/a\x41$"#) == 6)
        #expect(QueryStringAnchorCheck.finalAnchor("(/a)\\.[x]b$") == 10)
        // A ? by code, or in a range, already expects a query.
        #expect(QueryStringAnchorCheck.finalAnchor(#"/a\x3Fb$"#) == nil)
        #expect(QueryStringAnchorCheck.finalAnchor(#"/a[>-@]b$"#) == nil)
        #expect(QueryStringAnchorCheck.finalAnchor(#"/(a$)"#) == nil)
        let syntax = try PatternSyntax.read(#"^\x61(é)?b|(c)é"#, dialect: .icu)
        #expect(Array(syntax.topLevel).map { syntax.source(of: syntax.nodes[$0]) } == ["^", #"\x61"#, "(", "?", "b", "|", "(", "é"])
        #expect(syntax.hasTopLevelAlternation && !syntax.hasFlags)
        let one = try PatternSyntax.read(#"^\x61(é)?b\u00E9"#, dialect: .icu)
        #expect(DeadPatternCheck.anchoredFirstLiteral(one) == "a")
        #expect(DeadPatternCheck.requiredBeyondASCII(one) == 10)
        #expect(try PatternSyntax.read("a(?i:b)", dialect: .icu).hasFlags)
        #expect(try PatternSyntax.read("(?-i)a", dialect: .icu).hasFlags)
    }

    @Test("positions in a JSON string count characters through escapes, surrogate pairs and UTF-8")
    func stringOffsets() throws {
        // 😀 as a surrogate pair, é as UTF-8, a tab escape: the dot is character 4 of "😀é\t.pdf$".
        let json = "{\"rules\": [{\"patterns\": [\"\\ud83d\\ude00\u{E9}\\t.pdf$\"], \"properties\": {\"title\": \"x\"}}]}"
        let findings = try Lint.run(json, kind: .unescapedDot)
        try #require(findings.count == 1)
        let dot = Array(json.unicodeScalars).firstIndex(of: ".")!
        #expect(findings[0].location?.column == dot + 1)
    }
}
