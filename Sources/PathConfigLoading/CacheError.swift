/// A cache file that could not be used or written. Never fatal: the loader
/// ignores the copy (reading) or keeps the configuration (writing) and
/// reports this as a warning.
public struct CacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem. The raw values are stable (the C ABI has its own
    /// constants for them, `PATHCONFIG_CACHE_*`).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The file exists but is not a complete cache entry for the URL
        /// (bad header, wrong length or checksum, another URL's entry).
        case corrupt = 1
        /// The file exists but could not be read.
        case unreadable = 2
        /// A new copy could not be written; the previous file is unchanged.
        case unwritable = 3
    }

    /// What went wrong.
    public let code: Code
    /// A sentence saying what went wrong.
    public let message: String
    /// The cache file concerned.
    public let path: String

    /// Creates an error.
    public init(code: Code, message: String, path: String) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String { message }
}
