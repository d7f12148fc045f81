import Foundation
import Testing

/// `pathconfig port`: the files it writes, what it reports, `--strict` and `--check`.
@Suite("pathconfig port")
struct PortCommandTests {
    static let android = CLI.root + "/examples/android-path-configuration.json"

    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "pathconfig-port-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("one file serves hotwire-android and hotwire-ios: written to standard output, letters in both cases; the report on standard error")
    func oneFile() throws {
        let r = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--profile", "hotwire-android", "--profile", "hotwire-ios"])
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""/[nN][eE][wW]$","#))
        #expect(r.stdout.contains(#""^/[pP][oO][sS][tT][sS]/[0-9]+$""#))
        #expect(r.stderr.contains("rewritten: letters are written in both cases (/new as /[nN][eE][wW]): hotwire-android matches case-insensitively\n"))
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
        #expect(r.stderr.contains(#"refused: turbo-android: rule 0 ("Every page: pushed, pull to refresh"): turbo-android keeps every value as a string, so "pull_to_refresh_enabled": true would read as "true" there"#))
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

    @Test("--check: URLs resolved under the reference and each app's file; a URL outside the covered ones is marked, a covered one that differs exits 1")
    func check() throws {
        let dir = try Self.directory()
        let urls = try CLI.temporaryFile("https://example.com/posts/42\nhttps://example.com/POSTS/42\nhttps://example.com/recede_historical_location\n")
        let r = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--profile", "hotwire-ios", "--check", urls, "-o", dir + "/ios.json"])
        #expect(r.status == 0)
        #expect(r.stderr.contains(#"check: hotwire-ios differs on https://example.com/recede_historical_location (not covered): context: hotwire-android "DEFAULT", hotwire-ios "default"; presentation: hotwire-android "POP", hotwire-ios "pop""#))
        #expect(r.stderr.hasSuffix("check: hotwire-ios: 2 of 3 URLs answer as hotwire-android\n"))
        // Without the port's rewriting, a covered URL differs: exit 1.
        let r2 = try CLI.run(["port", "--config", CLI.example, "--like", "hotwire-ios", "--profile", "turbo-ios", "--check", "-", "-o", dir + "/turbo.json"],
                             stdin: "https://example.com/messages/new?draft=1\n")
        #expect(r2.status == 1)
        #expect(r2.stderr.contains("check: turbo-ios differs on https://example.com/messages/new?draft=1: context: hotwire-ios \"default\", turbo-ios \"modal\""))
    }

    @Test("--format json: one document on standard output, the files' text in it when --output writes none; a --check file that cannot be read exits 1")
    func json() throws {
        let urls = try CLI.temporaryFile("https://example.com/POSTS/7\nhttps://example.com/recede_historical_location\n")
        let r = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--profile", "hotwire-ios",
                             "--profile", "turbo-android", "--format", "json", "--check", urls])
        // turbo-android, refused (it would keep true as "true"), differs on a covered URL: exit 1.
        #expect(r.status == 1)
        #expect(r.stderr == "")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(report["reference"] as? String == "hotwire-android")
        #expect(report["apps"] as? [String] == ["hotwire-ios", "turbo-android"])
        let refusals = try #require(report["refusals"] as? [[String: Any]])
        #expect(refusals.first?["app"] as? String == "turbo-android" && refusals.first?["rule"] as? Int == 0)
        #expect((refusals.first?["reason"] as? String)?.hasPrefix("turbo-android keeps every value as a string") == true)
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["apps"] as? [String] ?? [] } == [["hotwire-ios"], ["turbo-android"]])
        #expect((files.first?["text"] as? String)?.contains(#""/[nN][eE][wW]$""#) == true)
        let checks = try #require(report["check"] as? [[String: Any]])
        #expect(checks.map { $0["differ"] as? Int } == [1, 2])
        let difference = try #require((checks.first?["differences"] as? [[String: Any]])?.first)
        #expect(difference["url"] as? String == "https://example.com/recede_historical_location" && difference["covered"] as? Bool == false)

        let missing = try CLI.run(["port", "--config", Self.android, "--like", "hotwire-android", "--check", "/no/such/urls.txt"])
        #expect(missing.status == 1)
        #expect(missing.stdout == "")
        #expect(missing.stderr == "pathconfig: error: --check: cannot open /no/such/urls.txt: No such file or directory\n")
    }

    @Test("siesta is no mobile app: a usage error")
    func siesta() throws {
        let r = try CLI.run(["port", "--config", CLI.example, "--like", "siesta"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("port is for the mobile apps"))
    }
}
