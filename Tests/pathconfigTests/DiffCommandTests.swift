import Foundation
import Testing

/// `pathconfig diff`: URLs whose properties differ between profiles, and
/// between two versions of a configuration.
@Suite("pathconfig diff")
struct DiffCommandTests {
    static let next = CLI.root + "/examples/path-configuration.next.json"
    /// The line the text reports open with when a path was read on the default base URL.
    static let note = "note: paths resolve against https://example.com, the default base URL (--base-url sets another)"
    /// The note of a typed diff between hotwire-ios and hotwire-android on the keys one of them never reads.
    static let unreadNote = "note: typed keys an app never reads are not compared: hotwire-ios never reads title, uri, fallback_uri; hotwire-android never reads modal_style, modal_dismiss_gesture_enabled, view_controller"

    static let turboAndroidLeftOut = """
        \(CLI.example):3:13: warning: setting "tabs" is an array; the turbo-android profile stores every value as a string, so turbo-android refuses the document (Gson: "Expected a string but was BEGIN_ARRAY") and ignores the whole file
        pathconfig: warning: turbo-android left out: the configuration does not load under it

        """

    @Test("the example across the mobile apps: one row per differing key, a column per profile; turbo-android, which refuses the file, left out with a warning")
    func acrossProfiles() throws {
        let r = try CLI.run(["diff", "--config", CLI.example, "/messages/new", "https://example.com/a/b.PDF",
                             "https://example.com/messages/new/", "/recede_historical_location"])
        #expect(r.status == 0)
        #expect(r.stderr == Self.turboAndroidLeftOut)
        #expect(r.stdout == """
            \(Self.note)
            by rule and key:
              hotwire-ios no rule, turbo-ios no rule, hotwire-android rule 4 "\\\\.pdf$": open_in_external_browser differs on 1 URL, for example https://example.com/a/b.PDF
              hotwire-ios rule 1 "/new$", turbo-ios rule 1 "/new$", hotwire-android rule 0 ".*": context and pull_to_refresh_enabled differ on 1 URL, for example https://example.com/messages/new/
              hotwire-ios rule 5 "/recede_historical_location" (built-in), turbo-ios rule 0 ".*", hotwire-android rule 5 "/recede_historical_location" (built-in): context differs on 1 URL, for example /recede_historical_location
              hotwire-ios rule 5 "/recede_historical_location" (built-in), turbo-ios no rule, hotwire-android rule 5 "/recede_historical_location" (built-in): historical_location and presentation differ on 1 URL, for example /recede_historical_location
            URL                                KEY                       hotwire-ios  turbo-ios  hotwire-android
            https://example.com/a/b.PDF        open_in_external_browser  (absent)     (absent)   true
            https://example.com/messages/new/  context                   "modal"      "modal"    "default"
                                               pull_to_refresh_enabled   false        false      true
            /recede_historical_location        context                   "default"    "default"  "DEFAULT"
                                               historical_location       true         (absent)   true
                                               presentation              "pop"        (absent)   "POP"
            3 of 4 URLs differ between hotwire-ios, turbo-ios, hotwire-android; 1 resolves alike

            """)
    }

    @Test("the Turbo iOS page's configuration: a query that ends in /new makes a modal under hotwire-ios only; the Android apps, which crash on its trailing comma, left out")
    func turboIOSPage() throws {
        let config = try CLI.temporaryFile(SeedDocuments.jsonBlocks(SeedDocuments.text("000_"))[0])
        // Standard input: blank lines, comments and repeats skipped.
        let r = try CLI.run(["diff", "--config", config],
                            stdin: "# sign-in links\nhttps://example.com/sign_in?next=/posts/new\n\nhttps://example.com/posts/new\r\nhttps://example.com/sign_in\nhttps://example.com/posts/new\n")
        #expect(r.status == 0)
        #expect(r.stderr == ["hotwire-android", "turbo-android"].map {
            "\(config):22:6: warning: trailing comma before \"]\": \($0) reads it as a null rule and crashes (NullPointerException) on every lookup\n"
                + "pathconfig: warning: \($0) left out: the configuration does not load under it\n"
        }.joined())
        #expect(r.stdout == """
            by rule and key:
              hotwire-ios rule 0 "/new$", turbo-ios no rule: presentation differs on 1 URL, for example https://example.com/sign_in?next=/posts/new
            URL                                          KEY           hotwire-ios  turbo-ios
            https://example.com/sign_in?next=/posts/new  presentation  "modal"      (absent)
            1 of 3 URLs differ between hotwire-ios, turbo-ios; 2 resolve alike

            """)
    }

    @Test("--format json: the values by profile (a profile left out where the key is absent) and every profile's properties")
    func json() throws {
        let rule = SeedDocuments.jsonBlocks(SeedDocuments.text("000_"))[4]  // the query-string example
        let config = try CLI.temporaryFile("{\"rules\": [\(rule)]}")
        let r = try CLI.run(["diff", "--format", "json", "--config", config, "https://example.com/search?q=1&foo=bar", "https://example.com/search"])
        #expect(r.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["profiles"] as? [String] == ["hotwire-ios", "turbo-ios", "hotwire-android", "turbo-android"])
        #expect(report["method"] as? String == "GET")
        #expect(report["urls"] as? Int == 2)
        #expect(report["differing"] as? Int == 1)
        #expect(report["alike"] as? Int == 1)
        let differences = try #require(report["differences"] as? [[String: Any]])
        #expect(differences.count == 1)
        #expect(differences[0]["url"] as? String == "https://example.com/search?q=1&foo=bar")
        let keys = try #require(differences[0]["keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        #expect(keys[0]["path"] as? [String] == ["foo"])
        #expect(keys[0]["values"] as? [String: String] == ["hotwire-ios": "bar", "hotwire-android": "bar", "turbo-android": "bar"])
        let properties = try #require(differences[0]["properties"] as? [String: [String: String]])
        #expect(properties == ["hotwire-ios": ["foo": "bar"], "turbo-ios": [:], "hotwire-android": ["foo": "bar"], "turbo-android": ["foo": "bar"]])
    }

    @Test("exit 0 whether or not URLs differ; --exit-code: 1 when one does, 0 when none does")
    func exitCode() throws {
        let alike = try CLI.run(["diff", "--exit-code", "--config", CLI.example, "--profile", "hotwire-ios", "--profile", "hotwire-android", "/messages/new", "/messages/7"])
        #expect(alike.status == 0)
        #expect(alike.stdout == "\(Self.note)\n0 of 2 URLs differ between hotwire-ios, hotwire-android; 2 resolve alike\n")
        // hotwire-ios's main branch keeps the trailing slash that every release drops.
        let differ = try CLI.run(["diff", "--config", CLI.example, "--profile", "hotwire-ios@main", "--profile", "turbo-ios", "https://example.com/messages/new/"])
        #expect(differ.status == 0)
        let flagged = try CLI.run(["diff", "--exit-code", "--config", CLI.example, "--profile", "hotwire-ios@main", "--profile", "turbo-ios", "https://example.com/messages/new/"])
        #expect(flagged.status == 1)
        #expect(flagged.stdout == differ.stdout)
        #expect(flagged.stdout.hasSuffix("1 of 1 URL differ between hotwire-ios@main, turbo-ios; 0 resolve alike\n"))
    }

    @Test("a profile named with --profile must load: exit 1 with the load error")
    func namedProfileMustLoad() throws {
        let r = try CLI.run(["diff", "--config", CLI.example, "--profile", "hotwire-ios", "--profile", "turbo-android", "/a"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "\(CLI.example):3:13: error: setting \"tabs\" is an array; the turbo-android profile stores every value as a string, so turbo-android refuses the document (Gson: \"Expected a string but was BEGIN_ARRAY\") and ignores the whole file\n")
    }

    @Test("--against: what is added, removed or changed, with the profiles that see it")
    func against() throws {
        let r = try CLI.run(["diff", "--config", CLI.example, "--against", Self.next,
                             "/messages/new", "https://example.com/files/report.pdf?download=1", "/sign_in", "/messages/42"])
        #expect(r.status == 0)
        #expect(r.stderr == Self.turboAndroidLeftOut)
        #expect(r.stdout == """
            \(Self.note)
            URL                                              PROFILES                     CHANGE   KEY                       OLD             NEW
            /messages/new                                    all                          added    modal_style               (absent)        "page_sheet"
            https://example.com/files/report.pdf?download=1  hotwire-ios,hotwire-android  added    open_in_external_browser  (absent)        true
            /sign_in                                         all                          removed  presentation              "replace_root"  (absent)
            3 of 4 URLs change from \(CLI.example) to \(Self.next) under hotwire-ios, turbo-ios, hotwire-android; 1 resolves alike

            """)
        let flagged = try CLI.run(["diff", "--exit-code", "--config", CLI.example, "--against", Self.next, "/messages/42"])
        #expect(flagged.status == 0)
        #expect(flagged.stdout.hasPrefix("\(Self.note)\n0 of 1 URL change"))
    }

    @Test("keys spelt apart (\"café\" with U+00E9 and with e + U+0301, K and U+212A): two rows where the Android apps hold two keys, the iOS apps one, each shown with its code points, set by the rule each app took it from")
    func keysSpeltApart() throws {
        let config = try CLI.temporaryFile(#"{"settings": {}, "rules": [{"patterns": [".*"], "properties": {"caf\u00e9": "one"}}, "#
            + #"{"patterns": ["^/b"], "properties": {"cafe\u0301": "two"}}, {"patterns": ["^/c"], "properties": {"K": "1", "\u212a": "2"}}]}"#)
        let r = try CLI.run(["diff", "--config", config, "--profile", "hotwire-ios", "--profile", "hotwire-android",
                             "https://x.test/b", "https://x.test/c", "https://x.test/a"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            by rule and key:
              hotwire-ios no rule, hotwire-android rule 1 "^/b": ["cafe\u{301}" (U+0063 U+0061 U+0066 U+0065 U+0301)] differs on 1 URL, for example https://x.test/b
              hotwire-ios rule 1 "^/b", hotwire-android rule 0 ".*": ["caf\u{E9}"] differs on 1 URL, for example https://x.test/b
              hotwire-ios no rule, hotwire-android rule 2 "^/c": ["\u{212A}" (U+212A)] differs on 1 URL, for example https://x.test/c
            URL               KEY                                            hotwire-ios  hotwire-android
            https://x.test/b  ["cafe\u{301}" (U+0063 U+0061 U+0066 U+0065 U+0301)]  (absent)     "two"
                              ["caf\u{E9}"]                                       "two"        "one"
            https://x.test/c  ["\u{212A}" (U+212A)]                                 (absent)     "2"
            2 of 3 URLs differ between hotwire-ios, hotwire-android; 1 resolves alike

            """)
        // A version that spells rule 1's key as rule 0 does: on Android, one key where there were two; on iOS, the same answer.
        let next = try CLI.temporaryFile(String(decoding: try Data(contentsOf: URL(fileURLWithPath: config)), as: UTF8.self)
            .replacingOccurrences(of: "cafe\\u0301", with: "caf\\u00e9"))
        let against = try CLI.run(["diff", "--config", config, "--against", next, "--profile", "hotwire-ios", "--profile", "hotwire-android",
                                   "https://x.test/b", "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(against.stdout.utf8)) as? [String: Any], "\(against.stdout)")
        let changes = try #require(report["changes"] as? [[String: Any]])
        #expect(against.status == 0 && changes.count == 1)
        #expect(changes.first?["profiles"] as? [String] == ["hotwire-android"])
        let keys = (changes.first?["keys"] as? [[String: Any]] ?? []).map { ($0["path"] as? [String] ?? [], $0["change"] as? String ?? "") }
        #expect(keys.map { $0.0.map { Array($0.unicodeScalars) } } == [[Array("cafe\u{301}".unicodeScalars)], [Array("caf\u{E9}".unicodeScalars)]])
        #expect(keys.map(\.1) == ["removed", "changed"])
        // A value spelt otherwise changes, and shows its code points.
        let respelt = try CLI.temporaryFile(String(decoding: try Data(contentsOf: URL(fileURLWithPath: config)), as: UTF8.self)
            .replacingOccurrences(of: #""two""#, with: #""tw\u006f\u0301""#))
        let value = try CLI.run(["diff", "--config", config, "--against", respelt, "--profile", "hotwire-android", "https://x.test/b"])
        #expect(value.stdout.contains(#"changed  ["cafe\#u{301}" (U+0063 U+0061 U+0066 U+0065 U+0301)]  "two"  "two\#u{301}" (U+0074 U+0077 U+006F U+0301)"#), "\(value.stdout)")
        // Text written composed (NFC), marks and all, shows as it is.
        let titled = try CLI.temporaryFile(#"{"settings": {}, "rules": [{"patterns": [".*"], "properties": {"title": "\#u{928}\#u{92E}\#u{938}\#u{94D}\#u{924}\#u{947}"}}]}"#)
        let title = try CLI.run(["diff", "--config", config, "--against", titled, "--profile", "hotwire-android", "https://x.test/a"])
        let titleRow = title.stdout.split(separator: "\n").first { $0.contains("title") }.map(String.init) ?? ""
        #expect(titleRow.hasSuffix("(absent)  \"\u{928}\u{92E}\u{938}\u{94D}\u{924}\u{947}\"") && !titleRow.contains("U+"), "\(title.stdout)")
    }

    @Test("URLs spelt apart are two inputs: a repeat is skipped only byte for byte")
    func urlsSpeltApart() throws {
        let old = try CLI.temporaryFile(#"{"settings": {}, "rules": []}"#)
        let new = try CLI.temporaryFile(#"{"settings": {}, "rules": [{"patterns": [".*"], "properties": {"k": "v"}}]}"#)
        let r = try CLI.run(["diff", "--config", old, "--against", new, "--profile", "hotwire-android"],
                            stdin: "https://x.test/caf\u{E9}\nhttps://x.test/cafe\u{301}\nhttps://x.test/caf\u{E9}\n")
        #expect(r.status == 0)
        #expect(r.stdout.hasSuffix("2 of 2 URLs change from \(old) to \(new) under hotwire-android; 0 resolve alike\n"), "\(r.stdout)")
    }

    @Test("--against with request rules: a nested key (headers.Accept) changed under deep merge; JSON parsed back")
    func againstNested() throws {
        let api = try String(contentsOfFile: CLI.apiExample, encoding: .utf8)
        let changed = api.replacingOccurrences(of: "\"doorknob/round, doorknob/handle, */*\"", with: "\"doorknob/round, */*\"")
        try #require(changed != api)
        let next = try CLI.temporaryFile(changed)
        let flags = ["diff", "--profile", "siesta", "--base-url", "https://api.example.com", "--merge", "deep",
                     "--config", CLI.apiExample, "--against", next, "/doors/3/knob", "/volcanos/1/status"]
        let text = try CLI.run(flags)
        #expect(text.status == 0)
        #expect(text.stdout == """
            URL            PROFILES  CHANGE   KEY             OLD                                     NEW
            /doors/3/knob  all       changed  headers.Accept  "doorknob/round, doorknob/handle, */*"  "doorknob/round, */*"
            1 of 2 URLs change from \(CLI.apiExample) to \(next) under siesta; 1 resolves alike

            """)
        let json = try CLI.run(flags + ["--format", "json", "--exit-code"])
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["old"] as? String == CLI.apiExample)
        #expect(report["new"] as? String == next)
        #expect(report["changed"] as? Int == 1)
        #expect(report["unchanged"] as? Int == 1)
        let changes = try #require(report["changes"] as? [[String: Any]])
        #expect(changes.count == 1)
        #expect(changes[0]["profiles"] as? [String] == ["siesta"])
        let keys = try #require(changes[0]["keys"] as? [[String: Any]])
        #expect(keys.count == 1)
        #expect(keys[0]["path"] as? [String] == ["headers", "Accept"])
        #expect(keys[0]["change"] as? String == "changed")
        #expect(keys[0]["old"] as? String == "doorknob/round, doorknob/handle, */*")
        #expect(keys[0]["new"] as? String == "doorknob/round, */*")
    }

    @Test("a URL turbo-android crashes on (java.net.URL rejects its port) differs from every app that answers: (app crashes) in its column, why in JSON; exit 0")
    func crashingApp() throws {
        let config = try CLI.temporaryFile(#"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"context":"modal"}},{"patterns":["^$"],"properties":{"home":true}}]}"#)
        let urls = ["https://x.dev:abc/new", "https://x.dev/new"]
        let r = try CLI.run(["diff", "--config", config] + urls)
        #expect(r.stderr == "")
        #expect(r.status == 0)
        #expect(r.stdout == """
            by rule and key:
              hotwire-ios rule 0 "/new$", turbo-ios rule 0 "/new$", hotwire-android no rule, turbo-android app crashes: context differs on 1 URL, for example https://x.dev:abc/new
              hotwire-ios no rule, turbo-ios no rule, hotwire-android rule 1 "^$", turbo-android app crashes: home differs on 1 URL, for example https://x.dev:abc/new
            URL                    KEY      hotwire-ios  turbo-ios  hotwire-android  turbo-android
            https://x.dev:abc/new  context  "modal"      "modal"    (absent)         (app crashes)
                                   home     (absent)     (absent)   true             (app crashes)
            1 of 2 URLs differ between hotwire-ios, turbo-ios, hotwire-android, turbo-android; 1 resolves alike

            """)
        // The apps that answer agree; the crash still differs from them.
        let alike = try CLI.run(["diff", "--config", config, "--profile", "hotwire-ios", "--profile", "turbo-android", "https://x.dev:abc/zzz"])
        #expect(alike.status == 0)
        #expect(alike.stdout == """
            by rule and key:
              hotwire-ios no rule, turbo-android app crashes: (properties) differs on 1 URL, for example https://x.dev:abc/zzz
            URL                    KEY           hotwire-ios  turbo-android
            https://x.dev:abc/zzz  (properties)  {}           (app crashes)
            1 of 1 URL differ between hotwire-ios, turbo-android; 0 resolve alike

            """)
        let json = try CLI.run(["diff", "--format", "json", "--config", config, urls[0]])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let difference = try #require((report["differences"] as? [[String: Any]])?.first)
        let crashes = try #require(difference["crashes"] as? [String: String])
        #expect(Array(crashes.keys) == ["turbo-android"])
        #expect(crashes["turbo-android"]?.hasPrefix("turbo-android crashes on this URL: java.net.URL rejects it") == true)
        #expect((difference["properties"] as? [String: Any]).map { Set($0.keys) } == ["hotwire-ios", "turbo-ios", "hotwire-android"])
        // Where no app answers (both Android apps crash on a jar: URL read with a
        // null path), the URL is refused, naming the crash.
        let none = try CLI.run(["diff", "--config", config, "--profile", "hotwire-android", "--profile", "turbo-android", " jar:#x"])
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("input 1: error: \" jar:#x\": turbo-android crashes on this URL"))
        // Between two versions the URL alone decides the crash: nothing changes under turbo-android.
        let next = try CLI.temporaryFile(#"{"settings":{},"rules":[{"patterns":["/new$"],"properties":{"context":"default"}}]}"#)
        let versions = try CLI.run(["diff", "--config", config, "--against", next, "--profile", "turbo-android", "--profile", "hotwire-ios", urls[0]])
        #expect(versions.status == 0)
        #expect(versions.stderr == "")
        #expect(versions.stdout.contains("hotwire-ios  changed  context  \"modal\"  \"default\""))
        #expect(!versions.stdout.contains("turbo-android  "))
    }

    @Test("a URL the library refuses is an error on standard error (shortened); the others are still compared; exit 1")
    func refusedURL() throws {
        let long = "/" + String(repeating: "a", count: 70_000)
        let r = try CLI.run(["diff", "--config", CLI.example, "--profile", "hotwire-ios@main", "--profile", "turbo-ios"],
                            stdin: "https://example.com/messages/new/\n\(long)\n")
        #expect(r.status == 1)
        // Named as given; measured as the apps read it, on the base URL (19 bytes more).
        #expect(r.stderr == "<stdin>:2: error: \"/\(String(repeating: "a", count: 55))…\(String(repeating: "a", count: 23))\": the URL is 70020 bytes, more than the limit of 65536 (max_url_bytes)\n")
        // Counted neither as differing nor as alike: it was not compared.
        #expect(r.stdout.hasSuffix("1 of 1 URL differ between hotwire-ios@main, turbo-ios; 0 resolve alike\n"))
    }

    /// The issue's rules: forms as modals, a title for one query.
    static let pathRules = #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}, {"patterns": ["filter=mine"], "properties": {"title": "Mine"}}]}"#

    @Test("a path is read as a page on https://example.com, so each app's URL handling applies: turbo-ios drops the trailing slash and the query, hotwire-ios@main neither; //host and relative inputs as given")
    func barePaths() throws {
        let config = try CLI.temporaryFile(Self.pathRules)
        let profiles = ["--profile", "hotwire-ios@main", "--profile", "turbo-ios"]
        let r = try CLI.run(["diff", "--config", config] + profiles + ["/posts/new/", "/posts?filter=mine", "/posts/new", "//posts/new/", "posts/new/"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
            \(Self.note)
            by rule and key:
              hotwire-ios@main no rule, turbo-ios rule 0 "/new$": context differs on 1 URL, for example /posts/new/
              hotwire-ios@main rule 1 "filter=mine", turbo-ios no rule: title differs on 1 URL, for example /posts?filter=mine
            URL                 KEY      hotwire-ios@main  turbo-ios
            /posts/new/         context  (absent)          "modal"
            /posts?filter=mine  title    "Mine"            (absent)
            2 of 5 URLs differ between hotwire-ios@main, turbo-ios; 3 resolve alike

            """)
        // Every release of hotwire-ios drops the trailing slash too, and keeps the query.
        let released = try CLI.run(["diff", "--config", config, "--profile", "hotwire-ios", "--profile", "turbo-ios", "/posts/new/", "/posts?filter=mine"])
        #expect(released.stdout.hasSuffix("1 of 2 URLs differ between hotwire-ios, turbo-ios; 1 resolves alike\n"))
        // resolve still matches a path as given: turbo-ios sees the slash and the query.
        let resolve = try CLI.run(["resolve", "--profile", "turbo-ios", "--config", config, "/posts/new/", "/posts?filter=mine"])
        #expect(resolve.stdout == "{}\n{\"title\":\"Mine\"}\n")
    }

    @Test("--base-url: paths read on it (after its own path), no note; JSON names the base and shows inputs as given")
    func baseURL() throws {
        let config = try CLI.temporaryFile(Self.pathRules)
        let flags = ["diff", "--config", config, "--profile", "hotwire-ios@main", "--profile", "turbo-ios", "--base-url", "https://app.example.org/m"]
        let r = try CLI.run(flags + ["/posts/new/", "/posts?filter=mine"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            by rule and key:
              hotwire-ios@main no rule, turbo-ios rule 0 "/new$": context differs on 1 URL, for example /posts/new/
              hotwire-ios@main rule 1 "filter=mine", turbo-ios no rule: title differs on 1 URL, for example /posts?filter=mine
            URL                 KEY      hotwire-ios@main  turbo-ios
            /posts/new/         context  (absent)          "modal"
            /posts?filter=mine  title    "Mine"            (absent)
            2 of 2 URLs differ between hotwire-ios@main, turbo-ios; 0 resolve alike

            """)
        let json = try CLI.run(flags + ["--format", "json", "/posts?filter=mine"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["base_url"] as? String == "https://app.example.org/m/")
        #expect(report["compare"] as? String == "json")
        #expect((report["differences"] as? [[String: Any]])?.first?["url"] as? String == "/posts?filter=mine")
        // Under siesta a path is Siesta's resource(_:): its "?" is percent-encoded
        // into the path, so no query follows it.
        let query = try CLI.temporaryFile(#"{"rules": [{"patterns": ["\\?filter=mine"], "properties": {"query": true}}]}"#)
        let siesta = try CLI.run(["diff", "--config", query, "--profile", "hotwire-ios", "--profile", "turbo-ios", "--profile", "siesta",
                                  "--base-url", "https://app.example.org/m", "/posts?filter=mine"])
        #expect(siesta.stdout == """
            by rule and key:
              hotwire-ios rule 0 "\\\\?filter=mine", turbo-ios no rule, siesta no rule: query differs on 1 URL, for example /posts?filter=mine
            URL                 KEY    hotwire-ios  turbo-ios  siesta
            /posts?filter=mine  query  true         (absent)   (absent)
            1 of 1 URL differ between hotwire-ios, turbo-ios, siesta; 0 resolve alike

            """)
    }

    /// Forms pushed (which iOS does not know), pull to refresh off as a string.
    static let typedRules = #"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": "false", "view_controller": "web"}}, {"patterns": ["/new$"], "properties": {"presentation": "push"}}]}"#

    @Test("--compare typed: what each app reads, defaults included; \"false\" (which crashes hotwire-android) and push differ, the Android built-ins' POP and DEFAULT do not")
    func typedAcrossProfiles() throws {
        let config = try CLI.temporaryFile(Self.typedRules)
        let flags = ["diff", "--config", config, "--profile", "hotwire-ios", "--profile", "hotwire-android", "/posts/new", "/recede_historical_location"]
        let json = try CLI.run(flags)
        #expect(json.stdout == """
            \(Self.note)
            by rule and key:
              rule 2 "/recede_historical_location" (built-in): context and presentation differ on 1 URL, for example /recede_historical_location
            URL                          KEY           hotwire-ios  hotwire-android
            /recede_historical_location  context       "default"    "DEFAULT"
                                         presentation  "pop"        "POP"
            1 of 2 URLs differ between hotwire-ios, hotwire-android; 1 resolves alike

            """)
        let typed = try CLI.run(flags + ["--compare", "typed"])
        #expect(typed.status == 0)
        #expect(typed.stdout == """
            \(Self.note)
            \(Self.unreadNote)
            by rule and key:
              rule 0 ".*": pull_to_refresh_enabled (typed) differs on 2 URLs, for example /posts/new
              rule 1 "/new$": presentation (typed) differs on 1 URL, for example /posts/new
            URL                          KEY                              hotwire-ios                 hotwire-android
            /posts/new                   presentation (typed)             "default" (written "push")  "push"
                                         pull_to_refresh_enabled (typed)  true (written "false")      (app crashes) (written "false")
            /recede_historical_location  pull_to_refresh_enabled (typed)  true (written "false")      (app crashes) (written "false")
            2 of 2 URLs differ between hotwire-ios, hotwire-android; 0 resolve alike

            """)
        // Defaults count: with nothing set, the platforms' defaults differ;
        // view_controller, "web" on iOS, is not compared: hotwire-android never reads it.
        let empty = try CLI.temporaryFile(#"{"rules": []}"#)
        let defaults = try CLI.run(["diff", "--compare", "typed", "--config", empty, "--profile", "hotwire-ios", "--profile", "hotwire-android", "https://example.com/a"])
        #expect(defaults.stdout == """
            \(Self.unreadNote)
            by rule and key:
              no rule: pull_to_refresh_enabled (typed) differs on 1 URL, for example https://example.com/a
            URL                    KEY                              hotwire-ios     hotwire-android
            https://example.com/a  pull_to_refresh_enabled (typed)  true (default)  false (default)
            1 of 1 URL differ between hotwire-ios, hotwire-android; 0 resolve alike

            """)
    }

    @Test("--compare typed --format json: typed keys marked, with what each profile wrote, and every typed value by profile")
    func typedJSON() throws {
        let config = try CLI.temporaryFile(Self.typedRules)
        let r = try CLI.run(["diff", "--compare", "typed", "--format", "json", "--config", config,
                             "--profile", "hotwire-ios", "--profile", "hotwire-android", "/posts/new"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["compare"] as? String == "typed")
        #expect(report["base_url"] as? String == "https://example.com/")
        let difference = try #require((report["differences"] as? [[String: Any]])?.first)
        let keys = try #require(difference["keys"] as? [[String: Any]])
        #expect(keys.map { $0["path"] as? [String] } == [["presentation"], ["pull_to_refresh_enabled"]])
        #expect(keys.allSatisfy { $0["typed"] as? Bool == true })
        let values = try #require(keys[1]["values"] as? [String: Any])
        #expect(values["hotwire-ios"] as? Bool == true)
        #expect((values["hotwire-android"] as? [String: String])?["app_crashes"]?.hasPrefix("java.lang.ClassCastException") == true)
        #expect(keys[1]["written"] as? [String: String] == ["hotwire-ios": "false", "hotwire-android": "false"])
        let typed = try #require(difference["typed"] as? [String: [String: Any]])
        #expect(typed["hotwire-ios"]?["modal_style"] as? String == "large")
        #expect(typed["hotwire-android"]?["presentation"] as? String == "push")
        #expect(typed["hotwire-ios"]?.count == 12)
        let properties = try #require(difference["properties"] as? [String: [String: String]])
        #expect(properties["hotwire-ios"]?["pull_to_refresh_enabled"] == "false")
    }

    @Test("--against --compare typed: \"false\" to false changes iOS's value and ends hotwire-android's crash; setting modal_style to its default changes nothing")
    func typedAgainst() throws {
        let old = try CLI.temporaryFile(Self.typedRules)
        let new = try CLI.temporaryFile(Self.typedRules.replacingOccurrences(of: #""false""#, with: "false")
            .replacingOccurrences(of: #""push"}"#, with: #""push", "modal_style": "large"}"#))
        let flags = ["diff", "--config", old, "--against", new, "--profile", "hotwire-ios", "--profile", "hotwire-android", "/posts/new"]
        let json = try CLI.run(flags)
        #expect(json.stdout == """
            \(Self.note)
            URL         PROFILES  CHANGE   KEY                      OLD       NEW
            /posts/new  all       added    modal_style              (absent)  "large"
                                  changed  pull_to_refresh_enabled  "false"   false
            1 of 1 URL change from \(old) to \(new) under hotwire-ios, hotwire-android; 0 resolve alike

            """)
        let typed = try CLI.run(flags + ["--compare", "typed"])
        #expect(typed.stdout == """
            \(Self.note)
            URL         PROFILES         CHANGE   KEY                              OLD                              NEW
            /posts/new  hotwire-ios      changed  pull_to_refresh_enabled (typed)  true (written "false")           false
                        hotwire-android  changed  pull_to_refresh_enabled (typed)  (app crashes) (written "false")  false
            1 of 1 URL change from \(old) to \(new) under hotwire-ios, hotwire-android; 0 resolve alike

            """)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(try CLI.run(flags + ["--compare", "typed", "--format", "json"]).stdout.utf8)) as? [String: Any])
        let key = try #require(((report["changes"] as? [[String: Any]])?.first?["keys"] as? [[String: Any]])?.first)
        #expect(key["typed"] as? Bool == true)
        #expect(key["old"] as? Bool == true && key["new"] as? Bool == false)
        let written = try #require(key["written"] as? [String: Any])
        #expect(written["old"] as? String == "false" && written["new"] as? Bool == false && written.count == 2)
    }

    @Test("versions of one app: the upgrade diff, and a typed read the newer release crashes on shown as (app crashes)")
    func versions() throws {
        let upgrade = try CLI.run(["diff", "--config", CLI.example, "--profile", "hotwire-ios@1.2.2", "--profile", "hotwire-ios@main",
                                   "https://example.com/messages/42/", "https://example.com/messages/42"])
        #expect(upgrade.status == 0)
        #expect(upgrade.stdout == """
            by rule and key:
              hotwire-ios@1.2.2 rule 3 "^/messages/\\\\d+$", hotwire-ios@main no rule: title and view_controller differ on 1 URL, for example https://example.com/messages/42/
            URL                               KEY              hotwire-ios@1.2.2  hotwire-ios@main
            https://example.com/messages/42/  title            "Message"          (absent)
                                              view_controller  "message"          (absent)
            1 of 2 URLs differ between hotwire-ios@1.2.2, hotwire-ios@main; 1 resolves alike

            """)
        let config = try CLI.temporaryFile(#"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": "true", "title": 5}}]}"#)
        let typed = try CLI.run(["diff", "--config", config, "--compare", "typed", "--profile", "hotwire-android@1.1.3", "--profile", "hotwire-android",
                                 "https://x.dev/a"])
        #expect(typed.stdout == """
            by rule and key:
              rule 0 ".*": pull_to_refresh_enabled (typed) differs on 1 URL, for example https://x.dev/a
            URL              KEY                              hotwire-android@1.1.3  hotwire-android
            https://x.dev/a  pull_to_refresh_enabled (typed)  true (written "true")  (app crashes) (written "true")
            1 of 1 URL differ between hotwire-android@1.1.3, hotwire-android; 0 resolve alike

            """)
        let json = try CLI.run(["diff", "--config", config, "--compare", "typed", "--format", "json", "--profile", "hotwire-ios", "--profile", "hotwire-android", "https://x.dev/a"])
        #expect(json.stdout.contains("java.lang.ClassCastException: java.lang.String cannot be cast to java.lang.Boolean"))
        let unknown = try CLI.run(["diff", "--config", config, "--profile", "hotwire-android@7.1.0", "https://x.dev/a"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("hotwire-android has no release \"7.1.0\"; its releases are 0.1, 0.1.1"))
    }

    @Test("usage errors exit 2", arguments: [
        ["diff", "--config", CLI.example, "--profile", "hotwire-ios", "/a"],
        ["diff", "/a"],
        ["diff", "--config", CLI.example, "--format", "table", "/a"],
        ["diff", "--config", CLI.example, "--compare", "types", "/a"],
        ["diff", "--config", CLI.example, "--base-url", "example.com", "/a"],
    ])
    func usage(_ arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
    }
}
