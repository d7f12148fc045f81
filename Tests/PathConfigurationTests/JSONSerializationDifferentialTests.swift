import Foundation
import PathConfiguration
import Testing

/// The iOS profiles and siesta against swift-corelibs-foundation's
/// `JSONSerialization`, the reader the iOS apps parse with and siesta's
/// documents are read as, on random documents
/// (`LenientDocuments`, strict: JSON but for one lenient spelling in a
/// hundred, one document in eight damaged): a document Foundation refuses is
/// refused, one it reads is not refused as invalid JSON, and where the
/// configuration loads, its settings and every rule's properties (where
/// Foundation read an object) are the values Foundation read. But for one
/// thing: a key repeated in an object keeps its last value here in Linux's
/// Foundation and its first in Apple's (which these profiles follow,
/// with a warning), so a document with a repeated key has its values left
/// uncompared.
@Suite("JSONSerialization: the iOS profiles and siesta on random documents")
struct JSONSerializationDifferentialTests {
    /// Whether Foundation's `value` is `json` (numbers by value; a boolean
    /// is an NSNumber, compared as one).
    static func same(_ value: Any, _ json: JSONValue) -> Bool {
        switch json {
        case .null: return value is NSNull
        case .string(let s): return value as? String == s
        case .bool(let b): return (value as? NSNumber)?.boolValue == b
        case .number(let n): return (value as? NSNumber)?.doubleValue == n.doubleValue
        case .array(let items):
            guard let values = value as? [Any], values.count == items.count else { return false }
            return zip(values, items).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let values = value as? [String: Any], values.count == members.count else { return false }
            return members.keys.allSatisfy { key in values[key].map { same($0, members[key]!) } ?? false }
        }
    }

    /// `DOCUMENTS_SEED` and `DOCUMENTS` run other and more documents.
    @Test("3,000 random documents: refused exactly where JSONSerialization throws, else read to the same values", arguments: [Profile.hotwireIOS, .turboIOS, .siesta])
    func randomDocuments(_ profile: Profile) throws {
        let environment = ProcessInfo.processInfo.environment
        var documents = LenientDocuments(seed: UInt64(environment["DOCUMENTS_SEED"] ?? "") ?? 0x10_5E_7A, strict: true)
        var disagreements: [String] = []
        var loaded = 0, refusedByFoundation = 0
        for i in 0..<(Int(environment["DOCUMENTS"] ?? "") ?? 3_000) {
            let bytes = documents.next()
            func disagree(_ what: String) { disagreements.append("document \(i) (\(String(decoding: bytes.prefix(300), as: UTF8.self))): \(what)") }
            let foundation = Result { try JSONSerialization.jsonObject(with: Data(bytes)) }
            let loading = Result { () throws(ConfigurationError) in try PathConfiguration(json: bytes, options: LoadOptions(profile: profile, lenient: true)) }
            switch (foundation, loading) {
            case (.failure(let f), .success):
                disagree("loads; JSONSerialization throws \(f)")
            case (.failure, .failure):
                refusedByFoundation += 1
            case (.success, .failure(let e)) where e.code == .invalidJSON:
                disagree("refused as invalid JSON: \(e.message)")
            case (.success(let object), .success(let config)):
                loaded += 1
                guard !config.warnings.contains(where: { $0.kind == .duplicateKey }) else { continue }
                let document = object as? [String: Any]
                if let settings = document?["settings"] as? [String: Any], !Self.same(settings, .object(config.settings)) {
                    disagree("settings \(JSONValue.object(config.settings)); Foundation \(settings)")
                }
                let rules = document?["rules"] as? [Any] ?? []
                for (index, rule) in config.rules.enumerated() {
                    guard rules.indices.contains(index), let properties = (rules[index] as? [String: Any])?["properties"] as? [String: Any] else { continue }
                    if !Self.same(properties, .object(rule.properties)) {
                        disagree("rule \(index)'s properties \(JSONValue.object(rule.properties)); Foundation \(properties)")
                    }
                }
            case (.success, .failure):
                break  // a document JSONSerialization reads and the app's schema refuses
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, the first:\n\(disagreements.prefix(20).joined(separator: "\n"))")
        #expect(loaded >= 500 && refusedByFoundation >= 300, Comment(rawValue: "loaded \(loaded), refused by Foundation \(refusedByFoundation)"))
    }
}
