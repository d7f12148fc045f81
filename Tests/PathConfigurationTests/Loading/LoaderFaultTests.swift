import Foundation
import HTTPTestSupport
import PathConfiguration
import Testing

/// Faults of the disk, the server and the network, each made for real where
/// this machine allows (FaultyDirectory says how): the last good
/// configuration stays current, or a new good one applies, the cache file
/// keeps the last good copy, and an event says what happened.
///
/// Corrupt cache files (garbage, cut short, emptied, a byte changed, another
/// URL's entry) are in LoaderFailureTests.
@Suite("Loader: faults of the disk, the server and the network")
struct LoaderFaultTests {
    // MARK: The cache directory

    @Test("a read-only cache directory: the download applies, its write is a warning, the old copy stays and is replaced once writable")
    func readOnlyCacheDirectory() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        #expect(try loader.load().map(summary) == ["file:applied", "server:applied"])
        let before = try #require(bytes(of: bed.cacheFile()))
        let readOnly = try FaultyDirectory.readOnly(bed.cacheDirectory)
        defer { readOnly.restore() }
        #expect(readOnly.method != .seam || !FaultyDirectory.canMount, "root could mount, but the seam was used")
        try bed.nginx.put("config.json", Fixture.version("v2"))
        bed.log.clear()

        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:applied", "cache:warning"])
        #expect(bed.log.all.map(summary) == events.map(summary), "the handler sees the events in the order returned")
        #expect(Fixture.versionOf(loader.current) == "v2")
        let error = try #require(Self.cacheError(events.last))
        #expect(error.code == .unwritable)
        #expect(error.path == bed.cacheFile())
        #expect(error.message.hasPrefix("cache file \(bed.cacheFile()) not updated: cannot create \(bed.cacheDirectory)/."))
        #expect(error.message.hasSuffix(readOnly.method == .chmod ? ": Permission denied" : ": Read-only file system"), "\(error.message)")
        #expect(bytes(of: bed.cacheFile()) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory) == [Self.name(bed.cacheFile())])

        // Offline, a new loader finds the last copy the cache could keep.
        bed.nginx.stop()
        let offline = try bed.loader()
        #expect(try offline.load().map(summary) == ["file:applied", "cache:applied", "server:failed"])
        #expect(Fixture.versionOf(offline.current) == "v1")

        // Writable again: the next response, a 304, writes the copy it could not.
        readOnly.restore()
        try bed.nginx.start()
        #expect(try loader.refresh().map(summary) == ["server:notModified"])
        #expect(String(decoding: bytes(of: bed.cacheFile()) ?? [], as: UTF8.self).hasSuffix(Fixture.version("v2")))
    }

    @Test("a full disk: the download applies, its write is a warning, no temporary file is left, the write is retried once there is room")
    func fullDisk() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        let full = try FaultyDirectory.full(bed.cacheDirectory, sizeKiB: 16) { () throws in
            let events = try loader.load()
            #expect(events.map(summary) == ["file:applied", "server:applied"])
        }
        defer { full.restore() }
        #expect(full.method == (FaultyDirectory.canMount ? .mount : .seam))
        let before = try #require(bytes(of: bed.cacheFile()))
        let listing = try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory).sorted()
        try bed.nginx.put("config.json", Fixture.version("v2"))
        bed.log.clear()

        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:applied", "cache:warning"])
        #expect(bed.log.all.map(summary) == events.map(summary))
        #expect(Fixture.versionOf(loader.current) == "v2")
        let error = try #require(Self.cacheError(events.last))
        #expect(error.code == .unwritable)
        #expect(error.message.hasPrefix("cache file \(bed.cacheFile()) not updated: cannot write \(bed.cacheDirectory)/."))
        #expect(error.message.hasSuffix(": No space left on device"), "\(error.message)")
        #expect(bytes(of: bed.cacheFile()) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory).sorted() == listing, "the temporary file is removed")

        full.makeRoom()
        #expect(try loader.refresh().map(summary) == ["server:notModified"])
        #expect(String(decoding: bytes(of: bed.cacheFile()) ?? [], as: UTF8.self).hasSuffix(Fixture.version("v2")))
    }

    @Test("a directory where the cache file should be: reading and writing it are warnings, the directory is left alone")
    func cacheFileIsDirectory() throws {
        let bed = try LoaderTestBed()
        try bed.loader().load()
        let file = bed.cacheFile()
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createDirectory(atPath: file, withIntermediateDirectories: false)

        bed.nginx.stop()
        let offline = try bed.loader()
        let events = try offline.load()
        #expect(events.map(summary) == ["file:applied", "cache:warning", "server:failed"])
        let read = try #require(Self.cacheError(events[1]))
        #expect(read.code == .unreadable)
        #expect(read.message == "cache file \(file) ignored: cannot read \(file): Is a directory")
        #expect(Fixture.versionOf(offline.current) == "bundle")

        try bed.nginx.start()
        let online = try bed.loader()
        let next = try online.load()
        #expect(next.map(summary) == ["file:applied", "cache:warning", "server:applied", "cache:warning"])
        let write = try #require(Self.cacheError(next[3]))
        #expect(write.code == .unwritable)
        #expect(write.message.hasPrefix("cache file \(file) not updated: cannot rename \(bed.cacheDirectory)/."))
        #expect(write.message.hasSuffix(" to \(file): Is a directory"), "\(write.message)")
        #expect(Fixture.versionOf(online.current) == "v1")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bed.cacheDirectory) == [Self.name(file)])
    }

    // MARK: The server

    @Test("a connection reset mid-body is a transport failure; the good copy stays")
    func resetMidBody() throws {
        let body = Array(Fixture.version("v2").utf8)
        let reset = RawHTTPServer.Behaviour.response(headers: ["Content-Type: application/json", "Content-Length: \(body.count)"],
                                                     body: Array(body.prefix(body.count / 2)))
        let (bed, server, loader, good) = try Self.goodThen([.reset(reset)])
        defer { server.stop() }
        let before = bytes(of: bed.cacheFile(server.url))

        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:failed"])
        let error = try #require(Self.downloadError(events.first))
        #expect(error.code == .transport)
        #expect(error.message == "Recv failure: Connection reset by peer")
        #expect(error.httpStatus == 200)
        #expect(loader.current === good)
        #expect(bytes(of: bed.cacheFile(server.url)) == before)
    }

    @Test("a body longer than its Content-Length: the bytes past it are not part of the response")
    func bodyLongerThanContentLength() throws {
        let v2 = Array(Fixture.version("v2").utf8), v3 = Array(Fixture.version("v3").utf8)
        let headers = ["Content-Type: application/json"]
        let (bed, server, loader, good) = try Self.goodThen([
            // The announced length cuts the JSON: it does not load.
            .raw(RawHTTPServer.Behaviour.response(headers: headers + ["Content-Length: \(v2.count / 2)"], body: v2)),
            // A whole document, then bytes no response announced: they are dropped.
            .raw(RawHTTPServer.Behaviour.response(headers: headers + ["Content-Length: \(v3.count)"], body: v3 + Array("\n]]] junk".utf8))),
        ])
        defer { server.stop() }
        let before = bytes(of: bed.cacheFile(server.url))

        let cut = try loader.refresh()
        #expect(cut.map(summary) == ["server:failed"])
        guard case .failed(.configuration(let error)) = cut.first?.outcome else { Issue.record("expected a configuration error"); return }
        #expect(error.code == .invalidJSON)
        #expect(cut.first?.byteCount == v2.count / 2)
        #expect(loader.current === good)
        #expect(bytes(of: bed.cacheFile(server.url)) == before)

        let extra = try loader.refresh()
        #expect(extra.map(summary) == ["server:applied"])
        #expect(extra.first?.byteCount == v3.count)
        #expect(Fixture.versionOf(loader.current) == "v3")
        #expect(String(decoding: bytes(of: bed.cacheFile(server.url)) ?? [], as: UTF8.self).hasSuffix("\n\n" + Fixture.version("v3")))
    }

    @Test("a gzip body is decoded (Accept-Encoding is sent); the body limit counts decoded bytes")
    func gzipBody() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader(sources: [.server(bed.nginx.url("gzip/config.json"))])
        #expect(try loader.load().map(summary) == ["server:applied"])
        #expect(Fixture.versionOf(loader.current) == "v1")
        let request = try #require(bed.nginx.accessLog(waitingFor: 1).last)
        #expect(request.hasPrefix("GET /gzip/config.json 200 "))
        #expect(request.contains(" ae=[deflate, gzip"), "\(request)")
        #expect(request.contains(" ce=[gzip] "), "\(request)")
        #expect(String(decoding: bytes(of: bed.cacheFile(bed.nginx.url("gzip/config.json"))) ?? [], as: UTF8.self).hasSuffix("\n\n" + Fixture.version("v1")),
                "the decoded body is what is cached")

        // A small gzip body that decodes past the limit is refused.
        let padding = String(repeating: "x", count: 200_000)
        try bed.nginx.put("big.json", "{\"settings\": {\"pad\": \"\(padding)\"}, \"rules\": []}")
        let limited = try bed.loader(sources: [.file(bed.bundle), .server(bed.nginx.url("gzip/big.json"))]) { $0.maxBodyBytes = 16_384 }
        let events = try limited.load()
        #expect(events.map(summary) == ["file:applied", "server:failed"])
        let error = try #require(Self.downloadError(events.last))
        #expect(error.code == .tooLarge)
        #expect(error.message == "the body is larger than the limit of 16384 bytes")
        #expect(Fixture.versionOf(limited.current) == "bundle")
        let big = try #require(bed.nginx.accessLog(waitingFor: 2).last)
        let sent = big.split(separator: " ").last.flatMap { Int($0.dropFirst(6).dropLast()) } ?? .max
        #expect(big.contains(" ce=[gzip] ") && sent < 16_384, "compressed, it is under the limit: \(big)")
    }

    @Test("a body libcurl cannot decode (corrupt gzip, an unknown encoding) is a transport failure; the good copy stays")
    func undecodableBody() throws {
        let json = Array(Fixture.version("v2").utf8)
        let corrupt: [UInt8] = [0x1F, 0x8B, 0x08, 0x00] + Array("not deflate data at all".utf8)
        let (bed, server, loader, good) = try Self.goodThen([
            .raw(RawHTTPServer.Behaviour.response(headers: ["Content-Encoding: gzip", "Content-Length: \(corrupt.count)"], body: corrupt)),
            .raw(RawHTTPServer.Behaviour.response(headers: ["Content-Encoding: compress", "Content-Length: \(json.count)"], body: json)),
        ])
        defer { server.stop() }
        let before = bytes(of: bed.cacheFile(server.url))

        for expected in ["Error while processing content unencoding: ", "Unrecognized content encoding type. libcurl understands "] {
            let events = try loader.refresh()
            #expect(events.map(summary) == ["server:failed"])
            let error = try #require(Self.downloadError(events.first))
            #expect(error.code == .transport)
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            #expect(loader.current === good)
            #expect(bytes(of: bed.cacheFile(server.url)) == before)
        }
    }

    // MARK: Redirects

    @Test("a redirect to another host fails unless follow_redirects_to_other_hosts allows it; credentials are not sent there")
    func redirectToAnotherHost() throws {
        let bed = try LoaderTestBed()
        let source = ConfigurationSource.server(bed.nginx.url("elsewhere.json"), headers: [("Authorization", "Bearer s3cret"), ("X-Test", "yes")])
        let target = "http://localhost:\(bed.nginx.port)/config.json"

        let refused = try bed.loader(sources: [.file(bed.bundle), source])
        let events = try refused.load()
        #expect(events.map(summary) == ["file:applied", "server:failed"])
        let error = try #require(Self.downloadError(events.last))
        #expect(error.code == .httpStatus)
        #expect(error.httpStatus == 302)
        #expect(error.url == bed.nginx.url("elsewhere.json"))
        #expect(error.message == "the server answered HTTP 302, a redirect to \(target), not followed: it leads to another host (localhost); the follow_redirects_to_other_hosts option allows that")
        #expect(Fixture.versionOf(refused.current) == "bundle")
        #expect(bed.nginx.accessLog(waitingFor: 1).count == 1, "nothing was requested from the other host")

        let allowed = try bed.loader(sources: [.file(bed.bundle), source]) { $0.followRedirectsToOtherHosts = true }
        #expect(try allowed.load().map(summary) == ["file:applied", "server:applied"])
        #expect(Fixture.versionOf(allowed.current) == "v1")
        let log = bed.nginx.accessLog(waitingFor: 3)
        #expect(log[1].hasPrefix("GET /elsewhere.json 302 ") && log[1].contains(" auth=[Bearer s3cret] "), "\(log[1])")
        #expect(log[2].hasPrefix("GET /config.json 200 "), "\(log[2])")
        #expect(log[2].contains(" x-test=[yes] ") && log[2].contains(" host=[localhost:\(bed.nginx.port)] ") && log[2].contains(" auth=[] "), "\(log[2])")
    }

    @Test("redirects on the same host are followed at most 5 times; from https to http never")
    func redirectLimits() throws {
        let bed = try LoaderTestBed()
        let loop = try bed.loader(sources: [.file(bed.bundle), .server(bed.nginx.url("loop.json"))])
        let events = try loop.load()
        #expect(events.map(summary) == ["file:applied", "server:failed"])
        let error = try #require(Self.downloadError(events.last))
        #expect(error.code == .httpStatus && error.httpStatus == 302)
        #expect(error.message.hasSuffix("not followed: more than 5 redirects"), "\(error.message)")
        #expect(bed.nginx.accessLog(waitingFor: 6).count == 6)

        let tls = try Nginx(tls: true)
        try tls.put("config.json", Fixture.version("v1"))
        let downgrade = try bed.loader(sources: [.file(bed.bundle), .server(tls.httpsURL("downgrade.json"))]) {
            $0.caFile = tls.certificate
            $0.followRedirectsToOtherHosts = true
        }
        let refused = try downgrade.load()
        #expect(refused.map(summary) == ["file:applied", "server:failed"])
        let why = try #require(Self.downloadError(refused.last))
        #expect(why.message == "the server answered HTTP 302, a redirect to \(tls.url("config.json")), not followed: it goes from https to http")
        #expect(Fixture.versionOf(downgrade.current) == "bundle")
    }

    // MARK: HTTPS

    @Test("an HTTPS certificate that does not verify is refused with libcurl's reason; the cached copy stays current")
    func certificateNotVerified() throws {
        let nginx = try Nginx(tls: true)
        try nginx.put("config.json", Fixture.version("v1"))
        let bed = try LoaderTestBed(serving: nil)
        let url = nginx.httpsURL("config.json")
        let trusted = try bed.loader(sources: [.file(bed.bundle), .server(url)]) { $0.caFile = nginx.certificate }
        #expect(try trusted.load().map(summary) == ["file:applied", "server:applied"])

        // Self-signed, and no CA file that vouches for it: the system's CAs do not.
        let untrusted = try bed.loader(sources: [.file(bed.bundle), .server(url)])
        let events = try untrusted.load()
        #expect(events.map(summary) == ["file:applied", "cache:applied", "server:failed"])
        let error = try #require(Self.downloadError(events.last))
        #expect(error.code == .transport)
        #expect(error.message == "SSL certificate problem: self-signed certificate", "\(error.message)")
        #expect(Fixture.versionOf(untrusted.current) == "v1", "the copy cached over a verified connection")

        // The right CA, the wrong name: the certificate is for 127.0.0.1.
        let otherName = "https://localhost:\(nginx.tlsPort ?? 0)/config.json"
        let mismatch = try bed.loader(sources: [.file(bed.bundle), .server(otherName)]) { $0.caFile = nginx.certificate }
        let named = try mismatch.load()
        #expect(named.map(summary) == ["file:applied", "server:failed"])
        let nameError = try #require(Self.downloadError(named.last))
        #expect(nameError.code == .transport)
        #expect(nameError.message == "SSL: no alternative certificate subject name matches target host name 'localhost'", "\(nameError.message)")
        #expect(Fixture.versionOf(mismatch.current) == "bundle")
    }

    // MARK: Helpers

    /// A raw server that answers a good v1 first, then `script`; a loader
    /// over it, loaded; and the configuration that load made current.
    private static func goodThen(_ script: [RawHTTPServer.Behaviour]) throws
        -> (LoaderTestBed, RawHTTPServer, ConfigurationLoader, PathConfiguration) {
        let server = try RawHTTPServer(script: [.respond(Fixture.version("v1"))] + script)
        let bed = try LoaderTestBed(serving: nil)
        let loader = try bed.loader(sources: [.server(server.url)])
        #expect(try loader.load().map(summary) == ["server:applied"])
        return (bed, server, loader, try #require(loader.current))
    }

    private static func downloadError(_ event: LoaderEvent?) -> DownloadError? {
        if case .download(let e) = event?.error { return e }
        return nil
    }

    private static func cacheError(_ event: LoaderEvent?) -> CacheError? {
        if case .cache(let e) = event?.error { return e }
        return nil
    }

    private static func name(_ path: String) -> String { (path as NSString).lastPathComponent }
}
