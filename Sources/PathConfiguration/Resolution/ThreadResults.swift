/// One thread's own copies of the results it got for sets of matching rules,
/// in front of the configuration's shared rule-set cache.
///
/// A result shared by every thread is a point of contention: each lookup
/// retains and releases it, and a host reading its JSON or its C strings
/// takes its lock, so threads resolving URLs that match the same rules (at
/// 10 rules, most of them) would all write to the same cache lines. A thread
/// that finds a rule set here takes no shared lock, and once it has found
/// the same set `copyAfterHits` times it gets its own copy of the result
/// (the same properties and JSON text, `PathProperties.copy()`): rule sets
/// a thread meets often cost one copy each, rare ones none.
///
/// Direct-mapped and bounded: `slotCount` entries per thread, a new entry
/// replacing the one in its slot, so entries of a released configuration
/// (keyed by the cache's serial number, never reused) are simply overwritten
/// in time. Sound because a rule set's result never changes: file rules are
/// immutable and `invalidate()` does not touch this level.
final class ThreadResults {
    private struct Entry {
        /// The cache's serial number; 0 for an empty slot (serials start at 1).
        var owner: UInt64 = 0
        var rules: ResultCache.RuleSet?
        var result: PathProperties?
        /// Hits so far while `result` is the shared result, not a copy.
        var sharedHits = 0
    }

    /// Entries per thread (a few words each: about 48 KiB a thread). Room
    /// for the rule sets of most configurations (the benchmark's 1,000
    /// rules match 600 distinct sets; its 10,000 match 3,092, more than fit):
    /// a set that misses here is read from the shared cache, under its lock,
    /// and its result is one every thread counts references on.
    static let slotCount = 1024
    /// Hits on a shared result after which the thread makes its own copy.
    static let copyAfterHits = 2

    /// The table, read and written in place through its pointer: an array
    /// in a class property costs every lookup a dynamic exclusivity check
    /// and a copy (two references counted) of the entry it reads. Only its
    /// own thread touches it.
    private let slots: UnsafeMutablePointer<Entry>

    private init() {
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: Entry(), count: Self.slotCount)
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    /// The result this thread keeps for the set of rules `matches` lists,
    /// whose `RuleSet.hash(of:)` is `hash`, in the cache numbered `owner`
    /// (its own copy once the set is met often), or nil.
    func value(owner: UInt64, hash: Int, matches: UnsafeBufferPointer<RuleMatch>) -> PathProperties? {
        let entry = slots + Self.slot(hash)
        guard entry.pointee.owner == owner, entry.pointee.rules?.isSet(of: matches, hash: hash) == true,
              let result = entry.pointee.result else { return nil }
        let hits = entry.pointee.sharedHits
        guard hits >= 0 else { return result }
        if hits + 1 < Self.copyAfterHits {
            entry.pointee.sharedHits = hits + 1
            return result
        }
        let mine = result.copy()
        entry.pointee.result = mine
        entry.pointee.sharedHits = -1
        return mine
    }

    /// Keeps `shared`, the configuration's result for `rules` in the cache
    /// numbered `owner`, replacing whatever held its slot.
    func store(shared: PathProperties, owner: UInt64, rules: ResultCache.RuleSet) {
        slots[Self.slot(rules.hash)] = Entry(owner: owner, rules: rules, result: shared, sharedHits: 0)
    }

    private static func slot(_ hash: Int) -> Int { Int(UInt(bitPattern: hash) % UInt(slotCount)) }

    /// `body` of the calling thread's copies (made on its first lookup and
    /// released when the thread ends), lent without counting a reference.
    @inline(__always)
    static func withCurrent<R>(_ body: (ThreadResults) -> R) -> R { perThread.withValue({ ThreadResults() }, body) }

    private static let perThread = ThreadLocal<ThreadResults>()
}
