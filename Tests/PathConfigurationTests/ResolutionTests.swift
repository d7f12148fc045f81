import PathConfiguration
@testable import PathConfigCore
import Testing

@Suite("Resolution")
struct ResolutionTests {
    let json = """
    {"rules": [
      {"patterns": [".*"], "properties": {"context": "default", "nested": {"a": 1}, "n": 1}},
      {"patterns": ["/new$", "/edit$"], "properties": {"context": "modal", "nested": {"b": 2}}, "description": "forms"},
      {"patterns": [], "properties": {"never": true}}
    ]}
    """

    @Test("a lookup matching more rules than its stack holds (FileRules.bufferedMatches) merges them all, with and without methods",
          arguments: [false, true])
    func manyMatchingRules(methods: Bool) throws {
        let count = FileRules.bufferedMatches + 9
        // Rule i sets "k<i>" and "last"; rules that list methods apply to POST only when `methods`.
        let rules = (0..<count).map { i in
            let methodList = methods && i % 3 == 0 ? #", "methods": ["POST"]"# : ""
            return #"{"patterns": ["/a", "^/a/b$"], "properties": {"k\#(i)": \#(i), "last": \#(i)}\#(methodList)}"#
        }
        var options = LoadOptions(profile: .turboIOS)
        options.limits.resultCacheCapacity = 0
        let config = try PathConfiguration(json: #"{"rules": [\#(rules.joined(separator: ","))]}"#, options: options)
        for method in ["GET", "POST"] {
            let applying = (0..<count).filter { !(methods && $0 % 3 == 0 && method == "GET") }
            let result = try config.resolve("/a/b", method: method)
            #expect(result.object.keys == applying.flatMap { $0 == applying.first ? ["k\($0)", "last"] : ["k\($0)"] })
            #expect(result["last"] == .number(JSONNumber(Int64(applying.last!))))
            #expect(try config.matchingRules(for: "/a/b", method: method).map(\.ruleIndex) == applying)
        }
    }

    /// Three rules' keys, canonically equivalent in pairs, spelt apart.
    static let equivalentKeys: [[(String, Int)]] = [
        [("caf\u{E9}", 1), ("K", 2)], [("cafe\u{301}", 3), ("\u{212A}", 4), ("\u{2126}", 5)], [("\u{3A9}", 6), ("caf\u{E9}", 7)],
    ]

    @Test("keys canonically equivalent, spelt apart in different rules: the iOS profiles merge them as Swift's dictionaries do, the Android ones keep each")
    func canonicallyEquivalentKeys() throws {
        let rules = Self.equivalentKeys.map { keys in
            #"{"patterns": ["/a"], "properties": {"# + keys.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}}"
        }
        let json = #"{"rules": ["# + rules.joined(separator: ", ") + "]}"
        // The iOS apps: `properties.merge(rule.properties) { _, new in new }` on [String: AnyHashable].
        var swift: [String: Int] = [:]
        for keys in Self.equivalentKeys { swift.merge(keys.map { ($0.0, $0.1) }, uniquingKeysWith: { _, new in new }) }
        for profile in [Profile.hotwireIOS, .turboIOS] {
            let result = try PathConfiguration(json: json, options: LoadOptions(profile: profile)).properties(for: "/a")
            #expect(result.count == swift.count, "\(profile): \(result.json)")
            for (key, value) in result.object {
                let kept = try #require(swift.first { $0.key == key }, "\(profile): \(key)")
                #expect(Array(key.unicodeScalars) == Array(kept.key.unicodeScalars) && value == .number(JSONNumber(Int64(kept.value))), "\(profile): \(result.json)")
            }
        }
        // The Android apps' maps compare UTF-16 units: five keys, the last "café" replacing the first.
        for profile in [Profile.hotwireAndroid, .turboAndroid] {
            let result = try PathConfiguration(json: json, options: LoadOptions(profile: profile)).properties(for: "/a")
            #expect(result.object.keys.map { Array($0.unicodeScalars) } == ["caf\u{E9}", "K", "cafe\u{301}", "\u{212A}", "\u{2126}", "\u{3A9}"].map { Array($0.unicodeScalars) },
                    "\(profile): \(result.json)")
            #expect(result["caf\u{E9}"].map { $0 == .number(JSONNumber(Int64(7))) || $0 == .string("7") } == true)
        }
    }

    @Test("merge is shallow, in order, later rules winning; key order is first appearance")
    func merge() throws {
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS))
        #expect(config.properties(for: "/a/new").json == "{\"context\":\"modal\",\"nested\":{\"b\":2},\"n\":1}")
        #expect(config.properties(for: "/a").json == "{\"context\":\"default\",\"nested\":{\"a\":1},\"n\":1}")
    }

    @Test("explain names each matching rule, its first matching pattern and description")
    func explain() throws {
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS))
        let e = try config.explain("https://x.dev/a/edit/?q=1")
        #expect(e.matchedString == "/a/edit")
        #expect(e.rules.map(\.index) == [0, 1])
        #expect(e.rules[1].pattern == "/edit$")
        #expect(e.rules[1].patternIndex == 1)
        #expect(e.json == "{\"input\":\"https://x.dev/a/edit/?q=1\",\"method\":\"GET\",\"url\":\"https://x.dev/a/edit/?q=1\",\"matched_string\":\"/a/edit\",\"rules\":[{\"index\":0,\"pattern\":\".*\",\"pattern_index\":0},{\"index\":1,\"pattern\":\"/edit$\",\"pattern_index\":1,\"description\":\"forms\"}],\"properties\":{\"context\":\"modal\",\"nested\":{\"b\":2},\"n\":1}}")
    }

    @Test("repeated lookups share one cached result; with the lookup cache off, lookups matching the same rules still share one")
    func cache() throws {
        let config = try PathConfiguration(json: json)
        #expect(config.properties(for: "/x/new") === config.properties(for: "https://other.host/x/new"))
        var limits = Limits()
        limits.resultCacheCapacity = 0
        let uncached = try PathConfiguration(json: json, options: LoadOptions(limits: limits))
        #expect(uncached.properties(for: "/x/new") === uncached.properties(for: "/y/new"), "one result per set of matching rules")
        #expect(uncached.properties(for: "/x/new") !== uncached.properties(for: "/x"))
        #expect(uncached.properties(for: "/x/new").json == config.properties(for: "/x/new").json)
    }

    /// Pairs of strings Swift's `==` calls equal (canonical equivalence) whose
    /// code points differ, with a pattern (as JSON string text) only the first matches.
    static let equivalentPairs: [(first: String, second: String, pattern: String)] = [
        ("/caf\u{E9}", "/cafe\u{301}", "/caf\\\\x{e9}$"),
        ("/K", "/\u{212A}", "^/K$"),
        ("/a;b", "/a\u{37E}b", "/a;b"),
        ("/\u{212B}", "/\u{C5}", "^/\\\\x{212b}$"),
        ("/\u{1E9B}\u{323}", "/\u{17F}\u{323}\u{307}", "\\\\x{1e9b}"),
    ]

    @Test("the cache tells apart strings that differ in their code points", arguments: Conformance.engineNames)
    func cacheKeysAreBytes(engine: String) throws {
        for pair in Self.equivalentPairs {
            #expect(pair.first == pair.second, "the pair must be canonically equivalent to test anything")
            let json = #"{"rules": [{"patterns": ["\#(pair.pattern)"], "properties": {"hit": true}}]}"#
            for order in [[pair.first, pair.second], [pair.second, pair.first]] {
                let config = try PathConfiguration(json: json, options: LoadOptions(engine: Conformance.engine(engine)))
                let answers = order.map { config.properties(for: $0).json }
                let expected = order.map { $0.unicodeScalars.elementsEqual(pair.first.unicodeScalars) ? #"{"hit":true}"# : "{}" }
                #expect(answers == expected, "\(pair.pattern) after \(order.map { Array($0.unicodeScalars) })")
            }
        }
    }

    @Test("cached and uncached lookups agree on any order of equivalent strings")
    func cachedEqualsUncached() throws {
        let json = #"{"rules": [{"patterns": ["\\x{e9}"], "properties": {"e": 1}}, {"patterns": ["K"], "properties": {"k": 1}},"#
            + #"{"patterns": [";"], "properties": {"s": 1}}, {"patterns": ["\\x{301}"], "properties": {"c": 1}}]}"#
        var noCache = Limits()
        noCache.resultCacheCapacity = 0
        let cached = try PathConfiguration(json: json)
        let uncached = try PathConfiguration(json: json, options: LoadOptions(limits: noCache))
        let pieces = ["\u{E9}", "e\u{301}", "K", "\u{212A}", ";", "\u{37E}", "x", "/"]
        var rng = SplitMix(state: 42)
        for _ in 0..<3_000 {
            let input = "/" + (0..<Int(rng.next() % 4 + 1)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            #expect(cached.properties(for: input).json == uncached.properties(for: input).json, "\(Array(input.unicodeScalars))")
        }
    }

    @Test("one configuration resolves correctly from many threads at once")
    func concurrent() async throws {
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS))
        let inputs = (0..<2_000).map { $0 % 2 == 0 ? "/items/\($0)/new" : "/items/\($0)" }
        let results = await withTaskGroup(of: Bool.self) { group in
            for chunk in 0..<8 {
                group.addTask {
                    inputs[(chunk * 250)..<((chunk + 1) * 250)].allSatisfy { input in
                        config.properties(for: input).context == (input.hasSuffix("/new") ? .modal : .default)
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
