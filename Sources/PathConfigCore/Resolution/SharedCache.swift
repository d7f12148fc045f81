import Synchronization

/// A bounded map shared by every thread that resolves through one
/// configuration, behind one lock.
///
/// It holds at most `capacity` entries and is emptied when full (simple and
/// bounded; the values are cheap to recompute). `invalidate()` empties it,
/// and a value computed before an invalidation is never stored after it.
final class SharedCache: Sendable {
    // Not generic: a generic class's fields are found through its metadata,
    // which costs a runtime lookup on every access.
    typealias Key = ResultCache.CacheKey
    typealias Value = PathProperties

    private let entries = Locked<[Key: Value]>([:])
    private let capacity: Int
    /// How many times the cache was invalidated: read without a lock to open
    /// a lookup (`generation`), checked under the lock before storing.
    private let invalidations = Atomic<UInt64>(0)

    /// A cache of at most `capacity` entries (0: nothing is kept).
    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Whether anything is ever kept.
    var isEnabled: Bool { capacity > 0 }

    /// The token that opens a lookup: take it before reading anything whose
    /// change is followed by `invalidate()` (the rules added from code), and
    /// pass it to `value(for:since:compute:)`, so that a value computed from
    /// what was read after it is kept only if no invalidation came between.
    var generation: UInt64 { invalidations.load(ordering: .acquiring) }

    /// The value for `key`, or `compute()`'s, kept unless the cache was
    /// invalidated since `generation` (by default, since this call began).
    /// An error is not kept.
    func value<E: Error>(for key: Key, since generation: UInt64? = nil, compute: () throws(E) -> Value) throws(E) -> Value {
        guard capacity > 0 else { return try compute() }
        let opened = generation ?? self.generation
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = try compute()
        entries.withLock { e in
            guard invalidations.load(ordering: .acquiring) == opened else { return }
            if e.count >= capacity { e.removeAll(keepingCapacity: true) }
            e[key] = value
        }
        return value
    }

    /// Empties the cache; lookups opened before will not keep their values.
    /// The count goes up first: a store that checks it before sees the old
    /// count but is then emptied; one that checks after refuses.
    func invalidate() {
        invalidations.wrappingAdd(1, ordering: .acquiringAndReleasing)
        entries.withLock { $0.removeAll() }
    }
}
