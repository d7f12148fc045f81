import Foundation
import PathConfiguration
import Testing

/// The versioned Android profiles against the apps' own classes at each
/// release era, read by the real Gson (Tests/JVM/ReleaseOracle.java, Debian's
/// libgoogle-gson-java 2.10; Gson 2.12.1's nesting limit emulated for
/// hotwire-android 1.2.0 and later). One JVM run reads the whole corpus under
/// every era; each era is compared with the profile of one of its tags:
/// whether the document loads (ok ⇔ loads here; ignored, refused, a crash ⇔
/// `ConfigurationError`), the settings, and for every probe URL whether the
/// lookup throws (⇔ `ResolveError.unreadableURL`), the merged properties (by
/// JSON value) and each typed accessor the era has (value ⇔ `.value`,
/// enumerations by name in any case; exception ⇔ `.crash` naming the same
/// class). Accessors an era lacks are "n/a": counted, not compared.
@Suite("Android releases: every era's classes read by the real Gson")
struct AndroidReleaseOracleTests {
    /// An era of an app's reading code (/tmp/research/android-versions.md's table), a representative tag, all its tags.
    struct Era: Sendable {
        let name: String
        let app: String
        let tag: String
        let tags: [String]
        var profileName: String { app + "@" + tag }
    }

    static let eras: [Era] = [
        Era(name: "H1", app: "hotwire-android", tag: "0.1.2", tags: ["0.1", "0.1.1", "0.1.2"]),
        Era(name: "H2", app: "hotwire-android", tag: "1.1.0", tags: ["0.1.3", "1.0.0", "1.0.1", "1.0.2", "1.1.0", "1.1.1", "1.1.2"]),
        Era(name: "H3", app: "hotwire-android", tag: "1.1.3", tags: ["1.1.3"]),
        Era(name: "H4", app: "hotwire-android", tag: "1.2.4", tags: ["1.2.0", "1.2.1", "1.2.2", "1.2.3", "1.2.4", "1.2.5", "1.2.6"]),
        Era(name: "H5", app: "hotwire-android", tag: "1.3.0", tags: ["1.2.7", "1.2.8", "1.3.0"]),
        Era(name: "H6", app: "hotwire-android", tag: "1.3.1", tags: ["1.3.1"]),
        Era(name: "T1", app: "turbo-android", tag: "7.0.0-beta07", tags: (1...11).map { "7.0.0-beta" + ($0 < 10 ? "0" : "") + String($0) }),
        Era(name: "T2", app: "turbo-android", tag: "7.0.0-rc5", tags: ["7.0.0-beta12", "7.0.0-beta13"] + (1...12).map { "7.0.0-rc\($0)" }),
        Era(name: "T3", app: "turbo-android", tag: "7.1.3",
            tags: (13...18).map { "7.0.0-rc\($0)" } + ["7.0.0-test", "7.0.0-test2", "7.0.0", "7.0.1", "7.0.2", "7.0.3", "7.1.0", "7.1.1", "7.1.2", "7.1.3"]),
        Era(name: "T4", app: "turbo-android", tag: "7.1.5", tags: ["7.1.4", "7.1.5", "7.1.6-beta1", "7.1.6-beta2", "7.1.6-beta3"]),
    ]

    static let probes = [
        "https://x.dev/a", "https://x.dev/new", "https://x.dev/a/b?q=1", "https://x.dev/Edit", "https://x.dev/recede_historical_location",
        "https://x.dev/x/Resume_Historical_Location/y", "https://x.dev/refresh_historical_location?z=1", "https://x.dev/", "https://x.dev",
        "mailto:x", "https://x.dev:abc/", "tel:+15551234567", "custom-app://feature", "jar:file:/x.jar!/a?q", "file:/a/b",
        "ftp://x.dev/y?z", "https://x.dev/a#frag", "https://x.dev/%7Euser/a%20b", "https://x.dev/p?", "http://[::1]/v6", "http://[::1/bad",
        "HTTPS://X.DEV/NEW", "https://user@x.dev:8080/a/b/", "https://x.dev/image.jpg", "https://x.dev/feature?filter=true",
        "https://x.dev/custom/modal", "https://hotwired.dev/home", "https://x.dev/k/5", "jrt:/java.base", "https://x.dev:/a",
    ]

    /// The typed keys, each set to `value` by a rule that matches everything.
    static func everyKey(_ value: String) -> String {
        let keys = TypedKey.allCases.map { "\"\($0.rawValue)\":\(value)" }.joined(separator: ",")
        return #"{"settings":{},"rules":[{"patterns":[".*"],"properties":{"# + keys + "}}]}"
    }

    /// Documents that tell the eras apart, the conformance fixtures, then random documents.
    static let corpus: [(String, [UInt8])] = {
        // Every JSON type (and Gson's lenient extras) for every typed key.
        let values = [#""true""#, "true", "TRUE", #""TRUE""#, #""false""#, "false", "1", "0", "5", "5.0", "12345678901234567890", "-0", "1E+2",
                      "1e400", "9007199254740993", "0.001", "1.0E7", "-5", "null", #"{"k":1}"#, "[1,2.5]", "[]", "{}", #""modal""#, #""MODAL""#,
                      #"" modal""#, #""Push""#, #""pu\u017Fh""#, #""refre\u017Fh""#, #""replace_root""#, #""CLEAR_ALL""#, #""replace""#, #""5""#,
                      #""""#, "NaN", "abc"]
        var docs: [(String, String)] = values.map { ("every typed key = \($0)", everyKey($0)) }
        docs += [
            // rules and settings: missing, null, empty.
            ("{}", "{}"),
            ("rules missing", #"{"settings":{"a":1}}"#),
            ("settings missing", #"{"rules":[{"patterns":[".*"],"properties":{"title":"t"}}]}"#),
            ("rules null", #"{"settings":{},"rules":null}"#),
            ("settings null", #"{"settings":null,"rules":[{"patterns":[".*"],"properties":{"title":"t"}}]}"#),
            ("rules empty", #"{"settings":{},"rules":[]}"#),
            ("a null rule", #"{"settings":{},"rules":[null]}"#),
            ("a rule without patterns", #"{"settings":{},"rules":[{"properties":{"a":1}}]}"#),
            ("a rule without properties", #"{"settings":{},"rules":[{"patterns":["/new$"]}]}"#),
            ("a null pattern after .*", #"{"settings":{},"rules":[{"patterns":[".*",null],"properties":{"a":1}}]}"#),
            ("patterns: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$",],"properties":{"a":1}}]}"#),
            ("rules: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"a":1}},]}"#),
            ("properties: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"title":"x",}}]}"#),
            ("properties: a repeated key", #"{"settings":{},"rules":[{"patterns":[".*"],"properties":{"title":"a","title":"b"}}]}"#),
            ("properties: a repeated key, the first null", #"{"settings":{},"rules":[{"patterns":[".*"],"properties":{"title":null,"title":"b"}}]}"#),
            // Keys canonically equivalent, spelt apart: Java's maps compare UTF-16 units, so each is its own key.
            ("keys spelt apart, across rules", #"{"rules":[{"patterns":[".*"],"properties":{"café":"nfc","K":"latin","title":"a"}},"#
                + #"{"patterns":["/new$"],"properties":{"café":"nfd","K":"kelvin","café":"again","title":"b"}}]}"#),
            ("keys spelt apart, in one object", #"{"settings":{"café":1,"café":2},"rules":[{"patterns":[".*"],"properties":{"café":1,"café":2,"K":3,"K":4,"Å":5,"Å":6,"Å":7}}]}"#),
            ("settings: nested values", #"{"settings":{"tabs":[{"title":"Home","path":"/"}],"n":1.50,"b":true},"rules":[]}"#),
            ("settings: strings", #"{"settings":{"screenshots_enabled":false,"x":"y"},"rules":[]}"#),
            // Merging: later rules win, a null clears.
            ("a later null title", #"{"rules":[{"patterns":[".*"],"properties":{"title":"a","pull_to_refresh_enabled":true}},{"patterns":["/new$"],"properties":{"title":null,"pull_to_refresh_enabled":null}}]}"#),
            ("order and anchors", #"{"rules":[{"patterns":["^$"],"properties":{"title":"empty"}},{"patterns":["/new$","/edit$"],"properties":{"context":"modal","presentation":"push"}},{"patterns":["\\?q=1$"],"properties":{"query_string_presentation":"replace"}},{"patterns":["^/$"],"properties":{"presentation":"clear_all"}}]}"#),
            ("an invalid pattern beside a valid one", #"{"rules":[{"patterns":["(","/a"],"properties":{"title":"a"}},{"patterns":["["],"properties":{"title":"never"}}]}"#),
            // The built-in historical rules against the file's.
            ("the file's historical rules", #"{"rules":[{"patterns":["historical_location"],"properties":{"presentation":"push","context":"modal","historical_location":false,"title":"mine"}}]}"#),
            ("historical_location as a string", #"{"rules":[{"patterns":[".*"],"properties":{"historical_location":"true","animated":"false"}}]}"#),
            // Unread and bound extra keys, nesting.
            ("cachedProperties: 5", #"{"settings":{},"rules":[],"cachedProperties":5}"#),
            ("loader: {}", #"{"settings":{},"rules":[],"loader":{}}"#),
            ("loader: a context", #"{"settings":{},"rules":[],"loader":{"context":{}}}"#),
            ("loader: 5", #"{"settings":{},"rules":[],"loader":5}"#),
            ("cachedProperties: {}", #"{"settings":{},"rules":[],"cachedProperties":{}}"#),
            ("cachedProperties: a cached lookup", #"{"settings":{},"rules":[],"cachedProperties":{"https://x.dev/a":{"title":"t"}}}"#),
            ("an unread key nested 255 deep", #"{"settings":{},"rules":[],"x":"# + String(repeating: "[", count: 254) + String(repeating: "]", count: 254) + "}"),
            ("an unread key nested 256 deep", #"{"settings":{},"rules":[],"x":"# + String(repeating: "[", count: 255) + String(repeating: "]", count: 255) + "}"),
            // Lenient syntax.
            ("single quotes, unquoted names, comments", "// c\n{settings:{}, 'rules': [{patterns: ['/new$'], # h\n'properties': {'context': 'modal', title: 5}}]}"),
            ("the document: trailing comma", #"{"settings":{},"rules":[{"patterns":[".*"],"properties":{"animated":false}}],}"#),
            // Not a configuration.
            ("null", "null"),
            ("empty", ""),
            ("an array", "[]"),
            ("a string", #""x""#),
            ("malformed", "{\"rules\":[{"),
        ]
        var corpus = docs.map { ($0.0, Array($0.1.utf8)) }
        // Tests/Fixtures/conformance/android.json: its fixtures and invalid bodies.
        let android = Conformance.android
        for (name, fixture) in android["fixtures"]?.objectValue ?? [:] {
            corpus.append(("conformance fixture \(name)", Array(JSONWriter.compact(fixture).utf8)))
        }
        for (name, body) in android["invalid_fixtures"]?.objectValue ?? [:] {
            corpus.append(("conformance invalid fixture \(name)", Array((body.stringValue ?? JSONWriter.compact(body)).utf8)))
        }
        // Random lenient documents (GsonOracleTests judges the same kind under the latest
        // releases); `DOCUMENTS_SEED` and `DOCUMENTS` run other and more.
        let environment = ProcessInfo.processInfo.environment
        var random = LenientDocuments(seed: UInt64(environment["DOCUMENTS_SEED"] ?? "") ?? 0x5E1E_A5E5)
        for i in 0..<(Int(environment["DOCUMENTS"] ?? "") ?? 1_000) { corpus.append(("random document \(i)", random.next())) }
        return corpus
    }()

    struct JavaOutcome {
        let outcome: String
        let detail: String
    }

    /// Runs the oracle once over `documents` (the corpus by default), each
    /// looked up at `probes`: per document, each era's outcome, in `eras` order.
    static func runOracle(eras: [String] = eras.map(\.name), probes: [String] = probes,
                          documents: [[UInt8]] = corpus.map(\.1)) throws -> [[JavaOutcome]] {
        let input = [eras.joined(separator: ",") + "\t" + probes.joined(separator: "\t")]
            + documents.map { Data($0).base64EncodedString() }
        let output = try JVM.run("ReleaseOracle.java", lines: input, classPath: ["/usr/share/java/gson.jar"])
        guard output.count == documents.count * eras.count else {
            throw JVM.Failure("the oracle answered \(output.count) lines for \(documents.count) documents × \(eras.count) eras")
        }
        var answers = Array(repeating: [JavaOutcome](), count: documents.count)
        for (i, line) in output.enumerated() {
            let parts = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, Int(parts[0]) == i / eras.count, parts[1] == eras[i % eras.count] else {
                throw JVM.Failure("unexpected oracle line \(i): \(line.prefix(200))")
            }
            answers[i / eras.count].append(JavaOutcome(outcome: String(parts[2]), detail: String(parts[3])))
        }
        return answers
    }

    /// JSON values equal as the Java objects are: numbers by value (integers exactly), objects in any order.
    static func same(_ java: JSONValue, _ mine: JSONValue) -> Bool {
        switch (java, mine) {
        case (.number(let x), .number(let y)):
            if let a = Int64(x.text), let b = Int64(y.text) { return a == b }
            return x.doubleValue == y.doubleValue
        case (.object(let x), .number(let y)) where x.count == 1 && x["$double"] != nil:
            return Double(x["$double"]!.stringValue!.replacingOccurrences(of: "Infinity", with: "inf")) == y.doubleValue
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.keys.allSatisfy { key in y[key].map { same(x[key]!, $0) } ?? false }
        default: return java == mine
        }
    }

    /// Comparison counts and mismatches, per era.
    struct Tally {
        var compared: [String: Int] = [:]      // what → count
        var notApplicable: [String: Int] = [:] // typed key → count of "n/a"
        var mismatches: [String: [String]] = [:] // class → examples
        var deliberate: [String: [String]] = [:] // documented differences → examples (not failures)
    }

    @Test("every era: load outcome, settings, lookups and typed accessors as the app's classes under Gson")
    func oracle() throws {
        let answers = try Self.runOracle()
        var tallies = [String: Tally]()
        var messages: [String] = []
        for ((name, bytes), perEra) in zip(Self.corpus, answers) {
            for (era, java) in zip(Self.eras, perEra) {
                let profile = try Profile(name: era.profileName)
                var tally = tallies[era.name] ?? Tally()
                var reported = 0
                func count(_ what: String) { tally.compared[what, default: 0] += 1 }
                func mismatch(_ kind: String, _ what: String) {
                    tally.mismatches[kind, default: []].append("\(name): \(what)")
                    reported += 1
                    if reported <= 6 { messages.append("[\(era.name) \(era.profileName)] \(name): \(kind): \(what)") }
                }
                defer { tallies[era.name] = tally }
                let loading = Result { () throws(ConfigurationError) in try PathConfiguration(json: bytes, options: LoadOptions(profile: profile)) }
                count("load")
                let detail = java.outcome == "ok" ? try JSONValue(parsing: java.detail).objectValue ?? [:] : [:]
                let latent = detail["latent"]?.stringValue
                switch (java.outcome, loading) {
                case ("ok", .success(let config)) where latent == nil:
                    compare(config, detail, count: count, notApplicable: { tally.notApplicable[$0, default: 0] += 1 }, mismatch: mismatch)
                case ("ok", .success):
                    mismatch("load", "loaded; the app's lookups throw NullPointerException (null \(latent!))")
                case ("ok", .failure(let e)) where e.message.contains("reads but this library cannot hold"):
                    // What the app holds and a Swift string or dictionary cannot (a lone surrogate, a null
                    // key): a documented refusal (docs/format-and-profiles.md, "Limits"), noted.
                    tally.deliberate["what Swift cannot hold refused", default: []].append("\(name): \(e.message)")
                case ("ok", .failure(let e)) where latent != nil:
                    if !e.message.contains("crash") { mismatch("refusal wording", "null \(latent!) (lookups throw NPE), refused with \"\(e.message)\"") }
                case ("ok", .failure(let e)) where e.code == .invalidPattern:
                    // The apps skip a pattern java.util.regex rejects (a release build counts no match); libpathconfig
                    // does so only with `lenient` (its default fails the load, as LoadOptions documents): noted, then compared so.
                    tally.deliberate["invalid pattern refused unless lenient", default: []].append("\(name): \(e.message)")
                    var options = LoadOptions(profile: profile)
                    options.lenient = true
                    switch Result(catching: { () throws(ConfigurationError) in try PathConfiguration(json: bytes, options: options) }) {
                    case .success(let config):
                        compare(config, detail, count: count, notApplicable: { tally.notApplicable[$0, default: 0] += 1 }, mismatch: mismatch)
                    case .failure(let e): mismatch("load", "refused, even lenient, with \"\(e.message)\"; the app loads it")
                    }
                case ("ok", .failure(let e)):
                    mismatch("load", "refused with \"\(e.message)\"; the app loads it")
                case (_, .success) where name.hasPrefix("cachedProperties") || name.hasPrefix("loader"):
                    // The apps' classes before hotwire-android 1.2.7 (and every turbo-android) also bind
                    // these two keys, which no configuration writes; libpathconfig ignores them, as
                    // docs/format-and-profiles.md says ("Android documents: Gson").
                    tally.deliberate["cachedProperties and loader ignored", default: []].append("\(name): the app \(java.outcome)")
                case (_, .success):
                    mismatch("load", "loaded; the app: \(java.outcome) -- \(java.detail.prefix(160))")
                case ("crash-startup", .failure(let e)):
                    if !e.message.contains("crash") { mismatch("refusal wording", "the app crashes at start-up (\(java.detail.prefix(120))); refused with \"\(e.message.prefix(200))\"") }
                case (_, .failure(let e)):
                    if !e.message.contains("ignore") { mismatch("refusal wording", "the app \(java.outcome == "ignored" ? "ignores it (fromJson null)" : "ignores it (\(java.detail.prefix(120)))"); refused with \"\(e.message.prefix(200))\"") }
                }
            }
        }
        // Every tag of an era reads as one release line here.
        var lines: [String] = []
        for era in Self.eras {
            let releases = Set(try era.tags.map { try Profile(name: era.app + "@" + $0).release.name })
            lines.append("\(era.name) (\(era.tags.first!) .. \(era.tags.last!)): library line(s) \(releases.sorted().joined(separator: ", "))")
            #expect(releases.count == 1, "\(era.name)'s tags read as several release lines: \(releases.sorted())")
        }
        var summary = ["corpus: \(Self.corpus.count) documents, \(Self.probes.count) probe URLs"] + lines
        for era in Self.eras {
            let t = tallies[era.name] ?? Tally()
            let compared = t.compared.values.reduce(0, +)
            summary.append("\(era.name) \(era.profileName): \(compared) comparisons (" + t.compared.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                + "); n/a: " + t.notApplicable.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            for (kind, examples) in t.deliberate.sorted(by: { $0.key < $1.key }) {
                summary.append("  documented: \(kind): \(examples.count), e.g. " + examples.prefix(2).joined(separator: " | "))
            }
            for (kind, examples) in t.mismatches.sorted(by: { $0.key < $1.key }) {
                summary.append("  MISMATCH \(kind): \(examples.count), e.g. " + examples.prefix(3).joined(separator: " | "))
            }
        }
        print(summary.joined(separator: "\n"))
        #expect(messages.isEmpty, "\(messages.count) mismatches (at most 6 per document and era shown):\n\(messages.joined(separator: "\n"))")
    }

    /// Settings, then per probe: the lookup's throw or properties and each typed accessor.
    func compare(_ config: PathConfiguration, _ detail: JSONObject, count: (String) -> Void, notApplicable: (String) -> Void,
                 mismatch: (String, String) -> Void) {
        if let settings = detail["settings"], settings != .null {
            count("settings")
            if !Self.same(settings, .object(config.settings)) {
                mismatch("settings", "\(JSONWriter.compact(.object(config.settings))), the app \(JSONWriter.compact(settings))")
            }
        } else {
            notApplicable("settings (null)")
        }
        let lookups = detail["lookups"]?.arrayValue ?? []
        for (url, java) in zip(Self.probes, lookups) {
            let java = java.objectValue ?? [:]
            let resolved = Result { () throws(ResolveError) in try config.resolve(url) }
            count("lookup")
            if let thrown = java["throws"]?.stringValue {
                switch resolved {
                case .failure(let e) where e.code == .unreadableURL: break
                case .failure(let e): mismatch("lookup", "\(url): the app throws \(thrown); ResolveError \(e.code): \(e.message)")
                case .success(let p): mismatch("lookup", "\(url): the app throws \(thrown); resolves to \(p.json)")
                }
                continue
            }
            let properties: PathProperties
            switch resolved {
            case .failure(let e):
                mismatch("lookup", "\(url): ResolveError \(e.code) (\(e.message)); the app gives \(JSONWriter.compact(java["properties"] ?? .null))")
                continue
            case .success(let p): properties = p
            }
            count("properties")
            if let expected = java["properties"], !Self.same(expected, .object(properties.object)) {
                mismatch("properties", "\(url): \(properties.json), the app \(JSONWriter.compact(expected))")
            }
            let typed = java["typed"]?.objectValue ?? [:]
            for key in TypedKey.allCases {
                guard let answer = typed[key.rawValue] else { continue }
                if answer == .string("n/a") {
                    notApplicable(key.rawValue)
                    continue
                }
                count("typed")
                let read = properties.read(key)
                let answerObject = answer.objectValue ?? [:]
                if let thrown = answerObject["throws"]?.stringValue {
                    let from = answerObject["from"]?.stringValue
                    switch read {
                    case .crash(let message) where message.hasPrefix(thrown) && (from.map { message.contains("\($0) cannot be cast") } ?? true): break
                    default: mismatch("typed \(key.rawValue)", "\(url): \(read), the app throws \(thrown)\(from.map { " (a \($0))" } ?? "")")
                    }
                    continue
                }
                let expected = answerObject["value"] ?? .null
                switch read {
                case .value(let v):
                    let equal: Bool
                    if key.kind == .enumeration, let a = expected.stringValue, let b = v.stringValue {
                        equal = a.lowercased() == b.lowercased()
                    } else {
                        equal = expected == v
                    }
                    if !equal { mismatch("typed \(key.rawValue)", "\(url): \(JSONWriter.compact(v)), the app \(JSONWriter.compact(expected))") }
                case .crash(let message):
                    mismatch("typed \(key.rawValue)", "\(url): crash \(message.prefix(100)), the app \(JSONWriter.compact(expected))")
                }
            }
        }
    }
}
