import Foundation
import Testing

/// An input the library refuses (longer than `max_url_bytes`) costs no other
/// input its answer: each command goes on, names the refused one on standard
/// error by its place and a shortened form, and exits 1 at the end.
@Suite("pathconfig: a refused input in a batch")
struct RefusedInputCLITests {
    /// Issue 27's configuration.
    static let config = #"{"rules":[{"patterns":["/new$"],"properties":{"context":"modal"}}]}"#

    /// Issue 27's URL: `https://x.dev/` and `a/` 35,000 times, then `new`.
    static let long = "https://x.dev/" + String(repeating: "a/", count: 35_000) + "new"

    /// The long URL as messages show it: its first 56 characters, `…`, its last 23.
    static let shown = "https://x.dev/" + String(repeating: "a/", count: 21) + "…" + String(repeating: "a/", count: 10) + "new"

    static let limit = "the URL is 70017 bytes, more than the limit of 65536 (max_url_bytes)"

    @Test("the issue's URL is 70,017 bytes and shortens to 80 characters")
    func theURL() {
        #expect(Self.long.utf8.count == 70_017)
        #expect(Self.shown.count == 80)
    }

    @Test("resolve, standard input (the issue's reproduction): a line for every input, null for the refused one; exit 1")
    func resolveStandardInput() throws {
        let config = try CLI.temporaryFile(Self.config)
        let r = try CLI.run(["resolve", "--config", config, "--profile", "hotwire-ios"],
                            stdin: "https://x.dev/new\n\(Self.long)\r\n\nhttps://x.dev/b/new\n")
        #expect(r.stdout == """
            {"context":"modal"}
            null
            {}
            {"context":"modal"}

            """)
        #expect(r.stderr == "<stdin>:2: error: \"\(Self.shown)\": \(Self.limit)\n")
        #expect(r.status == 1)
    }

    @Test("resolve, arguments: the same, the refused input named by its position")
    func resolveArguments() throws {
        let config = try CLI.temporaryFile(Self.config)
        let r = try CLI.run(["resolve", "--config", config, "https://x.dev/new", Self.long, "/b/new", Self.long + "/x"])
        #expect(r.stdout == "{\"context\":\"modal\"}\nnull\n{\"context\":\"modal\"}\nnull\n")
        #expect(r.stderr == """
            input 2: error: "\(Self.shown)": \(Self.limit)
            input 4: error: "\(Self.shown.prefix(57))\(String(repeating: "a/", count: 9))new/x": the URL is 70019 bytes, more than the limit of 65536 (max_url_bytes)

            """)
        #expect(r.status == 1)
    }

    @Test("resolve: without a refused input the exit code stays 0")
    func resolveAllGood() throws {
        let config = try CLI.temporaryFile(Self.config)
        let r = try CLI.run(["resolve", "--config", config], stdin: "https://x.dev/new\n/old\n")
        #expect(r.stdout == "{\"context\":\"modal\"}\n{}\n")
        #expect(r.stderr == "")
        #expect(r.status == 0)
    }

    @Test("resolve: an invalid --method is a usage error for every input, not a per-input refusal")
    func invalidMethod() throws {
        let config = try CLI.temporaryFile(Self.config)
        let r = try CLI.run(["resolve", "--config", config, "--method", "GE T", "https://x.dev/new"])
        #expect(r.stdout == "")
        #expect(r.status == 2)
    }

    @Test("explain: null in place of the explanation, compact or not, the error naming the input; exit 1", arguments: [[], ["--compact"]])
    func explain(_ flags: [String]) throws {
        let config = try CLI.temporaryFile(Self.config)
        let r = try CLI.run(["explain", "--config", config] + flags + [Self.long])
        #expect(r.stdout == "null\n")
        #expect(r.stderr == "input 1: error: \"\(Self.shown)\": \(Self.limit)\n")
        #expect(r.status == 1)
    }

    @Test("diff: the refused URL named by its line; the others still compared; exit 1")
    func diff() throws {
        let config = try CLI.temporaryFile(Self.config)
        let r = try CLI.run(["diff", "--config", config, "--profile", "hotwire-ios@main", "--profile", "turbo-ios"],
                            stdin: "# URLs\nhttps://x.dev/new/\n\n\(Self.long)\nhttps://x.dev/new\n")
        #expect(r.stderr == "<stdin>:4: error: \"\(Self.shown)\": \(Self.limit)\n")
        #expect(r.stdout == """
            by rule and key:
              hotwire-ios@main no rule, turbo-ios rule 0 "/new$": context differs on 1 URL, for example https://x.dev/new/
            URL                 KEY      hotwire-ios@main  turbo-ios
            https://x.dev/new/  context  (absent)          "modal"
            1 of 2 URLs differ between hotwire-ios@main, turbo-ios; 1 resolves alike

            """)
        #expect(r.status == 1)
    }

    @Test("diff --against, arguments: the refused URL named by its position")
    func diffAgainst() throws {
        let old = try CLI.temporaryFile(Self.config)
        let new = try CLI.temporaryFile(#"{"rules":[{"patterns":["/new$"],"properties":{"context":"default"}}]}"#)
        let r = try CLI.run(["diff", "--config", old, "--against", new, "--profile", "hotwire-ios", Self.long, "https://x.dev/new"])
        #expect(r.stderr == "input 1: error: \"\(Self.shown)\": \(Self.limit)\n")
        #expect(r.stdout == """
            URL                PROFILES  CHANGE   KEY      OLD      NEW
            https://x.dev/new  all       changed  context  "modal"  "default"
            1 of 1 URL change from \(old) to \(new) under hotwire-ios; 0 resolve alike

            """)
        #expect(r.status == 1)
    }

    @Test("test: the refused case fails with the reason, its URL shortened; the others are checked; exit 1")
    func test() throws {
        let config = try CLI.temporaryFile(Self.config)
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "https://x.dev/new", "properties": {"context": "modal"}},
              {"url": "\(Self.long)", "properties": {"context": "modal"}},
              {"url": "https://x.dev/old", "properties": {}}
            ]}
            """)
        let r = try CLI.run(["test", "--verbose", "--config", config, cases])
        #expect(r.stdout == """
            PASS \(cases):2:3: case 0: https://x.dev/new under hotwire-ios (GET, exact)
            FAIL \(cases):3:3: case 1: \(Self.shown) under hotwire-ios (GET, exact)
                error: \(Self.limit)
            PASS \(cases):4:3: case 2: https://x.dev/old under hotwire-ios (GET, exact)
            3 checks (3 cases): 2 passed, 1 failed

            """)
        #expect(r.stderr == "")
        #expect(r.status == 1)

        // For programs: the whole URL, passed false, the error, no actual.
        let json = try CLI.run(["test", "--format", "json", "--config", config, cases])
        let results = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results.map { $0["passed"] as? Bool } == [true, false, true])
        #expect(results[1]["url"] as? String == Self.long)
        #expect(results[1]["error"] as? String == Self.limit)
        #expect(results[1]["actual"] == nil)
        #expect(json.status == 1)
    }
}
