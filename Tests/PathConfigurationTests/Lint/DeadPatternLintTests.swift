import PathConfiguration
import Testing

/// `dead-pattern`, checked against the library itself: whatever lint calls
/// dead under an app matches none of the URLs the pattern is written for,
/// resolved under that app.
@Suite("Lint: dead patterns, per profile")
struct DeadPatternLintTests {
    /// URLs a pattern's author may have meant, for `deadIsDead`: a pattern
    /// with a scheme and host as that URL (a path holding it is what the
    /// finding says it matches), any other as a path, with and without a
    /// query.
    private static func urls(for pattern: String) -> [String] {
        let text = pattern.replacingOccurrences(of: "^", with: "").replacingOccurrences(of: "$", with: "")
            .replacingOccurrences(of: "\\", with: "")
        if text.contains("://") { return [text, text + "?q=1"] }
        return ["https://example.com/" + text, "https://example.com/a/" + text + "?q=1", "https://example.com" + text]
    }

    @Test("what lint calls dead matches none of the URLs it was written for, in the apps it names",
          arguments: ["^https://example.com/admin", "^admin/", "http://localhost:3000/recede_historical_location",
                      "/caf\u{E9}$", "/\u{4E2D}\u{6587}/", "/caf\\u00E9$", "^\\x68ttps://example.com/", "/(?:x)caf\u{E9}$"])
    func deadIsDead(_ pattern: String) throws {
        let json = Lint.rule([pattern], #"{"dead": true}"#)
        var profiles = Profile.allCases
        profiles.append(try Profile(name: "hotwire-ios@main"))
        for profile in profiles {
            guard let finding = try Lint.run(json, kind: .deadPattern, profiles: [profile]).first else { continue }
            #expect(finding.profiles == [profile] && finding.patternIndex == 0 && finding.ruleIndex == 0)
            let configuration = try PathConfiguration(json: json, options: LoadOptions(profile: profile))
            for url in Self.urls(for: pattern) {
                let properties = try? configuration.resolve(url)
                #expect(properties?["dead"] == nil, "\(profile.rawValue) matches \(url) with \(pattern), which lint calls dead")
            }
        }
    }

    @Test("^ and a first character a path never starts with: the apps that match paths, not siesta, which matches the URL")
    func anchored() throws {
        let json = Lint.rule(["/ok", "^https://example.com/admin"])
        let findings = try Lint.run(json, kind: .deadPattern)
        try #require(findings.count == 1)
        #expect(findings[0].patternIndex == 1 && findings[0].profiles == [.hotwireIOS, .turboIOS, .hotwireAndroid, .turboAndroid])
        #expect(findings[0].message.hasPrefix("pattern 1 \"^https://example.com/admin\" never matches: hotwire-ios, turbo-ios, hotwire-android and turbo-android match patterns against the URL's path"))
        #expect(findings[0].message.hasSuffix("never with \"h\""))
        let at = Lint.position(of: "^https", in: json)
        #expect([findings[0].location?.line, findings[0].location?.column] == [at[0], at[1]], "at the pattern")
        #expect(try Lint.run(Lint.rule(["^https://example.com/admin"]), kind: .deadPattern, profiles: [.siesta]).isEmpty)
    }

    @Test("a scheme and host where the app sees the path: matches only a path that holds another URL")
    func schemeAndHost() throws {
        let findings = try Lint.run(Lint.rule(["http://localhost:3000/recede_historical_location"]), kind: .deadPattern)
        try #require(findings.count == 1)
        #expect(findings[0].message.contains("matches only a path that holds another URL"))
        #expect(findings[0].profiles.count == 4)
    }

    @Test("a character beyond ASCII: dead where the app sees the URL percent-encoded, alive where it decodes the path")
    func beyondASCII() throws {
        let json = Lint.rule(["/caf\u{E9}$"])
        let main = try Profile(name: "hotwire-ios@main")
        let encoded = try Lint.run(json, kind: .deadPattern, profiles: [main])
        #expect(encoded.count == 1 && encoded.first?.message.contains("percent-encoded URL") == true)
        let at = Lint.position(of: "\u{E9}", in: json)
        #expect([encoded.first?.location?.line, encoded.first?.location?.column] == [at[0], at[1]], "at the character")
        #expect(try Lint.run(json, kind: .deadPattern, profiles: [.hotwireIOS]).isEmpty, "hotwire-ios 1.2 matches url.path, decoded")
        let resolved = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireIOS)).resolve("https://example.com/caf%C3%A9")
        #expect(resolved["context"] != nil, "and it does match there")
    }

    @Test("a character written by code is read as the character: \\u00E9 is beyond ASCII, ^\\x68 starts with h")
    func byCode() throws {
        let main = try Profile(name: "hotwire-ios@main")
        let encoded = try Lint.run(Lint.rule([#"/caf\u00E9$"#]), kind: .deadPattern, profiles: [main])
        #expect(encoded.count == 1 && encoded.first?.message.contains("percent-encoded URL") == true)
        let anchored = try Lint.run(Lint.rule([#"^\x68ttps://example.com/"#]), kind: .deadPattern, profiles: [.hotwireIOS])
        #expect(anchored.first?.message.hasSuffix("never with \"h\"") == true)
        let quoted = try Lint.run(Lint.rule([#"^\Qh\E"#]), kind: .deadPattern, profiles: [.hotwireIOS])
        #expect(quoted.first?.message.hasSuffix("never with \"h\"") == true)
    }

    @Test("patterns that can match give no finding",
          arguments: ["^/admin", "\\dadmin", "^\\?tab=1", "^a?/b", "^h|/b", "^(?i)/x", ".*", "/caf%C3%A9$", "^$", "(?i)caf\u{E9}", "/caf\u{E9}?$", "/(caf\u{E9})?$", "/caf\u{E9}|/cafe",
                      "^\\x2Fadmin", "/caf\\u00E9?$", "(?i:/caf\u{E9})"])
    func alive(_ pattern: String) throws {
        #expect(try Lint.run(Lint.rule([pattern]), kind: .deadPattern).isEmpty)
        #expect(try Lint.run(Lint.rule([pattern]), kind: .deadPattern, profiles: [try Profile(name: "hotwire-ios@main")]).isEmpty)
    }
}
