import Foundation
import PathConfiguration
import PathConfigurationFoundation

/// One way of resolving URLs, measured against the others on the same corpus.
protocol Peer {
    /// The row label in the results.
    var name: String { get }
    /// Loads `json` and returns a lookup that resolves one URL and returns
    /// the number of merged properties (so no work can be optimised away).
    func prepare(_ json: [UInt8]) throws -> (String) -> Int
}

/// The reference apps' loop as shipped: for each lookup, for each rule, for
/// each pattern, compile an `NSRegularExpression` and count its matches
/// (turbo-ios `PathRule.match(path:)`; turbo-android compiles `Regex(...)`
/// per call the same way), merging every matching rule in order.
struct AppLoop: Peer {
    var name: String { "app loop (NSRegularExpression compiled per lookup, as shipped)" }

    func prepare(_ json: [UInt8]) throws -> (String) -> Int {
        let document = try ConfigurationDecoder(profile: .hotwireIOS).decode(json)
        let rules = document.rules.map { ($0.patterns, $0.properties) }
        return { input in
            let path = Profile.hotwireIOS.matchedString(for: input, matchQueryStrings: true)
            let range = NSRange(path.startIndex..<path.endIndex, in: path)
            var merged = JSONObject()
            for (patterns, properties) in rules {
                for pattern in patterns {
                    guard let regex = try? NSRegularExpression(pattern: pattern) else { continue }
                    if regex.numberOfMatches(in: path, range: range) > 0 {
                        merged.merge(properties)
                        break
                    }
                }
            }
            return merged.count
        }
    }
}

/// The same loop with every `NSRegularExpression` compiled once: the best an
/// app could do without changing its algorithm.
struct PrecompiledAppLoop: Peer {
    var name: String { "app loop, regexes compiled once" }

    func prepare(_ json: [UInt8]) throws -> (String) -> Int {
        let document = try ConfigurationDecoder(profile: .hotwireIOS).decode(json)
        let rules = document.rules.map { rule in
            (rule.patterns.compactMap { try? NSRegularExpression(pattern: $0) }, rule.properties)
        }
        return { input in
            let path = Profile.hotwireIOS.matchedString(for: input, matchQueryStrings: true)
            let range = NSRange(path.startIndex..<path.endIndex, in: path)
            var merged = JSONObject()
            for (regexes, properties) in rules where regexes.contains(where: { $0.numberOfMatches(in: path, range: range) > 0 }) {
                merged.merge(properties)
            }
            return merged.count
        }
    }
}

/// libpathconfig itself, in one configuration of engine, prefilter and cache.
struct Library: Peer {
    let name: String
    let engine: any RegexEngine
    let prefilter: Bool
    let cache: Bool

    func prepare(_ json: [UInt8]) throws -> (String) -> Int {
        var options = LoadOptions(profile: .hotwireIOS, engine: engine)
        options.usePrefilter = prefilter
        if !cache { options.limits.resultCacheCapacity = 0 }
        let config = try PathConfiguration(json: json, options: options)
        return { config.properties(for: $0).object.count }
    }

    static let all: [Library] = [
        Library(name: "libpathconfig foundation engine (prefilter, no cache)", engine: FoundationEngine(), prefilter: true, cache: false),
        Library(name: "libpathconfig pcre2, no prefilter, no cache", engine: PCRE2Engine(), prefilter: false, cache: false),
        Library(name: "libpathconfig pcre2 (prefilter, no cache)", engine: PCRE2Engine(), prefilter: true, cache: false),
        Library(name: "libpathconfig pcre2 (default: prefilter + result cache)", engine: PCRE2Engine(), prefilter: true, cache: true),
    ]
}
