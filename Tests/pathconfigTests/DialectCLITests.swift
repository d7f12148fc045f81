import Testing

/// How a pattern the PCRE2 backend refuses reads on the command line.
@Suite("pathconfig and the regex dialects")
struct DialectCLITests {
    static let file = "{\"rules\": [\n  {\"patterns\": [\"^/caf\\\\u00e9$\", \"/\\\\X+$\"], \"properties\": {}}\n]}"

    /// What follows a refused ICU construct: the limit is the library's, and
    /// the foundation backend is advice for Swift and this command only.
    static let icuAdvice = " is valid ICU (iOS accepts it), but libpathconfig's pcre2 backend cannot match it exactly; rewrite the pattern"
        + " without it, or, from Swift or the pathconfig command (not C, Python or Rust), use the foundation backend, which is ICU"

    @Test("validate: an ICU construct the pcre2 backend cannot run is unsupported, not invalid; the foundation backend runs it")
    func refusal() throws {
        let path = try CLI.temporaryFile(Self.file)
        let r = try CLI.run(["validate", "--config", path])
        #expect(r.status == 1)
        #expect(r.stderr == path + ":2:34: error: rule 0, pattern 1: unsupported regular expression \"/\\\\X+$\" at offset 1: "
            + "the ICU construct \\X (grapheme clusters follow each engine's own Unicode version and rules)" + Self.icuAdvice + "\n")
        let foundation = try CLI.run(["resolve", "--backend", "foundation", "--config", path, "/caf\u{E9}", "/\u{3B1}\u{3B2}"])
        #expect(foundation.status == 0)
        #expect(foundation.stdout == "{}\n{}\n")
    }

    @Test("validate under an Android profile: Java's dialect, and no advice to use the foundation backend (ICU)")
    func javaRefusal() throws {
        let path = try CLI.temporaryFile("{\"rules\": [{\"patterns\": [\"/a\\\\b{g}\"], \"properties\": {}}]}")
        let r = try CLI.run(["validate", "--profile", "hotwire-android", "--config", path])
        #expect(r.status == 1)
        #expect(r.stderr == path + ":1:26: error: rule 0, pattern 0: unsupported regular expression \"/a\\\\b{g}\" at offset 2: "
            + "the Java construct \\b{g} (grapheme cluster boundaries follow each engine's own Unicode version and rules) is valid Java"
            + " (Android accepts it), but libpathconfig's pcre2 backend cannot match it exactly; rewrite the pattern without it"
            + " (no backend here runs java.util.regex: the foundation backend is ICU)\n")
    }

    @Test("--lenient skips it with a warning that says the same; validate's lint says it for the profiles concerned")
    func lenient() throws {
        let path = try CLI.temporaryFile(Self.file)
        let resolve = try CLI.run(["resolve", "--lenient", "--config", path, "/caf\u{E9}"])
        #expect(resolve.status == 0)
        #expect(resolve.stdout == "{}\n")
        #expect(resolve.stderr == path + ":2:34: warning: rule 0, pattern 1: unsupported regular expression \"/\\\\X+$\" at offset 1: "
            + "the ICU construct \\X (grapheme clusters follow each engine's own Unicode version and rules)" + Self.icuAdvice + " (skipped)\n")
        let validate = try CLI.run(["validate", "--lenient", "--profile", "hotwire-ios", "--config", path])
        #expect(validate.status == 0)
        // Lint reads \u00e9 as the é it is: a literal before the final $, which a query string stops matching.
        #expect(validate.stderr == path + ":2:30: warning: rule 0: pattern 0 \"^/caf\\\\u00e9$\" does not match URLs with a query string "
            + "(such as ?page=2): hotwire-ios matches patterns against the path and query string together; "
            + "write \"^/caf\\\\u00e9(?:$|\\\\?)\" to match with or without one [query-string-anchor]\n"
            + path + ":2:36: warning: rule 0: pattern 1: unsupported regular expression \"/\\\\X+$\" at offset 1: "
            + "the ICU construct \\X (grapheme clusters follow each engine's own Unicode version and rules)" + Self.icuAdvice
            + " (under hotwire-ios) [invalid-pattern]\n")
    }

    @Test("resolve reads ICU escapes with the default backend")
    func translated() throws {
        let path = try CLI.temporaryFile("{\"rules\": [{\"patterns\": [\"^/caf\\\\u00e9$\"], \"properties\": {\"hit\": 1}}]}")
        let r = try CLI.run(["resolve", "--profile", "turbo-ios", "--config", path, "https://example.com/caf%C3%A9", "/cafe"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"hit\":1}\n{}\n")
    }
}
