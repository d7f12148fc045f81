import Foundation
import Testing

/// `pathconfig test` for a team with two files: a case names the file and
/// the app it is checked against; `--ignore-key`.
@Suite("pathconfig test: cases that name their file, and --ignore-key")
struct TestPairCommandTests {
    static let android = CLI.root + "/examples/android-path-configuration.json"

    @Test("examples/two-apps.cases.json, from the top of the clone, with no --config: each case against its own file and app")
    func repositoryCases() throws {
        let r = try CLI.run(["test", "--verbose", "examples/two-apps.cases.json"], cwd: CLI.root)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            PASS examples/two-apps.cases.json:4:5: case 0 ("Forms open as modals on iOS"): /messages/new in examples/path-configuration.json under hotwire-ios (GET)
            PASS examples/two-apps.cases.json:11:5: case 1 ("Forms open as modals on Android, in the modal fragment"): /messages/new in examples/android-path-configuration.json under hotwire-android (GET)
            PASS examples/two-apps.cases.json:18:5: case 2 ("Numbered messages get a native viewer on iOS"): /messages/42 in examples/path-configuration.json under hotwire-ios (GET, subset)
            PASS examples/two-apps.cases.json:26:5: case 3 ("Numbered posts get a native screen on Android"): /posts/42 in examples/android-path-configuration.json under hotwire-android (GET, subset)
            4 checks (4 cases): 4 passed, 0 failed

            """)
        let json = try CLI.run(["test", "--format", "json", "examples/two-apps.cases.json"], cwd: CLI.root)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.map { $0["config"] as? String } == ["examples/path-configuration.json", "examples/android-path-configuration.json",
                                                             "examples/path-configuration.json", "examples/android-path-configuration.json"])
        #expect(results.map { $0["profile"] as? String } == ["hotwire-ios", "hotwire-android", "hotwire-ios", "hotwire-android"])
    }

    @Test("a case naming the Android file fails against it, not against --config; cases that name none use --config")
    func namedFile() throws {
        let cases = try CLI.temporaryFile("""
            {"cases": [
              {"url": "/posts/42", "config": "\(Self.android)", "profile": "hotwire-android", "typed": {"title": "Posts"}},
              {"url": "/messages/42", "properties": {"view_controller": "message"}, "match": "subset"}
            ]}
            """)
        let r = try CLI.run(["test", "--config", CLI.example, cases])
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            FAIL \(cases):2:3: case 0: /posts/42 in \(Self.android) under hotwire-android (GET)
                key            expected  actual
                title (typed)  "Posts"   "Post"
              rules that matched:
                rule 0, pattern ".*": Every page: the web fragment, pull to refresh
                rule 2, pattern "^/posts/\\\\d+$": Numbered posts get a native screen
            2 checks (2 cases): 1 passed, 1 failed

            """)
        // Without --config, the case that names no file is a usage error at its place.
        let missing = try CLI.run(["test", cases])
        #expect(missing.status == 2)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "\(cases):3:3: error: case 1 names no \"config\", and no --config was given\n")
        // A case's file that does not load is reported as --config's is.
        let gone = try CLI.temporaryFile(#"{"cases": [{"url": "/a", "config": "/nonexistent.json", "properties": {}}]}"#)
        let unreadable = try CLI.run(["test", gone])
        #expect(unreadable.status == 1)
        #expect(unreadable.stderr.contains("/nonexistent.json"))
        let empty = try CLI.run(["test", "-"], stdin: #"{"cases": [{"url": "/a", "config": "", "properties": {}}]}"#)
        #expect(empty.status == 1)
        #expect(empty.stderr == "<stdin>:1:36: error: \"config\" of case 0 must name a file or an http(s):// URL, found \"\"\n")
    }

    @Test("--ignore-key: an exact case passes with the ignored key extra, a typed check of it is skipped; a note names it")
    func ignoreKey() throws {
        let cases = #"{"cases": [{"url": "/messages/new", "properties": {"context": "modal"}, "typed": {"pull_to_refresh_enabled": true}}]}"#
        let strict = try CLI.run(["test", "--config", CLI.example, "-"], stdin: cases)
        #expect(strict.status == 1)
        #expect(strict.stdout.contains("    pull_to_refresh_enabled          (absent)  false\n"))
        let r = try CLI.run(["test", "--config", CLI.example, "--ignore-key", "pull_to_refresh_enabled", "-"], stdin: cases)
        #expect(r.status == 0)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            note: keys ignored (--ignore-key): pull_to_refresh_enabled
            1 check (1 case): 1 passed, 0 failed

            """)
        let json = try CLI.run(["test", "--format", "json", "--config", CLI.example, "--ignore-key", "pull_to_refresh_enabled", "-"], stdin: cases)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["ignored_keys"] as? [String] == ["pull_to_refresh_enabled"])
        #expect(report["passed"] as? Int == 1)
    }
}
