import PathConfigCore

/// How a `ConfigurationLoader` loads, downloads, caches and polls.
public struct LoaderOptions: Sendable {
    /// How each configuration is decoded and compiled (profile, engine, limits).
    public var load: LoadOptions
    /// Where server copies are cached, one file per URL; nil keeps no cache.
    /// Created (mode 0700) on the first write when missing.
    public var cacheDirectory: String?
    /// The longest one download may take, connecting and redirects included
    /// (default 30 s).
    public var timeout: Duration
    /// The largest body accepted from a server (default 8 MiB), counted after
    /// content decoding (a gzip body is measured unzipped); a larger one
    /// aborts the transfer. `load.limits.maxDocumentBytes` applies too.
    public var maxBodyBytes: Int
    /// When set, `load()` starts a background thread that calls `refresh()`
    /// at this interval until `stop()` or the loader is released.
    public var refreshInterval: Duration?
    /// The `User-Agent` request header.
    public var userAgent: String
    /// A PEM file of CA certificates to trust for HTTPS instead of the
    /// system's (for private servers, or to pin a CA): only its CAs are
    /// trusted, not libcurl's default bundle or CA directory. Nil uses
    /// libcurl's defaults.
    public var caFile: String?
    /// Whether a download follows a redirect to another host (default
    /// false: it fails, naming the target). Redirects on the same host (any
    /// port) are followed, at most 5; one from https to http never is.
    /// Following one to another host drops the `Authorization` and `Cookie`
    /// headers, as libcurl does; the other headers are sent again.
    public var followRedirectsToOtherHosts: Bool

    /// Creates options; every argument has the default described above.
    public init(load: LoadOptions = LoadOptions(), cacheDirectory: String? = nil, timeout: Duration = .seconds(30),
                maxBodyBytes: Int = 8 << 20, refreshInterval: Duration? = nil, userAgent: String = "libpathconfig/\(PathConfigurationVersion.string)",
                caFile: String? = nil, followRedirectsToOtherHosts: Bool = false) {
        self.load = load
        self.cacheDirectory = cacheDirectory
        self.timeout = timeout
        self.maxBodyBytes = maxBodyBytes
        self.refreshInterval = refreshInterval
        self.userAgent = userAgent
        self.caFile = caFile
        self.followRedirectsToOtherHosts = followRedirectsToOtherHosts
    }

    /// The body limit actually applied: the smaller of `maxBodyBytes` and the
    /// document limit.
    public var effectiveMaxBodyBytes: Int { min(maxBodyBytes, load.limits.maxDocumentBytes) }
}
