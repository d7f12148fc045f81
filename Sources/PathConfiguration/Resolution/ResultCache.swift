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
    private let entries = Mutex<[Key: PathProperties]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// The cached result for `subject`'s exact bytes, or `compute()`'s
    /// (given the subject prepared for matching), remembered.
    func value(for subject: String, compute: (MatchSubject) -> PathProperties) -> PathProperties {
        guard capacity > 0 else { return compute(MatchSubject(subject)) }
        let key = Key(subject)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = compute(MatchSubject(subject))
        entries.withLock { dict in
            if dict.count >= capacity { dict.removeAll(keepingCapacity: true) }
            dict[key] = value
        }
        return value
    }

    /// A string compared and hashed by its UTF-8 bytes (no copy of them).
    private struct Key: Hashable {
        let string: String

        init(_ string: String) { self.string = string }

        static func == (a: Key, b: Key) -> Bool { a.string.utf8.elementsEqual(b.string.utf8) }

        func hash(into hasher: inout Hasher) {
            var utf8 = string
            utf8.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}
