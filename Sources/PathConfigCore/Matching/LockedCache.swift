import Synchronization

/// A small dictionary behind a mutex, for values made once and shared.
final class LockedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let storage = Mutex<[Key: Value]>([:])

    /// The value for `key`, made by `make` the first time.
    func value(for key: Key, make: () -> Value) -> Value {
        storage.withLock { dict in
            if let v = dict[key] { return v }
            let v = make()
            dict[key] = v
            return v
        }
    }
}
