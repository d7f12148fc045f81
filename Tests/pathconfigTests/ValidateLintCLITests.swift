import Foundation
import Testing

/// `pathconfig validate`'s lint warnings: the text lines, --strict, --format
/// json, --profile repeated, colour, exit codes.
@Suite("pathconfig validate: lint")
struct ValidateLintCLITests {
    /// A team's configuration with one of most mistakes lint knows.
    static let team = #"""
        {
          "settings": {},
          "rules": [
            {
              "description": "Default",
              "patterns": [".*"],
              "properties": {"context": "default", "pull_to_refresh_enabled": "true"}
            },
            {
              "comment": "Forms",
              "patterns": ["/new$"],
              "properties": {"context": "modal", "presentation": "push"}
            },
            {
              "patterns": ["/reports/.*.pdf", "/archive/\\y"],
              "properties": {"view_controller": "pdf", "context": "default",}
            }
          ]
        }
        """#

    /// The same intent without the mistakes (`settings` included: turbo-android
    /// reads a missing one as null and crashes when a web screen is left).
    static let clean = #"""
        {
          "settings": {},
          "rules": [
            {"description": "Default", "patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": true}},
            {"description": "Forms", "patterns": ["/new(?:$|\\?)", "/edit(?:$|\\?)"], "properties": {"context": "modal"}}
          ]
        }
        """#

    static let expectedLines = [
        #":7:71: error: rule 0 ("Default"): "pull_to_refresh_enabled": "true" is a string, not the boolean true: hotwire-ios and turbo-ios ignore it and use true instead; hotwire-android crashes reading it (java.lang.ClassCastException: java.lang.String cannot be cast to java.lang.Boolean); write true without quotes [string-boolean]"#,
        #":11:25: warning: rule 1 ("Forms"): pattern 0 "/new$" does not match URLs with a query string (such as ?page=2): hotwire-ios, hotwire-android and turbo-android match patterns against the path and query string together; write "/new(?:$|\\?)" to match with or without one [query-string-anchor]"#,
        #":12:58: warning: rule 1 ("Forms"): "presentation" must be one of the values each app knows: hotwire-ios and turbo-ios ignore "push" and use "default" instead (they know default, pop, replace, refresh, clear_all, replace_root, none) [unknown-value]"#,
        #":15:32: warning: rule 2: pattern 0 "/reports/.*.pdf": the "." before "pdf" matches any character, not only a dot; escape it: "/reports/.*\\.pdf" [unescaped-dot]"#,
        #":15:49: warning: rule 2: pattern 1: invalid regular expression "/archive/\\y" at offset 9: not a valid Java pattern: unknown escape \y (under hotwire-android, turbo-android) [invalid-pattern]"#,
        #":16:68: error: rule 2: trailing comma before "}": hotwire-ios and turbo-ios accept it; hotwire-android and turbo-android refuse the document (Gson: "Expected name") and ignore the whole file; strict JSON parsers (JSON.parse, jq, Python's json) reject the file [trailing-comma]"#,
    ]

    @Test("each finding is FILE:LINE:COLUMN: warning (or error): rule N (description): MESSAGE [kind], in document order; an error fails the run")
    func text() throws {
        let file = try CLI.temporaryFile(Self.team)
        let r = try CLI.run(["validate", "--config", file])
        #expect(r.status == 1, "hotwire-android crashes on rule 0's string boolean, and both Android apps refuse rule 2's trailing comma")
        #expect(r.stdout == "\(file): ok: 3 rules (+3 built-in), 4 warnings, 2 errors, profile hotwire-ios\n")
        #expect(r.stderr == Self.expectedLines.map { file + $0 + "\n" }.joined())
        // The apps that crash or refuse the file, left out: warnings only, and the run passes.
        let ios = try CLI.run(["validate", "--profile", "hotwire-ios", "--profile", "turbo-ios", "--config", file])
        #expect(ios.status == 0)
        #expect(!ios.stderr.contains(": error: "), "no error for the iOS apps: \(ios.stderr)")
        #expect(ios.stderr.contains(": warning: ") && ios.stderr.contains("[trailing-comma]"), "the trailing comma is a warning there: \(ios.stderr)")
        // Allowed on the command line, an error is dropped as a warning is.
        let allowed = try CLI.run(["validate", "--allow", "string-boolean", "--allow", "trailing-comma", "--config", file])
        #expect(allowed.status == 0 && !allowed.stderr.contains(": error: "))
        let json = try CLI.run(["validate", "--format", "json", "--config", file])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let report = try #require((document["files"] as? [[String: Any]])?.first)
        let severities = (report["findings"] as? [[String: Any]])?.map { "\($0["kind"]!) \($0["severity"]!)" }
        #expect(severities == ["string-boolean error", "query-string-anchor warning", "unknown-value warning", "unescaped-dot warning",
                               "invalid-pattern warning", "trailing-comma error"])
    }

    @Test("--strict fails on warnings, with the same output; a clean file passes it")
    func strict() throws {
        let file = try CLI.temporaryFile(Self.team)
        let r = try CLI.run(["validate", "--strict", "--config", file])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == Self.expectedLines.count)
        let clean = try CLI.temporaryFile(Self.clean)
        let ok = try CLI.run(["validate", "--strict", "--config", clean])
        #expect(ok.status == 0)
        #expect(ok.stdout == "\(clean): ok: 2 rules (+3 built-in), 0 warnings, profile hotwire-ios\n")
        #expect(ok.stderr == "")
        // One failing file fails the run; each file is still reported.
        let both = try CLI.run(["validate", "--strict", "--config", clean, "--config", file])
        #expect(both.status == 1)
        #expect(both.stdout.split(separator: "\n").count == 2)
    }

    @Test("--allow KIND drops that kind's warnings; --deny KIND reports them as errors and fails; naming a kind both ways, or no kind, is a usage error")
    func allowAndDeny() throws {
        let file = try CLI.temporaryFile(Self.team)
        let anchor = Self.expectedLines.filter { $0.hasSuffix("[query-string-anchor]") }
        let others = Self.expectedLines.filter { !$0.hasSuffix("[query-string-anchor]") }
        #expect(anchor.count == 1 && others.count == 5)

        let allowed = try CLI.run(["validate", "--allow", "query-string-anchor", "--config", file])
        #expect(allowed.status == 1, "the errors remain")
        #expect(allowed.stdout == "\(file): ok: 3 rules (+3 built-in), 3 warnings, 2 errors, profile hotwire-ios\n")
        #expect(allowed.stderr == others.map { file + $0 + "\n" }.joined())
        let strictAllowed = try CLI.run(["validate", "--strict", "--config", file] + Self.kinds(of: Self.expectedLines).flatMap { ["--allow", $0] })
        #expect(strictAllowed.status == 0 && strictAllowed.stderr == "", "every kind allowed: nothing for --strict to fail on")

        let denied = try CLI.run(["validate", "--deny", "unescaped-dot", "--config", file])
        #expect(denied.status == 1)
        #expect(denied.stdout == "\(file): ok: 3 rules (+3 built-in), 3 warnings, 3 errors, profile hotwire-ios\n")
        let expected = Self.expectedLines.map { line in
            file + (line.hasSuffix("[unescaped-dot]") ? line.replacingOccurrences(of: ": warning: ", with: ": error: ") : line) + "\n"
        }
        #expect(denied.stderr == expected.joined())
        let clean = try CLI.temporaryFile(Self.clean)
        #expect(try CLI.run(["validate", "--deny", "unescaped-dot", "--config", clean]).status == 0, "a file without the kind passes")
        let onlyDenied = try CLI.run(["validate", "--deny", "unescaped-dot", "--allow", "string-boolean", "--allow", "trailing-comma", "--config", file])
        #expect(onlyDenied.status == 1, "a denied kind fails the run on its own")

        let json = try CLI.run(["validate", "--format", "json", "--allow", "trailing-comma", "--deny", "unescaped-dot", "--config", file])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["ok"] as? Bool == false && document["allowed"] as? [String] == ["trailing-comma"]
                && document["denied"] as? [String] == ["unescaped-dot"])

        let both = try CLI.run(["validate", "--allow", "unescaped-dot", "--deny", "unescaped-dot", "--config", file])
        #expect(both.status != 0 && both.stderr.contains("--allow and --deny both name unescaped-dot"))
        let unknown = try CLI.run(["validate", "--allow", "query-string", "--config", file])
        #expect(unknown.status != 0 && unknown.stderr.contains("query-string-anchor"), "the error lists the kinds")
    }

    /// `team` with a marker that allows query-string-anchor in the whole file,
    /// and one in rule 2 that allows unescaped-dot there.
    static let marked = team
        .replacingOccurrences(of: #"  "settings": {},"#, with: #"  "settings": {}, "lint": {"allow": ["query-string-anchor"]},"#)
        .replacingOccurrences(of: #""patterns": ["/reports/"#, with: #""lint": {"allow": ["unescaped-dot"]}, "patterns": ["/reports/"#)

    @Test("a file's lint marker drops the kinds it allows, and the ok line and --format json count them; --deny wins over it")
    func marker() throws {
        let file = try CLI.temporaryFile(Self.marked)
        let r = try CLI.run(["validate", "--config", file])
        #expect(r.status == 1, "the team's two errors are not allowed by its markers")
        #expect(r.stdout == "\(file): ok: 3 rules (+3 built-in), 2 warnings, 2 errors, 2 allowed by the file, profile hotwire-ios\n")
        let kinds = Self.kinds(of: r.stderr.split(separator: "\n").map(String.init))
        #expect(kinds == ["string-boolean", "unknown-value", "invalid-pattern", "trailing-comma"])
        // The marker moved rule 2's columns: the lines are the team's, less the kinds allowed.
        #expect(r.stderr.contains(#"warning: rule 2: pattern 1: invalid regular expression "/archive/\\y""#))

        let json = try CLI.run(["validate", "--format", "json", "--config", file])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let report = try #require((document["files"] as? [[String: Any]])?.first)
        #expect(report["allowed_by_file"] as? [String: Int] == ["query-string-anchor": 1, "unescaped-dot": 1])
        #expect((report["findings"] as? [Any])?.count == 4)

        // The team's CI denies what the file allows: reported, as errors, and the run fails.
        let denied = try CLI.run(["validate", "--deny", "query-string-anchor", "--config", file])
        #expect(denied.status == 1)
        #expect(denied.stdout == "\(file): ok: 3 rules (+3 built-in), 2 warnings, 3 errors, 1 allowed by the file, profile hotwire-ios\n")
        #expect(denied.stderr.contains(#":11:25: error: rule 1 ("Forms"): pattern 0 "/new$" does not match URLs with a query string"#))
        let deniedJSON = try CLI.run(["validate", "--format", "json", "--deny", "query-string-anchor", "--config", file])
        let deniedDocument = try #require(try JSONSerialization.jsonObject(with: Data(deniedJSON.stdout.utf8)) as? [String: Any])
        let deniedReport = try #require((deniedDocument["files"] as? [[String: Any]])?.first)
        #expect(deniedDocument["ok"] as? Bool == false)
        #expect(deniedReport["allowed_by_file"] as? [String: Int] == ["unescaped-dot": 1])
        let severities = (deniedReport["findings"] as? [[String: Any]])?.map { "\($0["kind"]!) \($0["severity"]!)" }
        #expect(severities?.contains("query-string-anchor error") == true && severities?.contains("unknown-value warning") == true)

        // --allow drops a kind before the file's marker counts it.
        let allowed = try CLI.run(["validate", "--allow", "unescaped-dot", "--config", file])
        #expect(allowed.stdout == "\(file): ok: 3 rules (+3 built-in), 2 warnings, 2 errors, 1 allowed by the file, profile hotwire-ios\n")
        // The clean file has no marker: no count on its ok line, an empty object in JSON.
        let clean = try CLI.temporaryFile(Self.clean)
        let cleanJSON = try CLI.run(["validate", "--format", "json", "--config", clean])
        #expect(cleanJSON.stdout.contains(#""allowed_by_file": {}"#))
    }

    @Test("a marker lint cannot read is a lint-marker warning at its line and column; --strict fails on it")
    func badMarker() throws {
        let text = Self.clean.replacingOccurrences(of: #"  "settings": {},"#, with: #"  "settings": {}, "lint": {"allow": ["query-string"]},"#)
        let file = try CLI.temporaryFile(text)
        let r = try CLI.run(["validate", "--config", file])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix(#"\#(file):2:38: warning: "allow" lists "query-string", which is not a kind of lint finding; the kinds are invalid-pattern, "#))
        #expect(r.stderr.hasSuffix(" [lint-marker]\n"))
        #expect(try CLI.run(["validate", "--strict", "--config", file]).status == 1)
        #expect(try CLI.run(["validate", "--allow", "lint-marker", "--strict", "--config", file]).status == 0)
    }

    /// The `[kind]` of each expected line.
    static func kinds(of lines: [String]) -> [String] {
        lines.compactMap { line in line.split(separator: "[").last.map { String($0.dropLast()) } }
    }

    @Test("--profile, repeated, loads under each and lints for those apps only; the outcome is the same in every order")
    func profiles() throws {
        let file = try CLI.temporaryFile(Self.team)
        let r = try CLI.run(["validate", "--profile", "turbo-ios", "--profile", "hotwire-ios", "--config", file])
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("profiles hotwire-ios, turbo-ios\n"))
        let reversed = try CLI.run(["validate", "--profile", "hotwire-ios", "--profile", "turbo-ios", "--config", file])
        #expect(reversed.status == r.status && reversed.stdout == r.stdout && reversed.stderr == r.stderr)
        // The team's trailing comma: Gson refuses it, so a run with an Android app fails in either order.
        for order in [["hotwire-android", "hotwire-ios"], ["hotwire-ios", "hotwire-android"]] {
            let both = try CLI.run(["validate", "--profile", order[0], "--profile", order[1], "--config", file])
            #expect(both.status == 1, "\(order)")
            #expect(both.stderr.contains("hotwire-android refuses the document"), "\(order): \(both.stderr)")
        }
        #expect(!r.stderr.contains("[invalid-pattern]"))  // no Android profile
        #expect(r.stderr.contains(": hotwire-ios matches patterns against the path and query string together"))  // turbo-ios matches paths only
        // Gson refuses the team's trailing comma in an object: without it, the file loads there.
        let loads = try CLI.temporaryFile(Self.team.replacingOccurrences(of: #""default",}"#, with: #""default"}"#))
        let refused = try CLI.run(["validate", "--profile", "turbo-android", "--lenient", "--config", file])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(#":16:68: error: trailing comma before "}": turbo-android refuses the document (Gson: "Expected name") and ignores the whole file"#))
        let android = try CLI.run(["validate", "--profile", "turbo-android", "--lenient", "--config", loads])
        #expect(android.status == 0)
        #expect(!android.stderr.contains("[string-boolean]") && !android.stderr.contains("[unknown-value]"))
        #expect(android.stderr.contains("(under turbo-android) [invalid-pattern]"))
    }

    @Test("--format json: one document on standard output, nothing on standard error")
    func json() throws {
        let file = try CLI.temporaryFile(Self.team)
        let clean = try CLI.temporaryFile(Self.clean)
        let r = try CLI.run(["validate", "--format", "json", "--config", file, "--config", clean])
        #expect(r.status == 1, "the team's file has errors")
        #expect(r.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(document["ok"] as? Bool == false)
        #expect(document["strict"] as? Bool == false)
        #expect(document["profiles"] as? [String] == ["hotwire-ios", "turbo-ios", "hotwire-android", "turbo-android"])
        let files = try #require(document["files"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == [file, clean])
        #expect(files.map { ($0["findings"] as? [Any])?.count } == [6, 0])
        #expect(files[0]["profile"] as? String == "hotwire-ios" && files[0]["rules"] as? Int == 3 && files[0]["built_in_rules"] as? Int == 3)
        let finding = try #require((files[0]["findings"] as? [[String: Any]])?[4])
        #expect(finding["kind"] as? String == "invalid-pattern")
        #expect(finding["severity"] as? String == "warning")
        #expect(finding["line"] as? Int == 15 && finding["column"] as? Int == 49)
        #expect(finding["rule"] as? Int == 2 && finding["pattern"] as? Int == 1)
        #expect(finding["description"] is NSNull)
        #expect(finding["profiles"] as? [String] == ["hotwire-android", "turbo-android"])
        #expect((finding["message"] as? String)?.hasPrefix("pattern 1: invalid regular expression") == true)
        let strict = try CLI.run(["validate", "--format", "json", "--strict", "--config", file])
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("\"ok\": false"))
        let cleanOnly = try CLI.run(["validate", "--format", "json", "--config", clean])
        #expect(cleanOnly.status == 0 && cleanOnly.stdout.contains("\"ok\": true"))
    }

    @Test("--format json: a file that does not load has its errors, located, and exit 1")
    func jsonErrors() throws {
        let broken = CLI.root + "/examples/broken.json"
        let r = try CLI.run(["validate", "--format", "json", "--config", broken])
        #expect(r.status == 1)
        #expect(r.stderr == "")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let file = try #require((document["files"] as? [[String: Any]])?.first)
        #expect(file["ok"] as? Bool == false)
        #expect(file["profile"] is NSNull)
        let errors = try #require(file["errors"] as? [[String: Any]])
        #expect(errors.count == 1)
        #expect(errors.first?["line"] as? Int == 4 && errors.first?["column"] as? Int == 29)
        #expect(errors.first?["rule"] as? Int == 1 && errors.first?["pattern"] as? Int == 1)
        #expect(errors.first?["message"] as? String == "rule 1, pattern 1: invalid regular expression \"/b(c\" at offset 4: missing closing parenthesis")
    }

    @Test("colour only when asked for on a pipe (CLICOLOR_FORCE), never with NO_COLOR; error lines too")
    func colour() throws {
        // The environment is the test's own plus these; an empty NO_COLOR counts as unset (no-color.org).
        let text = Self.clean.replacingOccurrences(of: #""Forms", "patterns": ["/new(?:$|\\?)""#, with: #""Forms", "patterns": ["/new$""#)
        let file = try CLI.temporaryFile(text)
        let line = try #require(text.split(separator: "\n").firstIndex { $0.contains("/new$") })
        let column = try #require(text.split(separator: "\n")[line].firstIndex(of: "$")).utf16Offset(in: text.split(separator: "\n")[line]) + 1
        let plain = try CLI.run(["validate", "--config", file], environment: ["NO_COLOR": ""])
        #expect(!plain.stderr.contains("\u{1B}["))
        let forced = try CLI.run(["validate", "--config", file], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(forced.stderr == "\u{1B}[1m\(file):\(line + 1):\(column):\u{1B}[0m \u{1B}[1;35mwarning:\u{1B}[0m "
            + #"rule 1 ("Forms"): pattern 0 "/new$" does not match URLs with a query string (such as ?page=2): hotwire-ios, hotwire-android and turbo-android match patterns against the path and query string together; write "/new(?:$|\\?)" to match with or without one"#
            + "\u{1B}[2m [query-string-anchor]\u{1B}[0m\n")
        #expect(forced.stdout == plain.stdout)  // standard output is never coloured
        let noColor = try CLI.run(["validate", "--config", file], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(noColor.stderr == plain.stderr)
        let broken = try CLI.run(["validate", "--config", CLI.root + "/examples/broken.json"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(broken.stderr.contains("\u{1B}[1;31merror:\u{1B}[0m rule 1, pattern 1"))
    }

    @Test("a bad --format is a usage error")
    func badFormat() throws {
        let r = try CLI.run(["validate", "--format", "xml", "--config", CLI.example])
        #expect(r.status == 2)
        #expect(r.stderr.contains("--format"))
    }
}
