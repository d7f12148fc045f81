#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import PathConfigCore

/// The work behind `ConfigurationLoader`: the chain, the downloads, the
/// cache, and the atomic swap of the current configuration.
///
/// Kept apart from the public class so that the polling thread can hold the
/// engine without keeping the loader alive (the loader's deinit stops it).
final class LoaderEngine: Sendable {
    /// What readers see, swapped whole under a mutex held for nanoseconds.
    private struct Published {
        var configuration: PathConfiguration?
        var sourceIndex: Int?
        var event: LoaderEvent?
    }

    /// The last good copy of one server source, with the configuration it made.
    private struct ServerCopy {
        var copy: CachedCopy
        var configuration: PathConfiguration
        /// Whether the cache file holds `copy` (false after a failed write:
        /// the next response, a 304 included, writes it again).
        var isStored: Bool
    }

    let sources: [ConfigurationSource]
    let options: LoaderOptions
    let cache: CacheStore?
    private let http: HTTPClient

    /// Whether a call of the handler is in progress, and whether calls may
    /// still start: under one lock, so that `close()` and a stopping poller
    /// know for certain whether one runs or can still start.
    private struct Calls {
        var running = false
        var closed = false
    }

    /// A function kept in a `Locked`. Kept bare, as the lock's generic
    /// value, a function gained two reabstraction thunks each time
    /// `withLock` lent it out `inout`: read once per event, the handler sank
    /// two frames deeper each time, until a call of it overflowed the
    /// polling thread's stack (8 MiB: about 18,000 events). A struct around
    /// it has one representation, so nothing is wrapped.
    private struct Held<Function: Sendable>: Sendable {
        let function: Function
    }

    private let published = Locked(Published())
    private let handler: Locked<Held<ConfigurationLoader.EventHandler>?>
    /// Serialises load, refresh and polling.
    private let operation = OperationLock()
    private let calls = Locked(Calls())
    /// The running operation's "stopped" (a polling refresh's), checked
    /// before each event and while each download runs: a stopped poller's
    /// events are not delivered, and its download is abandoned.
    private let operationCancelled = Locked<Held<@Sendable () -> Bool>?>(nil)
    /// Per server source; read and written only under `operation`.
    private let copies = Locked<[Int: ServerCopy]>([:])
    private let hasLoaded = Atomic<Bool>(false)
    /// The process that made the loader, where its polling thread runs: in a
    /// child of `fork()`, a lock that thread held at the fork stays held.
    private let process = getpid()

    /// A loader of `sources`; `transport` sends its requests (libcurl when nil).
    init(sources: [ConfigurationSource], options: LoaderOptions, handler: ConfigurationLoader.EventHandler?,
         transport: (any HTTPTransport)? = nil) {
        self.sources = sources
        self.options = options
        self.cache = options.cacheDirectory.map { CacheStore(directory: $0) }
        self.http = HTTPClient(timeout: options.timeout, maxBodyBytes: options.effectiveMaxBodyBytes,
                               followsRedirectsToOtherHosts: options.followRedirectsToOtherHosts,
                               transport: transport ?? CurlTransport(userAgent: options.userAgent, caFile: options.caFile))
        self.handler = Locked(handler.map(Held.init))
    }

    var current: PathConfiguration? { published.withLock { $0.configuration } }
    var currentEvent: LoaderEvent? { published.withLock { $0.event } }

    /// True while the calling thread runs one of this loader's operations
    /// (it is inside the event handler, or the polling thread's refresh).
    var isInsideOperation: Bool { operation.isHeldByCurrentThread }

    /// True while a call of the handler is in progress, on any thread.
    var isHandlerRunning: Bool { calls.withLock { $0.running } }

    /// Replaces the handler: the one place that keeps the guarantees
    /// `ConfigurationLoader.setEventHandler` documents. It never waits: no
    /// call starts with the old handler once it is swapped out, and a call
    /// in progress holds its own reference (see `emit`), so the old handler
    /// is released by whichever lets go last: this thread, or the running
    /// call's once it has returned.
    ///
    /// Waiting for the running call would deadlock a host whose FFI runs the
    /// callback's body on another thread (ruby-ffi does, for callbacks from
    /// a thread Ruby did not make) when that body, or a thread it waits for,
    /// replaces the callback.
    func setHandler(_ handler: ConfigurationLoader.EventHandler?) {
        var handler = handler.map(Held.init)
        self.handler.withLock { swap(&$0, &handler) }
        _ = handler  // now the old handler: released on the way out, unless a call holds it
    }

    /// Delivers no more events: no call of the handler starts once this
    /// returns (one in progress goes on to its end).
    func close() {
        calls.withLock { $0.closed = true }
    }

    // MARK: Operations

    /// Runs the chain once. Throws as `exclusively` does.
    func load() throws(LoaderError) -> [LoaderEvent] {
        try exclusively { () -> [LoaderEvent] in
            var events: [LoaderEvent] = []
            for (index, source) in sources.enumerated() {
                switch source {
                case .data(let bytes, let name):
                    events.append(emit(loadLocal(bytes, origin: .data, index: index, location: name)))
                case .file(let path):
                    do throws(ConfigurationError) {
                        let bytes = try FileReader.read(path, limit: options.load.limits.maxDocumentBytes)
                        events.append(emit(loadLocal(bytes, origin: .file, index: index, location: path)))
                    } catch {
                        events.append(emit(LoaderEvent(outcome: .failed(.configuration(error)), origin: .file, sourceIndex: index, location: path)))
                    }
                case .server(let url, let headers):
                    if let event = loadCachedCopy(index: index, url: url) { events.append(emit(event)) }
                    events += download(index: index, url: url, headers: headers)
                }
            }
            hasLoaded.store(true, ordering: .releasing)
            return events
        }
    }

    /// Downloads every server source again (runs `load()` before the first
    /// load). Throws as `load()` does. Does nothing when `cancelled()` is
    /// true once it holds the operation lock (a polling thread stopped while
    /// it waited for another operation); once it is, delivers no event and
    /// abandons the download in progress (within about a second).
    func refresh(unless cancelled: (@Sendable () -> Bool)? = nil) throws(LoaderError) -> [LoaderEvent] {
        guard hasLoaded.load(ordering: .acquiring) else { return try load() }
        return try exclusively { () -> [LoaderEvent] in
            var events: [LoaderEvent] = []
            if cancelled?() == true { return events }
            operationCancelled.withLock { $0 = cancelled.map(Held.init) }
            defer { operationCancelled.withLock { $0 = nil } }
            for (index, source) in sources.enumerated() {
                guard case .server(let url, let headers) = source else { continue }
                events += download(index: index, url: url, headers: headers)
            }
            return events
        }
    }

    /// `body` run holding the operation lock. Throws, having done nothing,
    /// `.forked` in a child of `fork()`, `.reentrantCall` when this thread
    /// already holds the lock (a handler's call), and `.handlerRunning` when a
    /// call of the handler is in progress on another thread. Waiting for the
    /// operation that runs it would deadlock a host whose FFI runs the
    /// callback's body on the calling thread (the call is then made from
    /// inside the callback), and the library cannot tell that host from one
    /// calling from elsewhere.
    private func exclusively(_ body: () -> [LoaderEvent]) throws(LoaderError) -> [LoaderEvent] {
        guard getpid() == process else { throw .forked(parent: process) }
        if !operation.isHeldByCurrentThread, isHandlerRunning { throw .handlerRunning }
        guard let events = operation.run(body) else { throw .reentrantCall }
        return events
    }

    // MARK: Steps

    /// A data or file source's bytes, loaded and offered.
    private func loadLocal(_ bytes: [UInt8], origin: LoaderEvent.Origin, index: Int, location: String) -> LoaderEvent {
        do {
            let configuration = try PathConfiguration(json: bytes, options: options.load)
            return offer(configuration, origin: origin, index: index, location: location, url: nil, byteCount: bytes.count)
        } catch {
            return LoaderEvent(outcome: .failed(.configuration(error)), origin: origin, sourceIndex: index, location: location, byteCount: bytes.count)
        }
    }

    /// The cached copy of a server source, loaded and offered; nil when
    /// there is no cache or no copy, or when this loader already holds a copy
    /// (from an earlier run: it is at least as new as the file, which may
    /// have failed to update). An unusable copy is a warning.
    private func loadCachedCopy(index: Int, url: String) -> LoaderEvent? {
        guard let cache, copies.withLock({ $0[index] == nil }) else { return nil }
        let file = cache.path(for: url)
        func warning(_ error: LoaderError, bytes: Int? = nil) -> LoaderEvent {
            LoaderEvent(outcome: .warning(error), origin: .cache, sourceIndex: index, location: file, url: url, byteCount: bytes)
        }
        let copy: CachedCopy
        do {
            guard let found = try cache.read(url: url, maxBodyBytes: options.effectiveMaxBodyBytes) else { return nil }
            copy = found
        } catch {
            return warning(.cache(error))
        }
        let configuration: PathConfiguration
        do {
            configuration = try PathConfiguration(json: copy.body, options: options.load, transport: .download)
        } catch {
            return warning(.configuration(error), bytes: copy.body.count)
        }
        copies.withLock { $0[index] = ServerCopy(copy: copy, configuration: configuration, isStored: true) }
        return offer(configuration, origin: .cache, index: index, location: file, url: url, byteCount: copy.body.count)
    }

    /// Downloads a server source (conditionally when a copy is known), then
    /// applies, caches and reports the result. Returns the events emitted.
    private func download(index: Int, url: String, headers: [(name: String, value: String)]) -> [LoaderEvent] {
        let known = copies.withLock { $0[index] }
        func event(_ outcome: LoaderEvent.Outcome, bytes: Int? = nil, configuration: PathConfiguration? = nil) -> LoaderEvent {
            LoaderEvent(outcome: outcome, origin: .server, sourceIndex: index, location: url, url: url, byteCount: bytes, configuration: configuration)
        }
        // Not modified: the known copy current again if another took its
        // place, its cache file written if it is not, and the events.
        func unchanged(_ known: ServerCopy, bytes: Int? = nil) -> [LoaderEvent] {
            install(known.configuration, index: index, event: event(.notModified, configuration: known.configuration))
            let stored = storeIfNeeded(index: index)
            return [emit(event(.notModified, bytes: bytes, configuration: known.configuration))] + stored.map(emit)
        }
        var request = headers
        // Validators come from a server or a cache file: one that would not
        // fit on its header line is not sent (the request is unconditional).
        for (name, value) in [("If-None-Match", known?.copy.etag), ("If-Modified-Since", known?.copy.lastModified)] {
            if let value, SourceValidation.isSendable(value) { request.append((name, value)) }
        }
        let response: HTTPResponse
        do {
            response = try http.get(url, headers: request, isCancelled: operationCancelled.withLock { $0 }?.function)
        } catch {
            return [emit(event(.failed(.download(error))))]
        }
        if response.status == 304, let known { return unchanged(known) }
        guard response.status == 200 else {
            let why = response.status == 304
                ? "the server answered 304 Not Modified to a request that was not conditional"
                : "the server answered HTTP \(response.status); only 200 is accepted"
            return [emit(event(.failed(.download(DownloadError(code: .httpStatus, message: why, url: url, httpStatus: response.status)))))]
        }
        let received = CachedCopy(url: url, body: response.body, etag: response.etag, lastModified: response.lastModified)
        if let known, known.copy.body == received.body {
            // Same bytes again (a server without validators): nothing changes
            // but the validators, which the cache file keeps.
            if known.copy != received {
                copies.withLock { $0[index]?.copy = received; $0[index]?.isStored = false }
            }
            return unchanged(known, bytes: received.body.count)
        }
        let configuration: PathConfiguration
        do {
            configuration = try PathConfiguration(json: received.body, options: options.load, transport: .download)
        } catch {
            return [emit(event(.failed(.configuration(error)), bytes: received.body.count))]
        }
        copies.withLock { $0[index] = ServerCopy(copy: received, configuration: configuration, isStored: false) }
        // Cache first, so a host reacting to the event finds the new file;
        // a failed write is reported after it.
        let stored = storeIfNeeded(index: index)
        let applied = emit(offer(configuration, origin: .server, index: index, location: url, url: url, byteCount: received.body.count))
        return [applied] + stored.map(emit)
    }

    /// Writes the source's known copy to the cache unless the file holds it
    /// already; the warning to report (not yet emitted) when that failed (the
    /// previous file stays, and the next response tries again).
    private func storeIfNeeded(index: Int) -> [LoaderEvent] {
        guard let cache, let known = copies.withLock({ $0[index] }), !known.isStored else { return [] }
        do {
            try cache.write(known.copy)
            copies.withLock { $0[index]?.isStored = true }
            return []
        } catch {
            return [LoaderEvent(outcome: .warning(.cache(error)), origin: .cache, sourceIndex: index,
                                location: error.path, url: known.copy.url)]
        }
    }

    // MARK: Publishing

    /// Makes `configuration` current unless a later source's is; the event
    /// says which happened.
    private func offer(_ configuration: PathConfiguration, origin: LoaderEvent.Origin, index: Int, location: String,
                       url: String?, byteCount: Int) -> LoaderEvent {
        func event(_ outcome: LoaderEvent.Outcome) -> LoaderEvent {
            LoaderEvent(outcome: outcome, origin: origin, sourceIndex: index, location: location, url: url, byteCount: byteCount,
                        configuration: configuration)
        }
        let applied = event(.applied)
        return install(configuration, index: index, event: applied) ? applied : event(.superseded)
    }

    /// Makes `configuration` current, with `event`, unless it is already;
    /// false, changing nothing, when a later source's is current. After "not
    /// modified" it is defensive: in the chain as written the known copy is
    /// already current or superseded, so it normally changes nothing.
    @discardableResult
    private func install(_ configuration: PathConfiguration, index: Int, event: LoaderEvent) -> Bool {
        published.withLock { state -> Bool in
            if let current = state.sourceIndex, current > index { return false }
            if state.configuration !== configuration { state = Published(configuration: configuration, sourceIndex: index, event: event) }
            return true
        }
    }

    /// Hands `event` to the handler, on the operation's thread (holding the
    /// operation lock, never the lock readers of `current` take), unless
    /// the loader is closed or the operation's poller stopped.
    ///
    /// The call holds its own reference to the handler: replaced during the
    /// call, the handler (and what it captured) is released when the call
    /// returns, on this thread. The check and the "running" mark are made
    /// under one lock, so `close()` and a stopping poller see either this
    /// call running or no call starting.
    private func emit(_ event: LoaderEvent) -> LoaderEvent {
        let cancelled = operationCancelled.withLock { $0 }?.function
        let handler = calls.withLock { state -> ConfigurationLoader.EventHandler? in
            guard !state.closed, cancelled?() != true, let handler = self.handler.withLock({ $0 })?.function else { return nil }
            state.running = true
            return handler
        }
        guard let handler else { return event }
        handler(event)
        calls.withLock { $0.running = false }
        return event
    }
}
