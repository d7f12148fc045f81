import Foundation
import HTTPTestSupport
import Testing

/// `pathconfig test`: cases files checked against configurations, among them
/// the seed documents' own examples and the results those pages promise.
@Suite("pathconfig test")
struct TestCommandTests {
    static let cases = CLI.root + "/examples/path-configuration.cases.json"

    /// A JSON array of strings, for a case's "profile".
    static let mobileProfiles = #"["hotwire-ios", "turbo-ios", "hotwire-android", "turbo-android"]"#

    @Test("the example's cases all pass: the summary alone, exit 0")
    func examplePasses() throws {
        let r = try CLI.run(["test", "--config", CLI.example, Self.cases])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == "\(DiffCommandTests.note)\n5 checks (4 cases): 5 passed, 0 failed\n")
    }

    @Test("--verbose lists every check with its place in the cases file")
    func verbose() throws {
        let r = try CLI.run(["test", "--verbose", "--config", CLI.example, Self.cases])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").prefix(3) == [
            "\(DiffCommandTests.note)",
            "PASS \(Self.cases):4:5: case 0 (\"Forms open as modals\"): https://example.com/messages/new under hotwire-ios (GET, exact)",
            "PASS \(Self.cases):4:5: case 0 (\"Forms open as modals\"): https://example.com/messages/new under hotwire-android (GET, exact)",
        ])
    }

    @Test("the Turbo iOS page's own example: the results it promises for example.com/new and example.com/messages/new, on the iOS apps; the Android apps crash on its trailing comma")
    func turboIOSPage() throws {
        let blocks = SeedDocuments.jsonBlocks(SeedDocuments.text("000_"))
        // The page's second block is a rules array (trailing commas and all);
        // the next two are the properties it says each URL resolves to.
        let config = try CLI.temporaryFile("{\"rules\": \(blocks[1])}")
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "example.com/new", "profile": ["hotwire-ios", "turbo-ios"], "properties": \(blocks[2])},
              {"url": "example.com/messages/new", "profile": ["hotwire-ios", "turbo-ios"], "properties": \(blocks[3])},
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.stderr == "")
        #expect(r.stdout == "4 checks (2 cases): 4 passed, 0 failed\n")
        #expect(r.status == 0)
        // Gson reads the comma after the last rule as a null rule: every lookup throws.
        for profile in ["hotwire-android", "turbo-android"] {
            let android = try CLI.run(["resolve", "--profile", profile, "--config", config, "https://example.com/new"])
            #expect(android.status == 1)
            #expect(android.stderr == "\(config):18:6: error: trailing comma before \"]\": \(profile) reads it as a null rule and crashes (NullPointerException) on every lookup\n")
        }
    }

    @Test("a failing check shows each differing key, expected against actual, and the rules that matched; exit 1")
    func failureReport() throws {
        let blocks = SeedDocuments.jsonBlocks(SeedDocuments.text("000_"))
        let config = try CLI.temporaryFile("{\"rules\": \(blocks[1])}")
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"description": "the first rule alone", "url": "example.com/messages/new",
               "profile": "turbo-ios", "properties": \(blocks[2])}
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            FAIL \(cases):2:3: case 0 ("the first rule alone"): example.com/messages/new under turbo-ios (GET, exact)
                key         expected  actual
                appearance  (absent)  "dark"
              rules that matched:
                rule 0, pattern "/new$"
                rule 1, pattern "/messages/new$"
            1 check (1 case): 0 passed, 1 failed

            """)
    }

    @Test("the Hotwire Native page's example (a plain-text page), with the built-in rules each app adds")
    func hotwireNativePage() throws {
        let page = SeedDocuments.text("003_")
        let config = try CLI.temporaryFile(SeedDocuments.between(page, "here’s an example for an iOS app.\n\n", "\n\nThis configuration does"))
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "https://example.com/posts/new", "profile": ["hotwire-ios", "hotwire-android"],
               "properties": {"context": "modal", "pull_to_refresh_enabled": false}},
              {"url": "https://example.com/posts", "profile": ["hotwire-ios", "hotwire-android"],
               "properties": {"context": "default", "pull_to_refresh_enabled": true}},
              {"url": "/recede_historical_location", "profile": "hotwire-ios", "match": "subset",
               "properties": {"presentation": "pop", "historical_location": true}},
              {"url": "/recede_historical_location", "profile": "hotwire-android", "match": "subset",
               "properties": {"presentation": "POP", "context": "DEFAULT"}},
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.stdout == "\(DiffCommandTests.note)\n6 checks (4 cases): 6 passed, 0 failed\n")
        #expect(r.status == 0)
    }

    @Test("the Jumpstart Pro page's rules: /new and /edit as modals, nothing else")
    func jumpstartPage() throws {
        let blocks = SeedDocuments.jsonBlocks(SeedDocuments.text("002_"))
        let config = try CLI.temporaryFile(try #require(blocks.first { $0.contains("\"rules\"") }))
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "https://example.com/posts/new", "properties": {"presentation": "modal"}},
              {"url": "https://example.com/posts/1/edit", "properties": {"presentation": "modal"}},
              {"url": "https://example.com/posts/1", "properties": {}},
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, "--profile", "turbo-ios", "--profile", "hotwire-ios", cases])
        #expect(r.stdout == "6 checks (3 cases): 6 passed, 0 failed\n")
        #expect(r.status == 0)
        // Its trailing comma after the last rule is a null rule to Gson.
        let android = try CLI.run(["test", "--config", config, "--profile", "hotwire-android", cases])
        #expect(android.status == 1)
        #expect(android.stderr.contains("trailing comma before \"]\": hotwire-android reads it as a null rule and crashes (NullPointerException) on every lookup"))
    }

    @Test("a case without a profile runs under every --profile given")
    func everyProfile() throws {
        let cases = try CLI.temporaryFile("""
            {"cases": [{"url": "https://example.com/doc?open_in_external_browser=true",
                        "properties": {"open_in_external_browser": true}, "match": "subset"}]}
            """)
        let r = try CLI.run(["test", "--config", CLI.example, "--profile", "hotwire-ios", "--profile", "turbo-ios", cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            FAIL \(cases):1:12: case 0: https://example.com/doc?open_in_external_browser=true under turbo-ios (GET, subset)
                key                       expected  actual
                open_in_external_browser  true      (absent)
              rules that matched:
                rule 0, pattern ".*": Every page: pushed, pull to refresh
            2 checks (1 case): 1 passed, 1 failed

            """)
    }

    @Test("a case's method and options (base URL, deep merge); subset at every depth; numbers by value")
    func requestRules() throws {
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/volcanos/1/status", "profile": "siesta", "method": "post", "match": "subset",
               "options": {"base_url": "https://api.example.com", "merge": "deep"},
               "properties": {"headers": {"Content-Type": "application/json"}}},
              {"url": "/doors/3/knob", "profile": "siesta", "options": {"base_url": "https://api.example.com"},
               "properties": {"headers": {"Accept": "doorknob/round, doorknob/handle, */*"}, "expirationTime": 30.0}},
              {"url": "/volcanos/1/status", "profile": "siesta",
               "options": {"base_url": "https://api.example.com", "merge": "deep"},
               "properties": {"headers": {"User-Agent": "MyAwesomeApp 2.0", "Accept": "application/json"}, "expirationTime": 5e-1}},
            ]}
            """)
        let r = try CLI.run(["test", "--config", CLI.apiExample, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            FAIL \(cases):7:3: case 2: /volcanos/1/status under siesta (GET, exact)
                key                 expected            actual
                headers.User-Agent  "MyAwesomeApp 2.0"  "MyAwesomeApp 1.0"
              rules that matched:
                rule 0, glob "**": Every endpoint of the service: who we are, JSON
                rule 2, glob "/volcanos/*/status": A volcano's status goes stale fast
            3 checks (3 cases): 2 passed, 1 failed

            """)
    }

    @Test("cases naming files spelt apart (café.json with U+00E9 and with e + U+0301, two files) each load their own")
    func configsSpeltApart() throws {
        let directory = TemporaryDirectory.scratch + "/spelt-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (nfc, nfd) = (directory + "/caf\u{E9}.json", directory + "/cafe\u{301}.json")
        for (path, value) in [(nfc, "nfc"), (nfd, "nfd")] {
            #expect(FileManager.default.createFile(atPath: path, contents: Data(#"{"rules": [{"patterns": [".*"], "properties": {"file": "\#(value)"}}]}"#.utf8)))
        }
        let cases = try CLI.temporaryFile(#"{"cases": [{"url": "/a", "config": "\#(nfc)", "properties": {"file": "nfc"}}, "#
            + #"{"url": "/a", "config": "\#(nfd)", "properties": {"file": "nfd"}}]}"#)
        let r = try CLI.run(["test", "--profile", "hotwire-android", cases])
        #expect(r.status == 0, "\(r.stdout)")
        #expect(r.stdout.hasSuffix("2 checks (2 cases): 2 passed, 0 failed\n"), "\(r.stdout)")
    }

    @Test("types never convert: turbo-android's strings fail where hotwire-android's booleans pass")
    func turboAndroidStrings() throws {
        let config = try CLI.temporaryFile(#"{"rules": [{"patterns": ["/new$"], "properties": {"modal": true, "depth": 1}}]}"#)
        let cases = try CLI.temporaryFile(#"{"cases": [{"url": "/a/new", "profile": ["hotwire-android", "turbo-android"], "properties": {"modal": true, "depth": 1}}]}"#)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):1:12: case 0: /a/new under turbo-android (GET, exact)
                key    expected  actual
                depth  1         "1"
                modal  true      "true"
              rules that matched:
                rule 0, pattern "/new$"
            2 checks (1 case): 1 passed, 1 failed

            """)
    }

    @Test("numbers compare by value: 1e2 is 100, 0.50 is 0.5, integers beyond 64 bits by their digits")
    func numbers() throws {
        let config = try CLI.temporaryFile(#"{"rules": [{"patterns": [".*"], "properties": {"n": 100, "f": 0.5, "big": 123456789012345678901234567890}}]}"#)
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/a", "properties": {"n": 1e2, "f": 0.50, "big": 123456789012345678901234567890}},
              {"url": "/b", "properties": {"n": 100.0, "f": 5e-1, "big": 123456789012345678901234567891}},
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):3:3: case 1: /b under hotwire-ios (GET, exact)
                key  expected                        actual
                big  123456789012345678901234567891  123456789012345678901234567890
              rules that matched:
                rule 0, pattern ".*"
            2 checks (2 cases): 1 passed, 1 failed

            """)
    }

    @Test("object keys in any order, arrays in order; a nested object that differs shows by key, keys sorted")
    func structure() throws {
        let config = try CLI.temporaryFile(#"{"rules": [{"patterns": [".*"], "properties": {"tabs": {"x": 1, "y": [1, 2]}, "b": null}}]}"#)
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/a", "properties": {"b": null, "tabs": {"y": [1, 2], "x": 1}}},
              {"url": "/b", "properties": {"tabs": {"y": [2, 1], "x": 1, "z": {}}, "a": false}},
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):3:3: case 1: /b under hotwire-ios (GET, exact)
                key     expected  actual
                a       false     (absent)
                b       (absent)  null
                tabs.y  [2,1]     [1,2]
                tabs.z  {}        (absent)
              rules that matched:
                rule 0, pattern ".*"
            2 checks (2 cases): 1 passed, 1 failed

            """)
    }

    @Test("--format json when the file does not load: test, diff (its default profiles too, the first left out) and port answer one line of JSON on standard output, nothing on standard error, exit 1")
    func jsonLoadFailure() throws {
        let broken = try CLI.temporaryFile("{\"rules\": [\n")
        let cases = try CLI.temporaryFile(#"{"cases": [{"url": "/a", "properties": {}}]}"#)
        for arguments in [["test", cases], ["diff", "--profile", "hotwire-ios", "--profile", "turbo-ios", "/a"], ["diff", "/a"],
                          ["port", "--like", "hotwire-ios", "--profile", "turbo-ios"]] {
            let r = try CLI.run(arguments + ["--format", "json", "--config", broken])
            #expect(r.status == 1 && r.stderr.isEmpty, "\(arguments): \(r.stderr)")
            // Compact, as each command's other JSON documents are.
            #expect(r.stdout.split(separator: "\n").count == 1, "\(arguments): \(r.stdout)")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(arguments[0])")
            #expect(document["ok"] as? Bool == false && document["profile"] as? String == "hotwire-ios")
            let errors = try #require(document["errors"] as? [[String: Any]])
            #expect(errors.count == 1 && errors[0]["file"] as? String == broken && errors[0]["line"] as? Int == 2 && errors[0]["column"] as? Int == 1,
                    "\(arguments[0]): \(errors)")
        }
    }

    @Test("--format json: every check, with differences and rules, parsed back")
    func json() throws {
        let r = try CLI.run(["test", "--config", CLI.example, "--format", "json", "-"],
                            stdin: #"{"cases": [{"url": "/files/report.pdf?download=1", "properties": {"open_in_external_browser": true}, "match": "subset"}, {"url": "/a/new", "properties": {"context": "modal", "pull_to_refresh_enabled": false}}]}"#)
        #expect(r.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["file"] as? String == "<stdin>")
        #expect(report["checks"] as? Int == 2)
        #expect(report["passed"] as? Int == 1)
        #expect(report["failed"] as? Int == 1)
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.map { $0["passed"] as? Bool } == [false, true])
        let failure = results[0]
        #expect(failure["line"] as? Int == 1 && failure["column"] as? Int == 12)
        #expect(failure["profile"] as? String == "hotwire-ios")
        let actual = try #require(failure["actual"] as? [String: Any])
        #expect(actual["context"] as? String == "default")
        #expect(actual["pull_to_refresh_enabled"] as? Bool == true)
        #expect(actual.count == 2)
        let differences = try #require(failure["differences"] as? [[String: Any]])
        #expect(differences.count == 1)
        #expect(differences[0]["path"] as? [String] == ["open_in_external_browser"])
        #expect(differences[0]["expected"] as? Bool == true)
        #expect(differences[0]["actual"] == nil)
        let rules = try #require(failure["rules"] as? [[String: Any]])
        #expect(rules.map { $0["description"] as? String } == ["Every page: pushed, pull to refresh"])
        #expect(results[1]["differences"] == nil)
    }

    @Test("every problem of a cases file at its line and column, exit 1, nothing checked")
    func caseFileErrors() throws {
        let cases = try CLI.temporaryFile("""
            {
              "cases": [
                {"url": "/a", "propeties": {}},
                {"url": 3, "properties": {}, "profile": "android", "method": "GE T", "match": "all",
                 "options": {"merge": "deeper", "match_query_strings": false, "nope": 1, "lenient": true, "lenient": false}},
                {"url": "/a", "properties": {"a": 1, "a": 2}},
              ],
            }
            """)
        let r = try CLI.run(["test", "--config", CLI.example, cases])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            \(cases):3:5: error: case 0 is missing required key "properties" (the expected properties; {} for none) or "typed" (the values the app's typed accessors read)
            \(cases):3:19: error: unknown key "propeties" in case 0; expected one of url, properties, typed, config, profile, method, options, match, description, comment
            \(cases):4:13: error: "url" of case 1 must be a string, found number
            \(cases):4:45: error: unknown profile "android"; expected one of hotwire-ios, turbo-ios, hotwire-android, turbo-android, siesta, each optionally with @VERSION (hotwire-ios@1.2.2, hotwire-ios@main) (case 1)
            \(cases):4:66: error: "method" of case 1 must be an HTTP method token such as GET or POST, found "GE T"
            \(cases):4:83: error: "match" of case 1 must be "exact" or "subset", found "all"
            \(cases):5:18: error: case 1: unknown merge mode "deeper"; expected one of shallow, deep
            \(cases):5:67: error: case 1: unknown option "nope"; known options here: match_query_strings, backend, lenient, base_url, merge, result_cache_size, max_url_bytes
            \(cases):5:95: error: key "lenient" repeated (first at line 5, column 78); JSON tools disagree on which one counts
            \(cases):6:42: error: key "a" repeated (first at line 6, column 34); JSON tools disagree on which one counts

            """)
    }

    @Test("a cases file that is not JSON, or not there")
    func unreadable() throws {
        let broken = try CLI.run(["test", "--config", CLI.example, "-"], stdin: "{\"cases\": [\n  {\"url\": \"/a\" \"properties\": {}}\n]}")
        #expect(broken.status == 1)
        #expect(broken.stderr == "<stdin>:2:16: error: unexpected character '\"', expected ',' or '}'\n")
        let missing = try CLI.run(["test", "--config", CLI.example, "/nonexistent-cases.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "/nonexistent-cases.json: error: cannot open /nonexistent-cases.json: No such file or directory\n")
    }

    @Test("colour only when asked for or on a terminal: --color always paints, a pipe gets none")
    func colour() throws {
        let plain = try CLI.run(["test", "--config", CLI.example, Self.cases])
        #expect(!plain.stdout.contains("\u{1B}["))
        let painted = try CLI.run(["test", "--color", "always", "--config", CLI.example, Self.cases])
        #expect(painted.stdout == "\u{1B}[2m\(DiffCommandTests.note)\u{1B}[0m\n\u{1B}[32m5 checks (4 cases): 5 passed, 0 failed\u{1B}[0m\n")
    }

    #if os(Linux)
    /// Runs the binary with `arguments` on a pseudo-terminal (util-linux's
    /// `script`, essential on Debian), with `environment` added; what the
    /// terminal showed.
    static func onTerminal(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = ([CLI.binary.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        process.arguments = ["-qec", command, "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NO_COLOR")
        env["TERM"] = "xterm"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("on a terminal the report is coloured, unless NO_COLOR is set, TERM is dumb or --color never; diagnostics alike")
    func terminal() throws {
        let arguments = ["test", "--config", CLI.example, Self.cases]
        let coloured = try Self.onTerminal(arguments, environment: [:])
        #expect(coloured.contains("\u{1B}[32m5 checks (4 cases): 5 passed, 0 failed\u{1B}[0m"))
        let noColor = try Self.onTerminal(arguments, environment: ["NO_COLOR": "1"])
        #expect(noColor.contains("5 checks (4 cases): 5 passed, 0 failed"))
        #expect(!noColor.contains("\u{1B}["))
        let never = try Self.onTerminal(arguments + ["--color", "never"], environment: [:])
        #expect(never.contains("5 checks (4 cases): 5 passed, 0 failed"))
        #expect(!never.contains("\u{1B}["))
        // One policy (Style) for reports and diagnostics: TERM=dumb turns both off.
        let dumb = try Self.onTerminal(arguments, environment: ["TERM": "dumb"])
        #expect(dumb.contains("5 checks (4 cases): 5 passed, 0 failed"))
        #expect(!dumb.contains("\u{1B}["))
        let broken = ["validate", "--config", CLI.root + "/examples/broken.json"]
        #expect(try Self.onTerminal(broken, environment: [:]).contains("\u{1B}[1;31merror:\u{1B}[0m"))
        let brokenDumb = try Self.onTerminal(broken, environment: ["TERM": "dumb"])
        #expect(brokenDumb.contains("error: rule 1, pattern 1"))
        #expect(!brokenDumb.contains("\u{1B}["))
        // --color never: no escapes from test at all, its diagnostics included.
        let quiet = try Self.onTerminal(["test", "--color", "never", "--config", CLI.root + "/examples/broken.json", Self.cases], environment: [:])
        #expect(quiet.contains("error: rule 1, pattern 1"), "\(quiet)")
        #expect(!quiet.contains("\u{1B}["), "\(quiet)")
    }

    @Test("CLICOLOR_FORCE colours the report on a pipe too, as it does diagnostics; NO_COLOR still wins")
    func forcedColour() throws {
        let arguments = ["test", "--config", CLI.example, Self.cases]
        let forced = try CLI.run(arguments, environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(forced.stdout.contains("\u{1B}[32m5 checks (4 cases): 5 passed, 0 failed\u{1B}[0m"))
        let zero = try CLI.run(arguments, environment: ["CLICOLOR_FORCE": "0", "NO_COLOR": ""])
        #expect(!zero.stdout.contains("\u{1B}["))
        let noColor = try CLI.run(arguments, environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("\u{1B}["))
        let json = try CLI.run(arguments + ["--format", "json"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(!json.stdout.contains("\u{1B}["))
        // The command's own errors are diagnostics like the loader's: same shape, same colour.
        let missing = try CLI.run(["test", "--config", CLI.example, "/no/such/cases.json"], environment: ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        #expect(missing.status == 1)
        #expect(missing.stderr == "\u{1B}[1m/no/such/cases.json:\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m cannot open /no/such/cases.json: No such file or directory\n")
        // --color always colours them on a pipe too, as it does the report.
        let always = try CLI.run(["test", "--color", "always", "--config", CLI.example, "/no/such/cases.json"])
        #expect(always.stderr == missing.stderr)
    }
    #endif

    /// Pull to refresh off as a string, forms pushed (which iOS does not know).
    static let typedRules = DiffCommandTests.typedRules

    @Test("a case's \"typed\" values checked against the app's typed reads, defaults included (an unset modal_style is large); \"false\" crashes hotwire-android")
    func typedValues() throws {
        let config = try CLI.temporaryFile(Self.typedRules)
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/posts/new", "profile": ["hotwire-ios", "hotwire-android"],
               "typed": {"presentation": "push", "modal_style": "large", "pull_to_refresh_enabled": false}},
              {"url": "/recede_historical_location", "profile": ["hotwire-ios", "hotwire-android"],
               "typed": {"presentation": "pop", "context": "default", "historical_location": true}}
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):2:3: case 0: /posts/new under hotwire-ios (GET)
                key                              expected  actual
                presentation (typed)             "push"    "default" (written "push")
                pull_to_refresh_enabled (typed)  false     true (written "false")
              rules that matched:
                rule 0, pattern ".*"
                rule 1, pattern "/new$"
            FAIL \(cases):2:3: case 0: /posts/new under hotwire-android (GET)
                key                              expected  actual
                pull_to_refresh_enabled (typed)  false     (app crashes) (written "false")
              rules that matched:
                rule 0, pattern ".*"
                rule 1, pattern "/new$"
            4 checks (2 cases): 2 passed, 2 failed

            """)
        let json = try CLI.run(["test", "--format", "json", "--config", config, cases])
        let results = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["results"] as? [[String: Any]])
        #expect(results[0]["expected"] == nil)
        #expect(results[0]["differences"] == nil)
        let typed = try #require(results[0]["typed"] as? [String: Any])
        #expect(typed.count == 3 && typed["presentation"] as? String == "push" && typed["pull_to_refresh_enabled"] as? Bool == false)
        #expect((results[0]["actual_typed"] as? [String: Any])?["modal_style"] as? String == "large")
        let differences = try #require(results[0]["typed_differences"] as? [[String: Any]])
        #expect(differences.map { $0["path"] as? [String] } == [["presentation"], ["pull_to_refresh_enabled"]])
        #expect(differences[1]["expected"] as? Bool == false && differences[1]["actual"] as? Bool == true)
        #expect(differences[1]["typed"] as? Bool == true)
        let written = try #require(differences[1]["written"] as? [String: Any])
        #expect(written["expected"] as? Bool == false && written["actual"] as? String == "false" && written.count == 2)
    }

    @Test("--compare typed: properties compared as each app reads them; the built-ins' POP is pop, turbo-android's \"false\" is false")
    func compareTyped() throws {
        let config = try CLI.temporaryFile(Self.typedRules)
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/recede_historical_location", "profile": ["hotwire-ios", "hotwire-android"],
               "properties": {"presentation": "pop", "context": "default"}, "match": "subset"},
              {"url": "https://example.com/posts/new", "profile": "turbo-android",
               "properties": {"pull_to_refresh_enabled": false, "view_controller": "web", "presentation": "push"}},
              {"url": "https://example.com/posts/new", "profile": "hotwire-ios",
               "properties": {"pull_to_refresh_enabled": false, "view_controller": "web"}},
            ]}
            """)
        let json = try CLI.run(["test", "--config", config, cases])
        #expect(json.status == 1)
        #expect(json.stdout.hasSuffix("4 checks (3 cases): 1 passed, 3 failed\n"))
        let typed = try CLI.run(["test", "--compare", "typed", "--config", config, cases])
        #expect(typed.status == 1)
        #expect(typed.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):6:3: case 2: https://example.com/posts/new under hotwire-ios (GET, exact, typed)
                key                              expected  actual
                pull_to_refresh_enabled (typed)  false     true (written "false")
              rules that matched:
                rule 0, pattern ".*"
                rule 1, pattern "/new$"
            4 checks (3 cases): 3 passed, 1 failed

            """)
        // Exact, typed: a key set to its default is no extra key.
        let explicit = try CLI.temporaryFile(#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal", "modal_style": "large"}}]}"#)
        let modal = #"{"cases": [{"url": "https://example.com/a/new", "properties": {"context": "modal"}}]}"#
        #expect(try CLI.run(["test", "--config", explicit, "-"], stdin: modal).status == 1)
        #expect(try CLI.run(["test", "--compare", "typed", "--config", explicit, "-"], stdin: modal).stdout == "1 check (1 case): 1 passed, 0 failed\n")
    }

    @Test("a case's \"typed\": unknown keys and values no accessor returns are errors at their line and column")
    func typedErrors() throws {
        let r = try CLI.run(["test", "--config", CLI.example, "-"], stdin: """
            {"cases": [
              {"url": "/a", "typed": {"modal_styl": "large", "pull_to_refresh_enabled": "false", "modal_style": "huge", "title": 3}},
              {"url": "/b", "typed": {}},
              {"url": "/c", "typed": []},
              {"url": "/d", "typed": {"title": null, "presentation": "push", "uri": "turbo://fragment/x"}}
            ]}
            """)
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == """
            <stdin>:2:27: error: unknown typed key "modal_styl" in case 0; expected one of context, presentation, modal_style, pull_to_refresh_enabled, modal_dismiss_gesture_enabled, view_controller, animated, query_string_presentation, title, uri, fallback_uri, historical_location
            <stdin>:2:77: error: typed "pull_to_refresh_enabled" of case 0 must be true or false, found "false"
            <stdin>:2:101: error: typed "modal_style" of case 0 must be one of "medium", "large", "full", "page_sheet", "form_sheet", found "huge"
            <stdin>:2:118: error: typed "title" of case 0 must be a string or null, found 3
            <stdin>:3:26: error: "typed" of case 1 names no key, and the case has no "properties": it checks nothing
            <stdin>:4:26: error: "typed" of case 2 must be an object of typed keys and values, found array

            """)
    }

    @Test("a case's path is read on https://example.com (or --base-url, or its base_url option): turbo-ios drops the trailing slash and the query, hotwire-ios@main neither; a full URL as given")
    func barePaths() throws {
        let config = try CLI.temporaryFile(DiffCommandTests.pathRules)
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/posts/new/", "profile": ["hotwire-ios@main", "turbo-ios"], "properties": {}},
              {"url": "/posts?filter=mine", "profile": ["hotwire-ios@main", "turbo-ios"], "properties": {"title": "Mine"}},
              {"url": "https://example.com/posts/new/", "profile": "turbo-ios", "properties": {"context": "modal"}},
            ]}
            """)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):2:3: case 0: /posts/new/ under turbo-ios (GET, exact)
                key      expected  actual
                context  (absent)  "modal"
              rules that matched:
                rule 0, pattern "/new$"
            FAIL \(cases):3:3: case 1: /posts?filter=mine under turbo-ios (GET, exact)
                key    expected  actual
                title  "Mine"    (absent)
              no rule matched
            5 checks (3 cases): 3 passed, 2 failed

            """)
        // Another base: no note; the case's own base_url option counts too.
        let based = try CLI.run(["test", "--base-url", "https://app.example.org", "--config", config, cases])
        #expect(based.stdout.hasPrefix("FAIL \(cases):2:3: case 0: /posts/new/ under turbo-ios"))
        let own = try CLI.run(["test", "--config", config, "-"],
                              stdin: #"{"cases": [{"url": "/a/new/", "profile": "turbo-ios", "options": {"base_url": "https://x.dev"}, "properties": {"context": "modal"}}]}"#)
        #expect(own.stdout == "1 check (1 case): 1 passed, 0 failed\n")
        let json = try CLI.run(["test", "--format", "json", "--config", config, cases])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["base_url"] as? String == "https://example.com/")
        #expect((report["results"] as? [[String: Any]])?.map { $0["url"] as? String }.prefix(2) == ["/posts/new/", "/posts/new/"])
    }

    @Test("usage errors exit 2", arguments: [
        ["test", "--config", CLI.example],
        ["test", "--config", CLI.example, "--format", "yaml", TestCommandTests.cases],
        ["test", "--config", CLI.example, "--color", "sometimes", TestCommandTests.cases],
        ["test", TestCommandTests.cases],
        ["test", "--config", CLI.example, "--compare", "typed-values", TestCommandTests.cases],
    ])
    func usage(_ arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
    }

    @Test("a typed check where the app crashes reading the key fails, showing (app crashes); each release of the app is its own profile")
    func typedCrash() throws {
        let config = try CLI.temporaryFile(#"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": "true"}}]}"#)
        let cases = try CLI.temporaryFile(#"{"cases": [{"url": "https://x.dev/a", "profile": ["hotwire-android@1.1.3", "hotwire-android"], "typed": {"pull_to_refresh_enabled": true}}]}"#)
        let r = try CLI.run(["test", "--config", config, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            FAIL \(cases):1:12: case 0: https://x.dev/a under hotwire-android (GET)
                key                              expected  actual
                pull_to_refresh_enabled (typed)  true      (app crashes) (written "true")
              rules that matched:
                rule 0, pattern ".*"
            2 checks (1 case): 1 passed, 1 failed

            """)
    }
}
