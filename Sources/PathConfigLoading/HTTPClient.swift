import CHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One GET as the loader sends it: no redirect followed.
@_spi(Testing) public struct HTTPRequest: Sendable {
    /// The URL requested.
    public let url: String
    /// The header lines, as `(name, value)` pairs, in order.
    public let headers: [(name: String, value: String)]
    /// What is left of the download's timeout.
    public let timeout: Duration
    /// The largest 200 body accepted (after content decoding).
    public let maxBodyBytes: Int
    /// Asked while the request runs (as data arrives, and about once a
    /// second while none does): true abandons it, with a `.transport` error
    /// ("the download was cancelled"). Nil: never asked.
    public let isCancelled: (@Sendable () -> Bool)?

    /// Creates a request.
    public init(url: String, headers: [(name: String, value: String)], timeout: Duration, maxBodyBytes: Int,
                isCancelled: (@Sendable () -> Bool)? = nil) {
        self.url = url
        self.headers = headers
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.isCancelled = isCancelled
    }
}

/// A response that arrived (any status). Only a 200 carries its body.
@_spi(Testing) public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The body of a 200, empty otherwise.
    public var body: [UInt8]
    /// The `ETag` header, when present.
    public var etag: String?
    /// The `Last-Modified` header, when present.
    public var lastModified: String?
    /// Where a 3xx points (its `Location`, made absolute), when it does.
    public var location: String?

    /// Creates a response.
    public init(status: Int, body: [UInt8] = [], etag: String? = nil, lastModified: String? = nil, location: String? = nil) {
        self.status = status
        self.body = body
        self.etag = etag
        self.lastModified = lastModified
        self.location = location
    }
}

/// What sends one request and reads its response: libcurl in the library
/// (`CurlTransport`); the loader's fuzz target and tests plug in their own,
/// so that everything above the wire (the redirect policy, status handling,
/// validators, the cache) runs without a socket. The loader relies on a
/// transport to refuse a 200 body over `HTTPRequest.maxBodyBytes` with
/// `.tooLarge`, and to follow no redirect itself.
@_spi(Testing) public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns its response, or says why none came.
    func send(_ request: HTTPRequest) throws(DownloadError) -> HTTPResponse
}

/// HTTP GETs with the redirect policy: at most `maxRedirects`, never from
/// https to http, to another host only when `followsRedirectsToOtherHosts`.
struct HTTPClient: Sendable {
    /// The timeout of the whole download, redirects included.
    var timeout: Duration
    /// The largest 200 body accepted (after content decoding).
    var maxBodyBytes: Int
    var followsRedirectsToOtherHosts: Bool
    var transport: any HTTPTransport

    static let maxRedirects = 5

    /// Fetches `url` with `headers` (`(name, value)` pairs), following the
    /// redirects the policy allows, or says why not. A redirect refused is a
    /// `.httpStatus` error with the 3xx status and the target in its message.
    /// Each request is abandoned once `isCancelled` (when given) is true.
    func get(_ url: String, headers: [(name: String, value: String)],
             isCancelled: (@Sendable () -> Bool)?) throws(DownloadError) -> HTTPResponse {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var target = url
        var headers = headers
        var redirects = 0
        while true {
            let remaining = deadline - clock.now
            guard remaining > .zero else {
                throw DownloadError(code: .timeout, message: "no complete response within \(timeout) (after \(redirects) redirects)", url: url)
            }
            let response: HTTPResponse
            do {
                response = try transport.send(HTTPRequest(url: target, headers: headers, timeout: remaining, maxBodyBytes: maxBodyBytes,
                                                           isCancelled: isCancelled))
            } catch {
                // Errors name the URL the loader asked for, not a redirect's,
                // and a timeout the whole download's.
                let message = error.code == .timeout ? "no complete response within \(timeout) (\(error.message))" : error.message
                throw DownloadError(code: error.code, message: message, url: url, httpStatus: error.httpStatus)
            }
            guard let location = response.location, (300...399).contains(response.status), response.status != 304 else { return response }
            func refuse(_ why: String) -> DownloadError {
                DownloadError(code: .httpStatus, message: "the server answered HTTP \(response.status), a redirect to \(location), not followed: \(why)",
                              url: url, httpStatus: response.status)
            }
            guard let from = Origin(target), let to = Origin(location) else { throw refuse("it is not an http:// or https:// URL") }
            if from.isHTTPS && !to.isHTTPS { throw refuse("it goes from https to http") }
            if from.host != to.host {
                guard followsRedirectsToOtherHosts else {
                    throw refuse("it leads to another host (\(to.host)); the follow_redirects_to_other_hosts option allows that")
                }
                // As libcurl does: credentials stay with the host they were given for.
                headers.removeAll { ["authorization", "cookie"].contains($0.name.lowercased()) }
            }
            redirects += 1
            guard redirects <= Self.maxRedirects else { throw refuse("more than \(Self.maxRedirects) redirects") }
            target = location
        }
    }
}

/// The library's transport: libcurl, through the CHTTP shim (loaded at first use).
struct CurlTransport: HTTPTransport {
    var userAgent: String
    /// CA certificates for HTTPS, the only ones trusted, or nil for the system's.
    var caFile: String?

    func send(_ request: HTTPRequest) throws(DownloadError) -> HTTPResponse {
        let lines = request.headers.map { "\($0.name): \($0.value)" }
        var cLines: [UnsafeMutablePointer<CChar>?] = lines.map { strdup($0) }
        defer { cLines.forEach { free($0) } }
        let (seconds, attoseconds) = request.timeout.components
        let milliseconds = max(1, Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000))

        var response = chttp_response()
        defer { chttp_response_dispose(&response) }
        let result: Int32 = request.url.withCString { cURL in
            userAgent.withCString { cAgent in
                withOptionalCString(caFile) { cCA in
                    cLines.withUnsafeMutableBufferPointer { buffer in
                        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                            var c = chttp_request()
                            c.url = cURL
                            c.headers = UnsafePointer(rebound.baseAddress)
                            c.header_count = rebound.count
                            c.timeout_ms = milliseconds
                            c.max_body_bytes = request.maxBodyBytes
                            c.user_agent = cAgent
                            c.ca_file = cCA
                            guard var isCancelled = request.isCancelled else { return chttp_get(&c, &response) }
                            return withUnsafeMutablePointer(to: &isCancelled) { asked in
                                c.cancelled = { $0!.assumingMemoryBound(to: (@Sendable () -> Bool).self).pointee() ? 1 : 0 }
                                c.cancel_context = UnsafeMutableRawPointer(asked)
                                return chttp_get(&c, &response)
                            }
                        }
                    }
                }
            }
        }
        let message = withUnsafeBytes(of: response.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let status = response.http_status > 0 ? Int(response.http_status) : nil
        let code: DownloadError.Code
        switch result {
        case Int32(CHTTP_OK.rawValue):
            let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
            return HTTPResponse(status: Int(response.http_status), body: body,
                                etag: response.etag.map { String(cString: $0) },
                                lastModified: response.last_modified.map { String(cString: $0) },
                                location: response.redirect_url.map { String(cString: $0) })
        case Int32(CHTTP_UNAVAILABLE.rawValue): code = .unavailable
        case Int32(CHTTP_TIMEOUT.rawValue): code = .timeout
        case Int32(CHTTP_TOO_LARGE.rawValue): code = .tooLarge
        case Int32(CHTTP_TRUNCATED.rawValue): code = .truncated
        case Int32(CHTTP_NO_MEMORY.rawValue): code = .noMemory
        default: code = .transport
        }
        throw DownloadError(code: code, message: code == .truncated ? "the body was cut short (\(message))" : message,
                            url: request.url, httpStatus: code == .unavailable ? nil : status)
    }
}

/// The scheme and host of an http(s) URL, as far as the redirect policy
/// needs them: the host lower-cased, without user information or port.
private struct Origin {
    let isHTTPS: Bool
    let host: String

    init?(_ url: String) {
        let lower = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else { return nil }
        isHTTPS = scheme == "https://"
        var authority = lower.dropFirst(scheme.count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = String(authority[...close])  // an IPv6 literal, brackets kept
        } else {
            host = String(authority.prefix { $0 != ":" })
        }
        if host.isEmpty { return nil }
    }
}

/// Calls `body` with a C string of `string`, or NULL when it is nil.
package func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
