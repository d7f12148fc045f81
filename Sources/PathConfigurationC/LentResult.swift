import PathConfiguration

/// The result of the calling thread's last `pathconfig_lookup`, kept for the
/// host until that thread's next one (or its exit): what makes a borrowed
/// result valid without a `pathconfig_result_free` per lookup.
///
/// One per thread, so threads never share it: keeping a result counts one
/// reference on it and drops the one on the result it replaces, as handing
/// it out and freeing it would, without the host's second call. The
/// replaced result is usually still kept by the configuration's caches, so
/// this frees nothing; when it was the last reference, the result and the
/// strings borrowed from it go with it, as the header says.
final class LentResult {
    private var kept: PathProperties?

    private init() {}

    /// Keeps `result` for the calling thread, replacing the last one, and
    /// returns the host's borrowed pointer to it.
    static func lend(_ result: PathProperties) -> OpaquePointer {
        let pointer = OpaquePointer(Unmanaged.passUnretained(result).toOpaque())
        perThread.withValue({ LentResult() }) { lent in
            // The same result again (lookups matching the same rules): nothing to count.
            if lent.kept !== result { lent.kept = result }
        }
        return pointer
    }

    private static let perThread = ThreadLocal<LentResult>()
}
