import CHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A response that arrived (any status). Only a 200 carries its body.
struct HTTPResponse: Sendable {
    /// The final status code, after redirects.
    var status: Int
    /// The body of a 200, empty otherwise.
    var body: [UInt8]
    /// The `ETag` header, when present.
    var etag: String?
    /// The `Last-Modified` header, when present.
    var lastModified: String?
}

/// One HTTP GET through the CHTTP shim (libcurl, loaded at first use).
struct HTTPClient: Sendable {
    /// The whole-transfer timeout.
    var timeout: Duration
    /// The largest 200 body accepted.
    var maxBodyBytes: Int
    /// The `User-Agent` header.
    var userAgent: String
    /// CA certificates for HTTPS, or nil for the system's.
    var caFile: String?

    /// Fetches `url` with `headers` (`(name, value)` pairs), or says why not.
    func get(_ url: String, headers: [(name: String, value: String)]) throws(DownloadError) -> HTTPResponse {
        let lines = headers.map { "\($0.name): \($0.value)" }
        var cLines: [UnsafeMutablePointer<CChar>?] = lines.map { strdup($0) }
        defer { cLines.forEach { free($0) } }
        let (seconds, attoseconds) = timeout.components
        let milliseconds = max(1, Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000))

        var response = chttp_response()
        defer { chttp_response_dispose(&response) }
        let result: Int32 = url.withCString { cURL in
            userAgent.withCString { cAgent in
                withOptionalCString(caFile) { cCA in
                    cLines.withUnsafeMutableBufferPointer { buffer in
                        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { rebound in
                            var request = chttp_request()
                            request.url = cURL
                            request.headers = UnsafePointer(rebound.baseAddress)
                            request.header_count = rebound.count
                            request.timeout_ms = milliseconds
                            request.max_body_bytes = maxBodyBytes
                            request.user_agent = cAgent
                            request.ca_file = cCA
                            return chttp_get(&request, &response)
                        }
                    }
                }
            }
        }
        let message = withUnsafeBytes(of: response.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        let status = response.http_status > 0 ? Int(response.http_status) : nil
        switch result {
        case Int32(CHTTP_OK.rawValue):
            let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
            return HTTPResponse(status: Int(response.http_status), body: body,
                                etag: response.etag.map { String(cString: $0) },
                                lastModified: response.last_modified.map { String(cString: $0) })
        case Int32(CHTTP_UNAVAILABLE.rawValue):
            throw DownloadError(code: .unavailable, message: message, url: url)
        case Int32(CHTTP_TIMEOUT.rawValue):
            throw DownloadError(code: .timeout, message: "no complete response within \(timeout) (\(message))", url: url, httpStatus: status)
        case Int32(CHTTP_TOO_LARGE.rawValue):
            throw DownloadError(code: .tooLarge, message: message, url: url, httpStatus: status)
        case Int32(CHTTP_TRUNCATED.rawValue):
            throw DownloadError(code: .truncated, message: "the body was cut short (\(message))", url: url, httpStatus: status)
        case Int32(CHTTP_NO_MEMORY.rawValue):
            throw DownloadError(code: .noMemory, message: message, url: url, httpStatus: status)
        default:
            throw DownloadError(code: .transport, message: message, url: url, httpStatus: status)
        }
    }
}

/// Calls `body` with a C string of `string`, or NULL when it is nil.
private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
