import Foundation
import HTTPTestSupport
import Testing

/// `pathconfig port`: the files it writes, what it reports, `--strict` and `--check`.
@Suite("pathconfig port")
struct PortCommandTests {
    static let android = CLI.root + "/examples/android-path-configuration.json"

    /// A new directory, removed when the test process exits.
    static func directory() throws -> String {
        let path = TemporaryDirectory.scratch + "/port-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("one file serves hotwire-android and hotwire-ios: written to standard output, (?i) where every engine here reads it; the report on standard error")
    func oneFile() throws {
        let r = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--profile", "hotwire-android", "--profile", "hotwire-ios"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""(?i)/new$","#))
        #expect(r.stdout.contains(#""^/[pP][oO][sS][tT][sS]/[0-9]+$""#))
        #expect(r.stderr.contains("rewritten: every pattern but those below starts with (?i): hotwire-android matches case-insensitively"))
        #expect(r.stderr.contains("rewritten: \\d, \\w and \\s are spelled out"))
        #expect(r.stderr.hasSuffix("wrote standard output for hotwire-android, hotwire-ios\n"))
        #expect(!r.stderr.contains("refused:"))
        // hotwire-ios, on the file, answers as hotwire-android on the original.
        let ported = try CLI.temporaryFile(r.stdout)
        let url = "https://example.com/Posts/NEW"
        let ios = try CLI.run(["resolve", "--config", ported, "--profile", "hotwire-ios", url])
        let reference = try CLI.run(["resolve", "--config", Self.android, "--profile", "hotwire-android", url])
        #expect(ios.stdout == reference.stdout)
        #expect(ios.stdout.contains(#""context":"modal""#))
    }

    @Test("--strict: each refusal named by app, rule and pattern; nothing written for those apps, one file for the others; exit 1")
    func strict() throws {
        let dir = try Self.directory()
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--strict", "-o", dir + "/paths.json"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr.contains(#"refused: turbo-ios: rule 1 ("Forms open as modals") pattern 0 "/new$": turbo-ios never sees the query string"#))
        // turbo-android reads "true" as true: a boolean of the typed catalog is not refused; one outside it is.
        #expect(!r.stderr.contains(#"refused: turbo-android: rule 0"#))
        #expect(r.stderr.contains(#"refused: turbo-android: rule 4 ("PDFs open outside the app"): turbo-android keeps every value as a string, so "open_in_external_browser": true would read as "true" there"#))
        #expect(r.stderr.contains("nothing written for turbo-ios, turbo-android (--strict)\n"))
        // The two apps left read the same file: one is written.
        #expect(r.stderr.contains("wrote \(dir)/paths.json for hotwire-ios, hotwire-android\n"))
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written == ["paths.json"])
        let ios = try String(contentsOfFile: dir + "/paths.json", encoding: .utf8)
        #expect(ios.contains(#""(?-i)/new$""#))
    }

    @Test("apps that need different files and no --output: an error, exit 1, nothing written")
    func severalFilesNeedOutput() throws {
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "hotwire-ios", "--profile", "turbo-ios"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("pathconfig: error: the apps need different files (hotwire-ios; turbo-ios): name one with --output"))
    }

    @Test("one grouping rule: with -o, apps with identical files share one, named after them, written once; without, the same groups")
    func grouping() throws {
        let dir = try Self.directory()
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "-o", dir + "/paths.json"])
        #expect(r.status == 3)
        #expect(r.stderr.contains("wrote \(dir)/paths.hotwire-ios+hotwire-android.json for hotwire-ios, hotwire-android\n"))
        #expect(r.stderr.contains("wrote \(dir)/paths.turbo-ios.json for turbo-ios\n"))
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written == ["paths.hotwire-ios+hotwire-android.json", "paths.turbo-ios.json"])
        // No two files written are identical.
        let texts = try written.map { try String(contentsOfFile: dir + "/" + $0, encoding: .utf8) }
        #expect(Set(texts).count == texts.count)
        let none = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("the apps need different files (hotwire-ios, hotwire-android; turbo-ios)"))
    }

    @Test("all or nothing: when the second file cannot be written, the first is not written either, and an old file is kept")
    func allOrNothing() throws {
        let dir = try Self.directory()
        // paths.turbo-ios.json is a directory (holding a file): no file can be renamed onto it.
        try FileManager.default.createDirectory(atPath: dir + "/paths.turbo-ios.json", withIntermediateDirectories: true)
        try "keep".write(toFile: dir + "/paths.turbo-ios.json/x", atomically: true, encoding: .utf8)
        try "old".write(toFile: dir + "/paths.json", atomically: true, encoding: .utf8)
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "hotwire-ios", "--profile", "turbo-ios",
                             "-o", dir + "/paths.json"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("nothing was written"))
        #expect(!r.stderr.contains("wrote "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["paths.json", "paths.turbo-ios.json"])
        #expect(try String(contentsOfFile: dir + "/paths.json", encoding: .utf8) == "old")

        // An existing first file is restored when a later one fails.
        try "old ios".write(toFile: dir + "/paths.hotwire-ios.json", atomically: true, encoding: .utf8)
        let again = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "hotwire-ios", "--profile", "turbo-ios",
                                 "-o", dir + "/paths.json"])
        #expect(again.status == 1)
        #expect(try String(contentsOfFile: dir + "/paths.hotwire-ios.json", encoding: .utf8) == "old ios")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["paths.hotwire-ios.json", "paths.json", "paths.turbo-ios.json"])
    }

    @Test("what port need not change is kept: a file that passes validate --strict passes it once ported; to its own app, the file byte for byte")
    func keepsWhatAuthorsWrote() throws {
        let text = """
            {
              "$schema": "https://example.com/path-configuration.schema.json",
              "version": 3, "x_team": {"owner": "mobile", "ratio": 1.50},
              "lint": {"allow": ["query-string-anchor"]},
              "settings": {},
              "rules": [
                {"comment": "Forms", "patterns": ["/new$", "(?i)^/admin"], "properties": {"context": "modal", "pull_to_refresh_enabled": false}},
                {"patterns": ["/x$"], "properties": {"title": "X"}, "lint": {"allow": ["query-string-anchor"]}}
              ]
            }

            """
        let file = try CLI.temporaryFile(text)
        #expect(try CLI.run(["validate", "--strict", "--config", file, "--profile", "hotwire-ios"]).status == 0)
        // To its own app: the file itself, (?i)^/admin not refused, exit 0.
        let same = try CLI.run(["port", "--config", file, "--like", "hotwire-ios", "--profile", "hotwire-ios"])
        #expect(same.status == 0)
        #expect(same.stdout == text)
        #expect(!same.stderr.contains("refused"))
        // To turbo-ios, the patterns that look at the end are refused; to hotwire-ios and turbo-android
        // (its booleans read alike) every key but the patterns is as written.
        let dir = try Self.directory()
        let r = try CLI.run(["port", "--config", file, "--like", "hotwire-ios", "--profile", "hotwire-ios", "--profile", "turbo-android", "-o", dir + "/p.json"])
        #expect(r.status == 3)  // (?i)^/admin is outside what port can prove, for turbo-android
        #expect(r.stderr.contains(#"refused: turbo-android: rule 0 ("Forms") pattern 1 "(?i)^/admin": inline flags"#))
        #expect(r.stderr.contains("not ported for turbo-android: rule 0 (written all the same; exit 3)"))
        let ported = try String(contentsOfFile: dir + "/p.turbo-android.json", encoding: .utf8)
        for kept in [#""$schema": "https://example.com/path-configuration.schema.json""#, #""version": 3"#, #""ratio": 1.50"#,
                     #""comment": "Forms""#, #""pull_to_refresh_enabled": false"#, #""query-string-anchor""#, #""(?-i)/new$""#] {
            #expect(ported.contains(kept), "\(kept)")
        }
        // comment is never renamed (only the built-in rules written out for turbo-android have a description).
        #expect(!ported.contains(#""description": "Forms""#))
        #expect(ported.contains(#""description": "built-in: recede historical location (hotwire-ios)""#))
        let strict = try CLI.run(["validate", "--strict", "--config", dir + "/p.turbo-android.json", "--profile", "turbo-android"])
        #expect(strict.status == 0, "\(strict.stderr)")
    }

    @Test("without --strict, refusals exit 3 and are listed by rule and pattern: b\\?*c, whose rewrite ICU rejects, is refused, not written")
    func refusalsExit3() throws {
        let file = try CLI.temporaryFile(#"{"rules": [{"patterns": ["b\\?*c"], "properties": {"context": "modal"}}, {"patterns": ["^/x"], "properties": {}}]}"#)
        let r = try CLI.run(["port", "--config", file, "--like", "turbo-ios", "--profile", "hotwire-ios"])
        #expect(r.status == 3)
        #expect(r.stderr.contains(#"refused: hotwire-ios: rule 0 pattern 0 "b\\?*c": rewritten for hotwire-ios as "^[^?]*?(?:b(?!)*c)", the pattern would not load there"#))
        #expect(r.stderr.contains("not ported for hotwire-ios: rule 0 (written all the same; exit 3)\n"))
        #expect(!r.stdout.contains("(?!)*"))
        #expect(r.stdout.contains(#""^[^?]*?(?:^/x)""#))
        // The file written loads there.
        #expect(try CLI.run(["resolve", "--config", try CLI.temporaryFile(r.stdout), "--profile", "hotwire-ios", "/x"]).status == 0)
        // --strict: exit 1, nothing written.
        let strict = try CLI.run(["port", "--config", file, "--like", "turbo-ios", "--profile", "hotwire-ios", "--strict"])
        #expect(strict.status == 1 && strict.stdout == "")
        let help = try CLI.run(["port", "--help"])
        let helpText = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(helpText.contains("2 a usage error; 3 without --strict, some rule refused for some app (the files are written)"))
    }

    @Test("--check: typed values as the apps read them (POP is pop); a URL outside the covered ones is marked, a covered one that differs exits 1")
    func check() throws {
        let dir = try Self.directory()
        let urls = try CLI.temporaryFile("https://example.com/posts/42\nhttps://example.com/POSTS/42\nhttps://example.com/recede_historical_location\nhttps://example.com/RECEDE_historical_location\n")
        let r = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--profile", "hotwire-ios", "--check", urls, "-o", dir + "/ios.json"])
        #expect(r.status == 0)
        // hotwire-android's "POP" and hotwire-ios's "pop" are one value to the apps: not a difference.
        #expect(!r.stderr.contains("differs on https://example.com/recede_historical_location"))
        // hotwire-ios's own rule does not match in upper case, hotwire-android's does: not covered.
        #expect(r.stderr.contains(#"check: hotwire-ios differs on https://example.com/RECEDE_historical_location (not covered): presentation: hotwire-android "pop", hotwire-ios "default"; historical_location: hotwire-android true, hotwire-ios false"#))
        #expect(r.stderr.hasSuffix("check: hotwire-ios: 3 of 4 URLs answer as hotwire-android\n"))
        // Without the port's rewriting, a covered URL differs: exit 1.
        let r2 = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "turbo-ios", "--check", "-", "-o", dir + "/turbo.json"],
                             stdin: "https://example.com/messages/new?draft=1\n")
        #expect(r2.status == 1)
        #expect(r2.stderr.contains("check: turbo-ios differs on https://example.com/messages/new?draft=1: context: hotwire-ios \"default\", turbo-ios \"modal\""))
        // A path is the page on https://example.com, as diff and test read it: covered, so it exits 1 too.
        let r3 = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "turbo-ios", "--check", "-", "-o", dir + "/turbo.json"],
                             stdin: "/messages/new?draft=1\n")
        #expect(r3.status == 1)
        #expect(r3.stderr.contains("check: turbo-ios differs on /messages/new?draft=1: context: hotwire-ios \"default\", turbo-ios \"modal\""), "\(r3.stderr)")
        #expect(!r3.stderr.contains("not covered"), "\(r3.stderr)")
    }

    @Test("--format json: one document on standard output, the files' text in it when --output writes none; a --check file that cannot be read exits 1")
    func json() throws {
        let urls = try CLI.temporaryFile("https://example.com/POSTS/7\nhttps://example.com/recede_historical_location\n")
        let r = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--profile", "hotwire-ios",
                             "--profile", "turbo-android", "--format", "json", "--check", urls])
        // turbo-android reads every value of this file alike: nothing refused, every URL answers alike.
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["reference"] as? String == "hotwire-android")
        #expect(report["apps"] as? [String] == ["hotwire-ios", "turbo-android"])
        #expect((report["refusals"] as? [[String: Any]])?.isEmpty == true)
        let files = try #require(report["files"] as? [[String: Any]])
        // turbo-android has no historical-location rules of its own: they are written out for it, so its file differs.
        #expect(files.map { $0["apps"] as? [String] ?? [] } == [["hotwire-ios"], ["turbo-android"]])
        #expect((files.first?["text"] as? String)?.contains(#""(?i)/new$""#) == true)
        let checks = try #require(report["check"] as? [[String: Any]])
        #expect(checks.map { $0["differ"] as? Int } == [0, 0])

        // A refusal: a key outside the typed catalog that turbo-android would keep as a string; a covered URL then differs: exit 1.
        let flagged = try CLI.temporaryFile(#"{"rules": [{"patterns": [".*"], "properties": {"flag": true}}]}"#)
        let r3 = try CLI.run(["port", "--config", flagged, "--like", "hotwire-ios", "--profile", "turbo-android", "--format", "json", "--check", urls])
        #expect(r3.status == 1)
        let report3 = try #require(try JSONSerialization.jsonObject(with: Data(r3.stdout.utf8)) as? [String: Any])
        let refusals = try #require(report3["refusals"] as? [[String: Any]])
        #expect(refusals.first?["app"] as? String == "turbo-android" && refusals.first?["rule"] as? Int == 0)
        #expect((refusals.first?["reason"] as? String)?.hasPrefix("turbo-android keeps every value as a string") == true)
        let difference = try #require(((report3["check"] as? [[String: Any]])?.first?["differences"] as? [[String: Any]])?.first)
        #expect(difference["covered"] as? Bool == true)
        let key = try #require((difference["keys"] as? [[String: Any]])?.first)
        #expect(key["path"] as? [String] == ["flag"] && key["reference"] as? Bool == true && key["app"] as? String == "true")

        let missing = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--check", "/no/such/urls.txt"])
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "pathconfig: error: --check: cannot open /no/such/urls.txt: No such file or directory\n")
    }

    @Test("--check files with no URLs check none: standard input is read only for -")
    func emptyCheck() throws {
        let dir = try Self.directory()
        let empty = try CLI.temporaryFile("\n# no URLs yet\n")
        // What standard input holds would differ (as in check()); it must not be read.
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "turbo-ios", "--check", empty, "-o", dir + "/turbo.json"],
                            stdin: "https://example.com/messages/new?draft=1\n")
        #expect(r.status == 3)  // port refused a rule of the example for turbo-ios; the check itself found nothing
        #expect(r.stderr.hasSuffix("check: turbo-ios: 0 of 0 URLs answer as hotwire-ios\n"), "\(r.stderr)")
        // A file and standard input together: each URL once, the file's first.
        let one = try CLI.temporaryFile("https://example.com/messages/new?draft=1\n")
        let both = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "turbo-ios", "--check", one, "--check", "-", "-o", dir + "/turbo.json"],
                               stdin: "https://example.com/messages/new?draft=1\nhttps://example.com/messages/42\n")
        #expect(both.status == 1)
        #expect(both.stderr.hasSuffix("check: turbo-ios: 1 of 2 URLs answer as hotwire-ios\n"), "\(both.stderr)")
    }

    @Test("--like takes APP@VERSION and refuses an unknown release with the core's message, as --profile does")
    func likeVersion() throws {
        let bad = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios@9"])
        let profile = try CLI.run(["resolve", "--config", CLI.example, "--profile", "hotwire-ios@9", "/"])
        #expect(bad.status == 2 && profile.status == 2)
        // The core's message, after ArgumentParser's "The value ... is invalid for '--OPTION <profile>': ".
        let message = try #require(profile.stderr.split(separator: "\n").first { $0.hasPrefix("Error:") }?.split(separator: "': ", maxSplits: 1).last)
        #expect(message.hasPrefix("hotwire-ios has no release \"9\"; its releases are 1.0.0"))
        #expect(bad.stderr.contains("'--like <profile>': " + message), "\(bad.stderr)")
        let dir = try Self.directory()
        let released = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios@1.0.0", "--profile", "hotwire-ios", "-o", dir + "/ios.json"])
        #expect(released.status == 0 || released.status == 3, "\(released.stderr)")
    }

    @Test("siesta is no mobile app: a usage error")
    func siesta() throws {
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "siesta"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("port is for the mobile apps"))
    }
}
