import Foundation
@_spi(Testing) import PathConfiguration

/// `pathconfig-fuzz-exchange`: the loader above the wire, without a socket.
///
/// The fuzzer's responses reach `ConfigurationLoader` through a scripted
/// `HTTPTransport` in place of libcurl, so everything the loader decides
/// (the redirect policy, the status handling, validators, the cache file it
/// reads and writes) runs thousands of times a second. `LoaderFuzzer` keeps
/// the slower path through a real socket and libcurl's parsing.
///
/// Input: a selector byte, then sections separated by
/// `LoaderFuzzer.separator`: the cache file (a `CacheSpec`), then up to
/// eight exchanges (`ExchangeSpec`), answered in order to whatever the
/// loader sends (a 500 once they run out).
///
/// Checks:
/// - no header line the loader sends holds a CR, LF or NUL, and a
///   conditional request carries the cached `ETag` it may send;
/// - the redirect policy: never from https to http, to another host only
///   when `follow_redirects_to_other_hosts` allows it (and then without
///   `Authorization` or `Cookie`), at most five per download;
/// - the first download's outcome is the one a model of the loader
///   predicts from the script: applied, not modified, or failed with the
///   right download error or HTTP status;
/// - `current` is always the last applied configuration (never replaced by
///   a failure), and a download that was applied reads back from the cache.
public enum ExchangeFuzzer {
    /// The source every input downloads.
    static let sourceURL = "https://config.example/app/path-configuration.json"
    static let profiles: [Profile] = [.hotwireIOS, .turboAndroid, .siesta, .hotwireAndroid]
    static let smallBodyLimit = 512

    /// A per-process scratch directory for the cache, removed at exit.
    static let scratch = FuzzFiles.scratchDirectory("pathconfig-fuzz-exchange")

    /// What the selector byte says.
    struct Selector {
        var hasCacheFile: Bool, followsOtherHosts: Bool, smallLimit: Bool, refreshes: Bool, credentials: Bool
        var profile: Profile

        init(_ b: UInt8) {
            hasCacheFile = b & 1 != 0
            followsOtherHosts = b & 2 != 0
            smallLimit = b & 4 != 0
            refreshes = b & 8 != 0
            credentials = b & 16 != 0
            profile = ExchangeFuzzer.profiles[Int(b >> 5) & 3]
        }

        static func byte(hasCacheFile: Bool = false, followsOtherHosts: Bool = false, smallLimit: Bool = false,
                         refreshes: Bool = false, credentials: Bool = false, profile: Int = 0) -> UInt8 {
            (hasCacheFile ? 1 : 0) | (followsOtherHosts ? 2 : 0) | (smallLimit ? 4 : 0) | (refreshes ? 8 : 0)
                | (credentials ? 16 : 0) | UInt8(profile & 3) << 5
        }
    }

    /// Builds an input from a selector byte, a cache file spec and exchanges.
    public static func input(_ selector: UInt8, cacheFile: [UInt8], exchanges: [[UInt8]]) -> [UInt8] {
        LoaderFuzzer.input(selector, cacheFile: cacheFile, responses: exchanges)
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        guard let first = bytes.first else { return nil }
        var sections = LoaderFuzzer.split(Array(bytes.dropFirst()))
        let cacheSection = sections.removeFirst()
        do throws(Violation) {
            try run(Selector(first), cache: CacheSpec(cacheSection), script: sections.prefix(8).map(ExchangeSpec.init))
            return nil
        } catch {
            return error
        }
    }

    static func run(_ selector: Selector, cache: CacheSpec, script: [ExchangeSpec]) throws(Violation) {
        guard let scratch else { throw Violation("cannot create a temporary directory") }
        let directory = scratch + "/cache"
        try? FileManager.default.removeItem(atPath: directory)
        var loadOptions = LoadOptions(profile: selector.profile, lenient: true)
        loadOptions.limits.matchLimit = 200_000
        let options = LoaderOptions(load: loadOptions, cacheDirectory: directory, timeout: .seconds(30),
                                    maxBodyBytes: selector.smallLimit ? smallBodyLimit : 8 << 20,
                                    followRedirectsToOtherHosts: selector.followsOtherHosts)
        let headers: [(name: String, value: String)] = selector.credentials ? [("Authorization", "Bearer t"), ("Cookie", "s=1")] : []
        let transport = ScriptedTransport(script)
        let loader: ConfigurationLoader
        do throws(ConfigurationError) {
            loader = try ConfigurationLoader(sources: [.server(sourceURL, headers: headers)], options: options, transport: transport)
        } catch {
            throw Violation("the loader refuses its options: \(error.message)")
        }
        guard let cacheFile = loader.cacheFile(for: sourceURL) else { throw Violation("no cache file path with a cache directory") }
        if selector.hasCacheFile {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            guard FileManager.default.createFile(atPath: cacheFile, contents: Data(cache.encoded(url: sourceURL))) else {
                throw Violation("cannot write \(cacheFile)")
            }
        }

        let events: [LoaderEvent]
        do throws(LoaderError) { events = try loader.load() } catch { throw Violation("load() threw \(error)") }
        try checkRequests(transport.requests, selector: selector)
        try LoaderFuzzer.checkCurrent(loader, events: events, before: nil)

        let cacheEvents = events.filter { $0.origin == .cache }
        if selector.hasCacheFile, cache.isPredictable { try LoaderFuzzer.checkCache(cache, events: cacheEvents, options: options) }
        let known = cacheEvents.first?.outcome == .applied ? cache : nil
        if let known, let etag = known.etag, isSendable(etag), let request = transport.requests.first,
           !request.headers.contains(where: { $0.name == "If-None-Match" && $0.value == etag }) {
            throw Violation("the cached ETag \(JSONWriter.quoted(etag)) is not in the request \(request.headers)")
        }
        let serverEvents = events.filter { $0.origin == .server }
        try checkOutcome(of: serverEvents, script: script, selector: selector, knownBody: known?.body, options: options)
        if let applied = serverEvents.last(where: { $0.outcome == .applied }) {
            try checkCachedCopy(of: applied, options: options)
        }

        if selector.refreshes {
            let before = loader.current
            let again: [LoaderEvent]
            do throws(LoaderError) { again = try loader.refresh() } catch { throw Violation("refresh() threw \(error)") }
            try checkRequests(transport.requests, selector: selector)
            try LoaderFuzzer.checkCurrent(loader, events: again, before: before)
        }
    }

    /// Header lines that cannot be injected, and the redirect policy.
    static func checkRequests(_ requests: [HTTPRequest], selector: Selector) throws(Violation) {
        var previous: HTTPRequest?
        for request in requests {
            for (name, value) in request.headers where (name + value).utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) {
                throw Violation("a header line with a CR, LF or NUL: \(JSONWriter.quoted(name)): \(JSONWriter.quoted(value))")
            }
            if request.url == sourceURL { previous = request; continue }
            // A redirect of the request before it.
            guard let from = previous.flatMap({ Origin($0.url) }), let to = Origin(request.url) else {
                throw Violation("a request to \(request.url) that no redirect led to")
            }
            if from.scheme == "https" && to.scheme != "https" { throw Violation("a redirect followed from https to http: \(request.url)") }
            if from.host != to.host {
                if !selector.followsOtherHosts { throw Violation("a redirect followed to another host without the option: \(request.url)") }
                if request.headers.contains(where: { ["authorization", "cookie"].contains($0.name.lowercased()) }) {
                    throw Violation("credentials sent to another host: \(request.url)")
                }
            }
            previous = request
        }
    }

    /// The first download's events against the model's prediction.
    static func checkOutcome(of events: [LoaderEvent], script: [ExchangeSpec], selector: Selector, knownBody: [UInt8]?,
                             options: LoaderOptions) throws(Violation) {
        guard let event = events.first else { throw Violation("no server event") }
        let expected = Prediction(script: script, selector: selector, knownBody: knownBody, options: options)
        let what = "script \(script) -> \(events.map(\.description)); expected \(expected)"
        switch (expected, event.outcome) {
        case (.applied(let count), .applied) where event.byteCount == count: return
        case (.notModified, .notModified): return
        case (.configurationFailure, .failed(.configuration)): return
        case (.downloadFailure(let code, let status), .failed(.download(let e))) where e.code == code && (status == nil || e.httpStatus == status): return
        default: throw Violation(what)
        }
    }

    /// A downloaded copy that was applied reads back from the cache, through
    /// a second loader whose server fails.
    static func checkCachedCopy(of applied: LoaderEvent, options: LoaderOptions) throws(Violation) {
        let events: [LoaderEvent]
        do {
            events = try ConfigurationLoader(sources: [.server(sourceURL)], options: options, transport: ScriptedTransport([])).load()
        } catch {
            throw Violation("a second loader failed: \(error)")
        }
        guard let cached = events.first(where: { $0.origin == .cache }), cached.outcome == .applied,
              cached.byteCount == applied.byteCount
        else {
            throw Violation("downloaded \(applied), but a second loader read \(events.map(\.description))")
        }
    }

    /// The policy check on one redirect, for tests: the violation of a
    /// request to `to` after one to `from`, or nil.
    public static func redirectViolation(from: String, to: String, followsOtherHosts: Bool,
                                         headers: [(name: String, value: String)] = []) -> Violation? {
        let requests = [HTTPRequest(url: sourceURL, headers: [], timeout: .seconds(1), maxBodyBytes: 1),
                        HTTPRequest(url: from, headers: [], timeout: .seconds(1), maxBodyBytes: 1),
                        HTTPRequest(url: to, headers: headers, timeout: .seconds(1), maxBodyBytes: 1)]
        do throws(Violation) {
            try checkRequests(requests, selector: Selector(Selector.byte(followsOtherHosts: followsOtherHosts)))
            return nil
        } catch {
            return error
        }
    }

    /// The model's prediction for a first download of `statuses` in turn
    /// (3xx with `ExchangeSpec.locations[location]`, 200 with the example
    /// configuration), for tests.
    public static func predicted(followsOtherHosts: Bool, statuses: [Int], location: UInt8) -> String {
        let body = Array(#"{"rules": [{"patterns": [".*"], "properties": {}}]}"#.utf8)
        let script = statuses.map { ExchangeSpec(ExchangeSpec.bytes(status: $0, flags: location << 2, body: $0 == 200 ? body : [])) }
        let options = LoaderOptions(followRedirectsToOtherHosts: followsOtherHosts)
        return Prediction(script: script, selector: Selector(Selector.byte(followsOtherHosts: followsOtherHosts)),
                          knownBody: nil, options: options).description
    }

    /// What the loader sends as a header value: no CR, LF or NUL.
    static func isSendable(_ s: String) -> Bool {
        !s.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
    }
}

/// What the model of the loader predicts for a first download.
enum Prediction: CustomStringConvertible {
    case applied(Int)
    case notModified
    case configurationFailure
    case downloadFailure(DownloadError.Code, Int?)

    init(script: [ExchangeSpec], selector: ExchangeFuzzer.Selector, knownBody: [UInt8]?, options: LoaderOptions) {
        var url = ExchangeFuzzer.sourceURL
        var redirects = 0
        for spec in script + [ExchangeSpec.serverError] {
            if let code = spec.error { self = .downloadFailure(code, nil); return }
            let body = spec.status == 200 ? spec.body : []
            if body.count > options.effectiveMaxBodyBytes { self = .downloadFailure(.tooLarge, nil); return }
            if (300...399).contains(spec.status), spec.status != 304, let location = spec.location(from: url) {
                // The policy compares schemes and hosts; ports do not matter.
                let from = Origin(url)!, to = Origin(location).flatMap { ["http", "https"].contains($0.scheme) ? $0 : nil }
                guard let to, !(from.scheme == "https" && to.scheme != "https"), from.host == to.host || selector.followsOtherHosts,
                      redirects < HTTPClientLimits.maxRedirects
                else { self = .downloadFailure(.httpStatus, spec.status); return }
                redirects += 1
                url = location
                continue
            }
            switch spec.status {
            case 304 where knownBody != nil: self = .notModified
            case 200 where knownBody == body: self = .notModified
            case 200:
                self = (try? PathConfiguration(json: body, options: options.load)) != nil ? .applied(body.count) : .configurationFailure
            default: self = .downloadFailure(.httpStatus, spec.status)
            }
            return
        }
        self = .downloadFailure(.httpStatus, 500)  // not reached: the script ends with a 500
    }

    var description: String {
        switch self {
        case .applied(let n): "applied (\(n) bytes)"
        case .notModified: "not modified"
        case .configurationFailure: "a configuration failure"
        case .downloadFailure(let code, let status): "download failure \(code)\(status.map { " \($0)" } ?? "")"
        }
    }
}

/// The redirect limit the model applies (the loader's `HTTPClient.maxRedirects`).
enum HTTPClientLimits {
    static let maxRedirects = 5
}

/// One exchange described by the input: a response, or a transport failure.
///
/// Bytes: a kind, flags, then NUL-separated `ETag`, `Last-Modified` and
/// body (the rest). A kind below 0xF0 picks a status from `statuses`; from
/// 0xF0 up, `DownloadError.Code(rawValue: kind & 7)` (when one) is thrown
/// instead. Flags: 1 with `ETag`, 2 with `Last-Modified`, and bits 2-4 pick
/// a 3xx's `Location` (`locations`).
struct ExchangeSpec: CustomStringConvertible {
    static let statuses = [200, 200, 200, 304, 301, 302, 307, 308, 404, 500, 204, 303]
    /// Where a 3xx points: the same host, another host, http instead of
    /// https, the current URL again, another scheme, none.
    static let locations = ["https://config.example/moved.json", "https://other.example/path.json",
                            "http://config.example/path.json", "{self}", "ftp://config.example/x", nil,
                            "https://CONFIG.example/upper.json", "https://config.example:8443/port.json"]
    static let serverError = ExchangeSpec(Array([UInt8(statuses.firstIndex(of: 500)!), 0, 0, 0]))

    var status: Int, error: DownloadError.Code?, flags: UInt8
    var etag: String?, lastModified: String?
    var body: [UInt8]

    init(_ bytes: [UInt8]) {
        var reader = FuzzReader(bytes)
        let kind = reader.byte()
        status = Self.statuses[Int(kind) % Self.statuses.count]
        error = kind >= 0xF0 ? DownloadError.Code(rawValue: Int(kind & 7)) : nil
        flags = reader.byte()
        let e = reader.field(), l = reader.field()
        etag = flags & 1 != 0 ? String(repairing: e) : nil
        lastModified = flags & 2 != 0 ? String(repairing: l) : nil
        body = reader.rest()
    }

    static func bytes(status: Int, flags: UInt8 = 0, etag: String = "", lastModified: String = "", body: [UInt8] = []) -> [UInt8] {
        [UInt8(statuses.firstIndex(of: status)!), flags] + Array(etag.utf8) + [0] + Array(lastModified.utf8) + [0] + body
    }

    static func bytes(error: DownloadError.Code) -> [UInt8] { [0xF0 | UInt8(error.rawValue)] }

    /// The `Location` of this response when requested at `url`.
    func location(from url: String) -> String? {
        let choice = Self.locations[Int(flags >> 2) % Self.locations.count]
        return choice == "{self}" ? url : choice
    }

    /// The response the transport returns for a request, or the error it throws.
    func response(to request: HTTPRequest) throws(DownloadError) -> HTTPResponse {
        if let error { throw DownloadError(code: error, message: "scripted \(error)", url: request.url) }
        let payload = status == 200 ? body : []
        // As libcurl through CHTTP does: a body over the limit is refused.
        if payload.count > request.maxBodyBytes {
            throw DownloadError(code: .tooLarge, message: "scripted: over the limit", url: request.url, httpStatus: status)
        }
        return HTTPResponse(status: status, body: payload, etag: etag, lastModified: lastModified,
                            location: (300...399).contains(status) ? location(from: request.url) : nil)
    }

    var description: String {
        if let error { return "(error \(error))" }
        return "(\(status), flags \(flags), \(body.count)-byte body)"
    }
}

/// A transport that answers from a script, in order (a 500 when it runs
/// out), and keeps every request.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [ExchangeSpec]
    private var sent: [HTTPRequest] = []

    init(_ script: [ExchangeSpec]) { self.script = script }

    /// The requests so far.
    var requests: [HTTPRequest] { lock.withLock { sent } }

    func send(_ request: HTTPRequest) throws(DownloadError) -> HTTPResponse {
        let next: ExchangeSpec = lock.withLock {
            sent.append(request)
            return script.isEmpty ? ExchangeSpec.serverError : script.removeFirst()
        }
        return try next.response(to: request)
    }
}
