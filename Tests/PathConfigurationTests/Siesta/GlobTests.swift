import PathConfiguration
@testable import PathConfigCore
import Testing

/// Globs beyond siesta.json: the translation itself, the base-URL security
/// property, and edge cases of URLs (colons, `@`, percent-encoding, trailing
/// slashes, fragments), through both engines.
@Suite("Globs")
struct GlobTests {
    /// A configuration with one rule per glob (`{"g": index}`), siesta profile.
    static func config(_ globs: [String], base: String?, engine: String) throws -> PathConfiguration {
        var options = LoadOptions(profile: .siesta, engine: Conformance.engine(engine))
        options.baseURL = try base.map { try BaseURL($0) }
        let rules = globs.enumerated().map { i, g -> JSONValue in
            .object(["globs": .array([.string(g)]), "properties": .object(["g\(i)": .bool(true)])])
        }
        return try PathConfiguration(json: JSONWriter.compact(.object(["rules": .array(rules)])), options: options)
    }

    static func matches(_ glob: String, _ url: String, base: String? = "https://api.example.com", engine: String) throws -> Bool {
        try config([glob], base: base, engine: engine).resolve(url)["g0"] == .bool(true)
    }

    @Test("the translation is Siesta's regular expression, character for character")
    func translation() throws {
        let base = try BaseURL("https://foo.bar/v1")
        #expect(GlobPattern.regex(for: "/volcanos/*/status", base: base) == #"^https:\/\/foo\.bar\/v1\/volcanos\/[^/?]*\/status($|\?)"#)
        #expect(GlobPattern.regex(for: "/**/knob", base: base) == #"^https:\/\/foo\.bar\/v1\/([^?]*/|)knob($|\?)"#)
        #expect(GlobPattern.regex(for: "/x?y", base: nil) == #"^\/x[^/?]y($|\?)"#)
        #expect(GlobPattern.regex(for: "https://foo.com:*/**", base: base) == #"^https:\/\/foo\.com:[^/?]*\/[^?]*($|\?)"#)
        #expect(GlobPattern.regex(for: "a+b(c)[d]{e}|f^g$h\\i", base: nil) == #"^a\+b\(c\)\[d]\{e\}\|f\^g\$h\\i($|\?)"#)
    }

    @Test("a relative glob never matches another scheme, host or port, however the URL is dressed", arguments: Conformance.engineNames)
    func baseScope(engine: String) throws {
        for glob in ["**", "/**", "*", "/**/*", "**/x"] {
            for url in ["https://api.example.com.evil.com/x", "https://api.example.com@evil.com/x", "https://evil.com/https://api.example.com/x",
                        "https://api.example.com:8443/x", "http://api.example.com/x", "https://evil.com/?https://api.example.com/x",
                        "https://api.example.com%2F@evil.com/x", "https://user@api.example.com/x", "https://evil.com#https://api.example.com/x",
                        "//api.example.com.evil.com/x"] {
                let config = try Self.config([glob], base: "https://api.example.com", engine: engine)
                let url2 = config.requestURL(for: url)
                if url2.hasPrefix("https://api.example.com/") { continue } // a relative input stays on the base: allowed
                #expect(try config.resolve(url)["g0"] == nil, "\(glob) matched \(url) (as \(url2))")
            }
        }
    }

    @Test("schemes and hosts compare case-insensitively, paths case-sensitively", arguments: Conformance.engineNames)
    func caseRules(engine: String) throws {
        #expect(try Self.matches("/users/*", "HTTPS://API.Example.COM/users/1", engine: engine))
        #expect(try Self.matches("/users/*", "https://api.example.com/users/1", base: "HTTPS://API.EXAMPLE.COM", engine: engine))
        #expect(try !Self.matches("/users/*", "https://api.example.com/Users/1", engine: engine))
        #expect(try Self.matches("https://API.example.com/**", "https://api.EXAMPLE.com/a", base: nil, engine: engine))
    }

    @Test("the case rule is the one deliberate difference from Siesta: its own expression, case-sensitive over the URL as written, does not match")
    func caseDiffersFromSiesta() throws {
        // Siesta compiles the glob's expression with NSRegularExpression (ICU:
        // the foundation engine) and matches `absoluteString` as written.
        // The expression is Siesta's character for character (`translation` above).
        let expression = GlobPattern.regex(for: "https://api.example.com/**", base: nil)
        let siesta = try Conformance.engine("foundation").compile(expression, options: RegexOptions(), limits: Limits())
        #expect(siesta.search(MatchSubject("https://API.example.com/items")) == .noMatch)
        #expect(siesta.search(MatchSubject("https://api.example.com/items")) == .match)
        #expect(try Self.matches("https://api.example.com/**", "https://API.example.com/items", base: nil, engine: "pcre2"))
    }

    @Test("edge cases: colons, @, percent-encoding, trailing slashes, fragments, queries", arguments: Conformance.engineNames)
    func edges(engine: String) throws {
        let cases: [(String, String, Bool)] = [
            ("/a/*", "https://api.example.com/a/b:c", true),
            ("/a/*", "https://api.example.com/a/@x", true),
            ("/a/*", "https://api.example.com/a/b%2Fc", true),          // an encoded slash stays in its segment
            ("/a/b c", "https://api.example.com/a/b c", false),         // the URL is matched percent-encoded ...
            ("/a/b%20c", "https://api.example.com/a/b c", true),        // ... as Siesta's absoluteString has it
            ("/a/*", "https://api.example.com/a/", true),               // * may be empty
            ("/a/?*", "https://api.example.com/a/", false),
            ("/a", "https://api.example.com/a/", false),                // no trailing-slash folding
            ("/a/", "https://api.example.com/a", false),
            ("/a", "https://api.example.com/a?x=1", true),              // the query is ignored
            ("/a", "https://api.example.com/a#top", false),             // a fragment is not (Siesta: the regex ends at $ or ?)
            ("/a*", "https://api.example.com/a#top", true),             // ... though a wildcard may eat it
            ("/**", "https://api.example.com", false),                  // no path: the base's "/" is missing
            ("/**", "https://api.example.com/", true),
            ("/a/**/b", "https://api.example.com/a/b", true),
            ("/a/**/b", "https://api.example.com/a/x/y/b?q", true),
            ("/a/**/b", "https://api.example.com/ab", false),
            ("/a", "/a", true),                                         // a path resolves against the base
            ("a", "/a", true),
        ]
        for (glob, url, expected) in cases {
            #expect(try Self.matches(glob, url, engine: engine) == expected, "\(glob) on \(url)")
        }
    }

    @Test("base URLs: normalised with a trailing slash; user info, query, fragment, wildcards and relative URLs refused")
    func baseURLs() throws {
        #expect(try BaseURL("https://API.example.com/v1").string == "https://api.example.com/v1/")
        #expect(try BaseURL("https://api.example.com").string == "https://api.example.com/")
        #expect(try BaseURL("https://api.example.com/v1/").string == "https://api.example.com/v1/")
        for bad in ["/v1", "api.example.com", "https://u:p@api.example.com", "https://api.example.com/?x", "https://api.example.com/#x",
                    "https://*.example.com", "https://", "https:///x", "mailto:a@b", "https://api.example.com/a b"] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try BaseURL(bad) }
        }
    }

    @Test("without a base URL a glob matches the URL as given")
    func noBase() throws {
        for engine in Conformance.engineNames {
            #expect(try Self.matches("/foo", "/foo", base: nil, engine: engine))
            #expect(try !Self.matches("/foo", "https://x.dev/foo", base: nil, engine: engine))
            #expect(try Self.matches("http://bar.baz/*", "http://bar.baz/foo", base: nil, engine: engine))
        }
    }

    @Test("without a base URL an input without a scheme is what URL(string:) makes of it, to globs and patterns, from its bytes too")
    func noBaseRelative() throws {
        let json = #"{"rules": [{"patterns": ["^/a%20b$"], "properties": {"encoded": 1}}, {"patterns": ["^/a b$"], "properties": {"given": 1}},"#
            + #" {"patterns": ["^:$"], "properties": {"none": 1}}, {"globs": ["/a%20b"], "properties": {"glob": 1}}]}"#
        for engine in Conformance.engineNames {
            // Printable ASCII without a base URL or a rule from code: the lookup
            // the byte path would take, which must step aside for siesta.
            let patterns = try PathConfiguration(json: json.replacingOccurrences(of: #", {"globs": ["/a%20b"], "properties": {"glob": 1}}"#, with: ""),
                                                 options: LoadOptions(profile: .siesta, engine: Conformance.engine(engine)))
            let withGlobs = try PathConfiguration(json: json, options: LoadOptions(profile: .siesta, engine: Conformance.engine(engine)))
            for config in [patterns, withGlobs] {
                #expect(try config.resolve("/a b").object.keys.filter { $0 != "glob" } == ["encoded"], "\(engine)")
                #expect(try config.resolve("/a%20b").object.keys.filter { $0 != "glob" } == ["encoded"], "\(engine)")
                #expect(try config.resolve("1a:b").object.keys == ["none"], "Foundation takes 1a for a scheme, and rejects it: \(engine)")
                #expect(config.matchedString(for: "a|b") == "a%7Cb" && config.matchedString(for: "") == ":")
            }
            #expect(try withGlobs.resolve("/a b")["glob"] == .number(JSONNumber(Int64(1))), "\(engine)")
            #expect(try Self.matches("/a?b", "/a b", base: nil, engine: engine) == false, "one character, but Foundation writes three: \(engine)")
        }
    }

    @Test("a rule applies when a pattern or a glob matches; explain says which")
    func patternsAndGlobs() throws {
        var options = LoadOptions(profile: .siesta)
        options.baseURL = try BaseURL("https://api.example.com")
        let config = try PathConfiguration(json: #"{"rules": [{"patterns": ["/edit$"], "globs": ["/users/*"], "properties": {"a": 1}}]}"#, options: options)
        let byGlob = try config.explain("/users/7")
        #expect(byGlob.rules.map(\.kind) == [.glob])
        #expect(byGlob.json.contains(#""glob":"/users/*","pattern_index":0"#))
        let byPattern = try config.explain("/users/7/edit")
        #expect(byPattern.rules.map(\.kind) == [.pattern], "a pattern decides before a glob")
        #expect(try config.explain("/other").rules.isEmpty)
    }

    @Test("prefilter on and off agree on globs", arguments: Conformance.engineNames)
    func prefilter(engine: String) throws {
        let globs = ["/**", "/a/*", "/a/**/b", "/*x*/c", "/?", "https://foo.com:*/**", "*oo", "/a/b", "/c/**"]
        var on = LoadOptions(profile: .siesta, engine: Conformance.engine(engine))
        on.baseURL = try BaseURL("https://api.example.com")
        var off = on
        off.usePrefilter = false
        let rules = globs.map { JSONValue.object(["globs": .array([.string($0)]), "properties": .object([:])]) }
        let json = JSONWriter.compact(.object(["rules": .array(rules)]))
        let a = try PathConfiguration(json: json, options: on), b = try PathConfiguration(json: json, options: off)
        for url in ["/", "/a/b", "/a/x/y/b", "/x/c", "/foxy/c", "/o", "https://foo.com:8080/a", "/zoo", "/c/d?e", "https://api.example.com/a/b#f"] {
            #expect(try a.matchingRules(for: url) == b.matchingRules(for: url), "\(url)")
        }
    }

    @Test("a glob's automaton answers as Siesta's expression on every printable ASCII URL, and typical globs have one")
    func automaton() throws {
        let base = try BaseURL("https://foo.bar/v1")
        #expect(GlobPattern.automatonForm(for: "/volcanos/*/status", base: base) == #"^https:\/\/foo\.bar\/v1\/volcanos\/[^/\?]*\/status(\?.*)?$"#)
        #expect(GlobPattern.automatonForm(for: "/**/knob", base: base) == #"^https:\/\/foo\.bar\/v1\/([^\?]*/|)knob(\?.*)?$"#)
        for glob in ["/volcanos/*/status", "/**/knob", "/x?y", "https://foo.com:*/**", "/a/b", "**"] {
            #expect(SmallPattern(GlobPattern.automatonForm(for: glob, base: base), options: RegexOptions(caseInsensitive: false)) != nil, "\(glob)")
        }
        // Every glob of up to three pieces, with and without a base URL, on
        // random URLs of the same kind of pieces: the automaton against PCRE2
        // running the expression.
        let globPieces = ["/", "*", "**", "?", "a", ".", "%2F", "\\", "[^?]", "$", "(", "|"]
        let urlPieces = ["/", "a", "?", ".", "x=1", "%2F", "\\", "[^?]", "$", "aa/", "(|)", "https://foo.bar/v1/"]
        var globs: [String] = [""]
        for _ in 1...3 { globs = globs + globs.flatMap { g in globPieces.map { g + $0 } } }
        globs = Array(Set(globs.filter { !$0.isEmpty })).sorted()
        var rng = SplitMix(state: 39)
        var read = 0
        for (i, glob) in globs.enumerated() {
            let base = i % 2 == 0 ? base : nil
            guard let small = SmallPattern(GlobPattern.automatonForm(for: glob, base: base), options: RegexOptions(caseInsensitive: false)) else { continue }
            read += 1
            let regex = GlobPattern.regex(for: glob, base: base)
            let engine = try PCRE2Engine().compile(regex, options: RuleCompiler.globOptions, limits: Limits())
            for _ in 0..<40 {
                let url = (0..<Int.random(in: 0...6, using: &rng)).map { _ in urlPieces.randomElement(using: &rng)! }.joined()
                let expected = engine.search(MatchSubject(url)) == .match
                let got = Array(url.utf8).withUnsafeBufferPointer { small.matches($0) }
                if got != expected {
                    Issue.record("glob \(glob) (base \(base?.string ?? "none")) on \(url): the automaton \(got), PCRE2 \(expected) (\(regex))")
                    return
                }
            }
        }
        // Only globs holding `[^?]` have a character the reader refuses (`]`).
        #expect(read == globs.filter { !$0.contains("[^?]") }.count)
    }
}
