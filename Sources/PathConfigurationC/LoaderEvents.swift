import PathConfiguration

// A `LoaderEvent` on its way to a host callback: `struct
// pathconfig_loader_event` laid out by hand, and the host's callback wrapped
// as the loader's event handler.

/// The C function pointer type `pathconfig_loader_callback`.
typealias LoaderCallback = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Void

/// The memory layout of `struct pathconfig_loader_event`: four `int`, an
/// `int64_t`, two `int`, then five pointers, so that no field needs padding
/// on 32- or 64-bit ABIs. Tests/CTests checks these against `offsetof`.
enum EventLayout {
    /// `PATHCONFIG_LOADER_EVENT_VERSION`.
    static let version: Int32 = 1

    static let versionOffset = 0
    static let kind = 4
    static let sourceKind = 8
    static let sourceIndex = 12
    static let byteCount = 16
    static let httpStatus = 24
    static let reason = 28
    private static let p = MemoryLayout<UnsafeRawPointer>.size
    static let location = 32
    static let url = 32 + p
    static let error = 32 + 2 * p
    static let configuration = 32 + 3 * p
    static let description = 32 + 4 * p
    static let size = 32 + 5 * p
}

/// The C view of one event's fields (strings and pointers excluded).
struct CEvent {
    var kind: Int32
    var sourceKind: Int32
    var sourceIndex: Int32
    var byteCount: Int64
    var httpStatus: Int32
    var reason: Int32
    /// The failure or warning, as `pathconfig_error` carries it.
    var failure: CFailure?

    init(_ event: LoaderEvent) {
        switch event.outcome {
        case .applied: kind = 1
        case .superseded: kind = 2
        case .notModified: kind = 3
        case .failed: kind = 4
        case .warning: kind = 5
        }
        sourceKind = Int32(event.origin.rawValue)
        sourceIndex = Int32(clamping: event.sourceIndex)
        byteCount = event.byteCount.map { Int64($0) } ?? -1
        httpStatus = 0
        reason = 0
        if let error = event.error {
            failure = CFailure(error)
            switch error {
            case .download(let e):
                reason = Int32(e.code.rawValue)
                httpStatus = e.httpStatus.map { Int32(clamping: $0) } ?? 0
            case .cache(let e):
                reason = Int32(e.code.rawValue)
            case .configuration, .reentrantCall:
                break
            }
        }
    }
}

extension CFailure {
    /// Translates a loader error: a configuration error keeps its code and
    /// position; downloads, cache files and misuse get the loader's codes.
    init(_ error: LoaderError) {
        switch error {
        case .configuration(let e): self.init(e)
        case .download(let e): self.init(.download, e.message)
        case .cache(let e): self.init(.cache, e.message)
        case .reentrantCall: self.init(.misuse, error.description)
        }
    }

    /// The failure an event reports, its message prefixed with the source
    /// ("server URL: ...") for a caller that sees no event.
    init?(describing event: LoaderEvent) {
        guard let error = event.error else { return nil }
        self.init(error)
        message = "\(event.origin) \(event.location): \(message)"
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

    /// The handler to give the loader.
    var handler: ConfigurationLoader.EventHandler { { event in self.deliver(event) } }

    /// Hands `event` to the host's callback. Everything the event points to
    /// lives on this stack frame (or, for the configuration, in a reference
    /// released after the call) and is gone when the call returns.
    func deliver(_ event: LoaderEvent) {
        let fields = CEvent(event)
        let configuration = event.configuration.map { ConfigHandle.pass($0) }
        defer { if let configuration { Unmanaged<ConfigHandle>.fromOpaque(UnsafeRawPointer(configuration)).release() } }
        withUnsafeTemporaryAllocation(byteCount: EventLayout.size + ErrorLayout.size, alignment: 8) { memory in
            guard let base = memory.baseAddress else { return }
            let error = base + EventLayout.size
            ErrorLayout.write(fields.failure, to: error)
            base.storeBytes(of: EventLayout.version, toByteOffset: EventLayout.versionOffset, as: Int32.self)
            base.storeBytes(of: fields.kind, toByteOffset: EventLayout.kind, as: Int32.self)
            base.storeBytes(of: fields.sourceKind, toByteOffset: EventLayout.sourceKind, as: Int32.self)
            base.storeBytes(of: fields.sourceIndex, toByteOffset: EventLayout.sourceIndex, as: Int32.self)
            base.storeBytes(of: fields.byteCount, toByteOffset: EventLayout.byteCount, as: Int64.self)
            base.storeBytes(of: fields.httpStatus, toByteOffset: EventLayout.httpStatus, as: Int32.self)
            base.storeBytes(of: fields.reason, toByteOffset: EventLayout.reason, as: Int32.self)
            base.storeBytes(of: fields.failure == nil ? nil : UnsafeRawPointer(error), toByteOffset: EventLayout.error,
                            as: UnsafeRawPointer?.self)
            base.storeBytes(of: configuration.map { UnsafeRawPointer($0) }, toByteOffset: EventLayout.configuration,
                            as: UnsafeRawPointer?.self)
            event.location.withCString { location in
                withOptionalCString(event.url) { url in
                    event.description.withCString { description in
                        base.storeBytes(of: UnsafeRawPointer(location), toByteOffset: EventLayout.location, as: UnsafeRawPointer.self)
                        base.storeBytes(of: url.map { UnsafeRawPointer($0) }, toByteOffset: EventLayout.url, as: UnsafeRawPointer?.self)
                        base.storeBytes(of: UnsafeRawPointer(description), toByteOffset: EventLayout.description,
                                        as: UnsafeRawPointer.self)
                        callback(UnsafeRawPointer(base), payload)
                    }
                }
            }
        }
    }
}

/// Calls `body` with a C string of `string`, or NULL when it is nil.
private func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
