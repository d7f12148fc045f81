import EntryPointFuzzing
import PathConfiguration
import Testing

/// `ConfigurationPort`: each app, on its ported file, answers every covered
/// URL as the reference answers it on the original, for the conformance
/// fixtures, the examples and random configurations; what it refuses, it
/// names.
@Suite("port: each app answers as the reference")
struct ConfigurationPortTests {
    static let mobile = PortFuzzer.apps
    static let generatedURLs = PortFuzzer.urls

    /// Every conformance case's URL.
    static let conformanceURLs: [String] = {
        var urls: Set<String> = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let o):
                for (key, v) in o {
                    if key == "url", let s = v.stringValue { urls.insert(s) } else { collect(v) }
                }
            case .array(let a): a.forEach(collect)
            default: break
            }
        }
        collect(.object(Conformance.ios))
        collect(.object(Conformance.android))
        return urls.sorted()
    }()

    /// Checks `document` ported from every mobile reference to the four
    /// mobile apps together, and to each alone (which writes for one
    /// platform, with fewer rewrites): agreement on every covered URL of
    /// `urls` for each app without a refusal. Returns how many pairs of a
    /// reference and another app were checked.
    @discardableResult
    static func checkAgreement(_ document: String, urls: [String], label: String) throws -> Int {
        var checked = 0
        for reference in mobile {
            var options = LoadOptions(profile: reference)
            options.keepsSource = true
            guard let original = try? PathConfiguration(json: document, options: options) else { continue }
            for apps in [mobile] + mobile.map({ [$0] }) {
                checked += try checkAgreement(original, to: apps, urls: urls, label: label)
            }
        }
        return checked
    }

    /// `PortFuzzer`'s checks for one reference and one selection of apps,
    /// recorded as an issue when one fails.
    static func checkAgreement(_ original: PathConfiguration, to apps: [Profile], urls: [String], label: String) throws -> Int {
        do { return try PortFuzzer.check(original, to: apps, urls: urls) } catch {
            Issue.record("\(label): \(error)")
            return 0
        }
    }

    @Test("the conformance fixtures: every app without a refusal answers each covered URL as the reference")
    func conformanceFixtures() throws {
        var checked = 0
        for file in [Conformance.ios, Conformance.android] {
            for (name, fixture) in file["fixtures"]?.objectValue ?? [:] {
                checked += try Self.checkAgreement(JSONWriter.compact(fixture), urls: Self.conformanceURLs + Self.generatedURLs, label: name)
            }
        }
        #expect(checked > 20)
    }

    @Test("the examples: every app without a refusal answers each covered URL as the reference")
    func examples() throws {
        var checked = 0
        for name in ["path-configuration.json", "path-configuration.next.json"] {
            let text = String(decoding: try Conformance.readFile(Conformance.repositoryRoot + "/examples/" + name), as: UTF8.self)
            checked += try Self.checkAgreement(text, urls: Self.generatedURLs, label: name)
        }
        #expect(checked > 0)
    }

    @Test("random configurations and URLs: every app without a refusal agrees with the reference", arguments: 0..<4)
    func randomConfigurations(seed: UInt64) throws {
        var random = SplitMix(state: 0x5EED_0000 + seed)
        let pieces = ["^", "/posts", "/new", "/edit", "\\d+", "[0-9]+", "[a-z]+", ".*", ".", "$", "/", "(?:new|edit)",
                      "\\.pdf", "\\?", "[^/]+", "\\w+", "(new|EDIT)", "s?", "[?=]", "\\D", "\\b", "(?=/)", "x{1,2}", "\\/",
                      "_historical_location", "|", "N", "\\s*", "%2F", "[\\d.]", "(?!/new)"]
        var checked = 0, total = 0
        for _ in 0..<60 {
            var rules: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                var patterns: [String] = []
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    var p = ""
                    for _ in 0..<Int.random(in: 1...4, using: &random) { p += pieces.randomElement(using: &random)! }
                    if p.hasSuffix("|") || p.hasPrefix("|") { p = p.filter { $0 != "|" } }
                    patterns.append(JSONWriter.quoted(p))
                }
                let value = Bool.random(using: &random) ? "\"v\(Int.random(in: 0...9, using: &random))\"" : (Bool.random(using: &random) ? "true" : "7")
                rules.append("{\"patterns\": [\(patterns.joined(separator: ","))], \"properties\": {\"k\(Int.random(in: 0...2, using: &random))\": \(value)}}")
            }
            let document = "{\"settings\": {}, \"rules\": [\(rules.joined(separator: ","))]}"
            total += 4
            checked += try Self.checkAgreement(document, urls: Self.generatedURLs, label: document)
        }
        // Not vacuous: many pairs port without a refusal and are checked.
        #expect(checked > total, "only \(checked) of \(total * 3) pairs of two apps checked")
    }

    @Test("what port refuses, it names by app, rule and pattern")
    func refusals() throws {
        let original = try PathConfiguration(json: """
            {"rules": [
              {"patterns": ["/new$"], "properties": {"context": "modal", "animated": false}, "description": "Forms"},
              {"patterns": ["(?i)/edit"], "properties": {"flag": true}},
              {"patterns": ["^/posts"], "properties": {"section": "posts"}},
              {"patterns": ["$"], "properties": {"everywhere": true}},
              {"patterns": ["^$"], "properties": {"nowhere": true}}
            ]}
            """, options: LoadOptions(profile: .hotwireIOS))
        let port = ConfigurationPort(original, to: Self.mobile, strict: true)
        let lines = port.refusals.map(\.description)
        #expect(lines.contains { $0.hasPrefix("turbo-ios: rule 0 (\"Forms\") pattern 0 \"/new$\": turbo-ios never sees the query string") })
        #expect(lines.contains { $0.hasPrefix("hotwire-android: rule 1 pattern 0 \"(?i)/edit\": inline flags") })
        #expect(lines.contains { $0.hasPrefix("turbo-android: rule 1: turbo-android keeps every value as a string, so \"flag\": true") })
        // A boolean of the typed catalog is read alike there ("true" is true): not refused.
        #expect(!lines.contains { $0.hasPrefix("turbo-android: rule 0") })
        // hotwire-android's own built-in rules: their URLs are not covered.
        #expect(!port.coveredURLs.contains("https://example.com/RECEDE_historical_location?x"))
        #expect(port.coveredURLs.contains("https://example.com/recede"))
        // ^/posts is blind to the query: not refused for turbo-ios.
        #expect(!lines.contains { $0.hasPrefix("turbo-ios: rule 2") })
        // $ matches every string, with or without a query (as MatchPlan's matchesEverySubject says); ^$ does not.
        #expect(!lines.contains { $0.hasPrefix("turbo-ios: rule 3") })
        #expect(lines.contains { $0.hasPrefix("turbo-ios: rule 4 pattern 0 \"^$\": turbo-ios never sees the query string") })
        // --strict: an app with a refusal gets no file.
        #expect(port.outputs.isEmpty)
    }

    @Test("keys spelt apart but canonically equivalent: one key on iOS, two on Android, refused between the platforms")
    func keysSpeltApart() throws {
        // "café" with U+00E9 and with e + U+0301; "K" and U+212A KELVIN SIGN in one object.
        let document = #"{"rules": [{"patterns": [".*"], "properties": {"caf\u00e9": "one", "context": "modal"}}, "#
            + #"{"patterns": ["^/b"], "properties": {"cafe\u0301": "two"}}, {"patterns": ["^/c"], "properties": {"K": "1", "\u212a": "2"}}]}"#
        func refusals(from reference: Profile) throws -> [String] {
            var options = LoadOptions(profile: reference)
            options.keepsSource = true
            let original = try PathConfiguration(json: document, options: options)
            _ = try Self.checkAgreement(original, to: Self.mobile, urls: Self.generatedURLs, label: reference.rawValue)
            return ConfigurationPort(original, to: Self.mobile).refusals.map(\.description).filter { $0.contains("canonically equivalent") }
        }
        let fromAndroid = try refusals(from: .hotwireAndroid)
        #expect(fromAndroid.contains { $0.hasPrefix(#"hotwire-ios: rule 1: the key "café" (U+0063 U+0061 U+0066 U+0065 U+0301) and "café" (U+0063 U+0061 U+0066 U+00E9) of rule 0 are canonically equivalent"#) })
        #expect(fromAndroid.contains { $0.hasPrefix(#"turbo-ios: rule 2: the key "\#u{212A}" (U+212A) and "K" (U+004B) before it in this rule"#) })
        #expect(fromAndroid.count == 4 && !fromAndroid.contains { $0.hasPrefix("turbo-android") })
        // The iOS apps read the object's two keys as one: only the rules' keys are apart on Android.
        let fromIOS = try refusals(from: .hotwireIOS)
        #expect(fromIOS.count == 2 && ["hotwire-android", "turbo-android"].allSatisfy { app in fromIOS.contains { $0.hasPrefix(app + ": rule 1: ") } })
    }

    @Test("siesta, an API client, is refused as the reference and as an app, and gets no file")
    func siesta() throws {
        let document = #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}]}"#
        let fromSiesta = ConfigurationPort(try PathConfiguration(json: document, options: LoadOptions(profile: .siesta)), to: [.hotwireIOS])
        #expect(fromSiesta.refusals.map(\.app) == [.hotwireIOS] && fromSiesta.outputs.isEmpty)
        let toSiesta = ConfigurationPort(try PathConfiguration(json: document, options: LoadOptions(profile: .hotwireIOS)), to: [.siesta, .hotwireAndroid])
        #expect(toSiesta.refusals.map(\.app) == [.siesta])
        #expect(toSiesta.outputs.map(\.apps) == [[.hotwireAndroid]])
    }

    @Test("\\h and \\v are spelled out as their own ASCII sets, not \\s's")
    func horizontalAndVerticalSpace() throws {
        let original = try PathConfiguration(json: #"""
            {"rules": [{"patterns": ["^/a[\\h]b", "^/c\\H", "^/d\\v", "^/e\\V"], "properties": {"context": "modal"}}]}
            """#, options: LoadOptions(profile: .hotwireIOS))
        let text = try #require(ConfigurationPort(original, to: [.hotwireAndroid]).outputs.first?.text)
        #expect(text.contains(#""(?-i)^/a[\\t ]b""#))
        #expect(text.contains(#""(?-i)^/c[^\\t ]""#))
        #expect(text.contains(#""(?-i)^/d[\\n\\x0B\\f\\r]""#))
        #expect(text.contains(#""(?-i)^/e[^\\n\\x0B\\f\\r]""#))
    }

    @Test("one file when one serves every app: (?i) where every engine here reads it, letters in both cases where not")
    func oneFile() throws {
        let original = try PathConfiguration(json: """
            {"settings": {}, "rules": [{"patterns": ["^/posts/\\\\d+$", ".*", "^/users/sign_in(\\\\?|$)"], "properties": {"context": "modal"}}]}
            """, options: LoadOptions(profile: .hotwireAndroid))
        let port = ConfigurationPort(original, to: [.hotwireAndroid, .hotwireIOS])
        // hotwire-ios's built-ins differ from hotwire-android's: their URLs are not covered.
        #expect(port.outputs.count == 1)
        let text = try #require(port.outputs.first?.text)
        // "st" in a case-insensitive ICU literal is what the pcre2 backend cannot read as ICU does (ﬆ).
        #expect(text.contains("\"^/[pP][oO][sS][tT][sS]/[0-9]+$\""))
        #expect(text.contains("\"(?i).*\""))
        #expect(text.contains(#""(?i)^/users/sign_in(\\?|$)""#))
        #expect(!text.contains("[uU]"))
        #expect(port.rewrites.contains { $0.hasPrefix("every pattern but those below starts with (?i): hotwire-android matches case-insensitively") })
        #expect(port.rewrites.contains { $0.hasPrefix("letters are written in both cases (/posts as /[pP][oO][sS][tT][sS]) in 1 pattern in place of (?i)") })
    }
}
