import Synchronization

/// A bounded map from a lookup (method and matched strings) to its resolved
/// properties, emptied by `invalidate()`.
///
/// Lookups of the same path are common (every visit to `/messages/new`), and a
/// hit skips every regex. When full, the cache is emptied and refilled; that
/// keeps it simple and bounded. File rules never change, but rules added from
/// code may read values the host changes: `invalidate()` (Siesta's
/// `invalidateConfiguration`) drops every entry, and a result computed before
/// an invalidation is never stored after it.
///
/// Entries are keyed by the matched strings' UTF-8 bytes, never by `String`:
/// Swift's `String` equality is Unicode canonical equivalence (`é` equals
/// `e` + U+0301, `K` equals U+212A KELVIN SIGN), while regexes see code points,
/// so two strings that compare equal can match different rules.
final class ResultCache: Sendable {
    private let capacity: Int
    private struct State {
        var entries: [Key: PathProperties] = [:]
        var generation: UInt64 = 0
    }
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = capacity }

    /// The cached result for `key`, or `compute()`'s, remembered unless the
    /// cache was invalidated meanwhile. An error from `compute` is not remembered.
    func value(for key: Key, compute: () throws(ResolveError) -> PathProperties) throws(ResolveError) -> PathProperties {
        guard capacity > 0 else { return try compute() }
        let (hit, generation) = state.withLock { ($0.entries[key], $0.generation) }
        if let hit { return hit }
        let value = try compute()
        state.withLock { s in
            guard s.generation == generation else { return }
            if s.entries.count >= capacity { s.entries.removeAll(keepingCapacity: true) }
            s.entries[key] = value
        }
        return value
    }

    /// Drops every entry; lookups already computing will not store theirs.
    func invalidate() {
        state.withLock { s in
            s.generation &+= 1
            s.entries.removeAll()
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
