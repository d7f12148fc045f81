import Synchronization

/// A bounded map from matched string to its resolved properties.
///
/// Lookups of the same path are common (every visit to `/messages/new`), and a
/// hit skips every regex. When full, the cache is emptied and refilled; that
/// keeps it simple and bounded, and a configuration is immutable so an entry
/// never goes stale.
final class ResultCache: Sendable {
    private let capacity: Int
    private let entries = Mutex<[String: PathProperties]>([:])

    init(capacity: Int) { self.capacity = capacity }

    func value(for key: String, compute: () -> PathProperties) -> PathProperties {
        guard capacity > 0 else { return compute() }
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = compute()
        entries.withLock { dict in
            if dict.count >= capacity { dict.removeAll(keepingCapacity: true) }
            dict[key] = value
        }
        return value
    }
}
