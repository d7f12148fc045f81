import PathConfiguration

/// What a `pathconfig *` points at: a loaded configuration.
///
/// The host holds the handle as an `Unmanaged` reference: load returns it +1,
/// `pathconfig_retain` and `pathconfig_release` move the Swift reference count
/// (atomic, so any thread may retain or release). The configuration is
/// immutable and thread-safe, so one handle serves every thread.
final class ConfigHandle {
    let configuration: PathConfiguration

    init(_ configuration: PathConfiguration) {
        self.configuration = configuration
    }

    /// A new +1 handle for the host.
    static func pass(_ configuration: PathConfiguration) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(ConfigHandle(configuration)).toOpaque())
    }

    /// The configuration behind a host handle (NULL is an argument error).
    /// The host's reference keeps it alive for the duration of the call.
    static func borrow(_ handle: OpaquePointer?) throws(CFailure) -> PathConfiguration {
        guard let handle else { throw .argument("cfg is NULL") }
        return Unmanaged<ConfigHandle>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue().configuration
    }
}

@_cdecl("pathconfig_retain")
public func pathconfig_retain(_ cfg: OpaquePointer?) -> OpaquePointer? {
    boundary(or: nil) { () throws(CFailure) -> OpaquePointer? in
        guard let cfg else { throw .argument("cfg is NULL") }
        _ = Unmanaged<ConfigHandle>.fromOpaque(UnsafeRawPointer(cfg)).retain()
        return cfg
    }
}

@_cdecl("pathconfig_release")
public func pathconfig_release(_ cfg: OpaquePointer?) {
    guard let cfg else { return }
    Unmanaged<ConfigHandle>.fromOpaque(UnsafeRawPointer(cfg)).release()
}
