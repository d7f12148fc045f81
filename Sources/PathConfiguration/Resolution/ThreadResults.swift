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
        let owner: UInt64
        let rules: ResultCache.RuleSet
        var result: PathProperties
        /// Hits so far while `result` is the shared result, not a copy.
        var sharedHits: Int
    }

    /// Entries per thread (a few words each: about 40 KiB a thread). Room
    /// for the rule sets of large configurations (the benchmark's 10,000
    /// rules match 2,115 distinct sets): a set that misses here is read from
    /// the shared cache, under its lock, and its result is one every thread
    /// counts references on.
    static let slotCount = 1024
    /// Hits on a shared result after which the thread makes its own copy.
    static let copyAfterHits = 2

    private var slots = [Entry?](repeating: nil, count: ThreadResults.slotCount)

    private init() {}

    /// The result this thread keeps for the set of rules `matches` lists,
    /// whose `RuleSet.hash(of:)` is `hash`, in the cache numbered `owner`
    /// (its own copy once the set is met often), or nil.
    func value(owner: UInt64, hash: Int, matches: UnsafeBufferPointer<RuleMatch>) -> PathProperties? {
        let i = Self.slot(hash)
        guard let entry = slots[i], entry.owner == owner, entry.rules.isSet(of: matches, hash: hash) else { return nil }
        guard entry.sharedHits >= 0 else { return entry.result }
        if entry.sharedHits + 1 < Self.copyAfterHits {
            slots[i]!.sharedHits += 1
            return entry.result
        }
        let mine = entry.result.copy()
        slots[i] = Entry(owner: owner, rules: entry.rules, result: mine, sharedHits: -1)
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
