import Synchronization

/// A bounded map shared by every thread that resolves through one
/// configuration, split into shards with a lock each, so that threads
/// looking up different keys rarely wait for one another.
///
/// Each shard holds at most its share of the capacity and is emptied when
/// full (simple and bounded; the values are cheap to recompute).
/// `invalidate()` empties every shard, and a value computed before an
/// invalidation is never stored after it.
final class ShardedCache: Sendable {
    // Not generic: a generic class's fields are found through its metadata,
    // which costs a runtime lookup on every access.
    typealias Key = ResultCache.CacheKey
    typealias Value = PathProperties

    private struct State {
        var entries: [Key: Value] = [:]
    }

    /// One shard: its own allocation, so shards do not share a cache line.
    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    private let shards: [Shard]
    private let capacityPerShard: Int
    /// How many times the cache was invalidated: read without a lock to open
    /// a lookup (`generation`), checked under a shard's lock before storing.
    private let invalidations = Atomic<UInt64>(0)

    /// A cache of at most about `capacity` entries (0: nothing is kept).
    init(capacity: Int, shards count: Int = 16) {
        #if PATHCONFIG_ABLATE_SHARDS
        let count = capacity > 0 ? 1 : 0  // make bench-ablation: the layer off
        #else
        let count = capacity > 0 ? max(1, min(count, capacity)) : 0
        #endif
        shards = (0..<count).map { _ in Shard() }
        capacityPerShard = count > 0 ? (capacity + count - 1) / count : 0
    }

    /// Whether anything is ever kept.
    var isEnabled: Bool { !shards.isEmpty }

    /// The token that opens a lookup: take it before reading anything whose
    /// change is followed by `invalidate()` (the rules added from code), and
    /// pass it to `value(for:shard:since:compute:)`, so that a value computed
    /// from what was read after it is kept only if no invalidation came between.
    var generation: UInt64 { invalidations.load(ordering: .acquiring) }

    /// The value for `key` (whose hash picks the shard), or `compute()`'s,
    /// kept unless the cache was invalidated since `generation` (by default,
    /// since this call began). An error is not kept.
    func value<E: Error>(for key: Key, shard hash: Int, since generation: UInt64? = nil,
                         compute: () throws(E) -> Value) throws(E) -> Value {
        guard !shards.isEmpty else { return try compute() }
        let opened = generation ?? self.generation
        let shard = shards[Int(UInt(bitPattern: hash) % UInt(shards.count))]
        if let hit = shard.state.withLock({ $0.entries[key] }) { return hit }
        let value = try compute()
        shard.state.withLock { s in
            guard invalidations.load(ordering: .acquiring) == opened else { return }
            if s.entries.count >= capacityPerShard { s.entries.removeAll(keepingCapacity: true) }
            s.entries[key] = value
        }
        return value
    }

    /// Empties every shard; lookups opened before will not keep their values.
    /// The count goes up first: a store that checks it before sees the old
    /// count but is then emptied with its shard; one that checks after refuses.
    func invalidate() {
        invalidations.wrappingAdd(1, ordering: .acquiringAndReleasing)
        for shard in shards {
            shard.state.withLock { $0.entries.removeAll() }
        }
    }
}
