import Foundation
import PathConfiguration

/// The Swift peers of one corpus: libpathconfig through its public Swift API
/// (result cache off) and the straightforward NSRegularExpression loop, the
/// one an iOS app writes.
struct SwiftPeers {
    /// One peer: its key (bench/run.py names it) and its lookup of URL `i`,
    /// returning a number so that no work can be optimised away. A struct,
    /// not a tuple: an array of tuples keeps the closure at its most general
    /// abstraction, and every call then goes through a reabstraction thunk.
    struct Lookup {
        let key: String
        let lookup: (Int) -> Int
    }

    /// The peers, in the order they are first measured.
    var lookups: [Lookup] = []
    /// Load or build time of each peer, median of three (ms).
    var buildMilliseconds: [String: Double] = [:]

    let urls: [String]
    let config: PathConfiguration
    /// The string the profile matches for each URL, worked out once before
    /// any timing: the loop's input, so that it is the bare match.
    let subjects: [String]
    let rules: [(regexes: [NSRegularExpression], properties: JSONObject)]
    /// Patterns in the file; those NSRegularExpression refuses never match.
    let patternCount: Int

    /// `optionsJSON`, when given, loads the configuration with those options
    /// (the result cache off) and keeps only the rows that read no Hotwire
    /// key: a configuration of globs has no patterns for the loop.
    init(json: [UInt8], urls: [String], options optionsJSON: String? = nil) throws {
        self.urls = urls
        var options = try LoadOptions(json: optionsJSON ?? benchOptionsJSON)
        options.limits.resultCacheCapacity = 0
        var configs: [PathConfiguration] = []
        var times: [Double] = []
        for _ in 0..<3 {
            let t0 = now()
            configs.append(try PathConfiguration(json: json, options: options))
            times.append(now() - t0)
        }
        config = configs[0]
        buildMilliseconds["swift_api"] = median(times) * 1e3
        subjects = urls.map(config.matchedString(for:))

        // The loop as turbo-ios writes it (PathRule: NSRegularExpression(pattern:)
        // with no options, a rule matching when any pattern has a match), each
        // regex compiled once.
        let fileRules = optionsJSON == nil ? try ConfigurationDecoder(profile: .turboIOS).decode(json).rules : []
        patternCount = fileRules.map(\.patterns.count).reduce(0, +)
        var built: [(regexes: [NSRegularExpression], properties: JSONObject)] = []
        times = []
        for _ in 0..<3 {
            let t0 = now()
            built = fileRules.map { rule in (rule.patterns.compactMap { try? NSRegularExpression(pattern: $0) }, rule.properties) }
            times.append(now() - t0)
        }
        rules = built
        if optionsJSON == nil { buildMilliseconds["nsregex_loop"] = median(times) * 1e3 }

        let (config, subjects, rules) = (config, subjects, rules)
        lookups.append(Lookup(key: "swift_api", lookup: { config.properties(for: urls[$0]).count }))
        // What a host reads after the lookup (issue 29): the two typed
        // values a visit proposal reads, one raw value, the JSON text.
        lookups.append(Lookup(key: "swift_typed", lookup: { i in
            let p = config.properties(for: urls[i])
            return (p.context == .modal ? 1 : 0) + (p.presentation == .default ? 0 : 2)
        }))
        lookups.append(Lookup(key: "swift_raw", lookup: { config.properties(for: urls[$0])["context"] == nil ? 0 : 1 }))
        lookups.append(Lookup(key: "swift_json", lookup: { config.properties(for: urls[$0]).json.utf8.count }))
        lookups.append(Lookup(key: "nsregex_loop", lookup: { i in
            let subject = subjects[i]
            let range = NSRange(location: 0, length: subject.utf16.count)
            var matched = 0
            for rule in rules where rule.regexes.contains(where: { $0.firstMatch(in: subject, range: range) != nil }) {
                matched += 1
            }
            return matched
        }))
        if optionsJSON != nil { lookups.removeAll { ["swift_typed", "swift_raw", "nsregex_loop"].contains($0.key) } }
    }

    /// The loop's merged properties for URL `i`: the straightforward
    /// algorithm under ICU, as the app runs it.
    func expected(_ i: Int) -> JSONObject {
        let subject = subjects[i]
        let range = NSRange(location: 0, length: subject.utf16.count)
        var merged = JSONObject()
        for rule in rules where rule.regexes.contains(where: { $0.firstMatch(in: subject, range: range) != nil }) {
            merged.merge(rule.properties)
        }
        return merged
    }

    /// libpathconfig's properties against the loop's on every `every`-th URL;
    /// the fields of the ready line that say so.
    func check(every: Int) -> [String: Any] {
        var checked = 0, differ = 0
        var first = ""
        for i in stride(from: 0, to: urls.count, by: every) {
            let ours = config.properties(for: urls[i]).object
            let theirs = expected(i)
            if ours != theirs {
                if differ == 0 { first = "\(urls[i]): libpathconfig \(ours), NSRegularExpression loop \(theirs)" }
                differ += 1
            }
            checked += 1
        }
        return [
            "check": ["every": every, "urls": checked, "swift_api": differ, "first_difference": first],
            "rules": rules.count,
            "urls": urls.count,
            "refused": ["nsregex_loop": patternCount - rules.map(\.regexes.count).reduce(0, +)],
        ]
    }
}
