import PathConfigLoading
import PathConfigCore

// The loader handle: a thin translation of `ConfigurationLoader`. Sources and
// options are parsed by the core (`ConfigurationSource.list(json:)`,
// `LoaderOptions(json:)`), so C and the bindings never disagree.

/// What a `pathconfig_loader *` points at: a `ConfigurationLoader`, whose
/// event handler is the host's callback (`HostCallback`).
///
/// The host holds it +1 (from `pathconfig_loader_new`) until
/// `pathconfig_loader_free`. Every call that runs the chain holds its own
/// reference for the duration, so the loader outlives a call in progress
/// (and a `pathconfig_loader_free` from inside that call's callback).
enum LoaderHandle {
    /// The loader behind a host pointer, +0 (NULL is an argument error).
    static func borrow(_ handle: OpaquePointer?) throws(CFailure) -> ConfigurationLoader {
        try unmanagedHandle(handle, "loader", as: ConfigurationLoader.self).takeUnretainedValue()
    }

    /// Runs `body` with the loader retained for the duration of the call.
    static func with<T>(_ handle: OpaquePointer?, _ body: (ConfigurationLoader) throws(CFailure) -> T) throws(CFailure) -> T {
        let unmanaged = try Unmanaged.passRetained(borrow(handle))
        defer { unmanaged.release() }
        return try body(unmanaged.takeUnretainedValue())
    }
}

/// Runs a loader operation. The core refuses one called from inside the
/// loader's own callback, or while that callback runs on another thread
/// (PATHCONFIG_E_MISUSE), or in a child of fork() (PATHCONFIG_E_FORKED),
/// before doing or starting anything; the message names `function`.
private func operation(_ function: StaticString, _ body: () throws(LoaderError) -> [LoaderEvent]) throws(CFailure) -> [LoaderEvent] {
    do throws(LoaderError) {
        return try body()
    } catch .reentrantCall {
        throw CFailure(.misuse, "\(function) called from the loader's own callback, on the thread running the chain; nothing was done; call it from another thread")
    } catch .handlerRunning {
        throw CFailure(.misuse, "\(function) called while the loader's callback runs on another thread (or from inside it, where an FFI runs callbacks on a thread of its own); nothing was done; call it once the callback has returned")
    } catch .forked(let parent) {
        throw CFailure(.forked, "\(function) called in a child of fork() on a loader made in process \(parent); nothing was done; create a loader in this process (pathconfig_loader_current and pathconfig_loader_free still work)")
    } catch {
        throw CFailure(error)
    }
}

/// The last failure among `events`, its message prefixed with the source
/// ("server URL: ...") for a caller that sees no event.
private func lastFailure(_ events: [LoaderEvent]) -> CFailure? {
    guard let event = events.last(where: \.isFailure), let error = event.error else { return nil }
    var failure = CFailure(error)
    failure.message = "\(event.origin) \(event.location): \(failure.message)"
    return failure
}

@_cdecl("pathconfig_loader_new")
public func pathconfig_loader_new(_ sourcesJSON: UnsafePointer<CChar>?, _ optionsJSON: UnsafePointer<CChar>?,
                                  _ err: UnsafeMutableRawPointer?) -> OpaquePointer? {
    boundary(err, or: nil) { () throws(CFailure) -> OpaquePointer? in
        let sourcesText = try hostString(sourcesJSON, "sources_json")
        let optionsText = try optionalHostString(optionsJSON, "options_json")
        return try configuring { () throws(ConfigurationError) in
            let sources = try ConfigurationSource.list(json: sourcesText)
            let options = try LoaderOptions(json: optionsText)
            let loader = try ConfigurationLoader(sources: sources, options: options)
            return OpaquePointer(Unmanaged.passRetained(loader).toOpaque())
        }
    }
}

@_cdecl("pathconfig_loader_set_callback")
public func pathconfig_loader_set_callback(_ loader: OpaquePointer?,
                                           _ callback: (@convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Void)?,
                                           _ payload: UnsafeMutableRawPointer?,
                                           _ freePayload: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) -> Int32 {
    status { () throws(CFailure) in
        // Retained: the old payload's free function may free the loader.
        try LoaderHandle.with(loader) { loader in
            // Wrapped only once the loader is known: on failure the payload stays the caller's.
            loader.setEventHandler(callback.map { HostCallback($0, payload, freePayload).handler })
        }
    }
}

@_cdecl("pathconfig_loader_load")
public func pathconfig_loader_load(_ loader: OpaquePointer?, _ err: UnsafeMutableRawPointer?) -> Int32 {
    status(err) { () throws(CFailure) in
        try LoaderHandle.with(loader) { loader throws(CFailure) in
            let events = try operation("pathconfig_loader_load") { () throws(LoaderError) in try loader.load() }
            if loader.current != nil { return }
            throw lastFailure(events) ?? CFailure(.internal, "the chain ended with no configuration and no failure")
        }
    }
}

@_cdecl("pathconfig_loader_refresh")
public func pathconfig_loader_refresh(_ loader: OpaquePointer?, _ err: UnsafeMutableRawPointer?) -> Int32 {
    status(err) { () throws(CFailure) in
        try LoaderHandle.with(loader) { loader throws(CFailure) in
            let events = try operation("pathconfig_loader_refresh") { () throws(LoaderError) in try loader.refresh() }
            if let failure = lastFailure(events) { throw failure }
        }
    }
}

@_cdecl("pathconfig_loader_current")
public func pathconfig_loader_current(_ loader: OpaquePointer?) -> OpaquePointer? {
    boundary(or: nil) { () throws(CFailure) -> OpaquePointer? in
        try LoaderHandle.borrow(loader).current.map { ConfigHandle.pass($0) }
    }
}

@_cdecl("pathconfig_loader_cache_file")
public func pathconfig_loader_cache_file(_ loader: OpaquePointer?, _ url: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        let handle = try LoaderHandle.borrow(loader)
        let text = try hostString(url, "url")
        return try handle.cacheFile(for: text).map { path throws(CFailure) in try mallocCString(path) }
    }
}

@_cdecl("pathconfig_loader_free")
public func pathconfig_loader_free(_ loader: OpaquePointer?) {
    guard let loader else { return }
    let unmanaged = Unmanaged<ConfigurationLoader>.fromOpaque(UnsafeRawPointer(loader))
    // No event after this; polling stops, the callback is removed, and
    // nothing waits for a callback in progress, here or on another thread:
    // the core keeps the running callback, and an operation in progress
    // keeps the loader, until its call ends (`ConfigurationLoader.close`).
    unmanaged.takeUnretainedValue().close()
    unmanaged.release()
}
