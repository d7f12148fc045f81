/// Words one thread reuses from lookup to lookup for a plan's candidate set,
/// so that a lookup allocates nothing for it. Grows to the largest plan the
/// thread has run; freed when the thread ends.
final class MatchScratch {
    private var storage: UnsafeMutablePointer<UInt64>
    private var capacity: Int

    private init() {
        capacity = 16
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// At least `count` words (their contents undefined), valid until the
    /// thread's next call.
    func words(_ count: Int) -> UnsafeMutablePointer<UInt64> {
        if count > capacity {
            storage.deallocate()
            capacity = max(count, capacity * 2)
            storage = .allocate(capacity: capacity)
        }
        return storage
    }

    /// The calling thread's scratch, made on its first lookup.
    static var current: MatchScratch { perThread.value { MatchScratch() } }

    /// `body` of the calling thread's scratch, lent without counting a reference.
    @inline(__always)
    static func withCurrent<R>(_ body: (MatchScratch) -> R) -> R { perThread.withValue({ MatchScratch() }, body) }

    private static let perThread = ThreadLocal<MatchScratch>()
}
