/// Why a download brought no usable response.
public struct DownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. The raw values are stable (the C ABI has its own
    /// constants for them, `PATHCONFIG_DOWNLOAD_*`).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// libcurl could not be loaded (not installed, or too old).
        case unavailable = 1
        /// Connection refused, DNS, TLS or protocol failure.
        case transport = 2
        /// No complete response within the timeout.
        case timeout = 3
        /// The body was larger than the limit.
        case tooLarge = 4
        /// The connection closed before the announced body was complete.
        case truncated = 5
        /// A status other than 200 (or 304 answering a conditional request),
        /// a redirect not followed among them (`LoaderOptions.followRedirectsToOtherHosts`).
        case httpStatus = 6
        /// Memory ran out while receiving.
        case noMemory = 7
    }

    /// What went wrong.
    public let code: Code
    /// A sentence saying what went wrong.
    public let message: String
    /// The URL that was requested.
    public let url: String
    /// The HTTP status received, when one was.
    public let httpStatus: Int?

    /// Creates an error.
    public init(code: Code, message: String, url: String, httpStatus: Int? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.httpStatus = httpStatus
    }

    public var description: String { message }
}
