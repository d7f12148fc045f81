import Foundation
import PathConfiguration
import Testing

/// The Android profiles against the apps' own classes read by the real Gson
/// (Tests/JVM/GsonOracle.java, Debian's libgoogle-gson-java, 2.10:
/// its JsonReader and adapters read as 2.10.1's and 2.12.1's do but for
/// 2.11's nesting limit, which GsonReaderTests pins from the 2.12.1 source).
/// One JVM run reads the whole corpus; for each document and app the outcome
/// must agree: ignored or refused (the app drops the file) where
/// libpathconfig refuses it saying so; a crash where libpathconfig refuses it
/// naming the crash; otherwise the same settings and, for every probe URL,
/// the same properties.
@Suite("Gson: the Android apps' classes read by the real Gson")
struct GsonOracleTests {
    static let probes = ["https://x.dev/new", "https://x.dev/a/b?q=1", "https://x.dev/zzz", "https://x.dev/recede_historical_location",
                         "https://x.dev/404"]

    /// Documents, each a fact about Gson or the apps' classes.
    static let corpus: [(String, [UInt8])] = {
        let docs: [(String, String)] = [
            // Trailing commas and empty elements.
            ("rules: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"a":1}},]}"#),
            ("patterns: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$",],"properties":{"a":1}}]}"#),
            ("patterns: trailing comma after .*", #"{"settings":{},"rules":[{"patterns":[".*",],"properties":{"a":1}}]}"#),
            ("properties: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"a":1,}}]}"#),
            ("a value's array: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"a":[1,2,]}}]}"#),
            ("a value's array: empty elements", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"a":[,1,,2]}}]}"#),
            ("settings: trailing comma", #"{"settings":{"a":1,},"rules":[]}"#),
            ("a setting's array: trailing comma", #"{"settings":{"tabs":[{"t":1},]},"rules":[]}"#),
            ("the document: trailing comma", #"{"settings":{},"rules":[],}"#),
            ("an unread key's array: trailing comma", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{},"x":[1,]}]}"#),
            ("rules: ; as separators, then a trailing ;", #"{"settings":{};"rules":[{"patterns":["/new"];"properties":{"a":1}};]}"#),
            // Repeated keys.
            ("properties: a repeated key", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"k":1,"k":2}}]}"#),
            ("settings: a repeated key", #"{"settings":{"k":1,"k":2},"rules":[]}"#),
            ("properties: a repeated key whose first value is null", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"k":null,"k":2}}]}"#),
            ("properties: a repeated key whose second value is null", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"k":1,"k":null}}]}"#),
            ("the document: rules twice", #"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"a":1}}],"rules":[{"patterns":["/a"],"properties":{"b":2}}]}"#),
            ("the document: rules twice, the first with a null rule", #"{"settings":{},"rules":[null],"rules":[{"patterns":["/a"],"properties":{"b":2}}]}"#),
            ("the document: settings twice", #"{"settings":{"a":1},"rules":[],"settings":{"b":2}}"#),
            ("a rule: patterns twice", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"a":1},"patterns":["/zzz"]}]}"#),
            ("a rule: properties twice", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"a":1},"properties":{"b":2}}]}"#),
            ("a value's object: a repeated key", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"a":{"x":1,"x":2}}}]}"#),
            // Keys canonically equivalent but spelt apart, which Java's maps
            // tell apart by UTF-16 unit and Swift's == does not.
            ("properties: keys canonically equivalent", "{\"settings\":{},\"rules\":[{\"patterns\":[\"/new\"],\"properties\":{\"caf\u{E9}\":1,\"cafe\u{301}\":2,\"K\":3,\"\u{212A}\":4,\"K\":5}}]}"),
            ("settings: keys canonically equivalent", "{\"settings\":{\"\u{212B}\":1,\"\u{C5}\":2,\"A\u{30A}\":3},\"rules\":[]}"),
            ("a value's object: keys canonically equivalent", "{\"settings\":{},\"rules\":[{\"patterns\":[\"/new\"],\"properties\":{\"a\":{\"\u{2126}\":1,\"\u{3A9}\":2,\"\u{2126}\":3}}}]}"),
            ("two rules: keys canonically equivalent", "{\"settings\":{},\"rules\":[{\"patterns\":[\"/new\"],\"properties\":{\"caf\u{E9}\":1,\"K\":3}},{\"patterns\":[\"new\"],\"properties\":{\"cafe\u{301}\":2,\"\u{212A}\":4}}]}"),
            // settings.
            ("settings: null", #"{"settings":null,"rules":[]}"#),
            ("settings: [1]", #"{"settings":[1],"rules":[]}"#),
            ("settings: []", #"{"settings":[],"rules":[]}"#),
            ("settings: entries", #"{"settings":[["a",1],["b","x"],[3,true]],"rules":[]}"#),
            ("settings: a string", #"{"settings":"x","rules":[]}"#),
            ("settings: missing", #"{"rules":[{"patterns":["/new"],"properties":{"a":1}}]}"#),
            ("settings: an entry of three", #"{"settings":[["a",1,2]],"rules":[]}"#),
            ("settings: an entry of one", #"{"settings":[["a"]],"rules":[]}"#),
            ("settings: an entry with a trailing comma", #"{"settings":[["a",]],"rules":[]}"#),
            ("properties: entries", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":[["k",true],["n",1.50]]}]}"#),
            // rules.
            ("rules: missing", #"{"settings":{}}"#),
            ("rules: null", #"{"settings":{},"rules":null}"#),
            ("rules: an object", #"{"settings":{},"rules":{}}"#),
            ("a rule: null", #"{"settings":{},"rules":[null]}"#),
            ("a rule: a number", #"{"settings":{},"rules":[1]}"#),
            ("a rule: no patterns", #"{"settings":{},"rules":[{"globs":["/new"],"properties":{"a":1}}]}"#),
            ("a rule: patterns null", #"{"settings":{},"rules":[{"patterns":null,"properties":{"a":1}}]}"#),
            ("a rule: no properties", #"{"settings":{},"rules":[{"patterns":["/new"]}]}"#),
            ("a rule: properties null", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":null}]}"#),
            ("a rule: patterns a string", #"{"settings":{},"rules":[{"patterns":"/new","properties":{}}]}"#),
            ("a rule: a pattern that is an object", #"{"settings":{},"rules":[{"patterns":[{}],"properties":{}}]}"#),
            ("a rule: a null pattern after one that matches everything", #"{"settings":{},"rules":[{"patterns":[".*",null],"properties":{"a":1}}]}"#),
            // What lenient reading takes.
            ("comments", "// leading\n# hash\n{/* block */\"settings\":{}, \"rules\": [ # after\n{\"patterns\": [\"/new\"], // end\n\"properties\": {\"a\": 1}}]}\n"),
            ("single quotes and unquoted names", #"{settings:{}, 'rules': [{patterns: ['/new$', '/a/b'], 'properties': {'context': 'modal', x: 1}}]}"#),
            ("= and => after names", #"{"settings"={},"rules"=>[{"patterns"=["/new"],"properties"=>{"a"=1}}]}"#),
            ("numbers and booleans as patterns", #"{"settings":{},"rules":[{"patterns":[404, 1.5e3, -0, true, FALSE],"properties":{"a":1}}]}"#),
            ("keywords in any case", #"{"settings":{"a":TrUe,"b":NULL,"c":False},"rules":[{"patterns":["/new"],"properties":{"x":tRUE}}]}"#),
            ("unquoted values", #"{"settings":{"a":abc,"b":007,"c":1e5x,"d":NaN,"e":-Infinity,"f":+1,"g":.5,"h":1.},"rules":[]}"#),
            ("numbers", #"{"settings":{"a":12345678901234567890,"b":-0,"c":1E+2,"d":0.10},"rules":[{"patterns":["/new"],"properties":{"n":-12,"m":2.5e-3}}]}"#),
            ("the non-execute prefix", ")]}'\n{\"settings\":{},\"rules\":[{\"patterns\":[\"/new\"],\"properties\":{\"a\":1}}]}"),
            ("the non-execute prefix with CR LF", ")]}'\r\n{\"settings\":{},\"rules\":[]}"),
            ("a comment after the document", "{\"settings\":{},\"rules\":[]} // done"),
            ("whitespace after the document", "{\"settings\":{},\"rules\":[]} \n\t\r\n"),
            ("something after the document", "{\"settings\":{},\"rules\":[]} x"),
            ("null and something after it", "null x"),
            ("raw control characters in strings", "{\"settings\":{\"a\":\"tab\there\",\"b\":\"line\nbreak\"},\"rules\":[]}"),
            ("escapes", #"{"settings":{"a":"it\'s","b":"\/x","c":"\ud83d\ude00","d":"\u00E9"},"rules":[]}"#),
            ("an escaped line break", "{\"settings\":{\"a\":\"x\\\ny\"},\"rules\":[]}"),
            ("an invalid escape", #"{"settings":{"a":"\x"},"rules":[]}"#),
            // What Java holds and Swift cannot: refused only where the app reads the document and keeps it.
            ("a lone surrogate in a setting", #"{"settings":{"a":"x\ud800"},"rules":[]}"#),
            ("a lone surrogate in a property's key", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"\udc00":1}}]}"#),
            ("a lone surrogate in a key the app skips", #"{"settings":{},"comment":"\ud800","rules":[{"patterns":["/new"],"properties":{"a":1}}]}"#),
            ("a lone surrogate in settings a later value replaces", #"{"settings":{"a":"\ud800"},"rules":[],"settings":{"b":2}}"#),
            ("a lone surrogate, then a syntax error", #"{"settings":{"a":"\ud800"},"rules":[} "#),
            ("a lone surrogate, then a wrong type", #"{"settings":{"a":"\ud800"},"rules":{}}"#),
            ("a high surrogate before another escape", #"{"settings":{"a":"\ud800\u0041"},"rules":[]}"#),
            ("two lone surrogates the app tells apart, as keys", #"{"settings":{"\ud800":1,"\ud801":2},"rules":[]}"#),
            ("one lone surrogate twice, as keys", #"{"settings":{"\ud800":1,"\uD800":2},"rules":[]}"#),
            ("a null key", #"{"settings":[[null,1]],"rules":[]}"#),
            ("a null key in properties", #"{"settings":{},"rules":[{"patterns":["/new"],"properties":[[null,"x"],["a",1]]}]}"#),
            ("a null key in settings a later value replaces", #"{"settings":[[null,1]],"rules":[],"settings":{}}"#),
            ("a null key, its entry too long", #"{"settings":[[null,1,2]],"rules":[]}"#),
            ("a null key twice", #"{"settings":[[null,1],[null,2]],"rules":[]}"#),
            ("a null key twice, the first value null", #"{"settings":[[null,null],[null,2]],"rules":[]}"#),
            ("a null key, then a wrong type", #"{"settings":[[null,1]],"rules":[1]}"#),
            ("a repeated key, its entry too long", #"{"settings":[["a",1],["a",2,3]],"rules":[]}"#),
            // Gson fills the classes as it reads: a type error before a syntax error is the one it throws.
            ("a wrong type, then a trailing comma", #"{"settings":{},"rules":"x",}"#),
            ("a wrong type, then something after the document", #"{"settings":{},"rules":5} x"#),
            ("a wrong type in an unterminated string", #"{"settings":{},"rules":[{"patterns":"/a"#),
            ("a wrong type in an array cut short", #"{"settings":{},"rules":[{"patterns":["/a"],"properties":[1,"#),
            ("a repeated key whose second value has an invalid escape", #"{"settings":{"a":1,"a":"\x"},"rules":[]}"#),
            ("a repeated key whose second value is cut short", #"{"settings":{"a":1,"a":[1,"#),
            ("an entry cut short after its key", #"{"settings":[["a""#),
            ("turbo-android: an array value, then a syntax error", #"{"settings":{"a":[1]},"rules":[} "#),
            ("an unterminated comment", "{\"settings\":{},\"rules\":[]} /* open"),
            ("unquoted name then =", #"{settings={},rules=[{patterns=[new],properties={a=1}}]}"#),
            ("a value that starts with a slash", #"{"settings":{"a":/x},"rules":[]}"#),
            ("an empty document", ""),
            ("only a comment", "// nothing"),
            ("null", "null"),
            ("an array", "[]"),
            ("a string", "\"x\""),
            ("deeply nested value", "{\"settings\":{\"a\":" + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "},\"rules\":[]}"),
            ("the turbo-ios page's configuration", """
                {
                  "rules": [
                    {"patterns": ["/new$", "/edit$"], "properties": {"presentation": "modal"}},
                    {"patterns": ["/sign_in$"], "properties": {"presentation": "modal"}},
                  ]
                }
                """),
        ]
        var corpus = docs.map { ($0.0, Array($0.1.utf8)) }
        corpus.append(("a byte-order mark", [0xEF, 0xBB, 0xBF] + Array(#"{"settings":{},"rules":[{"patterns":["/new"],"properties":{"a":1}}]}"#.utf8)))
        corpus.append(("invalid UTF-8 in a pattern and a value", Array(#"{"settings":{"v":"a"#.utf8) + [0xFF, 0xC3] + Array(#"b"},"rules":[{"patterns":["/ne"#.utf8) + [0x80]
            + Array(#"w|/a/b"],"properties":{"a":1}}]}"#.utf8)))
        let utf16: [UInt8] = [0xFF, 0xFE] + Array(#"{"settings":{},"rules":[]}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        corpus.append(("UTF-16LE with a byte-order mark, as a bundled file", utf16))
        return corpus
    }()

    struct JavaOutcome {
        let outcome: String
        let detail: String
    }

    /// Runs the oracle once over `corpus` (Debian's Gson, `JVM.run`):
    /// per document, hotwire-android's and turbo-android's outcomes.
    static func runOracle(_ corpus: [(String, [UInt8])]) throws -> [(hotwire: JavaOutcome, turbo: JavaOutcome)] {
        let input = [probes.joined(separator: "\t")] + corpus.map { Data($0.1).base64EncodedString() }
        let output = try JVM.run("GsonOracle.java", lines: input, classPath: ["/usr/share/java/gson.jar"])
        let lines = output.map { line -> JavaOutcome in
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            return JavaOutcome(outcome: String(parts[1]), detail: parts.count > 2 ? String(parts[2]) : "")
        }
        guard lines.count == corpus.count * 2 else {
            throw JVM.Failure("the oracle answered \(lines.count) lines for \(corpus.count) documents:\n\(output.joined(separator: "\n"))")
        }
        return stride(from: 0, to: lines.count, by: 2).map { (lines[$0], lines[$0 + 1]) }
    }

    /// JSON values equal as Gson's objects are: numbers by value (Long or
    /// Double; the oracle writes an infinite one `{"$double": "Infinity"}`),
    /// objects in any order.
    static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x.doubleValue == y.doubleValue
        case (.object(let x), .number(let y)) where x.count == 1:
            return x["$double"]?.stringValue.flatMap { Double($0.replacingOccurrences(of: "Infinity", with: "inf")) } == y.doubleValue
        case (.number, .object): return same(b, a)
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.keys.allSatisfy { key in y[key].map { same(x[key]!, $0) } ?? false }
        default: return a == b
        }
    }

    /// Where the Android profiles, loading leniently (a pattern the JDK
    /// rejects skipped, as the apps skip it), read `corpus` otherwise than
    /// the oracle's `answers` say the apps do, one line each.
    static func disagreements(_ corpus: [(String, [UInt8])], _ answers: [(hotwire: JavaOutcome, turbo: JavaOutcome)]) throws -> [String] {
        var disagreements: [String] = []
        for ((name, bytes), answer) in zip(corpus, answers) {
            for (profile, java) in [(Profile.hotwireAndroid, answer.hotwire), (.turboAndroid, answer.turbo)] {
                let loading = Result { () throws(ConfigurationError) in try PathConfiguration(json: bytes, options: LoadOptions(profile: profile, lenient: true)) }
                func disagree(_ what: String) { disagreements.append("\(name) under \(profile.rawValue): \(what) (Gson: \(java.outcome) \(java.detail))") }
                switch (java.outcome, loading) {
                case ("refused", .failure(let e)), ("ignored", .failure(let e)):
                    if !e.message.contains("ignores") { disagree("refused with \"\(e.message)\", which does not say the app ignores the file") }
                    // Gson's exception, where the message quotes it, is the one the oracle's Gson threw.
                    if let quoted = e.message.firstRange(of: "(Gson: \""), let end = e.message[quoted.upperBound...].firstRange(of: "\")"),
                       !java.detail.contains(e.message[quoted.upperBound..<end.lowerBound]) {
                        disagree("refused with \"\(e.message)\", quoting another exception")
                    }
                case ("crash-startup", .failure(let e)):
                    if !e.message.contains("crashes (NullPointerException) at start-up") { disagree("refused with \"\(e.message)\"") }
                case ("crash-latent", .failure(let e)):
                    if !e.message.contains("crashes (NullPointerException)") || e.message.contains("at start-up") { disagree("refused with \"\(e.message)\"") }
                case ("ok", .failure(let e)):
                    // What the app holds and a Swift string or dictionary cannot: a documented refusal, the one allowed.
                    if !e.message.contains("reads but this library cannot hold") { disagree("refused with \"\(e.message)\"") }
                case ("ok", .success(let config)):
                    let detail = try JSONValue(parsing: java.detail)
                    if detail.objectValue?["settings_null"] == .bool(true) {
                        if !config.warnings.contains(where: { $0.kind == .notPortable && $0.message.contains("null settings map") }) {
                            disagree("loaded without the null settings warning")
                        }
                    } else if let settings = detail.objectValue?["settings"], !Self.same(settings, .object(config.settings)) {
                        disagree("settings \(JSONWriter.compact(.object(config.settings)))")
                    }
                    let lookups = detail.objectValue?["lookups"]?.arrayValue ?? []
                    for (url, expected) in zip(Self.probes, lookups) {
                        let mine = try JSONValue(parsing: try config.resolve(url).json)
                        if !Self.same(mine, expected) { disagree("\(url) gives \(JSONWriter.compact(mine))") }
                    }
                case (_, .success):
                    disagree("loaded")
                case (_, .failure(let e)):
                    disagree("refused with \"\(e.message)\"")
                }
            }
        }
        return disagreements
    }

    @Test("every document: ignored, refused, a crash or the same settings and properties, as the apps' classes under Gson")
    func oracle() throws {
        let answers = try Self.runOracle(Self.corpus)
        let disagreements = try Self.disagreements(Self.corpus, answers)
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
        // The corpus reaches every outcome.
        let outcomes = Set(answers.flatMap { [$0.hotwire.outcome, $0.turbo.outcome] })
        #expect(outcomes == ["refused", "ignored", "crash-startup", "crash-latent", "ok"])
    }

    /// `DOCUMENTS_SEED` and `DOCUMENTS` run other and more documents.
    @Test("3,000 random lenient documents: ignored, refused, a crash or the same settings and properties, as under Gson")
    func randomDocuments() throws {
        var documents = LenientDocuments(seed: UInt64(ProcessInfo.processInfo.environment["DOCUMENTS_SEED"] ?? "") ?? 0x6A50_4E00)
        let corpus = (0..<(Int(ProcessInfo.processInfo.environment["DOCUMENTS"] ?? "") ?? 3_000)).map { i in ("random document \(i)", documents.next()) }
        let answers = try Self.runOracle(corpus)
        let disagreements = try Self.disagreements(corpus, answers)
        let shown = disagreements.prefix(20).joined(separator: "\n")
        #expect(disagreements.isEmpty, "\(disagreements.count) disagreements, the first:\n\(shown)")
        // The documents reach every outcome, for both apps, and load under each often enough to compare their answers.
        let outcomes = answers.flatMap { [$0.hotwire.outcome, $0.turbo.outcome] }
        #expect(Set(outcomes) == ["refused", "ignored", "crash-startup", "crash-latent", "ok"])
        let ok = (hotwire: answers.filter { $0.hotwire.outcome == "ok" }.count, turbo: answers.filter { $0.turbo.outcome == "ok" }.count)
        #expect(ok.hotwire >= 400 && ok.turbo >= 200, "\(ok)")
    }
}
