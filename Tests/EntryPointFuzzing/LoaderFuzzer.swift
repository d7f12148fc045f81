import Foundation
import PathConfiguration

/// `pathconfig-fuzz-loader`: a server source's cache file and HTTP responses
/// from the fuzzer, through `ConfigurationLoader` (cache read, libcurl and
/// the CHTTP shim, the loader's status handling, the cache write).
///
/// The cache file is written where the loader looks for it
/// (`cacheFile(for:)`); the responses come from `LoopbackServer`, one per
/// connection, so libcurl parses them as it would a real server's. The
/// loader's pure parsing (`CachedCopy.decode`) is internal: it is reached
/// through the loader, not called.
///
/// Input: a selector byte, then sections separated by `separator`: the
/// cache file, then up to three responses. Each is raw bytes or, per the
/// selector, a structured description (`CacheSpec`, `ResponseSpec`) that
/// builds a well-formed file or response, so the checks can predict the
/// outcome. In a raw cache file `{url}` stands for the server's URL.
///
/// Checks:
/// - every request the loader sends is well formed: each header line ends
///   in CRLF and holds no other CR, LF or NUL (nothing injected from a
///   cached or received validator);
/// - a well-formed cache file is applied exactly when its body loads (a
///   warning otherwise, and one for a body over the body limit); a
///   malformed one is a warning, never applied;
/// - a conditional request carries the cached `ETag`;
/// - a well-framed response: 200 applies a body that loads (not modified
///   when it is the cached body, too large over the limit), other statuses
///   fail, 304 keeps a known copy;
/// - `current` is always the last applied configuration, and survives
///   failed refreshes;
/// - a download that was applied is cached: a second loader, whose server
///   fails, applies the cached copy, of the same size.
public enum LoaderFuzzer {
    /// Between sections.
    public static let separator: [UInt8] = Array("\n@@@\n".utf8)

    static let profiles: [Profile] = [.hotwireIOS, .hotwireAndroid, .siesta, .turboAndroid]
    static let smallBodyLimit = 1024

    /// A per-process scratch directory for the cache (nil when none can be
    /// made), removed when the process exits.
    static let scratch = FuzzFiles.scratchDirectory("pathconfig-fuzz-loader")

    /// What the selector byte says.
    struct Selector {
        var hasCacheFile: Bool, rawCacheFile: Bool, rawResponses: Bool, refreshes: Bool, smallLimit: Bool
        var profile: Profile

        init(_ b: UInt8) {
            hasCacheFile = b & 1 != 0
            rawCacheFile = b & 2 != 0
            rawResponses = b & 4 != 0
            profile = LoaderFuzzer.profiles[Int(b >> 3) & 3]
            refreshes = b & 0x20 != 0
            smallLimit = b & 0x40 != 0
        }

        static func byte(hasCacheFile: Bool, rawCacheFile: Bool = false, rawResponses: Bool = false, profile: Int = 0,
                         refreshes: Bool = false, smallLimit: Bool = false) -> UInt8 {
            (hasCacheFile ? 1 : 0) | (rawCacheFile ? 2 : 0) | (rawResponses ? 4 : 0) | UInt8(profile & 3) << 3
                | (refreshes ? 0x20 : 0) | (smallLimit ? 0x40 : 0)
        }
    }

    /// Builds an input from a selector byte and sections.
    public static func input(_ selector: UInt8, cacheFile: [UInt8], responses: [[UInt8]]) -> [UInt8] {
        var out = [selector] + cacheFile
        for r in responses { out += separator + r }
        return out
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        guard let first = bytes.first else { return nil }
        let selector = Selector(first)
        var sections = split(Array(bytes.dropFirst()))
        let cacheSection = sections.removeFirst()
        let responseSections = Array(sections.prefix(3))
        do throws(Violation) {
            try run(selector, cacheSection: cacheSection, responseSections: responseSections)
            return nil
        } catch {
            return error
        }
    }

    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var sections: [[UInt8]] = []
        var rest = bytes[...]
        while let range = rest.firstRange(of: separator) {
            sections.append(Array(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        sections.append(Array(rest))
        return sections
    }

    static func run(_ selector: Selector, cacheSection: [UInt8], responseSections: [[UInt8]]) throws(Violation) {
        guard let server = LoopbackServer.shared else { throw Violation("cannot listen on 127.0.0.1") }
        guard let scratch else { throw Violation("cannot create a temporary directory") }
        let directory = scratch + "/cache"
        try? FileManager.default.removeItem(atPath: directory)
        var loadOptions = LoadOptions(profile: selector.profile, lenient: true)
        loadOptions.limits.matchLimit = 200_000
        let options = LoaderOptions(load: loadOptions, cacheDirectory: directory, timeout: .seconds(3),
                                    maxBodyBytes: selector.smallLimit ? smallBodyLimit : 8 << 20)
        let url = server.url
        let loader: ConfigurationLoader
        do throws(ConfigurationError) {
            loader = try ConfigurationLoader(sources: [.server(url)], options: options)
        } catch {
            throw Violation("the loader refuses its options: \(error.message)")
        }
        guard let cacheFile = loader.cacheFile(for: url) else { throw Violation("no cache file path with a cache directory") }

        // The cache file.
        var cache: CacheSpec?
        if selector.hasCacheFile {
            let fileBytes: [UInt8]
            if selector.rawCacheFile {
                fileBytes = replacing(urlPlaceholder, with: Array(url.utf8), in: cacheSection)
            } else {
                let spec = CacheSpec(cacheSection)
                fileBytes = spec.encoded(url: url)
                cache = spec
            }
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: cacheFile, contents: Data(fileBytes)) else {
                throw Violation("cannot write \(cacheFile)")
            }
        }

        // The responses.
        let specs = selector.rawResponses ? nil : responseSections.map(ResponseSpec.init)
        var script = specs.map { $0.map { $0.encoded(redirectingTo: server.redirectURL) } } ?? responseSections
        if script.isEmpty { script = [serverError] }
        server.reset(script: script, raw: selector.rawResponses)

        let events: [LoaderEvent]
        do throws(LoaderError) {
            events = try loader.load()
        } catch {
            throw Violation("load() threw \(error)")
        }
        try checkRequests(server.requests)
        try checkCurrent(loader, events: events, before: nil)

        let cacheEvents = events.filter { $0.origin == .cache }
        let cacheApplied = cacheEvents.first.map { $0.outcome == .applied } ?? false
        if let cache, cache.isPredictable {
            try checkCache(cache, events: cacheEvents, options: options)
        } else if selector.hasCacheFile, cacheEvents.count > 1 {
            throw Violation("\(cacheEvents.count) cache events for one file: \(cacheEvents)")
        }
        if let cache, cacheApplied, let etag = cache.etag, isPlain(etag), let request = server.requests.first {
            let line = Array("If-None-Match: \(etag)\r\n".utf8)
            if request.firstRange(of: line) == nil {
                throw Violation("the cached ETag \(JSONWriter.quoted(etag)) is not in the request \(JSONWriter.quoted(String(repairing: request)))")
            }
        }
        let serverEvents = events.filter { $0.origin == .server }
        if let spec = specs?.first, server.requests.count == 1, spec.isFinal {
            let known = cacheApplied ? cache?.body : nil
            try checkServer(spec, events: serverEvents, knownBody: known, cacheApplied: cacheApplied, options: options)
        }
        if let applied = serverEvents.last(where: { $0.outcome == .applied }) {
            try checkCachedCopy(of: applied, options: options, directory: directory, server: server, url: url)
            // checkCachedCopy replaced the script: the refresh below sees the 500.
        }

        if selector.refreshes {
            let before = loader.current
            server.reset(script: script.count > 1 ? Array(script.dropFirst()) : script, raw: selector.rawResponses)
            let again: [LoaderEvent]
            do throws(LoaderError) {
                again = try loader.refresh()
            } catch {
                throw Violation("refresh() threw \(error)")
            }
            try checkRequests(server.requests)
            try checkCurrent(loader, events: again, before: before)
        }
    }

    /// The request check on its own, for tests.
    public static func requestViolation(_ request: [UInt8]) -> Violation? {
        do throws(Violation) {
            try checkRequests([request])
            return nil
        } catch {
            return error
        }
    }

    /// Every request head: lines ending in CRLF, with no other CR, LF or NUL.
    static func checkRequests(_ requests: [[UInt8]]) throws(Violation) {
        for request in requests {
            guard request.suffix(4).elementsEqual("\r\n\r\n".utf8) else {
                throw Violation("a request head that does not end with a blank line: \(JSONWriter.quoted(String(repairing: request)))")
            }
            var lineStart = 0
            for (i, b) in request.enumerated() {
                if b == 0x0A {
                    guard i > lineStart, request[i - 1] == 0x0D else {
                        throw Violation("a bare LF in the request \(JSONWriter.quoted(String(repairing: request)))")
                    }
                    lineStart = i + 1
                } else if b == 0 || (b == 0x0D && (i + 1 >= request.count || request[i + 1] != 0x0A)) {
                    throw Violation("a bare CR or a NUL in the request \(JSONWriter.quoted(String(repairing: request)))")
                }
            }
        }
    }

    /// `current` is the configuration of the last applied event, or (with
    /// none applied) what it was before.
    static func checkCurrent(_ loader: ConfigurationLoader, events: [LoaderEvent], before: PathConfiguration?) throws(Violation) {
        for event in events where event.outcome == .applied && event.configuration == nil {
            throw Violation("an applied event without a configuration: \(event)")
        }
        let expected = events.last(where: { $0.outcome == .applied })?.configuration ?? before
        let current = loader.current
        if let expected {
            // A 304 may reinstate the known copy; it is the one applied before.
            guard let current, current === expected || events.contains(where: { $0.outcome == .notModified && $0.configuration === current }) else {
                throw Violation("current is not the last applied configuration after \(events.map(\.description))")
            }
        } else if current != nil {
            throw Violation("a current configuration without any applied: \(events.map(\.description))")
        }
    }

    /// A structured cache file: applied exactly when well formed, within the
    /// body limit and loadable.
    static func checkCache(_ spec: CacheSpec, events: [LoaderEvent], options: LoaderOptions) throws(Violation) {
        guard events.count == 1, let event = events.first else {
            throw Violation("\(events.count) cache events for one file: \(events.map(\.description))")
        }
        let what = "cache file \(spec) -> \(event)"
        let expectApplied: Bool
        if !spec.isWellFormed || spec.body.count > options.effectiveMaxBodyBytes {
            expectApplied = false
            if case .warning(.cache(let error)) = event.outcome, error.code == .corrupt { return }
            throw Violation("\(what): expected a corrupt-cache warning")
        } else {
            expectApplied = (try? PathConfiguration(json: spec.body, options: options.load)) != nil
        }
        switch event.outcome {
        case .applied where expectApplied:
            if event.byteCount != spec.body.count { throw Violation("\(what): \(event.byteCount ?? -1) bytes, the body has \(spec.body.count)") }
        case .warning(.configuration) where !expectApplied:
            break
        default:
            throw Violation("\(what): expected \(expectApplied ? "applied" : "a configuration warning")")
        }
    }

    /// The outcome of a well-framed first response.
    static func checkServer(_ spec: ResponseSpec, events: [LoaderEvent], knownBody: [UInt8]?, cacheApplied: Bool,
                            options: LoaderOptions) throws(Violation) {
        guard events.count >= 1, let event = events.first else { throw Violation("no server event for response \(spec)") }
        let what = "response \(spec) -> \(events.map(\.description))"
        switch spec.finalStatus {
        case 200:
            if spec.body.count > options.effectiveMaxBodyBytes {
                guard case .failed(.download(let e)) = event.outcome, e.code == .tooLarge else { throw Violation("\(what): expected too large") }
            } else if let knownBody, knownBody == spec.body {
                guard event.outcome == .notModified else { throw Violation("\(what): expected not modified (same body as the cache)") }
            } else if (try? PathConfiguration(json: spec.body, options: options.load)) != nil {
                guard event.outcome == .applied, event.byteCount == spec.body.count else { throw Violation("\(what): expected applied, \(spec.body.count) bytes") }
            } else {
                guard case .failed(.configuration) = event.outcome else { throw Violation("\(what): expected a configuration failure") }
            }
        case 304 where cacheApplied:
            guard event.outcome == .notModified else { throw Violation("\(what): expected not modified") }
        default:
            guard case .failed(.download(let e)) = event.outcome, e.code == .httpStatus, e.httpStatus == spec.finalStatus else {
                throw Violation("\(what): expected HTTP status \(spec.finalStatus) refused")
            }
        }
    }

    /// A downloaded copy that was applied reads back from the cache.
    static func checkCachedCopy(of applied: LoaderEvent, options: LoaderOptions, directory: String, server: LoopbackServer,
                                url: String) throws(Violation) {
        server.reset(script: [serverError])
        let events: [LoaderEvent]
        do {
            events = try ConfigurationLoader(sources: [.server(url)], options: options).load()
        } catch {
            throw Violation("a second loader failed: \(error)")
        }
        guard let cached = events.first(where: { $0.origin == .cache }), cached.outcome == .applied,
              cached.byteCount == applied.byteCount,
              cached.configuration?.rules.count == applied.configuration?.rules.count
        else {
            throw Violation("downloaded \(applied), but a second loader read \(events.map(\.description))")
        }
    }

    /// What a server that fails answers.
    static let serverError = Array("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n".utf8)

    /// Stands for the server's URL in a raw cache file (its port changes from
    /// run to run), so that a raw file can name the URL it is read for.
    public static let urlPlaceholder: [UInt8] = Array("{url}".utf8)

    static func replacing(_ target: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var rest = bytes[...]
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }

    /// Printable ASCII without surrounding spaces: a value curl sends as written.
    static func isPlain(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

/// A cache file described by the input: well formed unless its flags break it.
///
/// Bytes: flags, a number, then NUL-separated `ETag`, `Last-Modified` and
/// body (the rest, NULs included). Flags: 1 wrong URL, 2 wrong length,
/// 4 wrong checksum, 8 an extra header line, 16 with `ETag`, 32 with
/// `Last-Modified`, 64 cut short by the number of bytes, 128 a line without
/// a space.
struct CacheSpec: CustomStringConvertible {
    var flags: UInt8, number: UInt8
    var etag: String?, lastModified: String?
    var body: [UInt8]

    init(_ bytes: [UInt8]) {
        var reader = FuzzReader(bytes)
        flags = reader.byte()
        number = reader.byte()
        let e = reader.field(), l = reader.field()
        etag = flags & 16 != 0 ? String(repairing: e) : nil
        lastModified = flags & 32 != 0 ? String(repairing: l) : nil
        body = reader.rest()
    }

    static func bytes(flags: UInt8, number: UInt8 = 0, etag: String = "", lastModified: String = "", body: [UInt8]) -> [UInt8] {
        [flags, number] + Array(etag.utf8) + [0] + Array(lastModified.utf8) + [0] + body
    }

    /// Whether the outcome is predictable: validators on one line (one with
    /// a line break may add header lines, or end the header).
    var isPredictable: Bool { !(etag ?? "").utf8.contains(0x0A) && !(lastModified ?? "").utf8.contains(0x0A) }

    /// Whether the loader must accept the file (before looking at the body),
    /// when predictable.
    var isWellFormed: Bool { flags & (1 | 2 | 4 | 64 | 128) == 0 }

    func encoded(url: String) -> [UInt8] {
        var header = "pathconfig-cache 1\n"
        header += "url \(url)\(flags & 1 != 0 ? "x" : "")\n"
        if flags & 8 != 0 { header += "x-extra \(number)\n" }
        if let etag { header += "etag \(etag)\n" }
        if let lastModified { header += "last-modified \(lastModified)\n" }
        header += "body-length \(body.count + (flags & 2 != 0 ? 1 : 0))\n"
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a 64, as the loader writes it
        for b in body {
            hash ^= UInt64(b)
            hash &*= 0x0000_0100_0000_01b3
        }
        if flags & 4 != 0 { hash ^= 1 }
        let hex = String(hash, radix: 16)
        header += "body-fnv1a64 \(String(repeating: "0", count: 16 - hex.count) + hex)\n"
        if flags & 128 != 0 { header += "nospace\n" }
        var file = Array((header + "\n").utf8) + body
        if flags & 64 != 0 { file.removeLast(min(file.count, Int(number) + 1)) }
        return file
    }

    var description: String {
        "(flags \(flags), etag \(etag.map(JSONWriter.quoted) ?? "none"), \(body.count)-byte body)"
    }
}

/// A response described by the input.
///
/// Bytes: a status choice, flags, then NUL-separated `ETag`,
/// `Last-Modified` and body (the rest). Flags: 1 with `ETag`, 2 with
/// `Last-Modified`, 4 chunked, 8 a `Content-Length` one too many (the body
/// ends early), 16 no length (the body ends with the connection), 32
/// HTTP/1.0, 64 a second `ETag`, 128 lower-case header names.
struct ResponseSpec: CustomStringConvertible {
    static let statuses = [200, 200, 200, 304, 404, 500, 301, 302, 307, 204, 206, 100, 999, 503]

    var status: Int, flags: UInt8
    var etag: [UInt8], lastModified: [UInt8]
    var body: [UInt8]

    init(_ bytes: [UInt8]) {
        var reader = FuzzReader(bytes)
        status = Self.statuses[Int(reader.byte()) % Self.statuses.count]
        flags = reader.byte()
        etag = reader.field()
        lastModified = reader.field()
        body = reader.rest()
    }

    static func bytes(status: Int, flags: UInt8, etag: String = "", lastModified: String = "", body: [UInt8]) -> [UInt8] {
        [UInt8(statuses.firstIndex(of: status)!), flags] + Array(etag.utf8) + [0] + Array(lastModified.utf8) + [0] + body
    }

    /// The status the loader ends up with (a 100 is followed by a 200).
    var finalStatus: Int { status == 100 ? 200 : status }

    /// Whether the loader's outcome is predictable: framed right, header
    /// values on one line, no redirect to follow, a status that keeps its body.
    var isFinal: Bool {
        ![301, 302, 307].contains(status) && flags & 8 == 0
            && !etag.contains(where: { $0 == 0x0A || $0 == 0x0D }) && !lastModified.contains(where: { $0 == 0x0A || $0 == 0x0D })
    }

    /// The response, a redirect pointing at `location`.
    func encoded(redirectingTo location: String) -> [UInt8] {
        func name(_ s: String) -> String { flags & 128 != 0 ? s.lowercased() : s }
        let version = flags & 32 != 0 ? "HTTP/1.0" : "HTTP/1.1"
        var out: [UInt8] = []
        if status == 100 { out += Array("\(version) 100 Continue\r\n\r\n".utf8) }
        out += Array("\(version) \(finalStatus) Status\r\n".utf8)
        if flags & 1 != 0 { out += Array("\(name("ETag")): ".utf8) + etag + [0x0D, 0x0A] }
        if flags & 64 != 0 { out += Array("\(name("ETag")): \"second\"\r\n".utf8) }
        if flags & 2 != 0 { out += Array("\(name("Last-Modified")): ".utf8) + lastModified + [0x0D, 0x0A] }
        if [301, 302, 307].contains(status) { out += Array("Location: \(location)\r\n".utf8) }
        let chunked = flags & 4 != 0 && flags & 32 == 0
        if chunked {
            out += Array("\(name("Transfer-Encoding")): chunked\r\n\r\n".utf8)
            if !body.isEmpty { out += Array(String(body.count, radix: 16).utf8) + [0x0D, 0x0A] + body + [0x0D, 0x0A] }
            out += Array("0\r\n\r\n".utf8)
        } else {
            if flags & 16 == 0 { out += Array("\(name("Content-Length")): \(body.count + (flags & 8 != 0 ? 1 : 0))\r\n".utf8) }
            out += Array("Connection: close\r\n\r\n".utf8) + body
        }
        return out
    }

    var description: String {
        "(\(status), flags \(flags), \(body.count)-byte body)"
    }
}
