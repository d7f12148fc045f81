/// Where a `ConfigurationLoader` gets a configuration from.
///
/// A loader runs its sources in order; a later source's good configuration
/// replaces an earlier one (never merges with it). Bundle a file or data
/// first, so there is always a configuration, then name the server copy.
public enum ConfigurationSource: Sendable {
    /// JSON bytes the host already has (a bundled resource, an embedded
    /// string). `name` is how events and diagnostics call it.
    case data([UInt8], name: String = "data")
    /// A JSON file on disk, read each time the chain runs.
    case file(String)
    /// An `http://` or `https://` URL, downloaded with these extra request
    /// headers (for example `("Accept", "application/json")`), cached in the
    /// loader's cache directory when it has one.
    case server(String, headers: [(name: String, value: String)] = [])

    /// The name, path or URL, as events and diagnostics show it.
    public var location: String {
        switch self {
        case .data(_, let name): return name
        case .file(let path): return path
        case .server(let url, _): return url
        }
    }
}
