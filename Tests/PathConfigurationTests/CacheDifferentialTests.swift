import PathConfiguration
import Testing

/// The memoised answers against the straightforward ones on the benchmark
/// corpora: a lookup served by the per-lookup cache, one served by the
/// per-rule-set memo (first the shared result, then the thread's own copy of
/// it: `ThreadResults`), and the merge of the matching rules done by hand all agree.
@Suite("Caches against the straightforward merge")
struct CacheDifferentialTests {
    static let corpora: [(String, Int)] = [("10", 5_000), ("100", 5_000), ("1000", 2_000), ("10000", 500)]

    @Test("cached, uncached and hand-merged results agree", arguments: corpora, [Profile.hotwireIOS, .turboIOS, .hotwireAndroid, .siesta])  // turbo-android rejects the corpora's nested settings
    func agree(_ corpus: (String, Int), _ profile: Profile) throws {
        let bench = Conformance.repositoryRoot + "/../shared/bench/"
        let json = try Conformance.readFile(bench + "rules-\(corpus.0).json")
        let urls = String(decoding: try Conformance.readFile(bench + "urls-\(corpus.0).txt"), as: UTF8.self)
            .split(separator: "\n").prefix(corpus.1).map(String.init)
        let cached = try PathConfiguration(json: json, options: LoadOptions(profile: profile))
        var off = LoadOptions(profile: profile)
        off.limits.resultCacheCapacity = 0
        let uncached = try PathConfiguration(json: json, options: off)
        var mismatches: [String] = []
        for round in 0..<3 {  // later rounds are served from the caches, the third from the thread's copies
            for url in urls {
                var merged = JSONObject()
                for m in try uncached.matchingRules(for: url) { merged.merge(uncached.rules[m.ruleIndex].properties) }
                let expected = JSONWriter.compact(merged)
                let a = try cached.resolve(url).json, b = try uncached.resolve(url).json
                if a != expected || b != expected { mismatches.append("round \(round) \(url): \(a) | \(b) | \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
    }
}
