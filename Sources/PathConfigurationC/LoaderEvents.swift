import CPathConfigHeader
import PathConfigLoading
import PathConfigCore

// A `LoaderEvent` on its way to a host callback: `struct
// pathconfig_loader_event` as the header lays it out, and the host's callback
// wrapped as the loader's event handler.

/// The C function pointer type `pathconfig_loader_callback`.
typealias LoaderCallback = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Void

extension LoaderEvent {
    /// `PATHCONFIG_EVENT_*`.
    fileprivate var cKind: Int32 {
        switch outcome {
        case .applied: PATHCONFIG_EVENT_APPLIED
        case .superseded: PATHCONFIG_EVENT_SUPERSEDED
        case .notModified: PATHCONFIG_EVENT_NOT_MODIFIED
        case .failed: PATHCONFIG_EVENT_FAILED
        case .warning: PATHCONFIG_EVENT_WARNING
        }
    }

    /// `PATHCONFIG_SOURCE_*`.
    fileprivate var cSourceKind: Int32 {
        switch origin {
        case .data: PATHCONFIG_SOURCE_DATA
        case .file: PATHCONFIG_SOURCE_FILE
        case .cache: PATHCONFIG_SOURCE_CACHE
        case .server: PATHCONFIG_SOURCE_SERVER
        }
    }

    /// The failure's `PATHCONFIG_DOWNLOAD_*` or `PATHCONFIG_CACHE_*`, and a
    /// download's HTTP status; 0 where none applies.
    fileprivate var cReason: (reason: Int32, httpStatus: Int32) {
        switch error {
        case .download(let e)?: (Self.reason(e.code), e.httpStatus.map { Int32(clamping: $0) } ?? 0)
        case .cache(let e)?: (Self.reason(e.code), 0)
        default: (0, 0)
        }
    }

    /// `PATHCONFIG_DOWNLOAD_*`.
    private static func reason(_ code: DownloadError.Code) -> Int32 {
        switch code {
        case .unavailable: PATHCONFIG_DOWNLOAD_UNAVAILABLE
        case .transport: PATHCONFIG_DOWNLOAD_TRANSPORT
        case .timeout: PATHCONFIG_DOWNLOAD_TIMEOUT
        case .tooLarge: PATHCONFIG_DOWNLOAD_TOO_LARGE
        case .truncated: PATHCONFIG_DOWNLOAD_TRUNCATED
        case .httpStatus: PATHCONFIG_DOWNLOAD_HTTP_STATUS
        case .noMemory: PATHCONFIG_DOWNLOAD_NOMEM
        }
    }

    /// `PATHCONFIG_CACHE_*`.
    private static func reason(_ code: CacheError.Code) -> Int32 {
        switch code {
        case .corrupt: PATHCONFIG_CACHE_CORRUPT
        case .unreadable: PATHCONFIG_CACHE_UNREADABLE
        case .unwritable: PATHCONFIG_CACHE_UNWRITABLE
        }
    }
}

extension CFailure {
    /// Translates a loader error: a configuration error keeps its code and
    /// position; downloads, cache files, misuse and a fork get the loader's
    /// codes.
    init(_ error: LoaderError) {
        switch error {
        case .configuration(let e): self.init(e)
        case .download(let e): self.init(.download, e.message)
        case .cache(let e): self.init(.cache, e.message)
        case .reentrantCall, .handlerRunning: self.init(.misuse, error.description)
        case .forked: self.init(.forked, error.description)
        }
    }
}

/// The C function pointer type `pathconfig_loader_payload_free`.
typealias PayloadFree = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// A host's callback with its payload, captured by the event handler the
/// loader holds. The core never releases a handler while it runs (see
/// `ConfigurationLoader.setEventHandler`), so `freePayload` runs exactly when
/// the header promises: once the callback is replaced or removed and no call
/// of it is running.
final class HostCallback: @unchecked Sendable {  // the payload is the host's; the header says which threads use it
    private let callback: LoaderCallback
    private let payload: UnsafeMutableRawPointer?
    private let freePayload: PayloadFree?

    init(_ callback: LoaderCallback, _ payload: UnsafeMutableRawPointer?, _ freePayload: PayloadFree?) {
        self.callback = callback
        self.payload = payload
        self.freePayload = freePayload
    }

    deinit { freePayload?(payload) }

    var handler: ConfigurationLoader.EventHandler { { event in self.deliver(event) } }

    /// Hands `event` to the host's callback. Everything the event points to
    /// lives on this stack frame (or, for the configuration, in a reference
    /// released after the call) and is gone when the call returns.
    func deliver(_ event: LoaderEvent) {
        let failure = event.error.map { CFailure($0) }
        let (reason, httpStatus) = event.cReason
        let configuration = event.configuration.map { ConfigHandle.pass($0) }
        defer { if let configuration { Unmanaged<ConfigHandle>.fromOpaque(UnsafeRawPointer(configuration)).release() } }
        var error = pathconfig_error()
        withUnsafeMutablePointer(to: &error) { error in
            ErrorLayout.write(failure, to: error)
            event.location.withCString { location in
                withOptionalCString(event.url) { url in
                    event.description.withCString { description in
                        var c = pathconfig_loader_event(
                            version: PATHCONFIG_LOADER_EVENT_VERSION, kind: event.cKind, source_kind: event.cSourceKind,
                            source_index: Int32(clamping: event.sourceIndex), byte_count: event.byteCount.map { Int64($0) } ?? -1,
                            http_status: httpStatus, reason: reason, location: location, url: url,
                            error: failure == nil ? nil : UnsafePointer(error), configuration: configuration,
                            description: description)
                        withUnsafePointer(to: &c) { callback(UnsafeRawPointer($0), payload) }
                    }
                }
            }
        }
    }
}
