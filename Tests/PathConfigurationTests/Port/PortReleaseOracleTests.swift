import Foundation
import PathConfiguration
import Testing

/// Port's promise judged by the apps' own reading code, not by
/// `PortComparison`: a file ported from hotwire-ios to an Android release is
/// read by that release's classes under the real Gson
/// (Tests/JVM/ReleaseOracle.java), and an Android release's file ported to
/// hotwire-ios is read there by Gson and compared with hotwire-ios read by
/// this library (which IOSReleaseOracleTests holds to the release's own
/// answers). On every covered URL, each key either answer holds, and each
/// typed key both apps have an accessor for, must read alike: a typed key
/// through the accessors (the Android answer is the oracle's), any other
/// key as held. The documents are the recorded iOS configurations.
@Suite("port: the apps' own code reads each ported file as the reference reads the original")
struct PortReleaseOracleTests {
    /// Android eras (ReleaseOracle.java's names) and a release of each.
    static let eras: [(name: String, profile: Profile)] = [
        ("H2", try! Profile(name: "hotwire-android@1.1.0")), ("H6", try! Profile(name: "hotwire-android@1.3.1")),
        ("T4", try! Profile(name: "turbo-android@7.1.5")),
    ]
    static let ios = try! Profile(name: "hotwire-ios@1.2.1")

    /// The Android oracle's probes, and paths the recorded configurations' rules tell apart.
    static let urls = AndroidReleaseOracleTests.probes + [
        "/new", "/edit", "/a/new", "/numbers", "/numbers/1", "/sign_in", "/search", "/search?q=1", "/x", "/animated", "/types",
        "/nested", "/a.pdf", "/feature?open_in_external_browser=true", "/messages/42", "/new?a=1",
    ].map { "https://x.dev" + $0 }

    /// The recorded iOS configurations' text.
    static let documents: [(name: String, json: String)] = IOSReleaseOracleTests.configurations.compactMap { c in
        guard let name = c["name"]?.stringValue, let json = c["json"]?.stringValue else { return nil }
        return (name, json)
    }

    /// One port: the document, the reference, the app, and the file.
    struct Case {
        let name: String
        let original: String
        let reference: Profile
        let app: Profile
        let port: ConfigurationPort
        let file: String
    }

    /// Every port without a refusal: hotwire-ios to each era, and each era to hotwire-ios.
    static func cases() -> [Case] {
        var out: [Case] = []
        for (name, json) in documents {
            for (_, android) in eras {
                for (reference, app) in [(ios, android), (android, ios)] {
                    var options = LoadOptions(profile: reference)
                    options.keepsSource = true
                    guard let original = try? PathConfiguration(json: json, options: options) else { continue }
                    let port = ConfigurationPort(original, to: [app])
                    guard port.refusals.isEmpty, let file = port.outputs.first?.text else { continue }
                    out.append(Case(name: name, original: json, reference: reference, app: app, port: port, file: file))
                }
            }
        }
        return out
    }

    /// What one side reads for a URL: the held properties, and the reading
    /// of each typed key that app has an accessor for.
    struct Reading {
        let properties: JSONObject
        let typed: [TypedKey: JSONValue]
        /// A crash reading a typed key, by key.
        let crashes: [TypedKey: String]
    }

    /// hotwire-ios as this library reads it.
    static func iosReading(_ config: PathConfiguration, _ url: String) -> Reading? {
        guard let p = try? config.resolve(url) else { return nil }
        var typed: [TypedKey: JSONValue] = [:], crashes: [TypedKey: String] = [:]
        for key in TypedKey.allCases where ios.reads(key) {
            switch p.read(key) {
            case .value(let v): typed[key] = v
            case .crash(let why): crashes[key] = why
            }
        }
        return Reading(properties: p.object, typed: typed, crashes: crashes)
    }

    /// An Android release as the oracle read it: nil where the lookup throws.
    static func androidReading(_ lookup: JSONObject) -> Reading? {
        guard lookup["throws"] == nil, let properties = lookup["properties"]?.objectValue else { return nil }
        var typed: [TypedKey: JSONValue] = [:], crashes: [TypedKey: String] = [:]
        for (name, answer) in lookup["typed"]?.objectValue ?? [:] {
            guard let key = TypedKey(rawValue: name), answer != .string("n/a"), let answer = answer.objectValue else { continue }
            if let thrown = answer["throws"]?.stringValue { crashes[key] = thrown } else { typed[key] = answer["value"] ?? .null }
        }
        return Reading(properties: properties, typed: typed, crashes: crashes)
    }

    /// The keys read otherwise, in a sentence each; and how many typed keys
    /// neither held were compared.
    static func differences(_ reference: Reading, _ app: Reading) -> (lines: [String], defaults: Int) {
        var lines: [String] = [], defaults = 0
        let typedBoth = Set(reference.typed.keys).union(reference.crashes.keys).intersection(Set(app.typed.keys).union(app.crashes.keys))
        for key in TypedKey.allCases where typedBoth.contains(key) {
            if reference.properties[key.rawValue] == nil, app.properties[key.rawValue] == nil {
                // turbo-android crashes on a missing uri: no file reproduces a crash, and port does not promise it.
                if reference.crashes[key] != nil { continue }
                defaults += 1
            }
            let r = reference.crashes[key].map { JSONValue.string("crash: " + $0) } ?? reference.typed[key]
            let a = app.crashes[key].map { JSONValue.string("crash: " + $0) } ?? app.typed[key]
            let alike = key.kind == .enumeration ? r?.stringValue?.lowercased() == a?.stringValue?.lowercased() : r == a
            if !alike { lines.append("\(key.rawValue) (typed): \(r.map(JSONWriter.compact) ?? "nil") against \(a.map(JSONWriter.compact) ?? "nil")") }
        }
        let typedNames = Set(TypedKey.allCases.map(\.rawValue))
        let held = reference.properties.keys + app.properties.keys.filter { reference.properties[$0] == nil }
        for key in held where !typedNames.contains(key) {
            let r = reference.properties[key], a = app.properties[key]
            let alike = switch (r, a) {
            case (let r?, let a?): AndroidReleaseOracleTests.same(r, a) || AndroidReleaseOracleTests.same(a, r)
            default: false
            }
            if !alike { lines.append("\(key): \(r.map(JSONWriter.compact) ?? "absent") against \(a.map(JSONWriter.compact) ?? "absent")") }
        }
        return (lines, defaults)
    }

    @Test("hotwire-ios to hotwire-android 1.1 and 1.3 and turbo-android 7.1, and back: every covered URL reads alike, defaults included")
    func agree() throws {
        let cases = Self.cases()
        // One JVM: each case's original and file, under every era.
        let answers = try AndroidReleaseOracleTests.runOracle(
            eras: Self.eras.map(\.name), probes: Self.urls, documents: cases.flatMap { [Array($0.original.utf8), Array($0.file.utf8)] })
        // The lookups of document `text` under `era`, where the release loads it and its lookups can run.
        func java(_ text: Int, _ era: String) throws -> [JSONObject]? {
            let answer = answers[text][Self.eras.firstIndex { $0.name == era }!]
            guard answer.outcome == "ok", let detail = try JSONValue(parsing: answer.detail).objectValue,
                  detail["latent"] == nil || detail["latent"] == .null else { return nil }
            return detail["lookups"]?.arrayValue?.compactMap(\.objectValue)
        }

        var compared = [String: Int](), defaults = [String: Int](), messages: [String] = []
        for (i, c) in cases.enumerated() {
            let toIOS = c.app == Self.ios
            let era = Self.eras.first { $0.profile == (toIOS ? c.reference : c.app) }!.name
            // The Android side: the original (to iOS) or the file (from iOS), as the release reads it.
            guard let lookups = try java(2 * i + (toIOS ? 0 : 1), era) else { continue }
            let iosConfig = try PathConfiguration(json: toIOS ? c.file : c.original, options: LoadOptions(profile: Self.ios))
            let label = "\(c.reference.rawValue) -> \(c.app.rawValue)"
            for (url, lookup) in zip(Self.urls, lookups) where c.port.coveredURLs.contains(url) {
                guard let iosSide = Self.iosReading(iosConfig, url), let androidSide = Self.androidReading(lookup) else {
                    messages.append("\(label) \(c.name) \(url): a side cannot read it")
                    continue
                }
                let (lines, d) = toIOS ? Self.differences(androidSide, iosSide) : Self.differences(iosSide, androidSide)
                compared[label, default: 0] += 1
                defaults[label, default: 0] += d
                if !lines.isEmpty { messages.append("\(label) \(c.name) \(url): " + lines.joined(separator: "; ")) }
            }
        }
        print("port against the apps' code: " + compared.sorted { $0.key < $1.key }
            .map { "\($0.key): \($0.value) URLs, \(defaults[$0.key] ?? 0) typed keys neither held" }.joined(separator: "; "))
        #expect(messages.isEmpty, "\(messages.count) differences (20 shown):\n\(messages.prefix(20).joined(separator: "\n"))")
        // Every direction ran, and compared the defaults that differ across platforms.
        #expect(compared.count == 2 * Self.eras.count)
        #expect(compared.values.allSatisfy { $0 >= 100 })
        #expect(defaults.values.allSatisfy { $0 >= 100 })
    }
}
