import PathConfigCore

/// What one step of a `ConfigurationLoader` did: a configuration applied,
/// a copy found unchanged, a failure, or a warning.
///
/// The loader hands one event to its handler after every step, in order,
/// on the thread running `load()`, `refresh()` or the polling thread.
public struct LoaderEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Outcome: Sendable, Hashable {
        /// The source's configuration is now the loader's current one.
        case applied
        /// The source's configuration loaded, but a later source's stays
        /// current (a later source always wins).
        case superseded
        /// The server answered 304 Not Modified, or sent the same bytes
        /// again: the cached copy stays, nothing changed.
        case notModified
        /// The source gave no configuration; the current one stays.
        case failed(LoaderError)
        /// Something was skipped or not saved (a corrupt cache file, a cache
        /// write that failed); the current configuration stays.
        case warning(LoaderError)
    }

    /// Which kind of source an event is about. The raw values are stable
    /// (the C ABI has its own constants for them, `PATHCONFIG_SOURCE_*`).
    public enum Origin: Int, Sendable, Hashable, CaseIterable {
        /// A `.data` source.
        case data = 0
        /// A `.file` source.
        case file = 1
        /// The cached copy of a `.server` source.
        case cache = 2
        /// The download of a `.server` source.
        case server = 3
    }

    /// What happened.
    public let outcome: Outcome
    /// Data, file, cache or server.
    public let origin: Origin
    /// Index of the source in the loader's `sources`.
    public let sourceIndex: Int
    /// The data's name, the file's path, the cache file's path or the URL.
    public let location: String
    /// The server URL for cache and server events, else nil.
    public let url: String?
    /// Bytes read or downloaded, when a body was.
    public let byteCount: Int?
    /// The configuration the source produced (`applied`, `superseded`, and
    /// `notModified` when one is known).
    public let configuration: PathConfiguration?

    /// Creates an event.
    public init(outcome: Outcome, origin: Origin, sourceIndex: Int, location: String, url: String? = nil,
                byteCount: Int? = nil, configuration: PathConfiguration? = nil) {
        self.outcome = outcome
        self.origin = origin
        self.sourceIndex = sourceIndex
        self.location = location
        self.url = url
        self.byteCount = byteCount
        self.configuration = configuration
    }

    /// The failure or warning, when the outcome is one.
    public var error: LoaderError? {
        switch outcome {
        case .failed(let e), .warning(let e): return e
        default: return nil
        }
    }

    /// True for `.failed`.
    public var isFailure: Bool {
        if case .failed = outcome { return true }
        return false
    }

    /// `ORIGIN LOCATION: what happened`, for logs.
    public var description: String {
        let bytes = byteCount.map { " (\($0) bytes)" } ?? ""
        let what = switch outcome {
        case .applied: "applied" + bytes
        case .superseded: "loaded" + bytes + ", superseded by a later source"
        case .notModified: "not modified"
        case .failed(let e): "failed: \(e)"
        case .warning(let e): "warning: \(e)"
        }
        return "\(origin) \(location): \(what)"
    }
}
