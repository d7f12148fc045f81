import PathConfiguration
@testable import PathConfigCore
import Testing

extension Profile {
    /// hotwire-ios's main branch, which matches the path still percent-encoded.
    static let hotwireIOSMain = try! Profile(name: "hotwire-ios@main")

    /// One profile per release line of every app, oldest first, `@main`
    /// last: each line named by its first tag (`hotwire-ios@1.0.0`).
    static let everyRelease = App.allCases.flatMap { app in
        app.releases.map { line in try! Profile(app, version: line.tags.first ?? "main") }
    }
}

@Suite("Profiles")
struct ProfileTests {
    @Test("the string the patterns see", arguments: [
        (Profile.hotwireIOSMain, true, "https://x.dev/a/b/", "/a/b/"),
        (.turboIOS, false, "https://x.dev/a/b/", "/a/b"),
        (.turboIOS, false, "https://x.dev/", "/"),
        // Every release of hotwire-ios matches url.path, as turbo-ios does, and the query.
        (.hotwireIOS, true, "https://x.dev/a/b/", "/a/b"),
        (.hotwireIOS, true, "https://x.dev/caf%C3%A9/?q=%20#frag", "/café?q=%20"),
        (.hotwireIOS, false, "https://x.dev/a%2Fb/c", "/a/b/c"),
        (.turboIOS, false, "https://x.dev", ""),
        (.hotwireIOSMain, true, "https://x.dev/caf%C3%A9?q=%20#frag", "/caf%C3%A9?q=%20"),
        // hotwire-ios reads URL.path(): percent-encoded, as URL(string:) keeps it.
        (.hotwireIOSMain, false, "https://x.dev/café/new", "/caf%C3%A9/new"),
        (.hotwireIOSMain, false, "https://x.dev/a%2Fb/c", "/a%2Fb/c"),
        (.hotwireIOSMain, false, "https://x.dev/a%20b", "/a%20b"),
        (.hotwireIOSMain, false, "https://x.dev/a b", "/a%20b"),
        (.hotwireIOSMain, false, "https://x.dev/caf%C3%A9/é", "/caf%25C3%25A9/%C3%A9"),
        (.hotwireIOSMain, false, "https://x.dev/a%zz", "/a%25zz"),
        (.hotwireIOSMain, true, "https://x.dev/s?q=caf%C3%A9&x=%2F", "/s?q=caf%C3%A9&x=%2F"),
        (.hotwireIOSMain, true, "https://x.dev/s?q=café x", "/s?q=caf%C3%A9%20x"),
        (.hotwireIOSMain, true, "https://x.dev/s?q=%20&x=é", "/s?q=%2520&x=%C3%A9"),
        // turbo-ios reads URL.path: decoded, one trailing slash dropped.
        (.turboIOS, false, "https://x.dev/caf%C3%A9/", "/café"),
        (.turboIOS, false, "https://x.dev/a%2Fb/", "/a/b"),
        (.turboIOS, false, "https://x.dev/a%20b", "/a b"),
        (.turboIOS, false, "https://x.dev/a%ff", ""),
        (.turboIOS, false, "https://x.dev/a%2F", "/a"),
        (.turboIOS, false, "https://x.dev//", "/"),
        // Trailing slashes are trimmed by Character: a slash after a prepended
        // mark (U+0600) is part of its Character, and stays; after a combining
        // mark it is a Character of its own.
        (.turboIOS, false, "https://x.dev/a%D8%80/", "/a\u{600}/"),
        (.turboIOS, false, "https://x.dev/a%CC%81/", "/a\u{301}"),
        (.turboIOS, false, "https://x.dev/%2F%2F", "/"),
        (.turboIOS, true, "HTTPS://x.dev/a/?q=1", "/a?q=1"),
        (.turboIOS, true, "https://x.dev/a?q=é", "/a?q=%C3%A9"),
        (.hotwireAndroid, true, "https://x.dev/a%20b?q=é", "/a%20b?q=é"),
        // Delimiters count by byte: a combining mark after "#" or "?" does not hide it.
        (.hotwireAndroid, true, "https://x.dev/a#\u{301}b", "/a"),
        (.hotwireIOS, true, "https://x.dev/a?\u{301}", "/a?%CC%81"),
        (.hotwireIOS, false, "https://x.dev/a?q=1", "/a"),
        (.hotwireIOS, true, "https://x.dev/a?", "/a?"),
        (.hotwireIOS, true, "https://x.dev/a#x?y", "/a"),
        (.turboIOS, true, "https://x.dev/a/?b=1", "/a?b=1"),
        (.hotwireIOS, true, "mailto:test@example.com", "test@example.com"),
        (.hotwireAndroid, true, "https://x.dev/caf%C3%A9/?q=1", "/caf%C3%A9/?q=1"),
        (.hotwireAndroid, true, "mailto:test@example.com", ""),
        (.turboAndroid, true, "custom-app://feature", ""),
        (.hotwireAndroid, true, "HTTPS://x.dev/A", "/A"),
        // java.net.URL: a port that is not an int, a bad IPv6 literal, a [
        // without ] are rejected (""); white space up to U+0020 is trimmed at
        // both ends and a leading url: skipped; //// starts a path; a jar:
        // URL's query follows its last ?; the path is never decoded.
        (.hotwireAndroid, true, "https://x.dev:abc/new", ""),
        (.hotwireAndroid, true, "https://x.dev:99999999999/new", ""),
        (.hotwireAndroid, true, "https://x.dev:-2/new", ""),
        (.hotwireAndroid, true, "https://x.dev:-1/new", "/new"),
        (.hotwireAndroid, true, "https://x.dev:/new", "/new"),
        (.hotwireAndroid, true, "https://x.dev:\u{668}\u{660}/new", "/new"),
        (.hotwireAndroid, true, "https://[::1/new", ""),
        (.hotwireAndroid, true, "https://[::g]/new", ""),
        (.hotwireAndroid, true, "https://[::1]:8080/new?a", "/new?a"),
        (.hotwireAndroid, true, "https://a@b@c:x/new", "/new"),
        (.hotwireAndroid, true, " \thttps://x.dev/new \n", "/new"),
        (.turboAndroid, true, "url:HTTPS://x.dev/new", "/new"),
        (.hotwireAndroid, true, "https://x.dev/a b\\c ", "/a b\\c"),
        (.hotwireAndroid, true, "https:////x.dev/new", "////x.dev/new"),
        (.hotwireAndroid, true, "https://x.dev", ""),
        (.hotwireAndroid, true, "https:new?q", "new?q"),
        (.hotwireAndroid, true, "https://x.dev/a#b?c", "/a"),
        (.hotwireAndroid, true, "jar:file:/app.jar!/a?b?c", "file:/app.jar!/a?b?c"),
        (.hotwireAndroid, true, "jar:file:/app.jar", ""),
        (.hotwireAndroid, true, "mailto:test@example.com", ""),
        (.hotwireAndroid, true, "url:/new", "url:/new"),
        (.hotwireAndroid, true, "a b:c", "a b:c"),
        (.hotwireIOS, true, "/new?x=1", "/new?x=1"),
        (.turboIOS, false, "foo", "foo"),
    ])
    func matchedString(_ profile: Profile, _ query: Bool, _ input: String, _ expected: String) {
        #expect(profile.matchedString(for: input, matchQueryStrings: query) == expected)
    }

    @Test("where a URL's matched string is a run of its bytes, those bytes are exactly it: generated URLs, every profile",
          arguments: Profile.everyRelease)
    func matchedRangeAgrees(_ profile: Profile) {
        let schemes = ["https", "http", "HTTPS", "ftp", "file", "jar", "foo", "a+b.c-d", "url:https", " https"]
        let authorities = ["//x.dev", "//user@X.Dev:8080", "//", "", "///", "//x.dev:abc", "//x.dev:-1", "//x.dev:", "//[::1]",
                           "//[::1]:80", "//[::1", "//a@b@c:x", "//x.dev:1234567890", "//x.dev:123456789", "//x]"]
        let pieces = ["/", "/", "a", "Z", "0", "%", "%2F", "%41", "%zz", "%C3%A9", "-", ".", "_", "~", "!", "$", "&", "'", "(", ")",
                      "*", "+", ",", ";", "=", ":", "@", "\"", "<", ">", "[", "]", "{", "}", "|", "\\", "^", "`", " ", "//", "?"]
        var random = SplitMix(state: 0x5EED_0000 &+ UInt64(profile.rawValue.utf8.count))
        func part(_ count: Int) -> String { (0..<Int.random(in: 0...count, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        var taken = 0, wrong: [String] = []
        for n in 0..<20_000 {
            var url = schemes.randomElement(using: &random)! + ":" + authorities.randomElement(using: &random)!
            url += (n % 3 == 0 ? "" : "/") + part(6)
            if Bool.random(using: &random) { url += "?" + part(5) }
            if n % 5 == 0 { url += "#" + part(3) }
            if n % 7 == 0 { url += " " }
            for query in [true, false] {
                var text = url
                guard let range = text.withUTF8({ profile.matchedRange(inPrintable: $0, matchQueryStrings: query) }) else { continue }
                // Inputs without a scheme (" https:...") are paths, matched as given.
                if range != 0..<url.utf8.count || text.first != " " { taken += 1 }
                let bytes = String(decoding: Array(url.utf8)[range], as: UTF8.self)
                if bytes != profile.matchedString(for: url, matchQueryStrings: query) { wrong.append("\(url) (query \(query)): \(bytes)") }
            }
        }
        #expect(wrong.first == nil, "\(wrong.count) differ, such as \(wrong.prefix(3))")
        if profile.app == .siesta {
            #expect(taken == 0, "siesta matches the whole URL, written back")
        } else {
            #expect(taken > 2_000, "the byte path is exercised: \(taken)")
        }
    }

    @Test("a rule written for the percent-encoded path matches under hotwire-ios@main, the decoded one under its releases",
          arguments: Conformance.engineNames)
    func percentEncodedRules(engine: String) throws {
        let json = #"{"rules": [{"patterns": ["/caf%C3%A9/new$"], "properties": {"encoded": true}},"#
            + #"{"patterns": ["/café/new$"], "properties": {"decoded": true}}]}"#
        let e = Conformance.engine(engine)
        let main = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireIOSMain, engine: e))
        #expect(main.properties(for: "https://x.dev/café/new").json == #"{"encoded":true}"#)
        #expect(main.properties(for: "https://x.dev/caf%C3%A9/new").json == #"{"encoded":true}"#)
        let released = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireIOS, engine: e))
        #expect(released.properties(for: "https://x.dev/caf%C3%A9/new/").json == #"{"decoded":true}"#)
        let turbo = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS, engine: e))
        #expect(turbo.properties(for: "https://x.dev/caf%C3%A9/new").json == #"{"decoded":true}"#)
    }

    @Test("a URL java.net.URL rejects: hotwire-android matches \"\" (^$ rules), turbo-android crashes (the lookup throws, properties are {})",
          arguments: Conformance.engineNames)
    func rejectedURLs(engine: String) throws {
        let json = #"{"rules": [{"patterns": ["^$"], "properties": {"home": "y"}}, {"patterns": ["/new$"], "properties": {"new": "y"}}]}"#
        let e = Conformance.engine(engine)
        let hotwire = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid, engine: e))
        let turbo = try PathConfiguration(json: json, options: LoadOptions(profile: .turboAndroid, engine: e))
        for url in ["https://x.dev:abc/new", "mailto:a@x.dev", "https://[::1/new", "https://[::g]/new", "jar:mailto:a!/b", "jar:file:/a"] {
            #expect(try hotwire.resolve(url).json == #"{"home":"y"}"#, "\(url)")
            #expect(hotwire.matchedString(for: url) == "")
            do {
                _ = try turbo.resolve(url)
                Issue.record("turbo-android answered for \(url)")
            } catch {
                #expect(error.code == .unreadableURL)
                #expect(error.message.hasPrefix("turbo-android crashes on this URL: java.net.URL rejects it ("), "\(error.message)")
            }
            #expect(throws: ResolveError.self) { try turbo.explain(url) }
            #expect(throws: ResolveError.self) { try turbo.matchingRules(for: url) }
            #expect(turbo.properties(for: url).json == "{}")
            #expect(turbo.matchedString(for: url) == "")
        }
        // Both apps crash on a URL java.net.URL reads with a null path.
        for config in [hotwire, turbo] {
            #expect(throws: ResolveError.self) { try config.resolve(" jar:#x") }
            #expect(config.properties(for: " jar:#x").json == "{}")
        }
        // Trimmed, url: skipped; a bare path is matched as given by both.
        for config in [hotwire, turbo] {
            #expect(try config.resolve(" url:https://x.dev/new\t").json == #"{"new":"y"}"#)
            #expect(try config.resolve("/new").json == #"{"new":"y"}"#)
            #expect(try config.resolve("").json == #"{"home":"y"}"#)
        }
    }

    @Test("query matching defaults: on for all but turbo-ios")
    func queryDefaults() {
        #expect(Profile.allCases.filter(\.matchesQueryStringsByDefault) == Profile.allCases.filter { $0 != .turboIOS })
        #expect(LoadOptions(profile: .turboIOS).effectiveMatchQueryStrings == false)
        #expect(LoadOptions(profile: .turboIOS, matchQueryStrings: true).effectiveMatchQueryStrings == true)
    }

    @Test("Android matches case-insensitively, iOS does not", arguments: Conformance.engineNames)
    func caseSensitivity(engine: String) throws {
        let json = "{\"rules\": [{\"patterns\": [\"/NEW$\"], \"properties\": {\"m\": true}}]}"
        let e = Conformance.engine(engine)
        let android = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid, engine: e))
        let ios = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireIOS, engine: e))
        #expect(android.properties(for: "https://x.dev/new").json == "{\"m\":true}")
        #expect(ios.properties(for: "https://x.dev/new").json == "{}")
    }

    @Test("built-ins come after the file's rules and win the merge")
    func builtIns() throws {
        let json = "{\"rules\": [{\"patterns\": [\"historical\"], \"properties\": {\"presentation\": \"replace\", \"x\": 1}}]}"
        let ios = try PathConfiguration(json: json)
        #expect(ios.rules.count == 4)
        #expect(ios.rules[1...].allSatisfy { $0.isBuiltIn })
        #expect(ios.properties(for: "/recede_historical_location").json == "{\"presentation\":\"pop\",\"x\":1,\"context\":\"default\",\"historical_location\":true}")
        let android = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid))
        let p = android.properties(for: "https://x.dev/resume_historical_location")
        #expect(p["presentation"] == .string("NONE"))
        #expect(p.presentation == .none)
        #expect(p.context == .default)
        #expect(p.isHistoricalLocation)
        #expect(try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS)).rules.count == 1)
        #expect(try PathConfiguration(json: json, options: LoadOptions(profile: .turboAndroid)).rules.count == 1)
    }
}
