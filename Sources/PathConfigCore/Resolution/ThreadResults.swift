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
/// Direct-mapped and bounded: a new entry replaces the one in its slot, so
/// entries of a released configuration (keyed by the cache's serial number,
/// never reused) are simply overwritten in time. Sound because a rule set's
/// result never changes: file rules are immutable and `invalidate()` does not
/// touch this level.
///
/// A table starts with `initialSlotCount` slots and doubles, up to
/// `maxSlotCount`, when its thread keeps evicting entries: more than one
/// lookup in `growthEvictionRate` replaced a kept set during a window of
/// `windowPerSlot` lookups a slot. A thread that meets few rule sets keeps
/// the small table; one that meets thousands (a large configuration) gets
/// room for as many as the configuration's shared cache keeps.
final class ThreadResults {
    private struct Entry {
        /// The cache's serial number; 0 for an empty slot (serials start at 1).
        var owner: UInt64 = 0
        var rules: ResultCache.RuleSet?
        var result: PathProperties?
        /// Hits so far while `result` is the shared result, not a copy.
        var sharedHits = 0
    }

    /// The slots and the counters that decide growth, read and written in
    /// place through a pointer: an array or counter in a class property
    /// costs every lookup a dynamic exclusivity check (and an array a copy,
    /// two references counted, of the entry it reads). Only its own thread
    /// touches it.
    private struct Table {
        var slots: UnsafeMutablePointer<Entry>
        /// Slots, a power of two.
        var count: Int
        /// Lookups and evictions since the window began.
        var lookups = 0
        var evictions = 0

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: Entry(), count: count)
            self.count = count
        }

        func slot(_ hash: Int) -> UnsafeMutablePointer<Entry> { slots + (hash & (count - 1)) }
    }

    /// Slots of a new thread's table (40 bytes each: 40 KiB).
    /// Room for the rule sets of most configurations (the benchmark's 1,000
    /// rules match 600 distinct sets).
    static let initialSlotCount = 1024
    /// The most slots a table grows to: as many sets as a configuration's
    /// shared rule-set cache keeps, 160 KiB.
    static let maxSlotCount = ResultCache.ruleSetCapacity
    /// Hits on a shared result after which the thread makes its own copy.
    static let copyAfterHits = 2
    /// A table grows when more than one lookup in this many evicted a set...
    static let growthEvictionRate = 16
    /// ...over a window of this many lookups for each slot.
    static let windowPerSlot = 4

    private let table: UnsafeMutablePointer<Table>

    private init() {
        table = .allocate(capacity: 1)
        table.initialize(to: Table(count: Self.initialSlotCount))
    }

    deinit {
        table.pointee.slots.deinitialize(count: table.pointee.count)
        table.pointee.slots.deallocate()
        table.deinitialize(count: 1)
        table.deallocate()
    }

    /// The result this thread keeps for the set of rules `matches` lists,
    /// whose `RuleSet.hash(of:)` is `hash`, in the cache numbered `owner`
    /// (its own copy once the set is met often), or nil.
    func value(owner: UInt64, hash: Int, matches: UnsafeBufferPointer<RuleMatch>) -> PathProperties? {
        table.pointee.lookups &+= 1
        let entry = table.pointee.slot(hash)
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
    /// numbered `owner`, replacing whatever held its slot; then, once a
    /// window's lookups are done, doubles the table if it evicted too often.
    func store(shared: PathProperties, owner: UInt64, rules: ResultCache.RuleSet) {
        let entry = table.pointee.slot(rules.hash)
        if entry.pointee.owner != 0 { table.pointee.evictions += 1 }
        entry.pointee = Entry(owner: owner, rules: rules, result: shared, sharedHits: 0)
        if table.pointee.lookups >= table.pointee.count * Self.windowPerSlot { endWindow() }
    }

    /// Grows the table if this window evicted too often, and starts the next.
    private func endWindow() {
        defer { table.pointee.lookups = 0; table.pointee.evictions = 0 }
        let old = table.pointee
        guard old.count < Self.maxSlotCount, old.evictions * Self.growthEvictionRate > old.lookups else { return }
        // Every old slot is moved out; a kept entry goes to one of two new
        // slots (the hash's next bit decides), so no two of them meet.
        let grown = Table(count: old.count * 2)
        for i in 0..<old.count {
            let entry = (old.slots + i).move()
            if entry.owner != 0 { grown.slot(entry.rules!.hash).pointee = entry }
        }
        old.slots.deallocate()
        table.pointee = grown
    }

    /// The number of slots of the calling thread's table (for tests).
    static var currentSlotCount: Int { withCurrent { $0.table.pointee.count } }

    /// `body` of the calling thread's copies (made on its first lookup and
    /// released when the thread ends), lent without counting a reference.
    @inline(__always)
    static func withCurrent<R>(_ body: (ThreadResults) -> R) -> R { perThread.withValue({ ThreadResults() }, body) }

    private static let perThread = ThreadLocal<ThreadResults>()
}
