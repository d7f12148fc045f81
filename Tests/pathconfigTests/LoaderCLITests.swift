import Foundation
import HTTPTestSupport
import Testing

extension CLI {
    /// Runs the binary with extra environment variables.
    static func run(_ arguments: [String], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

/// `resolve` with a chain of sources, and `fetch`, against a real nginx.
@Suite("pathconfig with server sources")
struct LoaderCLITests {
    static func version(_ name: String) -> String {
        "{\"settings\": {\"version\": \"\(name)\"}, \"rules\": [{\"patterns\": [\".*\"], \"properties\": {\"version\": \"\(name)\"}}]}"
    }

    /// nginx serving version v1 as /config.json, a bundled file and a cache directory.
    final class World {
        let nginx: Nginx
        let directory: String
        let bundle: String
        var cache: String { directory + "/cache" }
        var url: String { nginx.url("config.json") }

        init() throws {
            nginx = try Nginx()
            try nginx.put("config.json", LoaderCLITests.version("v1"))
            directory = try TemporaryDirectory.make("cli-loader")
            bundle = directory + "/bundle.json"
            try LoaderCLITests.version("bundle").write(toFile: bundle, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// The one cache file (nil when there is none).
        var cacheFile: String? {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: cache) else { return nil }
            return names.filter { $0.hasSuffix(".cache") }.first.map { cache + "/" + $0 }
        }

        func cacheBytes() -> Data? { cacheFile.flatMap { FileManager.default.contents(atPath: $0) } }
    }

    @Test("resolve runs file, cache, download and resolves against the newest good configuration")
    func resolveChain() throws {
        let w = try World()
        let r = try CLI.run(["resolve", "--config", w.url, "--config", w.bundle, "--cache-dir", w.cache, "/a"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == "{\"version\":\"v1\"}\n")
        #expect(w.cacheFile != nil)
    }

    @Test("server down: the cached copy is used and the failure is a warning")
    func resolveFromCache() throws {
        let w = try World()
        #expect(try CLI.run(["resolve", "--config", w.bundle, "--config", w.url, "--cache-dir", w.cache, "/a"]).status == 0)
        w.nginx.stop()
        let r = try CLI.run(["resolve", "--config", w.bundle, "--config", w.url, "--cache-dir", w.cache, "/a"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"version\":\"v1\"}\n")
        #expect(r.stderr.hasPrefix("\(w.url): warning: Failed to connect to 127.0.0.1 port \(w.nginx.port)"))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test("a download that does not load is a warning with its position; the bundled file answers")
    func resolveBadDownload() throws {
        let w = try World()
        try w.nginx.put("config.json", "{\"rules\": [\n  {\"patterns\": [\"/a(\"], \"properties\": {}}\n]}")
        let r = try CLI.run(["resolve", "--config", w.bundle, "--config", w.url, "--cache-dir", w.cache, "/a"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"version\":\"bundle\"}\n")
        #expect(r.stderr == "\(w.url):2:17: warning: rule 0, pattern 0: invalid regular expression \"/a(\" at offset 3: missing closing parenthesis\n")
        #expect(w.cacheFile == nil)
    }

    @Test("no source loads: every failure is an error and the exit code is 1")
    func resolveNothing() throws {
        let w = try World()
        w.nginx.stop()
        let missing = w.directory + "/missing.json"
        let r = try CLI.run(["resolve", "--config", missing, "--config", w.url, "/a"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "\(missing): error: cannot open \(missing): No such file or directory")
        #expect(lines.last?.hasPrefix("\(w.url): error: Failed to connect") == true)
    }

    @Test("--header is sent with downloads")
    func header() throws {
        let w = try World()
        let url = w.nginx.url("needs-accept.json")
        let without = try CLI.run(["resolve", "--config", url, "/a"])
        #expect(without.status == 1)
        #expect(without.stderr == "\(url): error: the server answered HTTP 406; only 200 is accepted\n")
        let with = try CLI.run(["resolve", "--config", url, "--header", "Accept: application/json", "--header", "X-Test:yes", "/a"])
        #expect(with.status == 0)
        #expect(with.stdout == "{\"version\":\"v1\"}\n")
        #expect(w.nginx.accessLog(waitingFor: 2).last?.contains("accept=[application/json] x-test=[yes] ua=[libpathconfig/") == true)
    }

    @Test("--timeout bounds a server that never answers")
    func timeout() throws {
        let server = try RawHTTPServer(script: [.silent])
        defer { server.stop() }
        let start = Date()
        let r = try CLI.run(["resolve", "--config", server.url, "--timeout", "0.3", "/a"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(server.url): error: no complete response within 0.3 seconds ("))
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("fetch downloads, then reports not modified, then a new version; a failure leaves the cache alone")
    func fetch() throws {
        let w = try World()
        let first = try CLI.run(["fetch", "--config", w.url, "--cache-dir", w.cache])
        #expect(first.status == 0)
        #expect(first.stderr == "")
        let file = try #require(w.cacheFile)
        #expect(first.stdout == "\(w.url): downloaded \(Self.version("v1").utf8.count) bytes to \(file)\n")

        let second = try CLI.run(["fetch", "--config", w.url, "--cache-dir", w.cache])
        #expect(second.status == 0)
        #expect(second.stdout == "\(w.url): not modified (\(file))\n")
        #expect(w.nginx.accessLog(waitingFor: 2).last?.hasPrefix("GET /config.json 304 inm=[\"") == true)

        try w.nginx.put("config.json", Self.version("v2"))
        let third = try CLI.run(["fetch", "--config", w.url, "--cache-dir", w.cache])
        #expect(third.stdout == "\(w.url): downloaded \(Self.version("v2").utf8.count) bytes to \(file)\n")
        let good = w.cacheBytes()

        try w.nginx.fail(with: 500)
        let failed = try CLI.run(["fetch", "--config", w.url, "--cache-dir", w.cache])
        #expect(failed.status == 1)
        #expect(failed.stdout == "")
        #expect(failed.stderr == "\(w.url): error: the server answered HTTP 500; only 200 is accepted\n")
        #expect(w.cacheBytes() == good)
    }

    @Test("fetch without libcurl says what to install")
    func fetchWithoutLibcurl() throws {
        let w = try World()
        let r = try CLI.run(["fetch", "--config", w.url, "--cache-dir", w.cache], environment: ["PATHCONFIG_LIBCURL": "/nonexistent/libcurl.so.4"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("\(w.url): error: libcurl is not available (/nonexistent/libcurl.so.4: cannot open shared object file"))
        #expect(r.stderr.hasSuffix("install it (Debian: apt-get install libcurl4)\n"))
    }

    @Test("usage errors exit 2", arguments: [
        ["fetch", "--config", "http://127.0.0.1:1/c.json"],
        ["fetch", "--config", "local.json", "--cache-dir", "/tmp"],
        ["resolve", "--config", "x.json", "--header", "no colon"],
        ["resolve", "--config", "x.json", "--timeout", "0"],
        ["resolve", "--config", "https://exa mple.com/c.json", "/a"],
    ])
    func usage(_ arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("Error:") || r.stderr.contains("error:"))
    }

    @Test("help lists fetch and the download options")
    func help() throws {
        #expect(try CLI.run(["--help"]).stdout.contains("fetch"))
        let resolve = try CLI.run(["resolve", "--help"]).stdout
        for option in ["--config <file-or-url>", "--cache-dir <dir>", "--timeout <seconds>", "--header <header>"] { #expect(resolve.contains(option)) }
    }

    @Test("validate checks each --config on its own, files and URLs")
    func validateEach() throws {
        let w = try World()
        let r = try CLI.run(["validate", "--config", w.bundle, "--config", w.url])
        #expect(r.status == 0)
        #expect(r.stdout == "\(w.bundle): ok: 1 rule (+3 built-in), 0 warnings, profile hotwire-ios\n\(w.url): ok: 1 rule (+3 built-in), 0 warnings, profile hotwire-ios\n")
        try w.nginx.fail(with: 500)
        let failed = try CLI.run(["validate", "--config", w.bundle, "--config", w.url])
        #expect(failed.status == 1)
        #expect(failed.stdout == "\(w.bundle): ok: 1 rule (+3 built-in), 0 warnings, profile hotwire-ios\n")
        #expect(failed.stderr == "\(w.url): error: the server answered HTTP 500; only 200 is accepted\n")
    }
}
