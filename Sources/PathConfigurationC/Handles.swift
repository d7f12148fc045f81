import PathConfigLoading
import PathConfigCore

/// What a `pathconfig *` points at: a loaded configuration.
///
/// The host holds the handle as an `Unmanaged` reference: load returns it +1,
/// `pathconfig_retain` and `pathconfig_release` move the Swift reference count
/// (atomic, so any thread may retain or release). The configuration is
/// immutable and thread-safe, so one handle serves every thread.
final class ConfigHandle {
    let configuration: PathConfiguration
    /// The warnings' messages as C strings, made on first request (under the
    /// lock, as any thread may ask) and freed with the handle.
    private let warningMessages = Locked<[OwnedCString]?>(nil)
    /// The settings and the options as JSON text, made on first request.
    private let texts = Locked<(settings: OwnedCString?, options: OwnedCString?)>((nil, nil))

    init(_ configuration: PathConfiguration) {
        self.configuration = configuration
    }

    deinit {
        warningMessages.withLock { $0?.forEach { $0.deallocate() } }
        texts.withLock { t in
            t.settings?.deallocate()
            t.options?.deallocate()
        }
    }

    /// `settings` as compact JSON, borrowed from the handle.
    var settingsText: UnsafePointer<CChar> {
        get throws(CFailure) { try kept(\.settings) { JSONWriter.compact(configuration.settings) } }
    }

    /// The options in effect as compact JSON, borrowed from the handle.
    var optionsText: UnsafePointer<CChar> {
        get throws(CFailure) { try kept(\.options) { JSONWriter.compact(.object(configuration.options.jsonObject)) } }
    }

    /// The text in `slot`, made by `make` on the first request.
    private func kept(_ slot: WritableKeyPath<(settings: OwnedCString?, options: OwnedCString?), OwnedCString?>,
                      _ make: () -> String) throws(CFailure) -> UnsafePointer<CChar> {
        try texts.withLock { t throws(CFailure) -> OwnedCString in
            if let made = t[keyPath: slot] { return made }
            let made = try OwnedCString(make())
            t[keyPath: slot] = made
            return made
        }.borrowed
    }

    /// A new +1 handle for the host.
    static func pass(_ configuration: PathConfiguration) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(ConfigHandle(configuration)).toOpaque())
    }

    /// The handle behind a host pointer (NULL is an argument error). The
    /// host's reference keeps it alive for the duration of the call.
    static func handle(_ handle: OpaquePointer?) throws(CFailure) -> ConfigHandle {
        try unmanaged(handle).takeUnretainedValue()
    }

    /// The handle behind a host pointer, unmanaged (NULL is an argument error).
    static func unmanaged(_ handle: OpaquePointer?) throws(CFailure) -> Unmanaged<ConfigHandle> { try unmanagedHandle(handle, "cfg") }

    /// `body` of the configuration behind a host handle (NULL is an argument
    /// error), lent without counting a reference: the host's reference keeps
    /// it alive for the call, and a count on an object every thread shares
    /// costs each lookup a contended atomic. For the lookup functions.
    static func withConfiguration<R>(_ handle: OpaquePointer?, _ body: (PathConfiguration) throws(CFailure) -> R) throws(CFailure) -> R {
        // _withUnsafeGuaranteedRef rethrows untyped errors: the outcome is
        // carried out as a Result.
        let outcome = try unmanaged(handle)._withUnsafeGuaranteedRef { h -> Result<R, CFailure> in
            do throws(CFailure) { return .success(try body(h.configuration)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// The `i`th warning's message, borrowed from the handle; every message
    /// is made on the first request.
    func warningMessage(at i: Int) throws(CFailure) -> UnsafePointer<CChar> {
        let warnings = configuration.warnings
        return try warningMessages.withLock { made throws(CFailure) -> OwnedCString in
            if let made { return made[i] }
            var strings: [OwnedCString] = []
            strings.reserveCapacity(warnings.count)
            do throws(CFailure) {
                for w in warnings { strings.append(try OwnedCString(w.message)) }
            } catch {
                strings.forEach { $0.deallocate() }
                throw error
            }
            made = strings
            return strings[i]
        }.borrowed
    }
}

@_cdecl("pathconfig_retain")
public func pathconfig_retain(_ cfg: OpaquePointer?) -> OpaquePointer? {
    boundary(or: nil) { () throws(CFailure) -> OpaquePointer? in
        _ = try ConfigHandle.unmanaged(cfg).retain()
        return cfg
    }
}

@_cdecl("pathconfig_release")
public func pathconfig_release(_ cfg: OpaquePointer?) {
    guard let cfg else { return }
    Unmanaged<ConfigHandle>.fromOpaque(UnsafeRawPointer(cfg)).release()
}
