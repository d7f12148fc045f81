import PathConfiguration
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

    @Test("merge is shallow, in order, later rules winning; key order is first appearance")
    func merge() throws {
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS))
        #expect(config.properties(for: "/a/new").json == "{\"context\":\"modal\",\"nested\":{\"b\":2},\"n\":1}")
        #expect(config.properties(for: "/a").json == "{\"context\":\"default\",\"nested\":{\"a\":1},\"n\":1}")
    }

    @Test("explain names each matching rule, its first matching pattern and description")
    func explain() throws {
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS))
        let e = config.explain("https://x.dev/a/edit/?q=1")
        #expect(e.matchedString == "/a/edit")
        #expect(e.rules.map(\.index) == [0, 1])
        #expect(e.rules[1].pattern == "/edit$")
        #expect(e.rules[1].patternIndex == 1)
        #expect(e.json == "{\"input\":\"https://x.dev/a/edit/?q=1\",\"matched_string\":\"/a/edit\",\"rules\":[{\"index\":0,\"pattern\":\".*\",\"pattern_index\":0},{\"index\":1,\"pattern\":\"/edit$\",\"pattern_index\":1,\"description\":\"forms\"}],\"properties\":{\"context\":\"modal\",\"nested\":{\"b\":2},\"n\":1}}")
    }

    @Test("repeated lookups share one cached result")
    func cache() throws {
        let config = try PathConfiguration(json: json)
        #expect(config.properties(for: "/x/new") === config.properties(for: "https://other.host/x/new"))
        var limits = Limits()
        limits.resultCacheCapacity = 0
        let uncached = try PathConfiguration(json: json, options: LoadOptions(limits: limits))
        #expect(uncached.properties(for: "/x/new") !== uncached.properties(for: "/x/new"))
        #expect(uncached.properties(for: "/x/new").json == config.properties(for: "/x/new").json)
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
