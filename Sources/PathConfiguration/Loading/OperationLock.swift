#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Serialises a loader's operations (load, refresh, polling) so that two
/// never download or write the cache at once.
///
/// An error-checking mutex: a thread that asks for the lock it already holds
/// (an event handler calling `refresh()`) is refused instead of deadlocking.
final class OperationLock: @unchecked Sendable {
    // Heap-allocated: a pthread mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock; nil, without running it, when the
    /// calling thread already holds the lock.
    func run<T>(_ body: () -> T) -> T? {
        guard pthread_mutex_lock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
