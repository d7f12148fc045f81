import PathConfiguration
import Testing

/// Relative inputs, base URLs and host names as Siesta builds its URLs:
/// the cases Siesta's own spec pins, and issue 27's examples, through the
/// Swift API (Tests/pathconfigTests/SiestaCLITests.swift runs the same
/// through the command, the C, Python and Rust suites through theirs).
@Suite("Siesta's resource URLs")
struct ResourceURLTests {
    static func config(base: String, globs: [String] = []) throws -> PathConfiguration {
        var options = LoadOptions(profile: .siesta)
        options.baseURL = try BaseURL(base)
        let rules = globs.map { JSONValue.object(["globs": .array([.string($0)]), "properties": .object(["m": .bool(true)])]) }
        return try PathConfiguration(json: JSONWriter.compact(.object(["rules": .array(rules)])), options: options)
    }

    /// Siesta's Tests/Functional/ServiceSpec.swift, `describe("resource(_:)")`
    /// (lines 86-125 at 4fcc942): `checkPathExpansion` tries each path with
    /// and without a leading `/`.
    @Test("ServiceSpec's resource(_:) expansions, with and without a leading slash")
    func serviceSpec() throws {
        let cases: [(String, String, String)] = [
            ("https://foo.bar", "", "https://foo.bar/"),
            ("https://foo.bar", "baz", "https://foo.bar/baz"),
            ("https://foo.bar", "baz/fez", "https://foo.bar/baz/fez"),
            ("https://foo.bar", "baz/fez/", "https://foo.bar/baz/fez/"),
            ("https://foo.bar/v1", "baz", "https://foo.bar/v1/baz"),
            ("https://foo.bar/v1", "baz/fez", "https://foo.bar/v1/baz/fez"),
            ("https://foo.bar/v1", "./baz", "https://foo.bar/v1/./baz"),
            ("https://foo.bar/v1", "../baz", "https://foo.bar/v1/../baz"),
            ("https://foo.bar/v1", "baz/.", "https://foo.bar/v1/baz/."),
            ("https://foo.bar/v1", "baz/..", "https://foo.bar/v1/baz/.."),
            // "escapes all characters as part of the path (even ones that look like query strings)"
            ("https://foo.bar/v1", "?foo=bar", "https://foo.bar/v1/%3Ffoo=bar"),
            ("https://foo.bar/v1", "%3F", "https://foo.bar/v1/%253F"),
            ("https://foo.bar/v1", "𝄞", "https://foo.bar/v1/%F0%9D%84%9E"),
        ]
        for (base, path, expected) in cases {
            let config = try Self.config(base: base)
            for variant in [path, "/" + path] {
                #expect(config.requestURL(for: variant) == expected, "\(variant) under \(base)")
                #expect(config.matchedString(for: variant) == expected, "\(variant) under \(base)")
            }
        }
        // The spec's `//other.host` expects `https://foo.bar/v1//other.host`,
        // as the NSURL-based URL of its day appended; swift-foundation's
        // appendingPathComponent (Linux, and Apple's newer URL) keeps one
        // slash, and SiestaURLFoundationTests compares against it.
        #expect(try Self.config(base: "https://foo.bar/v1").requestURL(for: "//other.host") == "https://foo.bar/v1/other.host")
    }

    @Test("issue 27, item 4: ?, # and % in a relative input are part of its path; the query needs an absolute URL")
    func relativeQuery() throws {
        let config = try Self.config(base: "https://api.example.com", globs: ["/items"])
        #expect(try config.resolve("/items?x=1").json == "{}")
        #expect(config.requestURL(for: "/items?x=1") == "https://api.example.com/items%3Fx=1")
        #expect(config.requestURL(for: "/items#top") == "https://api.example.com/items%23top")
        #expect(config.requestURL(for: "/50%") == "https://api.example.com/50%25")
        #expect(try config.resolve("https://api.example.com/items?x=1").json == #"{"m":true}"#)
    }

    @Test("issue 27, item 5: a base URL's escapes are normalised as Service.init does; only the appended part is encoded")
    func baseEscapes() throws {
        #expect(try BaseURL("https://api.example.com/%7Eme").string == "https://api.example.com/~me/")
        #expect(try BaseURL("https://api.example.com/caf%c3%a9").string == "https://api.example.com/caf%C3%A9/")
        #expect(try BaseURL("https://api.example.com/a%2Fb").string == "https://api.example.com/a/b/")
        #expect(try BaseURL("https://api.example.com/a%3Fb").string == "https://api.example.com/a%3Fb/")
        let tilde = try Self.config(base: "https://api.example.com/%7Eme", globs: ["/items"])
        #expect(try tilde.resolve("https://api.example.com/~me/items").json == #"{"m":true}"#)
        let cafe = try Self.config(base: "https://api.example.com/caf%C3%A9", globs: ["**"])
        #expect(cafe.requestURL(for: "/café") == "https://api.example.com/caf%C3%A9/caf%C3%A9")
        #expect(try cafe.resolve("/café").json == #"{"m":true}"#)
        do {
            _ = try BaseURL("https://api.example.com/%FF/v1")
            Issue.record("accepted an escape that is not UTF-8")
        } catch {
            #expect(error.message == #"option "base_url" "https://api.example.com/%FF/v1" has a percent-escape in its path that is not UTF-8; Siesta's Service would drop the whole path"#)
        }
    }

    @Test("a base URL's *, @ and : are read by byte: a combining mark after one does not hide it")
    func combiningMarks() throws {
        // "*\u{301}" is one Character, but its "*" is still a glob wildcard.
        for bad in ["https://api.example.com/v1/*\u{301}", "https://me@\u{301}api.example.com", "https://:\u{301}8080/v1"] {
            #expect(throws: ConfigurationError.self, "\(bad.debugDescription)") { try BaseURL(bad) }
        }
    }

    @Test("issue 27, item 6: hosts beyond ASCII are IDNA-encoded in base URLs and URLs, never in globs")
    func internationalHosts() throws {
        #expect(try BaseURL("https://bücher.de").string == "https://xn--bcher-kva.de/")
        #expect(try BaseURL("https://Bücher.DE/v1").string == "https://xn--bcher-kva.de/v1/")
        let base = try Self.config(base: "https://bücher.de", globs: ["/items"])
        #expect(try base.resolve("https://xn--bcher-kva.de/items").json == #"{"m":true}"#)
        #expect(try base.resolve("https://bücher.de/items").json == #"{"m":true}"#)
        #expect(try base.resolve("/items").json == #"{"m":true}"#)
        // An absolute glob is compiled as written, and Foundation never
        // leaves a host beyond ASCII in a URL: it matches nothing.
        let glob = try Self.config(base: "https://api.example.com", globs: ["https://bücher.de/**"])
        #expect(try glob.resolve("https://bücher.de/items").json == "{}")
        #expect(try glob.resolve("https://xn--bcher-kva.de/items").json == "{}")
        #expect(glob.requestURL(for: "https://bücher.de/items") == "https://xn--bcher-kva.de/items")
        // A host Foundation cannot convert: URL(string:) is nil, and Siesta
        // matches its invalid resource's URL, `:`.
        #expect(glob.requestURL(for: "https://-bücher.de/items") == ":")
        #expect(glob.matchedString(for: "https://a b.de/items") == ":")
        do {
            _ = try BaseURL("https://-bücher.de")
            Issue.record("accepted a host IDNA refuses")
        } catch {
            #expect(error.message.contains("is refused by Foundation's URL(string:)"))
        }
        // ASCII hosts are never converted: kept as written (lower-cased for globs, as before).
        #expect(glob.requestURL(for: "https://API.Example.com/x") == "https://API.Example.com/x")
    }
}
