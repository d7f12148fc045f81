import PathConfigCore

/// Why a source gave no configuration, or what a loader noticed on the way.
public enum LoaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes arrived but do not load: invalid JSON, a schema or regex
    /// error, a limit, or (for a file) an I/O error.
    case configuration(ConfigurationError)
    /// The download failed or the server answered something other than 200/304.
    case download(DownloadError)
    /// A cache file was unusable or could not be written.
    case cache(CacheError)
    /// Thrown by `load()` or `refresh()` called from inside the loader's own
    /// event handler, on the thread running an operation: nothing was done,
    /// and polling was not started. Never the error of an event.
    case reentrantCall
    /// Thrown by `load()` or `refresh()` called while a call of the loader's
    /// event handler is in progress on another thread: nothing was done.
    /// That is how a call from inside the handler looks when the host's FFI
    /// runs the handler's body on a thread of its own; from elsewhere, call
    /// again once the handler has returned. Never the error of an event.
    case handlerRunning
    /// Thrown by `load()` or `refresh()` in a child of `fork()`, on a loader
    /// made before the fork in process `parent`: its polling thread, and a
    /// download in progress with the locks it held, stayed there. Nothing
    /// was done. Make a loader in the child; `current` and releasing this
    /// one still work. Never the error of an event.
    case forked(parent: Int32)

    public var description: String {
        switch self {
        case .configuration(let e): return e.description
        case .download(let e): return e.description
        case .cache(let e): return e.description
        case .reentrantCall: return "load() or refresh() called from the loader's event handler; call it from another thread"
        case .handlerRunning: return "load() or refresh() called while the loader's event handler runs on another thread; call it once the handler has returned"
        case .forked(let parent): return "load() or refresh() called in a child of fork() on a loader made in process \(parent); nothing was done; make a loader in this process"
        }
    }
}
