import PathConfiguration
@testable import PathConfigCore
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
        let bench = Conformance.repositoryRoot + "/bench/corpora/"
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

    @Test("glob rules and a rule from code, whose results the URL keys too: cached, uncached and hand-merged agree, with and without a base URL and query strings",
          arguments: [nil, "https://api.example.com"], [true, false])
    func globsAgree(base: String?, matchQueryStrings: Bool) throws {
        let bench = Conformance.repositoryRoot + "/bench/corpora/"
        let json = try Conformance.readFile(bench + "globs-100.json")
        let urls = String(decoding: try Conformance.readFile(bench + "globs-urls-100.txt"), as: UTF8.self).split(separator: "\n").map(String.init)
        // Each URL as given, its host upper-cased, with a query, and its path alone.
        let inputs = urls.flatMap { [$0, $0.replacing("api.example.com", with: "API.Example.com"), $0 + "?page=2", String($0.dropFirst(23))] }
        var on = LoadOptions(profile: .siesta)
        on.baseURL = try base.map { try BaseURL($0) }
        on.matchQueryStrings = matchQueryStrings
        var off = on
        off.limits.resultCacheCapacity = 0
        let cached = try PathConfiguration(json: json, options: on), uncached = try PathConfiguration(json: json, options: off)
        // A rule from code that reads the query, which the matched string
        // leaves out without query strings: only the URL in the key tells
        // those lookups apart.
        let paged: JSONObject = ["paged": .bool(true)]
        for config in [cached, uncached] { try config.add(HostRule(properties: paged, predicate: { $0.url.hasSuffix("?page=2") })) }
        var mismatches: [String] = []
        for round in 0..<3 {
            for url in inputs {
                for method in [nil, "POST"] {
                    var merged = JSONObject()
                    for m in try uncached.matchingRules(for: url, method: method) {
                        merged.merge(m.ruleIndex < uncached.rules.count ? uncached.rules[m.ruleIndex].properties : paged)
                    }
                    let expected = JSONWriter.compact(merged)
                    let a = try cached.resolve(url, method: method).json, b = try uncached.resolve(url, method: method).json
                    if a != expected || b != expected { mismatches.append("round \(round) \(method ?? "GET") \(url): \(a) | \(b) | \(expected)") }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count): \(mismatches.prefix(3))")
    }

    @Test("a path or plain URL looked up from its bytes gets the string lookup's result, and other inputs are left to it",
          arguments: [Profile.hotwireIOS, .turboIOS, .hotwireAndroid, .siesta])
    func bytesAgainstString(_ profile: Profile) throws {
        let bench = Conformance.repositoryRoot + "/bench/corpora/"
        let json = try Conformance.readFile(bench + "rules-100.json")
        let urls = String(decoding: try Conformance.readFile(bench + "urls-100.txt"), as: UTF8.self)
            .split(separator: "\n").prefix(2_000).map(String.init)
        let edges = ["", "/", "a", "ab", "a:b", "1:x", "x1+-.:/y", "/a:b", "%41", "/caf\u{e9}", "/a\tb", "/a b", "?q=1", "#f",
                     "https://x.dev/a", "HTTP://x.dev/a?q", "https://x.dev/a/b/", "https://x.dev/a%20b?c=%zz", "https://x.dev/a b",
                     "ftp://x.dev/new?x#y", "foo://x.dev/new", "https://x.dev", "https://x.dev?q=1", "mailto:a@b.c",
                     "https://x.dev/" + String(repeating: "/a", count: 40_000)]
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: profile))
        var mismatches: [String] = []
        // The corpus's paths, and as absolute URLs (with their query, and a fragment).
        let absolute = urls.prefix(1_000).map { "https://app.example.com" + $0 + "#top" }
        var takenURLs = 0
        for url in urls + absolute + edges {
            // The reference: the rules the string lookup (Lookup, the matched
            // string) finds, merged by hand; resolve() itself now takes the
            // byte path for paths.
            let byString = Result { () throws(ResolveError) -> String in
                var merged = JSONObject()
                for m in try config.matchingRules(for: url) { merged.merge(config.rules[m.ruleIndex].properties) }
                return JSONWriter.compact(merged)
            }
            var text = url
            let byBytes = text.withUTF8 { bytes in Result { () throws(ResolveError) in try config.resolveFromBytes(utf8: bytes) } }
            let printable = url.utf8.allSatisfy(ByteSet.isPrintable)
            let isPath = printable && url.utf8.withContiguousStorageIfAvailable { URLParts.Split($0) == nil }!
            // siesta writes a path back as Foundation does: only those it keeps are taken.
            let takenPath = isPath && (profile.app != .siesta || url.utf8.withContiguousStorageIfAvailable(URLParts.relativeKeptAsWritten)!)
            if printable && !isPath, case .success(_?) = byBytes { takenURLs += 1 }
            // Whatever the byte path takes it answers as the string lookup
            // does; it takes every path it may, and leaves the rest to it.
            switch (byString, byBytes) {
            case (.success(let a), .success(let b?)) where a == b.json && (try? config.resolve(url).json) == a: continue
            case (.success, .success(nil)) where !takenPath: continue
            case (.failure(let a), .failure(let b)) where a.code == b.code && a.message == b.message: continue
            case (.failure, .success(nil)) where !takenPath: continue
            default: mismatches.append("\(url.prefix(40)): \(byString) | \(byBytes)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        // Absolute URLs of plain paths are taken too, but for siesta (the whole URL).
        #expect(profile == .siesta ? takenURLs == 0 : takenURLs >= 1_000, "\(takenURLs) URLs from their bytes")
        // Leaves everything to the string lookup when it needs more than the path.
        var baseOptions = LoadOptions(profile: profile)
        baseOptions.baseURL = try BaseURL("https://x.dev/v1/")
        let withBase = try PathConfiguration(json: json, options: baseOptions)
        var path = "/a"
        #expect(try path.withUTF8 { try withBase.resolveFromBytes(utf8: $0) } == nil)
        let withGlobs = try PathConfiguration(json: #"{"rules": [{"patterns": [], "globs": ["/a"], "properties": {"g": 1}}]}"#, options: LoadOptions(profile: profile))
        #expect(try path.withUTF8 { try withGlobs.resolveFromBytes(utf8: $0) } == nil)
    }
}
