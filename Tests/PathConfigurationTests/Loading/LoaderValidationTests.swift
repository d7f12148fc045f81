import PathConfiguration
import Testing

@Suite("Loader: creation checks its sources and options")
struct LoaderValidationTests {
    @Test("bad sources and options are .invalidOption errors at creation", arguments: [
        ([ConfigurationSource](), LoaderOptions(), "a loader needs at least one source"),
        ([.server("ftp://example.com/c.json")], LoaderOptions(), "source 0: \"ftp://example.com/c.json\" is not an http:// or https:// URL"),
        ([.file("a.json"), .server("https:///c.json")], LoaderOptions(), "source 1: \"https:///c.json\" has no host"),
        ([.server("https://example.com/a b.json")], LoaderOptions(), "source 0: \"https://example.com/a b.json\" contains spaces or control characters; percent-encode them"),
        ([.server("https://example.com/c.json", headers: [("Bad Name", "x")])], LoaderOptions(), "source 0: \"Bad Name\" is not a valid header name"),
        ([.server("https://example.com/c.json", headers: [("X-A", "1\r\nX-B: 2")])], LoaderOptions(), "source 0: the value of header \"X-A\" contains a line break or a NUL"),
        ([.server("https://example.com/c.json", headers: [("X-A", "1\u{0}2")])], LoaderOptions(), "source 0: the value of header \"X-A\" contains a line break or a NUL"),
        ([.file("a.json")], LoaderOptions(maxBodyBytes: 0), "maxBodyBytes must be positive"),
        ([.file("a.json")], LoaderOptions(timeout: .zero), "the timeout must be positive"),
        ([.file("a.json")], LoaderOptions(refreshInterval: .seconds(-1)), "the refresh interval must be positive"),
    ] as [([ConfigurationSource], LoaderOptions, String)])
    func invalid(_ sources: [ConfigurationSource], _ options: LoaderOptions, _ message: String) {
        #expect(throws: ConfigurationError(code: .invalidOption, message: message)) {
            try ConfigurationLoader(sources: sources, options: options)
        }
    }

    @Test("HTTP and HTTPS URLs in any case are accepted; nothing is loaded at creation")
    func valid() throws {
        let loader = try ConfigurationLoader(sources: [.server("HTTPS://example.com/c.json?v=2", headers: [("Accept", "application/json")]),
                                                       .server("http://127.0.0.1:1/c.json")])
        #expect(loader.current == nil)
        #expect(loader.currentEvent == nil)
        #expect(loader.cacheFile(for: "https://example.com/c.json") == nil)
    }

    @Test("cache file names are stable across processes and distinct per URL")
    func cacheFileNames() throws {
        let loader = try ConfigurationLoader(sources: [.file("a.json")], options: LoaderOptions(cacheDirectory: "/var/cache/app"))
        // FNV-1a 64 of the URL: fixed forever, so upgrades find old copies.
        #expect(loader.cacheFile(for: "https://example.com/path-configuration.json") == "/var/cache/app/pathconfig-841b803f0e75e1bc.cache")
        #expect(loader.cacheFile(for: "https://example.com/a.json?v=1") != loader.cacheFile(for: "https://example.com/a.json?v=2"))
    }

    @Test("events describe themselves for logs")
    func eventDescription() {
        let failed = LoaderEvent(outcome: .failed(.download(DownloadError(code: .httpStatus, message: "the server answered HTTP 500; only 200 is accepted", url: "https://x/c.json", httpStatus: 500))),
                                 origin: .server, sourceIndex: 1, location: "https://x/c.json", url: "https://x/c.json")
        #expect(failed.description == "server https://x/c.json: failed: the server answered HTTP 500; only 200 is accepted")
        #expect(failed.isFailure)
        let applied = LoaderEvent(outcome: .applied, origin: .file, sourceIndex: 0, location: "bundle.json", byteCount: 12)
        #expect(applied.description == "file bundle.json: applied (12 bytes)")
        #expect(applied.error == nil)
    }
}
