import PathConfiguration
import Testing

/// Corrupted documents must fail with a located error or load; never crash.
@Suite("Hostile input")
struct HostileInputTests {
    static let seeds: [String] = [
        Conformance.fixtureJSON(Conformance.ios, "test-configuration"),
        Conformance.fixtureJSON(Conformance.android, "hna_asset_test_configuration"),
        "{\"settings\": {\"tabs\": [{\"title\": \"é\", \"path\": \"/\"},]}, \"rules\": [{\"patterns\": [\"^/a(/\\\\d+)?$\", \"\\\\.pdf$\"], \"properties\": {\"n\": 1.5e3, \"s\": \"\\ud83d\\ude00\"}},]}",
    ]

    static let interesting: [UInt8] = Array("{}[]\",:\\/ \n0123456789.-+eEtrufalsn()[]*?^$|".utf8) + [0x00, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]

    @Test("mutated documents load or fail with a position inside the document", arguments: Profile.allCases)
    func mutations(_ profile: Profile) throws {
        var rng = SplitMix(state: 0x5EED_0000 &+ UInt64(Profile.allCases.firstIndex(of: profile)!))
        var loaded = 0, failed = 0
        for round in 0..<1_500 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: bytes[i] = Self.interesting.randomElement(using: &rng)!
                case 1: bytes.remove(at: i)
                case 2: bytes.insert(Self.interesting.randomElement(using: &rng)!, at: i)
                default: bytes.removeSubrange(i...)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            do {
                let config = try PathConfiguration(json: bytes, options: LoadOptions(profile: profile, lenient: round % 2 == 0))
                _ = config.properties(for: "https://example.com/a/new?x=1").json
                _ = try? config.explain("/edit").json  // throws only for a method or a rule from code
                loaded += 1
            } catch {
                failed += 1
                #expect(!error.message.isEmpty)
                if let location = error.location {
                    #expect(location.offset <= bytes.count)
                    #expect(location.line >= 1 && location.column >= 1)
                }
            }
        }
        #expect(loaded + failed == 1_500)
        #expect(failed > 0)
    }

    @Test("a URL over max_url_bytes fails with .limit before any pattern runs; at the limit it resolves")
    func urlLimit() throws {
        let json = "{\"rules\": [{\"patterns\": [\"^/(x|y)*$\"], \"properties\": {\"long\": true}}]}"
        let config = try PathConfiguration(json: json)
        #expect(Limits().maxURLBytes == 65_536)
        let atLimit = "/" + String(repeating: "x", count: 65_535)
        #expect(try config.resolve(atLimit).json == "{\"long\":true}")
        for call in ["resolve", "explain", "matchingRules"] {
            let over = atLimit + "x"
            do {
                switch call {
                case "resolve": _ = try config.resolve(over)
                case "explain": _ = try config.explain(over)
                default: _ = try config.matchingRules(for: over)
                }
                Issue.record("\(call) accepted \(over.utf8.count) bytes")
            } catch {
                #expect(error.code == .limit)
                #expect(error.message == "the URL is 65537 bytes, more than the limit of 65536 (max_url_bytes)")
            }
        }
        #expect(config.properties(for: atLimit + "x").json == "{}", "properties(for:) gives {} when resolve throws")

        // Counted in bytes of UTF-8, and set by the option.
        let small = try PathConfiguration(json: json, options: LoadOptions(json: "{\"max_url_bytes\": 8}"))
        #expect(try small.resolve("/xxxxxxx").json == "{\"long\":true}")
        #expect(throws: ResolveError.self) { try small.resolve("/xxxxxxé") }  // 8 characters, 9 bytes
    }

    @Test("hostile URLs resolve without trouble", arguments: [
        "", "?", "#", "://", "http://", "http://x?%", "http://x/%zz%", "http://x/%C3%28", String(repeating: "/a", count: 50_000),
        "http://[::1]:80/a?b#c", "a:b:c", "\u{0}/new", "/new\u{0}", "HTTP://X/NEW", "http://x/\u{FEFF}new",
    ])
    func urls(_ input: String) throws {
        for profile in Profile.allCases {
            let config = try PathConfiguration(json: Conformance.fixtureJSON(Conformance.ios, "test-configuration"), options: LoadOptions(profile: profile))
            let result = config.properties(for: input)
            #expect(result.json.hasPrefix("{"))
        }
    }
}
