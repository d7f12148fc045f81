import PathConfigCore

/// Keeps a path configuration current from an ordered list of sources: a
/// bundled file or data, then server copies (cached, downloaded, polled).
///
/// ```swift
/// let loader = try ConfigurationLoader(
///     sources: [.file("path-configuration.json"),
///               .server("https://example.com/path-configuration.json",
///                       headers: [("Accept", "application/json")])],
///     options: LoaderOptions(cacheDirectory: cacheDirectory, timeout: .seconds(10)))
/// loader.setEventHandler { event in log(event.description) }
/// try loader.load()                              // file, cached copy, download
/// let properties = loader.current?.properties(for: url)
/// ```
///
/// `load()` runs the chain once: each data or file source, then for each
/// server source its cached copy (if any) and its download. A later source's
/// good configuration replaces an earlier one, never merging with it. Bad news
/// never replaces good news: a failed download, a non-200, a body that does
/// not load leaves the current configuration and the cache file untouched,
/// and is reported as a `.failed` event.
///
/// Thread-safe. `current` never blocks on the network and returns a whole
/// configuration; a caller holding an older one keeps it valid. Operations
/// (`load`, `refresh`, polling) run one at a time. The event handler runs on
/// the thread performing the operation, one event at a time; it may read
/// `current`, replace or remove itself (`setEventHandler`), `stop()` and
/// `close()`, and must not capture the loader strongly (that would keep it
/// alive forever). `load()` and `refresh()` called from it throw
/// `LoaderError.reentrantCall`, and `.handlerRunning` while it runs on
/// another thread. Nothing waits for a running handler, so a handler that
/// hands its work to another thread and waits for it deadlocks nothing.
///
/// The handler is never released while it runs, however it is replaced;
/// the C library and the bindings build their callbacks on that (the C
/// payload's destructor is a capture of the handler).
///
/// A loader belongs to the process that made it. In a child of `fork()`,
/// `load()` and `refresh()` throw `LoaderError.forked`, doing nothing: the
/// polling thread, and a download in progress with its locks, stayed in the
/// parent. `current` and releasing the loader still work; make the child's
/// own loader after the fork.
public final class ConfigurationLoader: Sendable {
    /// Receives one event per step of the chain, in order.
    public typealias EventHandler = @Sendable (LoaderEvent) -> Void

    /// The sources, in order.
    public let sources: [ConfigurationSource]
    /// The options the loader was created with.
    public let options: LoaderOptions

    private let engine: LoaderEngine
    private let poller = Locked(Poller())

    /// The polling thread, and how many times `stop()` was called, so that a
    /// `load()` during which the handler called `stop()` starts no thread.
    private struct Poller {
        var thread: PollingThread?
        var stops = 0
    }

    /// Creates a loader; loads nothing yet (call `load()`).
    ///
    /// Throws `.invalidOption` for an empty source list, a URL that is not an
    /// absolute http or https URL, a header that cannot be sent, or a
    /// non-positive timeout, body limit or refresh interval.
    public convenience init(sources: [ConfigurationSource], options: LoaderOptions = LoaderOptions(),
                            onEvent: EventHandler? = nil) throws(ConfigurationError) {
        try self.init(sources: sources, options: options, transport: nil, onEvent: onEvent)
    }

    /// `init(sources:options:onEvent:)` with requests sent by `transport` (nil:
    /// libcurl): for fuzz targets and tests, which feed responses without a socket.
    @_spi(Testing) public init(sources: [ConfigurationSource], options: LoaderOptions = LoaderOptions(),
                               transport: (any HTTPTransport)?, onEvent: EventHandler? = nil) throws(ConfigurationError) {
        try SourceValidation.check(sources, options)
        self.sources = sources
        self.options = options
        self.engine = LoaderEngine(sources: sources, options: options, handler: onEvent, transport: transport)
    }

    deinit { stop() }

    /// The current configuration: the newest good one, nil until a source
    /// has loaded. Never blocks on the network.
    public var current: PathConfiguration? { engine.current }

    /// The event that made `current` current, nil before any.
    public var currentEvent: LoaderEvent? { engine.currentEvent }

    /// Replaces the event handler (nil removes it). It never waits: the old
    /// handler is not called again once this returns (the next event goes
    /// to the new one).
    ///
    /// - While no call of the old handler runs, the old handler is released
    ///   (with whatever it captured) on this thread, before this returns.
    /// - While one runs, on this thread or another, that call goes on to its
    ///   end, and the old handler is released on the call's thread once it
    ///   has returned.
    public func setEventHandler(_ handler: EventHandler?) { engine.setHandler(handler) }

    /// Runs the whole chain once, synchronously, and starts polling when
    /// `options.refreshInterval` is set. Returns the events it reported.
    ///
    /// A source that fails is an event, not an error. Throws
    /// `LoaderError.reentrantCall` when called from inside the event handler
    /// on the thread running an operation: nothing is done, and polling is
    /// not started.
    @discardableResult
    public func load() throws(LoaderError) -> [LoaderEvent] {
        let stopsBefore = poller.withLock { $0.stops }
        let events = try engine.load()
        if let interval = options.refreshInterval {
            poller.withLock { poller in
                guard poller.thread == nil, poller.stops == stopsBefore else { return }
                poller.thread = PollingThread(interval: interval) { [engine] isStopped in _ = try? engine.refresh(unless: isStopped) }
            }
        }
        return events
    }

    /// Downloads every server source again (conditionally, when a copy with
    /// validators is known), synchronously. Before the first `load()`, runs
    /// `load()`'s chain instead (without starting to poll). Returns the
    /// events it reported; throws `LoaderError.reentrantCall`, having done
    /// nothing, when called from inside the event handler as `load()` does.
    @discardableResult
    public func refresh() throws(LoaderError) -> [LoaderEvent] { try engine.refresh() }

    /// Stops background polling: no refresh starts, and a polling refresh
    /// in progress delivers no more events. Idempotent; also done when the
    /// loader is released.
    ///
    /// The refresh abandons its download (within about a second: libcurl
    /// asks as data arrives, and once a second while none does), and
    /// `stop()` waits for it to end, unless a call of the event handler is
    /// in progress, on this thread or any other: then it returns at once
    /// and the refresh ends on its own. Waiting for a handler would deadlock
    /// a host whose handler waits for this thread, as an FFI that runs the
    /// callback's body on a thread of its own does.
    public func stop() {
        let thread = poller.withLock { poller in
            defer { poller.thread = nil }
            poller.stops += 1
            return poller.thread
        }
        // Asked once the thread is marked stopped: from then on, no event of
        // its refresh starts (`LoaderEngine.emit` checks under the same lock
        // that says whether one runs).
        thread?.stop(waiting: { [engine] in !engine.isInsideOperation && !engine.isHandlerRunning })
    }

    /// Stops polling and delivering events, and removes the handler: what
    /// `pathconfig_loader_free` does before releasing the loader. No call of
    /// the handler starts once it returns; one in progress on another thread
    /// goes on to its end, and the handler is then released on that thread.
    /// It never waits for a handler (see `stop()`). Idempotent; the loader
    /// can still load, with no events.
    public func close() {
        engine.close()
        stop()
        engine.setHandler(nil)
    }

    /// The cache file that holds `url`'s copy, nil without a cache directory.
    public func cacheFile(for url: String) -> String? { engine.cache?.path(for: url) }
}
