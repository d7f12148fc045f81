import PathConfiguration
import Synchronization
import Testing

/// Methods, deep merge, rules from code (predicates, configurers, their
/// errors), invalidation, and the portability warnings.
@Suite("Request rules")
struct RequestRuleTests {
    static func options(merge: MergeMode = .shallow, profile: Profile = .siesta) throws -> LoadOptions {
        var o = LoadOptions(profile: profile)
        o.baseURL = try BaseURL("https://api.example.com")
        o.merge = merge
        return o
    }

    @Test("deep merge is a JSON Merge Patch: nested objects merge, null removes, arrays are replaced")
    func deepMerge() throws {
        let json = #"""
        {"rules": [
          {"globs": ["**"], "properties": {"headers": {"User-Agent": "App 1.0", "Accept": "application/json", "X-Debug": "1"}, "tags": ["a", "b"], "gone": 1}},
          {"globs": ["/**/knob"], "properties": {"headers": {"Accept": "doorknob/round", "X-Debug": null}, "tags": ["c"], "gone": null, "n": null}}
        ]}
        """#
        let deep = try PathConfiguration(json: json, options: Self.options(merge: .deep))
        #expect(try deep.resolve("/door/knob").json == #"{"headers":{"User-Agent":"App 1.0","Accept":"doorknob/round"},"tags":["c"]}"#)
        #expect(try deep.resolve("/door").json == #"{"headers":{"User-Agent":"App 1.0","Accept":"application/json","X-Debug":"1"},"tags":["a","b"],"gone":1}"#)
        let shallow = try PathConfiguration(json: json, options: Self.options(merge: .shallow))
        #expect(try shallow.resolve("/door/knob").json == #"{"headers":{"Accept":"doorknob/round","X-Debug":null},"tags":["c"],"gone":null,"n":null}"#)
    }

    /// Tokens that would break out of a JSON string pasted into text.
    static let hostileTokens = [#"abc", "X-Admin": "true"#, #"abc\"#, "line\nbreak", #"}"#, #"{"X-Admin":"true"}"#,
                                "caf\u{E9} \u{1F600}", "tab\there", #"\u0022"#, ""]

    @Test("a configurer's header holds the host's token whole, whatever it holds: one header, that string", arguments: hostileTokens)
    func hostileToken(token: String) throws {
        let api = try PathConfiguration(json: #"{"rules": [{"globs": ["**"], "properties": {"headers": {"Accept": "a/b"}}}]}"#,
                                        options: Self.options(merge: .deep))
        try api.add(HostRule(globs: ["**"], configurer: { properties, _ in
            properties.applyMergePatch(["headers": .object(["X-Auth-Token": .string(token)])])
        }))
        let result = try api.resolve("/users/1", method: "POST")
        #expect(result["headers"] == .object(["Accept": .string("a/b"), "X-Auth-Token": .string(token)]))
        let reparsed = try JSONValue(parsing: result.json).objectValue?["headers"]?.objectValue
        #expect(reparsed?.keys == ["Accept", "X-Auth-Token"] && reparsed?["X-Auth-Token"] == .string(token), "the JSON text says the same")
    }

    @Test("applyMergePatch follows RFC 7396's examples")
    func rfc7396() throws {
        // RFC 7396 appendix A, the cases whose target and patch are objects.
        let cases: [(String, String, String)] = [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ]
        for (target, patch, expected) in cases {
            var t = try JSONValue(parsing: target).objectValue!
            t.applyMergePatch(try JSONValue(parsing: patch).objectValue!)
            #expect(JSONWriter.compact(t) == expected, "\(target) + \(patch)")
        }
    }

    @Test("methods: a rule applies only to the methods it lists; lookups default to GET; names are case-insensitive tokens")
    func methods() throws {
        let config = try PathConfiguration(json: #"{"rules": [{"globs": ["**"], "properties": {"all": true}}, {"globs": ["**"], "methods": ["post", "PUT"], "properties": {"write": true}}]}"#,
                                           options: Self.options())
        #expect(try config.resolve("/x").json == #"{"all":true}"#)
        #expect(try config.resolve("/x", method: "POST").json == #"{"all":true,"write":true}"#)
        #expect(try config.resolve("/x", method: "put").json == #"{"all":true,"write":true}"#)
        #expect(try config.resolve("/x", method: "DELETE").json == #"{"all":true}"#)
        #expect(config.rules[1].methods == ["POST", "PUT"])
        #expect(throws: ResolveError.self) { try config.resolve("/x", method: "GE T") }
        #expect(throws: ResolveError.self) { try config.resolve("/x", method: "") }
        for bad in [#""methods": []"#, #""methods": "GET""#, #""methods": ["G T"]"#, #""methods": [1]"#] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try PathConfiguration(json: #"{"rules": [{"globs": ["**"], \#(bad), "properties": {}}]}"#, options: Self.options())
            }
        }
    }

    @Test("a rule needs patterns or globs; globs must be strings, located")
    func schema() throws {
        let options = try Self.options()
        do {
            _ = try PathConfiguration(json: "{\"rules\": [{\"properties\": {}}]}", options: options)
            Issue.record("accepted a rule without patterns or globs")
        } catch {
            #expect(error.code == .schema)
        }
        do {
            _ = try PathConfiguration(json: "{\"rules\": [\n {\"globs\": [\"/a\", 3], \"properties\": {}}]}", options: options)
            Issue.record("accepted a number glob")
        } catch {
            #expect(error.message == "rule 0, glob 1 must be a string, found number")
            #expect(error.location?.line == 2 && error.location?.column == 19)
            #expect(error.patternIndex == 1)
        }
    }

    @Test("not portable: globs or methods under a mobile profile warn; under siesta they do not")
    func portability() throws {
        let json = "{\"rules\": [\n{\"globs\": [\"/a\"], \"properties\": {}},\n{\"patterns\": [\"/b\"], \"globs\": [\"/b\"], \"methods\": [\"GET\"], \"description\": \"b\", \"properties\": {}}]}"
        let mobile = try PathConfiguration(json: json, options: Self.options(profile: .hotwireIOS))
        #expect(mobile.warnings.map(\.kind) == [.notPortable, .notPortable, .notPortable])
        #expect(mobile.warnings[0].message == #"rule 0: "globs" but no "patterns": the hotwire-ios app rejects a rule without "patterns", so this file is not portable to it"#)
        #expect(mobile.warnings[0].location?.line == 2)
        #expect(mobile.warnings[1].message == #"rule 1 ("b"): the hotwire-ios app ignores "globs", so it matches this rule differently"#)
        #expect(mobile.warnings[2].message.contains(#"ignores "methods""#))
        #expect(try PathConfiguration(json: json, options: Self.options(profile: .siesta)).warnings.isEmpty)
    }

    @Test("rules from code join the end of the ordered rules, after the file's and the built-ins")
    func order() throws {
        let config = try PathConfiguration(json: #"{"rules": [{"patterns": ["/a"], "properties": {"n": 1, "file": true}}]}"#,
                                           options: LoadOptions(profile: .hotwireIOS))
        #expect(try config.add(HostRule(patterns: ["/a"], description: "code", properties: ["n": .number(JSONNumber(Int64(2)))])) == 4)
        #expect(config.rules.count == 4, "one file rule, three built-ins")
        #expect(try config.resolve("/a").json == #"{"n":2,"file":true}"#)
        let e = try config.explain("/a")
        #expect(e.rules.map(\.index) == [0, 4])
        #expect(e.rules[1].fromCode && e.rules[1].description == "code")
        #expect(config.addedRules.map(\.index) == [4])
        #expect(throws: ConfigurationError.self) { try config.add(HostRule()) }
        #expect(throws: ConfigurationError.self) { try config.add(HostRule(patterns: ["("])) }
        #expect(throws: ConfigurationError.self) { try config.add(HostRule(patterns: ["/a"], methods: ["G T"])) }
    }

    @Test("a rule from code is held to what a file's rule is: methods non-empty and each once, patterns and globs within the limits")
    func addedRuleChecks() throws {
        var options = try Self.options()
        options.limits.maxPatternsPerRule = 2
        options.limits.maxPatternBytes = 8
        let config = try PathConfiguration(json: #"{"rules": []}"#, options: options)
        // The same rules in a file, for the messages they get there.
        func fileError(_ rule: String) -> String? {
            do { _ = try PathConfiguration(json: #"{"rules": ["# + rule + "]}", options: options); return nil } catch { return error.message }
        }
        func added(_ rule: HostRule) -> ConfigurationError? {
            do { try config.add(rule); return nil } catch { return error }
        }
        let empty = try #require(added(HostRule(patterns: ["/a"], methods: [])))
        #expect(empty.code == .schema && empty.message == #"rule 0: "methods" must be a non-empty array of HTTP methods, found []"#)
        #expect(fileError(#"{"patterns": ["/a"], "methods": [], "properties": {}}"#) == empty.message)
        let many = try #require(added(HostRule(globs: ["/a", "/b", "/c"])))
        #expect(many.code == .limit && many.message == fileError(#"{"globs": ["/a", "/b", "/c"], "properties": {}}"#))
        let long = try #require(added(HostRule(patterns: ["/a", "/abcdefghi"])))
        #expect(long.code == .limit && long.patternIndex == 1 && long.message == fileError(#"{"patterns": ["/a", "/abcdefghi"], "properties": {}}"#))
        #expect(config.addedRules.isEmpty)
        // Repeated methods count once, as in a file.
        try config.add(HostRule(patterns: ["/a"], methods: ["post", "POST", "get"]))
        #expect(config.addedRules.map(\.methods) == [["POST", "GET"]])
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "no token yet" } }

    @Test("a throwing predicate or configurer fails the lookup, names the rule, and is not memoised")
    func failures() throws {
        let config = try PathConfiguration(json: #"{"rules": []}"#, options: Self.options())
        let fail = Locked(true)
        try config.add(HostRule(globs: ["**"], description: "auth", configurer: { p, _ in
            if fail.withLock({ $0 }) { throw Refused() }
            p["ok"] = .bool(true)
        }))
        do {
            _ = try config.resolve("/x")
            Issue.record("no error")
        } catch {
            #expect(error.code == .hostRule)
            #expect(error.ruleIndex == 0)
            #expect(error.message == #"rule 0 ("auth"): the configurer failed: no token yet"#)
            #expect(error.underlying is Refused)
        }
        #expect(config.properties(for: "/x").json == "{}", "properties(for:) gives {} when a rule from code fails")
        fail.withLock { $0 = false }
        #expect(try config.resolve("/x").json == #"{"ok":true}"#, "the failure was not memoised")
    }

    @Test("predicates see the request URL and method; a predicate refines patterns")
    func predicates() throws {
        let seen = Locked<[String]>([])
        let config = try PathConfiguration(json: #"{"rules": []}"#, options: Self.options())
        try config.add(HostRule(globs: ["/admin/**"], properties: ["admin": .bool(true)], predicate: { r in
            seen.withLock { $0.append("\(r.method) \(r.url)") }
            return r.method != "DELETE"
        }))
        // A query needs the absolute URL: a relative input's `?` is part of its path (resource(_:)).
        #expect(try config.resolve("https://api.example.com/admin/x?y=1", method: "post").json == #"{"admin":true}"#)
        #expect(try config.resolve("/admin/x", method: "DELETE").json == "{}")
        #expect(try config.resolve("/public").json == "{}", "the glob did not match: the predicate is not asked")
        #expect(seen.withLock { $0 } == ["POST https://api.example.com/admin/x?y=1", "DELETE https://api.example.com/admin/x"])
        #expect(try config.explain("/admin/x").rules.first?.kind == .glob)
        try config.add(HostRule(properties: ["any": .bool(true)], predicate: { $0.url.hasSuffix("z") }))
        #expect(try config.explain("/z").rules.map(\.kind) == [.predicate])
    }

    @Test("invalidate while other threads resolve: every result comes from one read of the host's values; the last value wins")
    func concurrentInvalidate() async throws {
        final class Version: Sendable { let value = Atomic<Int>(0) }
        let version = Version()
        let config = try PathConfiguration(json: #"{"rules": []}"#, options: Self.options(merge: .deep))
        try config.add(HostRule(globs: ["**"], configurer: { p, _ in
            let v = version.value.load(ordering: .acquiring)
            p["a"] = .number(JSONNumber(Int64(v)))
            p["b"] = .number(JSONNumber(Int64(v)))
        }))
        let urls = (0..<50).map { "/r/\($0)" }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for t in 0..<4 {
                group.addTask {
                    var inconsistent = 0
                    for i in 0..<3000 {
                        let p = try config.resolve(urls[(i + t) % urls.count])
                        if p["a"] != p["b"] { inconsistent += 1 }
                    }
                    return inconsistent
                }
            }
            group.addTask {
                for v in 1...200 {
                    version.value.store(v, ordering: .releasing)
                    config.invalidate()
                }
                return 0
            }
            for try await n in group { #expect(n == 0) }
        }
        for url in urls { #expect(try config.resolve(url)["a"] == .number(JSONNumber(Int64(200)))) }
    }

    @Test("a callback may call back into its configuration")
    func reentrancy() throws {
        let config = try PathConfiguration(json: #"{"rules": [{"globs": ["/inner"], "properties": {"inner": 1}}]}"#, options: Self.options())
        let box = Locked<PathConfiguration?>(config)
        try config.add(HostRule(globs: ["/outer"], configurer: { p, _ in
            guard let c = box.withLock({ $0 }) else { return }
            p["nested"] = .object(try c.resolve("/inner").object)
            c.invalidate()
        }))
        #expect(try config.resolve("/outer").json == #"{"nested":{"inner":1}}"#)
        box.withLock { $0 = nil }
    }
}
