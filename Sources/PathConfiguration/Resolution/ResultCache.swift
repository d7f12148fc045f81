import Synchronization

/// A bounded map from a lookup (method and matched strings) to its resolved
/// properties, emptied by `invalidate()`.
///
/// Lookups of the same path are common (every visit to `/messages/new`), and a
/// hit skips every regex. When full, the cache is emptied and refilled; that
/// keeps it simple and bounded. File rules never change, but rules added from
/// code may read values the host changes: `invalidate()` (Siesta's
/// `invalidateConfiguration`) drops every entry, and a result computed before
/// an invalidation is never stored after it, even when the lookup read the
/// rules just before a rule was added (`generation` opens a lookup).
///
/// Entries are keyed by the matched strings' UTF-8 bytes, never by `String`:
/// Swift's `String` equality is Unicode canonical equivalence (`é` equals
/// `e` + U+0301, `K` equals U+212A KELVIN SIGN), while regexes see code points,
/// so two strings that compare equal can match different rules.
final class ResultCache: Sendable {
    private let capacity: Int
    private let entries = Mutex<[Key: PathProperties]>([:])
    /// How many times the cache was invalidated; changed only under the
    /// `entries` lock, read without it to open a lookup (`generation`).
    private let invalidations = Atomic<UInt64>(0)

    init(capacity: Int) { self.capacity = capacity }

    /// The token that opens a lookup: take it before reading anything whose
    /// change is followed by `invalidate()` (the rules added from code), and
    /// pass it to `value(for:since:compute:)`. A result computed from what was
    /// read after it is then stored only if no invalidation came in between.
    var generation: UInt64 { invalidations.load(ordering: .acquiring) }

    /// The cached result for `key`, or `compute()`'s, remembered unless the
    /// cache was invalidated since `generation` was read. An error from
    /// `compute` is not remembered.
    func value(for key: Key, since generation: UInt64,
               compute: () throws(ResolveError) -> PathProperties) throws(ResolveError) -> PathProperties {
        guard capacity > 0 else { return try compute() }
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = try compute()
        entries.withLock { entries in
            guard invalidations.load(ordering: .relaxed) == generation else { return }
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }

    /// Drops every entry; lookups opened before will not store theirs.
    func invalidate() {
        entries.withLock { entries in
            invalidations.wrappingAdd(1, ordering: .releasing)
            entries.removeAll()
        }
    }

    /// What decides a lookup's result: the method, the string patterns see,
    /// and (when globs or rules from code need it) the URL. Compared and
    /// hashed by UTF-8 bytes, without copying them.
    struct Key: Hashable {
        let method: String
        let patternSubject: String
        let url: String?

        static func == (a: Key, b: Key) -> Bool {
            // Methods are ASCII tokens: String equality is byte equality there.
            guard a.method == b.method, a.patternSubject.utf8.elementsEqual(b.patternSubject.utf8) else { return false }
            switch (a.url, b.url) {
            case (nil, nil): return true
            case let (x?, y?): return x.utf8.elementsEqual(y.utf8)
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            Self.combineBytes(patternSubject, into: &hasher)
            if let url { Self.combineBytes(url, into: &hasher) }
        }

        private static func combineBytes(_ s: String, into hasher: inout Hasher) {
            var s = s
            s.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            hasher.combine(s.utf8.count)
        }
    }
}
