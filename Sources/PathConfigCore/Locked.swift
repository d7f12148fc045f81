#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value behind a lock: the library's one mutex, where the standard
/// library's `Synchronization.Mutex` would be.
///
/// It is the C library's `pthread_mutex_t`, because a child of `fork()`
/// uses the configurations its parent made. On Linux, Swift 6.3's `Mutex`
/// is a priority-inheritance futex that holds its owner's thread id, which
/// each thread reads once and keeps: in the child, the thread that forked
/// keeps its parent's id, so when another of the child's threads waited for
/// a lock it held, the kernel refused the wait (no such thread) or the
/// unlock (not the owner), and `Mutex` trapped. The C library keeps no such
/// copy across a fork.
///
/// A noncopyable struct, stored where it is declared, as `Mutex` is: a
/// generic class has its metadata made at run time for each value type
/// (240,000 instructions more on a process's first load).
package struct Locked<Value>: ~Copyable {
    // Both on the heap: a mutex must not move, and a struct may.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let value: UnsafeMutablePointer<Value>

    /// `value`, unlocked.
    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if canImport(Glibc)
        // Spins a little before it sleeps, as `Mutex` does: without it, two
        // threads contending for the result cache's lock took 15% longer,
        // in futex calls.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// `body`'s result, run holding the lock with the value lent to it.
    @inlinable
    package func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}

/// Shared as `Mutex` is: the value is reached only under the lock.
extension Locked: @unchecked Sendable {}
