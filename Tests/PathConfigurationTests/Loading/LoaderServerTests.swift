import Foundation
import HTTPTestSupport
import PathConfiguration
import Testing

/// The chain against a real nginx: first download, cached reuse, 304,
/// new versions, headers, redirects, polling.
@Suite("Loader: downloads from a real nginx")
struct LoaderServerTests {
    @Test("first download: the bundled file, then the server copy, which is cached with its validators")
    func firstDownload() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        #expect(loader.current == nil)
        let events = try loader.load()
        #expect(events.map(summary) == ["file:applied", "server:applied"])
        #expect(bed.log.all.map(summary) == events.map(summary))
        #expect(Fixture.versionOf(loader.current) == "v1")
        #expect(loader.currentEvent?.origin == .server)
        #expect(events[1].byteCount == Fixture.version("v1").utf8.count)
        #expect(events[1].url == bed.url)
        #expect(Fixture.versionOf(events[0].configuration) == "bundle")

        let cached = String(decoding: bytes(of: bed.cacheFile()) ?? [], as: UTF8.self)
        #expect(cached.hasPrefix("pathconfig-cache 1\nurl \(bed.url)\netag \"") == true)
        #expect(cached.contains("\nlast-modified "))
        #expect(cached.hasSuffix("\n\n" + Fixture.version("v1")))
        let requests = bed.nginx.accessLog(waitingFor: 1)
        #expect(requests.count == 1)
        #expect(requests.first?.hasPrefix("GET /config.json 200 inm=[] ims=[]") == true)
        // Only the cache file: the temporary file was renamed over it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory) == [(bed.cacheFile() as NSString).lastPathComponent])
    }

    @Test("server down: the cached copy is used, the download failure reported, the cache untouched")
    func cachedCopyWhenServerDown() throws {
        let bed = try LoaderTestBed()
        try bed.loader().load()
        let before = bytes(of: bed.cacheFile())
        bed.nginx.stop()

        let loader = try bed.loader()
        let events = try loader.load()
        #expect(events.map(summary) == ["file:applied", "cache:applied", "server:failed"])
        #expect(Fixture.versionOf(loader.current) == "v1")
        #expect(loader.currentEvent?.origin == .cache)
        #expect(events[1].location == bed.cacheFile())
        guard case .failed(.download(let error)) = events[2].outcome else { Issue.record("expected a download failure"); return }
        #expect(error.code == .transport)
        #expect(error.message.contains("127.0.0.1"))
        #expect(bytes(of: bed.cacheFile()) == before)
    }

    @Test("unchanged: the request carries If-None-Match and If-Modified-Since, the 304 keeps the copy")
    func notModified() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        try loader.load()
        let configuration = try #require(loader.current)
        let before = bytes(of: bed.cacheFile())
        let etag = String(decoding: before ?? [], as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("etag ") }?.dropFirst(5)

        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:notModified"])
        #expect(loader.current === configuration)
        #expect(bytes(of: bed.cacheFile()) == before)
        let request = try #require(bed.nginx.accessLog(waitingFor: 2).last)
        #expect(request.hasPrefix("GET /config.json 304 inm=[\(etag ?? "?")] ims=[") == true)
        #expect(!request.contains("ims=[]"))

        // A new loader (a new process) sends the validators stored in the cache file.
        let second = try bed.loader()
        #expect(try second.load().map(summary) == ["file:applied", "cache:applied", "server:notModified"])
        #expect(bed.nginx.accessLog(waitingFor: 3).last?.hasPrefix("GET /config.json 304 inm=[\(etag ?? "?")]") == true)
        #expect(Fixture.versionOf(second.current) == "v1")
        #expect(bytes(of: bed.cacheFile()) == before)
    }

    @Test("a new version on the server is picked up, applied and cached")
    func newVersion() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        try loader.load()
        let old = try #require(loader.current)
        try bed.nginx.put("config.json", Fixture.version("v2"))

        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:applied"])
        #expect(Fixture.versionOf(loader.current) == "v2")
        #expect(Fixture.versionOf(old) == "v1")
        #expect(old.properties(for: "/x").json == "{\"version\":\"v1\",\"rule2\":\"v1\"}")
        #expect(String(decoding: bytes(of: bed.cacheFile()) ?? [], as: UTF8.self).hasSuffix(Fixture.version("v2")))
        #expect(bed.nginx.accessLog(waitingFor: 2).last?.hasPrefix("GET /config.json 200 inm=[\"") == true)
    }

    @Test("custom request headers are sent; a server that requires one rejects the request without it")
    func headers() throws {
        let bed = try LoaderTestBed()
        let url = bed.nginx.url("needs-accept.json")
        let with = try bed.loader(sources: [.server(url, headers: [("Accept", "application/json"), ("X-Test", "yes")])]) { $0.userAgent = "pathconfig-tests/1" }
        #expect(try with.load().map(summary) == ["server:applied"])
        #expect(bed.nginx.accessLog(waitingFor: 1).last?.contains("200 inm=[] ims=[] accept=[application/json] x-test=[yes] ua=[pathconfig-tests/1]") == true)

        let without = try bed.loader(sources: [.server(url)]) { $0.cacheDirectory = nil }
        let events = try without.load()
        guard case .failed(.download(let error)) = events.first?.outcome else { Issue.record("expected a failure"); return }
        #expect(error.code == .httpStatus)
        #expect(error.httpStatus == 406)
        #expect(error.message == "the server answered HTTP 406; only 200 is accepted")
        #expect(without.current == nil)
    }

    @Test("redirects are followed")
    func redirect() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader(sources: [.server(bed.nginx.url("redirect.json"))])
        #expect(try loader.load().map(summary) == ["server:applied"])
        #expect(Fixture.versionOf(loader.current) == "v1")
    }

    @Test("each URL has its own cache file: versioned URLs never share a copy")
    func cacheKeyedByURL() throws {
        let bed = try LoaderTestBed()
        try bed.nginx.put("v2.json", Fixture.version("v2"))
        let a = bed.nginx.url("config.json?v=1"), b = bed.nginx.url("v2.json")
        let loader = try bed.loader(sources: [.server(a), .server(b)])
        #expect(try loader.load().map(summary) == ["server:applied", "server:applied"])
        #expect(Fixture.versionOf(loader.current) == "v2")
        #expect(bed.cacheFile(a) != bed.cacheFile(b))
        #expect(String(decoding: bytes(of: bed.cacheFile(a)) ?? [], as: UTF8.self).contains("url \(a)\n"))
        #expect(String(decoding: bytes(of: bed.cacheFile(b)) ?? [], as: UTF8.self).hasSuffix(Fixture.version("v2")))
    }

    @Test("a later source always wins: an earlier server's new version is cached but superseded")
    func laterSourceWins() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader(sources: [.server(bed.url), .data(Array(Fixture.bundle.utf8), name: "embedded")])
        #expect(try loader.load().map(summary) == ["server:applied", "data:applied"])
        try bed.nginx.put("config.json", Fixture.version("v2"))
        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:superseded"])
        #expect(Fixture.versionOf(loader.current) == "bundle")
        #expect(String(decoding: bytes(of: bed.cacheFile()) ?? [], as: UTF8.self).hasSuffix(Fixture.version("v2")))
    }

    @Test("without a cache directory, validators are kept in memory")
    func noCacheDirectory() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.cacheDirectory = nil }
        #expect(try loader.load().map(summary) == ["file:applied", "server:applied"])
        #expect(try loader.refresh().map(summary) == ["server:notModified"])
        #expect(bed.nginx.accessLog(waitingFor: 2).last?.hasPrefix("GET /config.json 304 inm=[\"") == true)
        #expect(!FileManager.default.fileExists(atPath: bed.cacheDirectory))
    }

    @Test("a server that sends the same bytes without validators reports not modified")
    func sameBytesAgain() throws {
        let server = try RawHTTPServer(script: [.respond(Fixture.version("v1"))])
        defer { server.stop() }
        let directory = try TemporaryDirectory.make("same")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let loader = try ConfigurationLoader(sources: [.server(server.url)], options: LoaderOptions(cacheDirectory: directory))
        #expect(try loader.load().map(summary) == ["server:applied"])
        let configuration = loader.current
        #expect(try loader.refresh().map(summary) == ["server:notModified"])
        #expect(loader.current === configuration)
    }

    @Test("polling picks up a new version in the background; stop() ends it")
    func polling() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.refreshInterval = .milliseconds(50) }
        try loader.load()
        try bed.nginx.put("config.json", Fixture.version("v2"))
        let deadline = Date().addingTimeInterval(10)
        while Fixture.versionOf(loader.current) != "v2" && Date() < deadline { usleep(10_000) }
        #expect(Fixture.versionOf(loader.current) == "v2")
        #expect(bed.log.all.contains { $0.origin == .server && $0.outcome == .applied && Fixture.versionOf($0.configuration) == "v2" })
        loader.stop()
        let requests = bed.requestCounts(over: 300_000)
        #expect(requests.later == requests.settled)
    }

    @Test("releasing a polling loader stops and joins its thread")
    func releaseStopsPolling() throws {
        let bed = try LoaderTestBed()
        do {
            let loader = try bed.loader { $0.refreshInterval = .milliseconds(20) }
            try loader.load()
            usleep(150_000)
        }
        let requests = bed.requestCounts(over: 200_000)
        #expect(requests.settled >= 2)
        #expect(requests.later == requests.settled)
    }

    @Test("load() and refresh() from the event handler throw reentrantCall instead of deadlocking")
    func reentrantCalls() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        let notes = Notes()
        loader.setEventHandler { [weak loader] event in
            guard event.origin == .server, let loader else { return }
            Self.note(notes, "load") { () throws(LoaderError) in try loader.load() }
            Self.note(notes, "refresh") { () throws(LoaderError) in try loader.refresh() }
        }
        #expect(try loader.load().map(summary) == ["file:applied", "server:applied"])
        #expect(notes.all == ["load: reentrantCall", "refresh: reentrantCall"])
        // From another thread, it works.
        #expect(try loader.refresh().map(summary) == ["server:notModified"])
    }

    @Test("a load() refused inside the handler starts no polling")
    func refusedLoadStartsNoPolling() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.refreshInterval = .milliseconds(50) }
        let notes = Notes()
        loader.setEventHandler { [weak loader] event in
            guard event.origin == .server, let loader else { return }
            Self.note(notes, "load") { () throws(LoaderError) in try loader.load() }
        }
        // refresh() before the first load() runs the chain without polling;
        // the load() its handler tries is refused, and must not start it.
        #expect(try loader.refresh().map(summary) == ["file:applied", "server:applied"])
        #expect(notes.all == ["load: reentrantCall"])
        let requests = bed.requestCounts(over: 400_000)  // eight intervals
        #expect(requests.later == requests.settled, "no request after the refused load(): nothing polls")
        #expect(notes.all.count == 1, "no event from a polling thread")
        // The load() the host asks for starts polling as usual.
        try loader.load()
        let deadline = Date().addingTimeInterval(10)
        while bed.nginx.accessLog().count < requests.settled + 3 && Date() < deadline { usleep(10_000) }
        #expect(bed.nginx.accessLog().count >= requests.settled + 3)
        loader.stop()
    }

    /// Runs a loader call from a handler and notes how it ended.
    private static func note(_ notes: Notes, _ name: String, _ call: () throws(LoaderError) -> [LoaderEvent]) {
        do throws(LoaderError) {
            notes.add("\(name): returned \(try call().count) events")
        } catch {
            notes.add("\(name): \(error == .reentrantCall ? "reentrantCall" : "\(error)")")
        }
    }

    @Test("HTTPS: a server whose certificate the CA file vouches for works; an unknown one is refused")
    func https() throws {
        let nginx = try Nginx(tls: true)
        try nginx.put("config.json", Fixture.version("v1"))
        let directory = try TemporaryDirectory.make("https")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = nginx.httpsURL("config.json")

        let trusted = try ConfigurationLoader(sources: [.server(url)], options: LoaderOptions(cacheDirectory: directory, caFile: nginx.certificate))
        #expect(try trusted.load().map(summary) == ["server:applied"])
        #expect(Fixture.versionOf(trusted.current) == "v1")
        #expect(try trusted.refresh().map(summary) == ["server:notModified"])

        let untrusted = try ConfigurationLoader(sources: [.server(url)])
        let events = try untrusted.load()
        guard case .failed(.download(let error)) = events.first?.outcome else { Issue.record("expected a download failure"); return }
        #expect(error.code == .transport)
        #expect(error.message.contains("certificate"), "\(error.message)")
        #expect(untrusted.current == nil)
    }

    @Test("load() again: earlier sources are superseded, the cache is not reread, the download is conditional")
    func loadTwice() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        try loader.load()
        let configuration = loader.current
        let events = try loader.load()
        #expect(events.map(summary) == ["file:superseded", "server:notModified"])
        #expect(loader.current === configuration)
        #expect(bed.nginx.accessLog(waitingFor: 2).last?.hasPrefix("GET /config.json 304 inm=[\"") == true)
    }

    @Test("refresh() before load() runs the whole chain")
    func refreshFirst() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        #expect(try loader.refresh().map(summary) == ["file:applied", "server:applied"])
        #expect(try loader.refresh().map(summary) == ["server:notModified"])
    }
}
