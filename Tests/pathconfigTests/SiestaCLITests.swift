import Foundation
import Testing

/// Tests/Fixtures/conformance/siesta.json, read as plain JSON objects (this target
/// runs the binary and does not link the core).
enum SiestaCases {
    /// The whole file (read on each call: `[String: Any]` cannot be a shared constant).
    static var file: [String: Any] {
        let path = CLI.root + "/Tests/Fixtures/conformance/siesta.json"
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            fatalError("cannot read \(path); the repository's Tests/Fixtures is missing")
        }
        return object
    }

    static func cases(_ key: String) -> [[String: Any]] { file[key] as? [[String: Any]] ?? [] }

    /// A pattern written as a regular expression that matches exactly that
    /// text (ICU syntax; every metacharacter escaped).
    static func escapedRegex(_ text: String) -> String {
        var out = ""
        for c in text {
            if "\\^$.|?*+()[]{}".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// The file rule that stands for a Siesta pattern of `kind` (glob, regex,
    /// resource, or the entry kind `global`): globs as written, regexes with
    /// `(?i)` for caseInsensitive, a resource (URL equality) as an anchored,
    /// escaped regex.
    static func matcher(kind: String, pattern: String?, caseInsensitive: Bool) -> [String: Any] {
        switch kind {
        case "global": return ["globs": ["**"]]
        case "glob": return ["globs": [pattern ?? ""]]
        case "regex": return ["patterns": [(caseInsensitive ? "(?i)" : "") + (pattern ?? "")]]
        case "resource": return ["patterns": ["^" + escapedRegex(pattern ?? "") + "$"]]
        default: fatalError("no file rule stands for a \(kind) pattern")
        }
    }

    /// Compact JSON text of `object`, for a configuration file.
    static func json(_ object: Any) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

extension CLI {
    /// Writes `contents` to a file in a fresh temporary directory, runs `body`
    /// with its path, and removes the directory.
    static func withConfigFile<T>(_ contents: String, _ body: (String) throws -> T) throws -> T {
        let directory = NSTemporaryDirectory() + "pathconfig-cli-siesta-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.json"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return try body(path)
    }

    /// The API client example docs/request-rules.md uses.
    static let apiExample = root + "/examples/api-configuration.json"
}

/// Every pattern case of siesta.json whose matcher a file can hold, through
/// `pathconfig resolve --profile siesta`: one one-rule file per pattern and
/// base URL, with every URL of those cases in one invocation.
@Suite("pathconfig and Siesta's pattern cases")
struct SiestaPatternCLITests {
    /// Cases that share a pattern and a base URL.
    struct Group: Sendable, CustomTestStringConvertible {
        let kind: String
        let pattern: String?
        let caseInsensitive: Bool
        let baseURL: String?
        var urls: [String] = []
        var matches: [Bool] = []

        var testDescription: String { "\(kind) \(pattern ?? "-")\(caseInsensitive ? " (i)" : "") under \(baseURL ?? "no base")" }
    }

    /// Predicate cases (`whenURLMatches`, host code) cannot be written in a
    /// file: the C, Python, Rust and Swift suites run them through rules
    /// added from code. Every other kind runs here.
    static let fileKinds: Set<String> = ["glob", "regex", "resource"]

    static let groups: [Group] = {
        var groups: [Group] = []
        for c in SiestaCases.cases("pattern_cases") {
            let kind = c["pattern_kind"] as! String
            guard kind != "predicate" else { continue }
            let pattern = c["pattern"] as? String
            let caseInsensitive = (c["regex_options"] as? [String])?.contains("caseInsensitive") ?? false
            let base = c["baseURL"] as? String
            let group = Group(kind: kind, pattern: pattern, caseInsensitive: caseInsensitive, baseURL: base)
            let same = { (g: Group) in g.kind == kind && g.pattern == pattern && g.caseInsensitive == caseInsensitive && g.baseURL == base }
            if !groups.contains(where: same) { groups.append(group) }
            let at = groups.firstIndex(where: same)!
            groups[at].urls.append(c["url"] as! String)
            groups[at].matches.append(c["matches"] as! Bool)
        }
        return groups
    }()

    @Test("every case but the two predicate ones runs, grouped into fewer invocations")
    func coverage() {
        let all = SiestaCases.cases("pattern_cases")
        let kinds = Dictionary(grouping: all) { $0["pattern_kind"] as! String }.mapValues(\.count)
        #expect(kinds == ["glob": 86, "regex": 7, "resource": 2, "predicate": 2])
        let run = Self.groups.reduce(0) { $0 + $1.urls.count }
        #expect(run == all.count - kinds["predicate"]!)
        #expect(Set(Self.groups.map(\.kind)) == Self.fileKinds)
        #expect(Self.groups.count < run / 2)
    }

    @Test("each URL resolves to the rule's properties exactly when Siesta's pattern matches it", arguments: groups)
    func pattern(_ group: Group) throws {
        var rule = SiestaCases.matcher(kind: group.kind, pattern: group.pattern, caseInsensitive: group.caseInsensitive)
        rule["properties"] = ["hit": true]
        let r = try CLI.withConfigFile(SiestaCases.json(["rules": [rule]])) { file in
            try CLI.run(["resolve", "--profile", "siesta", "--config", file]
                        + (group.baseURL.map { ["--base-url", $0] } ?? []) + ["--"] + group.urls)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        let expected = group.matches.map { $0 ? "{\"hit\":true}\n" : "{}\n" }.joined()
        #expect(r.stdout == expected, "URLs: \(group.urls)")
    }
}

/// The ordering cases of siesta.json that set plain values through entries a
/// file can hold: Siesta's `Configuration()` defaults as the first rule, each
/// entry as a rule in order, `--merge deep`, `--method` as the case says.
@Suite("pathconfig and Siesta's ordering cases")
struct SiestaOrderingCLITests {
    /// The keys of `Configuration` that are plain values (the rest of the
    /// ordering cases pin Siesta's request pipeline, not rule selection).
    static let plainKeys: Set<String> = ["expirationTime", "retryTime", "headers"]

    /// Entry kinds a file can hold; `predicate` entries need host code and
    /// run in the suites that add rules from code.
    static let fileKinds: Set<String> = ["global", "glob", "resource"]

    struct Case: Sendable, CustomTestStringConvertible {
        let source: String
        let baseURL: String
        let method: String
        let url: String
        /// The configuration file's JSON text.
        let file: String
        /// The expected values, as JSON text of the case's `expected` and `entries`.
        let expected: String
        let entries: String

        var testDescription: String { "\(source.split(separator: ":").last ?? "") \(method) \(url)" }
    }

    static var defaultsRule: [String: Any] { [
        "patterns": ["^"], "description": "Siesta's Configuration() defaults",
        "properties": ["expirationTime": 30, "retryTime": 1, "headers": [String: Any]()],
    ] }

    /// True for an entry that sets plain values (no string stands for code)
    /// for all methods or a list of them.
    static func isPlain(_ entry: [String: Any]) -> Bool {
        guard let sets = entry["sets"] as? [String: Any], entry["methods"] is NSNull || entry["methods"] is [String] else { return false }
        return Set(sets.keys).isSubset(of: plainKeys) && !sets.values.contains { $0 is String }
    }

    static let cases: [Case] = SiestaCases.cases("ordering_cases").compactMap { c in
        let entries = c["entries"] as! [[String: Any]]
        guard c["steps"] == nil, entries.allSatisfy(isPlain) else { return nil }
        guard entries.allSatisfy({ fileKinds.contains($0["pattern_kind"] as! String) }) else { return nil }
        let rules: [[String: Any]] = [defaultsRule] + entries.map { e in
            var rule = SiestaCases.matcher(kind: e["pattern_kind"] as! String, pattern: e["pattern"] as? String, caseInsensitive: false)
            if let methods = e["methods"] as? [String] { rule["methods"] = methods }
            if let description = e["description"] { rule["description"] = description }
            rule["properties"] = e["sets"]
            return rule
        }
        return Case(source: c["source"] as! String, baseURL: c["baseURL"] as! String, method: c["method"] as! String,
                    url: c["url"] as! String, file: SiestaCases.json(["rules": rules]),
                    expected: SiestaCases.json(c["expected"]!), entries: SiestaCases.json(entries))
    }

    @Test("15 cases: the plain-value ones but the two whose entry is a host predicate")
    func coverage() {
        let predicateEntries = SiestaCases.cases("ordering_cases").filter { c in
            c["steps"] == nil && (c["entries"] as! [[String: Any]]).allSatisfy(Self.isPlain)
                && (c["entries"] as! [[String: Any]]).contains { $0["pattern_kind"] as? String == "predicate" }
        }
        #expect(Self.cases.count == 15)
        #expect(predicateEntries.count == 2)
    }

    @Test("resolve --merge deep --method gives each case's values", arguments: cases)
    func ordering(_ c: Case) throws {
        let r = try CLI.withConfigFile(c.file) { file in
            try CLI.run(["resolve", "--profile", "siesta", "--config", file, "--base-url", c.baseURL,
                         "--merge", "deep", "--method", c.method, "--", c.url])
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")
        let properties = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stdout)")
        let expected = try JSONSerialization.jsonObject(with: Data(c.expected.utf8)) as! [String: Any]
        let entries = try JSONSerialization.jsonObject(with: Data(c.entries.utf8)) as! [[String: Any]]
        for (key, value) in expected {
            switch key {
            case "request_headers_include":
                for (name, header) in value as! [String: Any] {
                    #expect((properties["headers"] as? [String: Any])?[name] as? NSObject == header as? NSObject, "\(r.stdout)")
                }
            case "loadIfNeeded_at_t+2s_loads":
                // Data (or an error) from t = 1000 is reloaded at t = 1002 when the
                // configured age limit is under 2 s: the entry's value must be in force.
                for e in entries {
                    for (name, set) in e["sets"] as! [String: Any] {
                        #expect(properties[name] as? NSObject == set as? NSObject, "\(r.stdout)")
                        #expect(((set as! NSNumber).doubleValue < 2) == (value as! Bool))
                    }
                }
            default:
                #expect(properties[key] as? NSObject == value as? NSObject, "\(key) in \(r.stdout)")
            }
        }
    }
}

/// The request flags on the API client example (examples/api-configuration.json).
@Suite("pathconfig request rules")
struct RequestRulesCLITests {
    static let service = ["--profile", "siesta", "--config", CLI.apiExample, "--base-url", "https://api.example.com"]

    @Test("--merge deep keeps the headers an earlier rule set; shallow replaces the whole object")
    func merge() throws {
        let deep = try CLI.run(["resolve"] + Self.service + ["--merge", "deep", "/doors/3/knob", "/volcanos/1/status"])
        #expect(deep.status == 0)
        #expect(deep.stdout == """
            {"headers":{"User-Agent":"MyAwesomeApp 1.0","Accept":"doorknob/round, doorknob/handle, */*"},"expirationTime":30}
            {"headers":{"User-Agent":"MyAwesomeApp 1.0","Accept":"application/json"},"expirationTime":0.5}

            """)
        let shallow = try CLI.run(["resolve"] + Self.service + ["/doors/3/knob"])
        #expect(shallow.stdout == "{\"headers\":{\"Accept\":\"doorknob/round, doorknob/handle, */*\"},\"expirationTime\":30}\n")
    }

    @Test("deep merge: null removes a key, arrays are replaced whole, nested objects merge (RFC 7396)")
    func mergePatch() throws {
        let file = """
            {"rules": [
              {"globs": ["**"], "properties": {"tags": ["a", "b"], "headers": {"A": "1", "B": "2"}, "gone": 1}},
              {"globs": ["/x"], "properties": {"tags": ["c"], "headers": {"B": null, "C": "3"}, "gone": null}}
            ]}
            """
        let r = try CLI.withConfigFile(file) { path in
            try CLI.run(["resolve", "--profile", "siesta", "--config", path, "--base-url", "https://h.example", "--merge", "deep", "/x", "/y"])
        }
        #expect(r.status == 0)
        #expect(r.stdout == """
            {"tags":["c"],"headers":{"A":"1","C":"3"}}
            {"tags":["a","b"],"headers":{"A":"1","B":"2"},"gone":1}

            """)
    }

    @Test("--method picks the rules whose methods list it, in any case; GET by default")
    func method() throws {
        let expected = [
            "GET": "{\"headers\":{\"User-Agent\":\"MyAwesomeApp 1.0\",\"Accept\":\"application/json\"},\"expirationTime\":0.5}\n",
            "post": "{\"headers\":{\"User-Agent\":\"MyAwesomeApp 1.0\",\"Accept\":\"application/json\",\"Content-Type\":\"application/json\"}}\n",
            "PUT": "{\"headers\":{\"User-Agent\":\"MyAwesomeApp 1.0\",\"Accept\":\"application/json\"},\"expirationTime\":0.5}\n",
        ]
        for (method, output) in expected {
            let r = try CLI.run(["resolve"] + Self.service + ["--merge", "deep", "--method", method, "/volcanos/1/status"])
            #expect(r.status == 0)
            #expect(r.stdout == output, "--method \(method)")
        }
        let byDefault = try CLI.run(["resolve"] + Self.service + ["--merge", "deep", "/volcanos/1/status"])
        #expect(byDefault.stdout == expected["GET"])
    }

    @Test("a relative glob never matches another scheme, host or port, however the URL is dressed")
    func security() throws {
        let r = try CLI.run(["resolve"] + Self.service + ["--merge", "deep",
            "https://api.example.com.evil.com/volcanos/1/status",
            "https://api.example.com@evil.com/volcanos/1/status",
            "https://api.example.com:8443/volcanos/1/status",
            "http://api.example.com/volcanos/1/status",
            "HTTPS://API.Example.COM/volcanos/1/status?verbose=1",
        ])
        #expect(r.status == 0)
        #expect(r.stdout == "{}\n{}\n{}\n{}\n{\"headers\":{\"User-Agent\":\"MyAwesomeApp 1.0\",\"Accept\":\"application/json\"},\"expirationTime\":0.5}\n")
    }

    @Test("explain --method names the method, the URL and each glob that matched")
    func explain() throws {
        let r = try CLI.run(["explain", "--compact"] + Self.service + ["--merge", "deep", "--method", "post", "/volcanos/1/status"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"input\":\"/volcanos/1/status\",\"method\":\"POST\",\"url\":\"https://api.example.com/volcanos/1/status\","
            + "\"matched_string\":\"https://api.example.com/volcanos/1/status\",\"rules\":["
            + "{\"index\":0,\"glob\":\"**\",\"pattern_index\":0,\"description\":\"Every endpoint of the service: who we are, JSON\"},"
            + "{\"index\":2,\"glob\":\"/volcanos/*/status\",\"pattern_index\":0,\"description\":\"A volcano's status goes stale fast\"},"
            + "{\"index\":3,\"glob\":\"/volcanos/*/status\",\"pattern_index\":0,\"description\":\"Reporting a status: a JSON body, and no answer to keep\"}],"
            + "\"properties\":{\"headers\":{\"User-Agent\":\"MyAwesomeApp 1.0\",\"Accept\":\"application/json\",\"Content-Type\":\"application/json\"}}}\n")
    }

    static let globsOnly = "{\"rules\": [\n  {\"globs\": [\"/users/*\"], \"properties\": {\"headers\": {\"Accept\": \"application/json\"}}}\n]}"

    @Test("validate warns that a rule with globs but no patterns is not portable to the mobile apps")
    func notPortable() throws {
        try CLI.withConfigFile(Self.globsOnly) { file in
            let r = try CLI.run(["validate", "--profile", "hotwire-ios", "--config", file])
            #expect(r.status == 0)
            #expect(r.stdout == "\(file): ok: 1 rule (+3 built-in), 1 warning, profile hotwire-ios\n")
            #expect(r.stderr == "\(file):2:13: warning: rule 0: \"globs\" but no \"patterns\": the hotwire-ios app rejects a rule without \"patterns\", so this file is not portable to it [not-portable]\n")
        }
    }

    @Test("under the siesta profile the same file is portable")
    func portableUnderSiesta() throws {
        try CLI.withConfigFile(Self.globsOnly) { file in
            let r = try CLI.run(["validate", "--profile", "siesta", "--config", file])
            #expect(r.status == 0)
            #expect(r.stdout == "\(file): ok: 1 rule (+0 built-in), 0 warnings, profile siesta\n")
            #expect(r.stderr == "")
        }
    }

    @Test("a bad --method, --base-url or --merge is a usage error (exit 2) that says what is wrong", arguments: [
        (["resolve", "--method", "GE T"], "Error: --method must be an HTTP method token such as GET or POST, got 'GE T'"),
        (["explain", "--method", "", "/a"], "Error: --method must be an HTTP method token such as GET or POST, got ''"),
        (["resolve", "--base-url", "api.example.com"], "Error: --base-url \"api.example.com\" is not an absolute URL with a host (scheme://host/path)"),
        (["resolve", "--base-url", "https://me@api.example.com"], "Error: --base-url \"https://me@api.example.com\" has user information; put credentials in a rule's properties"),
        (["explain", "--base-url", "https://api.example.com/v1?x=1", "/a"], "Error: --base-url \"https://api.example.com/v1?x=1\" has a query or fragment"),
        (["resolve", "--merge", "deeper"], "Error: The value 'deeper' is invalid for '--merge <mode>'. Please provide one of 'shallow' and 'deep'."),
    ])
    func usage(_ arguments: [String], _ message: String) throws {
        let r = try CLI.run(Array(arguments.prefix(1)) + ["--config", CLI.apiExample] + arguments.dropFirst())
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.split(separator: "\n").first.map(String.init) == message, "\(r.stderr)")
    }

    @Test("resolve and explain list the request flags in their help", arguments: ["resolve", "explain"])
    func help(_ subcommand: String) throws {
        let r = try CLI.run([subcommand, "--help"])
        #expect(r.status == 0)
        for flag in ["--base-url <url>", "--merge <mode>", "--method <method>", "siesta"] {
            #expect(r.stdout.contains(flag), "\(flag)")
        }
    }
}

/// Issue 27's Siesta examples, each through the command with its exact
/// output: relative inputs holding `?` (item 4), base URLs with
/// percent-escapes (item 5), host names beyond ASCII (item 6).
@Suite("pathconfig builds Siesta's URLs")
struct SiestaURLCLITests {
    static let items = #"{"rules": [{"globs": ["/items"], "properties": {"m": true}}]}"#
    static let everything = #"{"rules": [{"globs": ["**"], "properties": {"m": true}}]}"#
    static let absoluteGlob = #"{"rules": [{"globs": ["https://bücher.de/**"], "properties": {"m": true}}]}"#

    static func resolve(_ config: String, _ arguments: [String]) throws -> CLI.Result {
        try CLI.withConfigFile(config) { file in try CLI.run(["resolve", "--profile", "siesta", "--config", file] + arguments) }
    }

    @Test("item 4: a relative input's ? is part of its path, as resource(_:) encodes it; the absolute URL carries a query")
    func relativeQuery() throws {
        let r = try Self.resolve(Self.items, ["--base-url", "https://api.example.com", "/items?x=1", "https://api.example.com/items?x=1", "/items"])
        #expect(r.status == 0)
        #expect(r.stdout == "{}\n{\"m\":true}\n{\"m\":true}\n")
        #expect(r.stderr == "")
        let e = try CLI.withConfigFile(Self.items) { file in
            try CLI.run(["explain", "--compact", "--profile", "siesta", "--config", file, "--base-url", "https://api.example.com", "/items?x=1"])
        }
        #expect(e.stdout == #"{"input":"/items?x=1","method":"GET","url":"https://api.example.com/items%3Fx=1","matched_string":"https://api.example.com/items%3Fx=1","rules":[],"properties":{}}"# + "\n")
    }

    @Test("item 5: a base URL's escapes are Service.init's, and only the appended part is encoded")
    func baseEscapes() throws {
        let cafe = try Self.resolve(Self.everything, ["--base-url", "https://api.example.com/caf%C3%A9", "/café"])
        #expect(cafe.stdout == "{\"m\":true}\n")
        #expect(cafe.status == 0)
        let tilde = try Self.resolve(Self.everything, ["--base-url", "https://api.example.com/%7Eme", "https://api.example.com/~me/items"])
        #expect(tilde.stdout == "{\"m\":true}\n")
        let bad = try Self.resolve(Self.everything, ["--base-url", "https://api.example.com/%FF", "/x"])
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: --base-url \"https://api.example.com/%FF\" has a percent-escape in its path that is not UTF-8; Siesta's Service would drop the whole path\n"))
    }

    @Test("item 6: a base URL's host beyond ASCII is IDNA-encoded; an absolute glob's is not, and matches nothing")
    func internationalHosts() throws {
        let base = try Self.resolve(Self.items, ["--base-url", "https://bücher.de", "https://xn--bcher-kva.de/items", "https://bücher.de/items"])
        #expect(base.stdout == "{\"m\":true}\n{\"m\":true}\n")
        #expect(base.status == 0)
        let glob = try Self.resolve(Self.absoluteGlob, ["https://bücher.de/items", "https://xn--bcher-kva.de/items"])
        #expect(glob.stdout == "{}\n{}\n")
        #expect(glob.status == 0)
    }
}
