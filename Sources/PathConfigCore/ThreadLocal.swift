#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One instance of a class per thread: made on the thread's first call,
/// released when the thread ends. What a lookup reuses without a lock
/// (`MatchScratch`, `BoundaryTable`, `ThreadResults`) is kept in one,
/// held by a `static let` of its type.
package struct ThreadLocal<Value: AnyObject>: Sendable {
    let key: pthread_key_t

    /// A new slot, empty on every thread.
    package init() {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
        self.key = key
    }

    /// `body` of the calling thread's instance (made by `make` on its first
    /// call), lent without counting a reference.
    @inline(__always)
    func withValue<R>(_ make: () -> Value, _ body: (Value) -> R) -> R {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(existing)._withUnsafeGuaranteedRef(body)
        }
        return body(value(make))
    }

    /// The calling thread's instance, made by `make` on its first call.
    @inline(__always)
    package func value(_ make: () -> Value) -> Value {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<Value>.fromOpaque(existing).takeUnretainedValue()
        }
        let made = make()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
