import Foundation
import Testing

/// `pathconfig diff` for a team with one file per app: each `--config` with
/// its own `--profile`s, and what cuts the noise: `--ignore-key`, typed keys
/// one app never reads left out, the summary by rule and key.
@Suite("pathconfig diff: pairs, and signal over noise")
struct DiffPairCommandTests {
    static let ios = CLI.example
    static let android = CLI.root + "/examples/android-path-configuration.json"
    static let pair = ["diff", "--config", ios, "--profile", "hotwire-ios", "--config", android, "--profile", "hotwire-android"]
    static let urls = ["/messages/new", "/posts/new", "/posts/42", "/messages/42", "/sign_in", "/"]
    static let between = "between \(ios) under hotwire-ios, \(android) under hotwire-android"

    @Test("typed: only the keys both apps read are compared (a note names the others); the two files agree but on sign-in")
    func typed() throws {
        let r = try CLI.run(Self.pair + ["--compare", "typed"] + Self.urls)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            \(DiffCommandTests.unreadNote)
            by rule and key:
              hotwire-ios rule 2 "/sign_in$", hotwire-android no rule: flow and presentation (typed) differ on 1 URL, for example /sign_in
            URL       KEY                   hotwire-ios       hotwire-android
            /sign_in  flow                  "authentication"  (absent)
                      presentation (typed)  "replace_root"    "default" (default)
            1 of 6 URLs differ \(Self.between); 5 resolve alike

            """)
        // The same files in the other order: the columns follow the command line.
        let swapped = try CLI.run(["diff", "--config", Self.android, "--profile", "hotwire-android", "--config", Self.ios, "--profile", "hotwire-ios",
                                   "--compare", "typed", "/sign_in"])
        #expect(swapped.stdout.contains("/sign_in  flow                  (absent)             \"authentication\""))
    }

    @Test("as written: every key differs where only one file sets it; --ignore-key uri leaves Android's fragment URIs out, named in a note")
    func written() throws {
        let all = try CLI.run(Self.pair + Self.urls)
        #expect(all.status == 0)
        #expect(all.stdout.hasSuffix("6 of 6 URLs differ \(Self.between); 0 resolve alike\n"))
        #expect(all.stdout.contains("  hotwire-ios no rule, hotwire-android rule 0 \".*\": uri differs on 3 URLs, for example /messages/42\n"))
        let r = try CLI.run(Self.pair + ["--ignore-key", "uri"] + Self.urls)
        #expect(r.status == 0)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            note: keys ignored (--ignore-key): uri
            by rule and key:
              hotwire-ios no rule, hotwire-android rule 2 "^/posts/\\\\d+$": title differs on 1 URL, for example /posts/42
              hotwire-ios rule 3 "^/messages/\\\\d+$", hotwire-android no rule: title and view_controller differ on 1 URL, for example /messages/42
              hotwire-ios rule 2 "/sign_in$", hotwire-android no rule: flow and presentation differ on 1 URL, for example /sign_in
            URL           KEY              hotwire-ios       hotwire-android
            /posts/42     title            (absent)          "Post"
            /messages/42  title            "Message"         (absent)
                          view_controller  "message"         (absent)
            /sign_in      flow             "authentication"  (absent)
                          presentation     "replace_root"    (absent)
            3 of 6 URLs differ \(Self.between); 3 resolve alike

            """)
        // A nested key, and a repeated --ignore-key.
        let both = try CLI.run(Self.pair + ["--ignore-key", "uri", "--ignore-key", "title", "--ignore-key", "flow", "--ignore-key", "view_controller",
                                            "--ignore-key", "presentation", "--exit-code"] + Self.urls)
        #expect(both.status == 0)
        #expect(both.stdout.hasSuffix("0 of 6 URLs differ \(Self.between); 6 resolve alike\n"))
    }

    @Test("the summary by rule and key: one line per key and cause, most URLs first, with an example; --summary-only leaves the table out")
    func summary() throws {
        let urls = ["/", "/a", "/b", "/messages", "/posts/new", "/posts/7/edit"]
        let r = try CLI.run(Self.pair + ["--summary-only", "--exit-code"] + urls)
        #expect(r.status == 1)
        #expect(r.stdout == """
            \(DiffCommandTests.note)
            by rule and key:
              hotwire-ios no rule, hotwire-android rule 0 ".*": uri differs on 4 URLs, for example /
              hotwire-ios no rule, hotwire-android rule 1 "/new$": uri differs on 2 URLs, for example /posts/new
            6 of 6 URLs differ \(Self.between); 0 resolve alike

            """)
        // One file under two apps: a rule index names one rule, said once.
        let one = try CLI.run(["diff", "--config", Self.ios, "--profile", "hotwire-ios", "--profile", "hotwire-android", "--summary-only",
                               "/a", "/recede_historical_location", "/resume_historical_location", "/b/recede_historical_location", "/messages/new"])
        #expect(one.stdout == """
            \(DiffCommandTests.note)
            by rule and key:
              rule 5 "/recede_historical_location" (built-in): context and presentation differ on 2 URLs, for example /recede_historical_location
              rule 6 "/resume_historical_location" (built-in): context and presentation differ on 1 URL, for example /resume_historical_location
            3 of 5 URLs differ between hotwire-ios, hotwire-android; 2 resolve alike

            """)
    }

    @Test("--format json: columns with their files, values by profile, unread_keys, by_rule with the rule each column's value came from")
    func json() throws {
        let r = try CLI.run(Self.pair + ["--compare", "typed", "--format", "json"] + Self.urls)
        #expect(r.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["profiles"] as? [String] == ["hotwire-ios", "hotwire-android"])
        let columns = try #require(report["columns"] as? [[String: String]])
        #expect(columns == [["label": "hotwire-ios", "config": Self.ios, "profile": "hotwire-ios"],
                            ["label": "hotwire-android", "config": Self.android, "profile": "hotwire-android"]])
        #expect(report["differing"] as? Int == 1 && report["alike"] as? Int == 5)
        let unread = try #require(report["unread_keys"] as? [String: [String]])
        #expect(unread == ["hotwire-ios": ["title", "uri", "fallback_uri"],
                           "hotwire-android": ["modal_style", "modal_dismiss_gesture_enabled", "view_controller"]])
        let byRule = try #require(report["by_rule"] as? [[String: Any]])
        #expect(byRule.count == 1)
        #expect(byRule[0]["urls"] as? Int == 1 && byRule[0]["example"] as? String == "/sign_in")
        let keys = try #require(byRule[0]["keys"] as? [[String: Any]])
        #expect(keys.map { $0["path"] as? [String] } == [["flow"], ["presentation"]])
        #expect(keys[1]["typed"] as? Bool == true && keys[0]["typed"] == nil)
        let rules = try #require(byRule[0]["rules"] as? [String: Any])
        #expect((rules["hotwire-ios"] as? [String: Any])?["index"] as? Int == 2)
        #expect((rules["hotwire-ios"] as? [String: Any])?["pattern"] as? String == "/sign_in$")
        #expect(rules["hotwire-android"] is NSNull)
        let difference = try #require((report["differences"] as? [[String: Any]])?.first)
        let values = try #require((difference["keys"] as? [[String: Any]])?[1]["values"] as? [String: String])
        #expect(values == ["hotwire-ios": "replace_root", "hotwire-android": "default"])
        // --summary-only: no per-URL differences.
        let summary = try CLI.run(Self.pair + ["--format", "json", "--summary-only"] + Self.urls)
        let brief = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        #expect(brief["differences"] == nil)
        #expect((brief["by_rule"] as? [Any])?.count == 5)
    }

    @Test("a chain under one profile and a file under two; --config=FILE; the same profile twice names its columns FILE:PROFILE")
    func groups() throws {
        let next = DiffCommandTests.next
        let r = try CLI.run(["diff", "--config=\(Self.ios)", "--profile", "hotwire-ios", "--config", next, "--profile", "hotwire-ios",
                             "--profile=hotwire-android", "/messages/new", "/sign_in"])
        #expect(r.status == 0)
        let old = "\(Self.ios):hotwire-ios", new = "\(next):hotwire-ios", newAndroid = "\(next):hotwire-android"
        #expect(r.stdout.contains("URL            KEY           \(old)"))
        #expect(r.stdout.contains("  \(old) rule 2 \"/sign_in$\", \(new) no rule, \(newAndroid) no rule: presentation differs on 1 URL, for example /sign_in\n"))
        #expect(r.stdout.hasSuffix("2 of 2 URLs differ between \(Self.ios) under hotwire-ios, \(next) under hotwire-ios and hotwire-android; 0 resolve alike\n"))
        let json = try CLI.run(["diff", "--format", "json", "--config", Self.ios, "--profile", "hotwire-ios", "--config", next, "--profile", "hotwire-ios", "/sign_in"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((report["columns"] as? [[String: String]])?.map { $0["label"] } == [old, new])
    }

    @Test("a file that does not load under its own app exits 1 naming it; the old forms and --against still work")
    func loadsAndOldForms() throws {
        // turbo-android refuses the iOS file's tabs; named, it must load.
        let refused = try CLI.run(["diff", "--config", Self.ios, "--profile", "turbo-android", "--config", Self.android, "--profile", "hotwire-android", "/a"])
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("\(Self.ios):3:13: error: setting \"tabs\" is an array"))
        // Every --profile after the one --config: one file under several profiles.
        let old = try CLI.run(["diff", "--config", Self.ios, "--profile", "hotwire-ios", "--profile", "hotwire-android", "/messages/new"])
        #expect(old.stdout.hasSuffix("0 of 1 URL differ between hotwire-ios, hotwire-android; 1 resolves alike\n"))
        let against = try CLI.run(["diff", "--config", Self.ios, "--against", DiffCommandTests.next, "--profile", "hotwire-ios",
                                   "--ignore-key", "modal_style", "/messages/new", "/sign_in"])
        #expect(against.stdout == """
            \(DiffCommandTests.note)
            note: keys ignored (--ignore-key): modal_style
            URL       PROFILES  CHANGE   KEY           OLD             NEW
            /sign_in  all       removed  presentation  "replace_root"  (absent)
            1 of 2 URLs change from \(Self.ios) to \(DiffCommandTests.next) under hotwire-ios; 1 resolves alike

            """)
    }

    @Test("pair-form usage errors exit 2 with what to write", arguments: [
        (["--config", ios, "--profile", "hotwire-ios", "--config", android], "--config \(android) has no --profile after it: name the app that reads it"),
        (["--profile", "hotwire-ios", "--config", ios, "--profile", "hotwire-android", "--config", android],
         "a --profile before the first --config names no file: give each --config its --profile after it"),
        (["--config", ios, "--profile", "hotwire-ios", "--config", android, "--profile", "hotwire-android", "--against", android],
         "--against compares two versions of one configuration: give one --config, not pairs"),
        (["--config", ios, "--profile", "hotwire-ios", "--profile", "hotwire-android", "--against", android, "--summary-only"],
         "--summary-only summarises a diff across profiles, not --against"),
    ])
    func usage(_ arguments: [String], _ message: String) throws {
        let r = try CLI.run(["diff"] + arguments + ["/a"])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.hasPrefix("Error: \(message)\n"))
    }
}
