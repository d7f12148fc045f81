import Foundation
import HTTPTestSupport
import PathConfiguration
import Testing

/// Bad news never replaces good news: after every failure the last good
/// configuration stays current and the cache file is byte-identical.
@Suite("Loader: failures keep the last good configuration and cache")
struct LoaderFailureTests {
    /// What goes wrong on nginx after a good first download.
    enum NginxFailure: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case status500 = "HTTP 500"
        case invalidJSON = "invalid JSON"
        case schemaError = "schema error"
        case regexError = "regex error"
        case tooLarge = "body over the limit"
        case serverDown = "server down"

        var testDescription: String { rawValue }
    }

    @Test("a failed download leaves the current configuration and the cache file alone", arguments: NginxFailure.allCases)
    func nginxFailure(_ failure: NginxFailure) throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.maxBodyBytes = 4096 }
        #expect(try loader.load().map(summary) == ["file:applied", "server:applied"])
        let good = try #require(loader.current)
        let before = try #require(bytes(of: bed.cacheFile()))

        switch failure {
        case .status500: try bed.nginx.fail(with: 500)
        case .invalidJSON: try bed.nginx.put("config.json", "{\"rules\": [")
        case .schemaError: try bed.nginx.put("config.json", "{\"rules\": [{\"patterns\": [\"/a\"]}]}")
        case .regexError: try bed.nginx.put("config.json", "{\"rules\": [{\"patterns\": [\"/a(\"], \"properties\": {}}]}")
        case .tooLarge:
            let padding = String(repeating: "x", count: 5000)
            try bed.nginx.put("config.json", "{\"settings\": {\"pad\": \"\(padding)\"}, \"rules\": []}")
        case .serverDown: bed.nginx.stop()
        }
        bed.log.clear()
        let events = try loader.refresh()

        #expect(events.map(summary) == ["server:failed"])
        #expect(bed.log.all.map(summary) == ["server:failed"])
        #expect(loader.current === good)
        #expect(Fixture.versionOf(loader.current) == "v1")
        #expect(bytes(of: bed.cacheFile()) == before)
        let error = try #require(events.first?.error)
        switch (failure, error) {
        case (.status500, .download(let e)): #expect(e.code == .httpStatus && e.httpStatus == 500)
        case (.invalidJSON, .configuration(let e)): #expect(e.code == .invalidJSON && e.location?.line == 1)
        case (.schemaError, .configuration(let e)): #expect(e.code == .schema)
        case (.regexError, .configuration(let e)): #expect(e.code == .invalidPattern && e.ruleIndex == 0)
        case (.tooLarge, .download(let e)): #expect(e.code == .tooLarge && e.message == "the body is larger than the limit of 4096 bytes")
        case (.serverDown, .download(let e)): #expect(e.code == .transport)
        default: Issue.record("\(failure): unexpected error \(error)")
        }

        // A new loader still finds the good copy in the cache.
        let next = try bed.loader { $0.maxBodyBytes = 4096 }
        let nextEvents = try next.load()
        #expect(nextEvents.map(summary) == ["file:applied", "cache:applied", "server:failed"])
        #expect(Fixture.versionOf(next.current) == "v1")
        #expect(bytes(of: bed.cacheFile()) == before)
    }

    @Test("a body cut short of its Content-Length fails as truncated")
    func truncatedBody() throws {
        let body = Fixture.version("v2")
        let server = try RawHTTPServer(script: [.respond(Fixture.version("v1")), .truncate(body, sent: body.utf8.count / 2)])
        defer { server.stop() }
        let bed = try LoaderTestBed(serving: nil)
        let loader = try bed.loader(sources: [.server(server.url)])
        #expect(try loader.load().map(summary) == ["server:applied"])
        let good = loader.current
        let before = try #require(bytes(of: bed.cacheFile(server.url)))

        let events = try loader.refresh()
        #expect(events.map(summary) == ["server:failed"])
        guard case .failed(.download(let error)) = events.first?.outcome else { Issue.record("expected a download failure"); return }
        #expect(error.code == .truncated)
        #expect(error.message.hasPrefix("the body was cut short ("))
        #expect(loader.current === good)
        #expect(bytes(of: bed.cacheFile(server.url)) == before)
        #expect(server.requestCount == 2)
    }

    @Test("a server that never answers times out; the good copy stays")
    func timeout() throws {
        let server = try RawHTTPServer(script: [.respond(Fixture.version("v1")), .silent])
        defer { server.stop() }
        let bed = try LoaderTestBed(serving: nil)
        let loader = try bed.loader(sources: [.server(server.url)]) { $0.timeout = .milliseconds(500) }
        #expect(try loader.load().map(summary) == ["server:applied"])
        let good = loader.current
        let before = try #require(bytes(of: bed.cacheFile(server.url)))

        let start = Date()
        let events = try loader.refresh()
        let elapsed = Date().timeIntervalSince(start)
        guard case .failed(.download(let error)) = events.first?.outcome else { Issue.record("expected a download failure"); return }
        #expect(error.code == .timeout)
        #expect(elapsed >= 0.45 && elapsed < 5, "took \(elapsed) s")
        #expect(loader.current === good)
        #expect(bytes(of: bed.cacheFile(server.url)) == before)
    }

    @Test("closing a polling loader abandons the download in progress instead of waiting for the server")
    func closeAbandonsDownload() throws {
        let server = try RawHTTPServer(script: [.respond(Fixture.version("v1")), .silent])
        defer { server.stop() }
        let bed = try LoaderTestBed(serving: nil)
        let loader = try bed.loader(sources: [.server(server.url)]) {
            $0.timeout = .seconds(60)
            $0.refreshInterval = .milliseconds(20)
        }
        #expect(try loader.load().map(summary) == ["server:applied"])
        let good = loader.current
        let deadline = Date().addingTimeInterval(10)
        while server.requestCount < 2 && Date() < deadline { usleep(5_000) }
        try #require(server.requestCount == 2, "the polling refresh's request never arrived")
        let reported = bed.log.all.count

        let start = Date()
        loader.close()  // what pathconfig_loader_free does first
        let elapsed = Date().timeIntervalSince(start)
        // Waiting for the download would take the whole 60 s timeout.
        #expect(elapsed < 10, "close() took \(elapsed) s")
        #expect(loader.current === good)
        #expect(bed.log.all.count == reported)
        usleep(100_000)
        #expect(server.requestCount == 2)
    }

    /// Ways a cache file is damaged by hand.
    enum Corruption: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case garbage = "replaced by garbage"
        case cutShort = "cut in half"
        case flippedByte = "one body byte changed"
        case empty = "emptied"
        case otherURL = "another URL's entry"

        var testDescription: String { rawValue }

        func apply(to path: String, otherEntry: [UInt8]) throws {
            var data = try #require(bytes(of: path))
            switch self {
            case .garbage: data = Array("not a cache file\n\n{}".utf8)
            case .cutShort: data = Array(data.prefix(data.count / 2))
            case .flippedByte: data[data.count - 3] ^= 0x01
            case .empty: data = []
            case .otherURL: data = otherEntry
            }
            try Data(data).write(to: URL(fileURLWithPath: path))
        }
    }

    @Test("a corrupt cache file is ignored with a warning and left as it is when the server is down", arguments: Corruption.allCases)
    func corruptCacheServerDown(_ corruption: Corruption) throws {
        let bed = try LoaderTestBed()
        try bed.nginx.put("other.json", Fixture.version("other"))
        try bed.loader(sources: [.server(bed.url), .server(bed.nginx.url("other.json"))]).load()
        try corruption.apply(to: bed.cacheFile(), otherEntry: try #require(bytes(of: bed.cacheFile(bed.nginx.url("other.json")))))
        let corrupt = bytes(of: bed.cacheFile())
        bed.nginx.stop()

        let loader = try bed.loader()
        let events = try loader.load()
        #expect(events.map(summary) == ["file:applied", "cache:warning", "server:failed"])
        guard case .warning(.cache(let error)) = events[1].outcome else { Issue.record("expected a cache warning"); return }
        #expect(error.code == .corrupt)
        #expect(error.path == bed.cacheFile())
        #expect(error.message.hasPrefix("cache file \(bed.cacheFile()) ignored: "))
        #expect(Fixture.versionOf(loader.current) == "bundle")
        #expect(bytes(of: bed.cacheFile()) == corrupt)
    }

    @Test("a corrupt cache file is replaced by the next good download, fetched without validators")
    func corruptCacheRepaired() throws {
        let bed = try LoaderTestBed()
        try bed.loader().load()
        let good = try #require(bytes(of: bed.cacheFile()))
        try Corruption.flippedByte.apply(to: bed.cacheFile(), otherEntry: [])

        let loader = try bed.loader()
        #expect(try loader.load().map(summary) == ["file:applied", "cache:warning", "server:applied"])
        #expect(bed.nginx.accessLog(waitingFor: 2).last?.hasPrefix("GET /config.json 200 inm=[] ims=[]") == true)
        #expect(bytes(of: bed.cacheFile()) == good)
    }

    /// Found by the loader fuzz target (Fuzz/Loader/crashes/cache-body-over-limit).
    @Test("a cached body over the body limit is ignored as corrupt, as its download would be refused")
    func cachedBodyOverLimit() throws {
        let bed = try LoaderTestBed()
        try bed.loader().load()
        bed.nginx.stop()
        let loader = try bed.loader { $0.maxBodyBytes = 16 }
        let events = try loader.load()
        #expect(events.map(summary) == ["file:applied", "cache:warning", "server:failed"])
        guard case .warning(.cache(let error)) = events[1].outcome else { Issue.record("expected a cache warning"); return }
        #expect(error.code == .corrupt)
        #expect(error.message.hasSuffix("bytes, over the limit of 16"))
        #expect(Fixture.versionOf(loader.current) == "bundle")
    }

    /// Found by the loader fuzz target (Fuzz/Loader/crashes/cached-etag-bare-cr,
    /// server-etag-bare-cr): libcurl sends a header value as written, so a CR in
    /// it would end the line early and start a header of the file's choosing.
    @Test("a cached validator with a line break is not sent: the request is unconditional, nothing is injected")
    func validatorWithLineBreak() throws {
        let bed = try LoaderTestBed()
        try bed.loader().load()
        // Edited by hand: the ETag holds a bare CR; the body and its checksum are intact.
        let file = bed.cacheFile()
        let lines = String(decoding: try #require(bytes(of: file)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0.hasPrefix("etag ") })
        let edited = lines.map { $0.hasPrefix("etag ") ? "etag \"v1\"\rX-Injected: 1" : String($0) }.joined(separator: "\n")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: file))

        let loader = try bed.loader()
        #expect(try loader.load().map(summary) == ["file:applied", "cache:applied", "server:notModified"])
        // No If-None-Match at all; If-Modified-Since, which is sound, still goes.
        let request = try #require(bed.nginx.accessLog(waitingFor: 2).last)
        #expect(request.hasPrefix("GET /config.json 304 inm=[] ims=[") && !request.contains("ims=[]"), "\(request)")
    }

    @Test("a leftover temporary file from a crash mid-write does not disturb the cached copy")
    func leftoverTemporaryFile() throws {
        let bed = try LoaderTestBed()
        try bed.loader().load()
        let cacheFile = bed.cacheFile()
        let name = (cacheFile as NSString).lastPathComponent
        try Data("pathconfig-cache 1\nurl \(bed.url)\nbody-len".utf8).write(to: URL(fileURLWithPath: bed.cacheDirectory + "/.\(name).tmp-1-0000000000000000"))
        bed.nginx.stop()
        let loader = try bed.loader()
        #expect(try loader.load().map(summary) == ["file:applied", "cache:applied", "server:failed"])
        #expect(Fixture.versionOf(loader.current) == "v1")
    }

    @Test("the next write of a copy removes the temporary files a killed writer left, once an hour old")
    func leftoverTemporaryFilesRemoved() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader()
        try loader.load()
        let name = (bed.cacheFile() as NSString).lastPathComponent
        let stale = bed.cacheDirectory + "/.\(name).tmp-1-0000000000000000"
        let recent = bed.cacheDirectory + "/.\(name).tmp-2-0000000000000000"
        let otherCopy = bed.cacheDirectory + "/.pathconfig-0000000000000000.cache.tmp-1-0000000000000000"
        for file in [stale, recent, otherCopy] { try Data("cut short".utf8).write(to: URL(fileURLWithPath: file)) }
        let twoHoursAgo = Date(timeIntervalSinceNow: -7200)
        for file in [stale, otherCopy] { try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: file) }

        try bed.nginx.put("config.json", Fixture.version("v2"))
        try loader.refresh()
        #expect(Fixture.versionOf(loader.current) == "v2")
        #expect(!FileManager.default.fileExists(atPath: stale))
        // One that may be a live writer's, and another URL's, stay.
        #expect(FileManager.default.fileExists(atPath: recent))
        #expect(FileManager.default.fileExists(atPath: otherCopy))
    }

    @Test("a cache that cannot be written is a warning; the download still applies")
    func unwritableCache() throws {
        let bed = try LoaderTestBed()
        let blocker = try Fixture.file("a file, not a directory", in: bed.directory, name: "blocker")
        let loader = try bed.loader { $0.cacheDirectory = blocker + "/cache" }
        let events = try loader.load()
        // Reading it warns too (a path through a file is not "no copy yet").
        #expect(events.map(summary) == ["file:applied", "cache:warning", "server:applied", "cache:warning"])
        guard case .warning(.cache(let read)) = events[1].outcome, case .warning(.cache(let write)) = events[3].outcome else {
            Issue.record("expected cache warnings"); return
        }
        #expect(read.code == .unreadable)
        #expect(write.code == .unwritable)
        #expect(write.message.hasPrefix("cache file \(blocker)/cache/pathconfig-"))
        #expect(write.message.hasSuffix(".cache not updated: cannot create directory \(blocker)/cache: Not a directory"))
        #expect(Fixture.versionOf(loader.current) == "v1")
    }

    @Test("a bundled file that does not load is reported; the server copy still applies")
    func badBundledFile() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader(sources: [.file(bed.directory + "/missing.json"), .data(Array("{".utf8), name: "inline"), .server(bed.url)])
        let events = try loader.load()
        #expect(events.map(summary) == ["file:failed", "data:failed", "server:applied"])
        #expect(events[0].error == .configuration(ConfigurationError(code: .io, message: "cannot open \(bed.directory)/missing.json: No such file or directory", osError: ENOENT)))
        guard case .failed(.configuration(let error)) = events[1].outcome else { Issue.record("expected a configuration error"); return }
        #expect(error.code == .invalidJSON)
        #expect(events[1].location == "inline")
    }
}
