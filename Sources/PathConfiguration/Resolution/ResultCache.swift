import Synchronization

/// A bounded map from matched string to its resolved properties.
///
/// Lookups of the same path are common (every visit to `/messages/new`), and a
/// hit skips every regex. When full, the cache is emptied and refilled; that
/// keeps it simple and bounded, and a configuration is immutable so an entry
/// never goes stale.
///
/// Entries are keyed by the matched string's UTF-8 bytes, never by `String`:
/// Swift's `String` equality is Unicode canonical equivalence (`é` equals
/// `e` + U+0301, `K` equals U+212A KELVIN SIGN), while regexes see code points,
/// so two strings that compare equal can match different rules.
final class ResultCache: Sendable {
    private let capacity: Int
    private let entries = Mutex<[ContiguousArray<UInt8>: PathProperties]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// The cached result for `subject`'s exact bytes, or `compute()`'s,
    /// remembered.
    func value(for subject: MatchSubject, compute: () -> PathProperties) -> PathProperties {
        guard capacity > 0 else { return compute() }
        if let hit = entries.withLock({ $0[subject.utf8] }) { return hit }
        let value = compute()
        entries.withLock { dict in
            if dict.count >= capacity { dict.removeAll(keepingCapacity: true) }
            dict[subject.utf8] = value
        }
        return value
    }
}
