import PathConfiguration
import Testing

@Suite("Lint: invalid patterns, per profile engine")
struct InvalidPatternLintTests {
    @Test("a pattern only Java rejects is reported for the Android profiles, pointing where the engine stopped")
    func javaOnly() throws {
        // `\y` is the letter y in ICU and an error in java.util.regex.
        let json = "{\"rules\": [\n  {\"description\": \"Years\", \"patterns\": [\"/archive/\\\\y\"], \"properties\": {\"context\": \"modal\"}}\n]}"
        let findings = try Lint.run(json, kind: .invalidPattern)
        try #require(findings.count == 1)
        let f = findings[0]
        #expect(f.profiles == [.hotwireAndroid, .turboAndroid])
        #expect(f.ruleIndex == 0 && f.patternIndex == 0 && f.ruleDescription == "Years")
        #expect(f.location?.line == 2)
        // The column is past the pattern's quote, inside the pattern: the engine's offset counts its characters.
        let line = String(json.split(separator: "\n")[1])
        let quote = Array(line.unicodeScalars).firstIndex(of: "/")!  // 0-based index after the quote: the quote's column
        let column = try #require(f.location?.column)
        #expect(column > quote + 1 && column <= quote + 1 + "/archive/\\\\y".count)
        #expect(f.message.hasPrefix("pattern 0: invalid regular expression \"/archive/\\\\y\""))
        #expect(f.message.hasSuffix("(under hotwire-android, turbo-android)"))
        #expect(f.summary.hasPrefix("rule 0 (\"Years\"): pattern 0: "))
        #expect(try Lint.run(json, kind: .invalidPattern, profiles: [.hotwireIOS, .turboIOS]).isEmpty)
    }

    @Test("a pattern every engine rejects alike is one finding naming every profile")
    func everywhere() throws {
        let findings = try Lint.run(Lint.rule(["/ok", "/a("]), kind: .invalidPattern)
        #expect(findings.map(\.patternIndex) == [1])
        #expect(findings.first?.profiles == [.hotwireIOS, .turboIOS, .hotwireAndroid, .turboAndroid])
        #expect(findings.first?.message == "pattern 1: invalid regular expression \"/a(\" at offset 3: missing closing parenthesis (under hotwire-ios, turbo-ios, hotwire-android, turbo-android)")
    }

    @Test("a rule that gives \"patterns\" twice: each app's patterns checked, the iOS apps' first and the Android apps' last, each at its place")
    func repeatedPatterns() throws {
        // The lint fuzzer found this: the iOS apps reject (?<n>/a, which the Android apps never read.
        let json = #"{"settings": {}, "rules": [{"patterns": ["(?<n>/a"], "properties": {"k": "v"}, "patterns": ["/b", "[x"]}]}"#
        let findings = try Lint.run(json, kind: .invalidPattern)
        try #require(findings.count == 2)
        #expect(findings[0].profiles == [.hotwireIOS, .turboIOS] && findings[0].patternIndex == 0)
        #expect(findings[0].message.hasPrefix("pattern 0: invalid regular expression \"(?<n>/a\""))
        #expect(findings[0].location?.column == 50)  // the pattern starts at column 43; the engine stopped 7 in
        #expect(findings[1].profiles == [.hotwireAndroid, .turboAndroid] && findings[1].patternIndex == 1)
        #expect(findings[1].message.hasPrefix("pattern 1: invalid regular expression \"[x\""))
        #expect(findings[1].location?.line == 1 && findings[1].location!.column > 90)
        // And under each app alone, exactly when its strict load fails on a pattern.
        for profile in [Profile.hotwireIOS, .hotwireAndroid] {
            let loads = (try? PathConfiguration(json: json, options: LoadOptions(profile: profile))) != nil
            #expect(try Lint.run(json, kind: .invalidPattern, profiles: [profile]).isEmpty == loads)
        }
    }

    @Test("valid patterns give no finding", arguments: [".*", "/messages/\\d+$", "^/users/[a-z]+/edit", "(?i)/help"])
    func valid(_ pattern: String) throws {
        #expect(try Lint.run(Lint.rule([pattern]), kind: .invalidPattern).isEmpty)
    }
}

@Suite("Lint: $ before a query string")
struct QueryStringAnchorLintTests {
    @Test("a pattern ending in a literal and $ is reported where query strings are matched, at the $")
    func reported() throws {
        let findings = try Lint.run(Lint.rule(["/messages/new$"]), kind: .queryStringAnchor)
        try #require(findings.count == 1)
        #expect(findings[0].profiles == [.hotwireIOS, .hotwireAndroid, .turboAndroid])  // turbo-ios matches paths only
        #expect(findings[0].location?.column == 27 + "/messages/new".count)
        #expect(findings[0].message == #"pattern 0 "/messages/new$" does not match URLs with a query string (such as ?page=2): hotwire-ios, hotwire-android and turbo-android match patterns against the path and query string together; write "/messages/new(?:$|\\?)" to match with or without one"#)
        #expect(try Lint.run(Lint.rule(["/new$"]), kind: .queryStringAnchor, profiles: [.turboAndroid]).first?.message.contains(": turbo-android matches patterns against") == true)
    }

    @Test("the suggested pattern does match with and without a query, and the original does not")
    func suggestionWorks() throws {
        let original = try PathConfiguration(json: Lint.rule(["/messages/new$"]))
        let suggested = try PathConfiguration(json: Lint.rule([#"/messages/new(?:$|\?)"#]))
        #expect(original.properties(for: "https://example.com/messages/new?draft=1").json == "{}")
        #expect(suggested.properties(for: "https://example.com/messages/new?draft=1").json == #"{"context":"modal"}"#)
        #expect(suggested.properties(for: "https://example.com/messages/new").json == #"{"context":"modal"}"#)
        #expect(suggested.properties(for: "https://example.com/messages/newer").json == "{}")
    }

    @Test("no finding where the $ cannot be said to stop a query", arguments: [
        "/messages/new",            // no anchor
        "/messages/\\d+$",          // a class before the $
        "/(new|edit)$",             // a group before the $
        "/search\\?page=1$",        // already expects a query
        "/a[?]b$",                  // a ? in a class
        "/a$|/b",                   // the $ is not last
        "/a|/b$",                   // alternation at the top
        ".*$", "$",                 // matches everything
        "\\Q/a$\\E",                 // quoted: the $ is a literal
        "(?x)/a # note$",           // extended mode
    ])
    func notReported(_ pattern: String) throws {
        #expect(try Lint.run(Lint.rule([pattern]), kind: .queryStringAnchor).isEmpty)
    }

    @Test("nothing under profiles that match paths only")
    func pathsOnly() throws {
        #expect(try Lint.run(Lint.rule(["/new$"]), kind: .queryStringAnchor, profiles: [.turboIOS]).isEmpty)
        var load = LoadOptions()
        load.matchQueryStrings = false
        #expect(try Lint.run(Lint.rule(["/new$"]), kind: .queryStringAnchor, load: load).isEmpty)
        load.matchQueryStrings = true
        #expect(try Lint.run(Lint.rule(["/new$"]), kind: .queryStringAnchor, profiles: [.turboIOS], load: load).count == 1)
    }
}

@Suite("Lint: an unescaped dot before a file extension")
struct UnescapedDotLintTests {
    @Test("reported at the dot, with the escaped pattern", arguments: [
        ("/file.pdf$", 5), (".json$", 0), ("/feed.rss", 5), ("/reports/.*.xlsx$", 11), ("(?i)/a.PDF$", 6),
    ])
    func reported(_ pattern: String, _ dot: Int) throws {
        let findings = try Lint.run(Lint.rule([pattern]), kind: .unescapedDot)
        try #require(findings.count == 1)
        // The pattern's quote is at column 26 of the one-line document; the JSON text has no escapes here.
        #expect(findings[0].location?.column == 27 + dot)
        var fixed = Array(pattern)
        fixed.insert("\\", at: dot)
        #expect(findings[0].message.hasSuffix("escape it: \(JSONWriter.quoted(String(fixed)))"))
        let ext = String(pattern.dropFirst(dot + 1).prefix { $0.isLetter || $0.isNumber })
        #expect(findings[0].message.contains("the \".\" before \"\(ext)\" matches any character"))
    }

    @Test("not reported where a dot may mean any character", arguments: [
        "\\.pdf$", "/file[.]pdf$", "/api/v1.0$", "/a.b$", "/users/.+", "/file.pdf/download", ".*", "/a.verylongext$",
        "/file.pdf?$", "/v1.json/x", "\\Q.pdf\\E",
    ])
    func notReported(_ pattern: String) throws {
        #expect(try Lint.run(Lint.rule([pattern]), kind: .unescapedDot).isEmpty)
    }

    @Test("the column counts characters, through JSON escapes and non-ASCII text")
    func columnThroughEscapes() throws {
        // "/caf\u00e9\\/menu.pdf$": the dot is character 11 of the pattern, at byte 26 + 1 + 21 of the line.
        let json = #"{"rules": [{"patterns": ["/caf\u00e9\\/menu.pdf$"], "properties": {"context": "modal"}}]}"#
        let findings = try Lint.run(json, kind: .unescapedDot)
        try #require(findings.count == 1)
        let quote = Array(json.unicodeScalars).firstIndex(of: "/")! - 1
        let dotInJSON = Array(json.unicodeScalars)[(quote + 1)...].firstIndex(of: ".")!
        #expect(findings[0].location?.column == dotInJSON + 1)
    }
}
