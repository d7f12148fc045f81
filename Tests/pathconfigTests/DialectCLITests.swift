import Testing

/// How a pattern the PCRE2 backend refuses reads on the command line.
@Suite("pathconfig and the regex dialects")
struct DialectCLITests {
    static let file = "{\"rules\": [\n  {\"patterns\": [\"^/caf\\\\u00e9$\", \"/\\\\p{InGreek}+$\"], \"properties\": {}}\n]}"

    @Test("validate names the refused construct, its offset, and the backend that takes it")
    func refusal() throws {
        let path = try CLI.temporaryFile(Self.file)
        let r = try CLI.run(["validate", "--config", path])
        #expect(r.status == 1)
        #expect(r.stderr == path + ":2:34: error: rule 0, pattern 1: invalid regular expression \"/\\\\p{InGreek}+$\" at offset 1: "
            + "ICU construct \\p{InGreek} (a Unicode block; PCRE2 has no block property) has no PCRE2 equivalent; use the foundation backend\n")
        let foundation = try CLI.run(["resolve", "--backend", "foundation", "--config", path, "/caf\u{E9}", "/\u{3B1}\u{3B2}"])
        #expect(foundation.status == 0)
        #expect(foundation.stdout == "{}\n{}\n")
    }

    @Test("resolve reads ICU escapes with the default backend")
    func translated() throws {
        let path = try CLI.temporaryFile("{\"rules\": [{\"patterns\": [\"^/caf\\\\u00e9$\"], \"properties\": {\"hit\": 1}}]}")
        let r = try CLI.run(["resolve", "--profile", "turbo-ios", "--config", path, "https://example.com/caf%C3%A9", "/cafe"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"hit\":1}\n{}\n")
    }
}
