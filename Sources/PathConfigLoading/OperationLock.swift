#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A lock that knows whether the calling thread holds it.
///
/// The loader holds one while an operation (load, refresh, polling) runs, so
/// that two never download or write the cache at once. A thread that asks
/// for the lock it already holds (an event handler calling `refresh()`) is
/// refused instead of deadlocking, and can ask first
/// (`isHeldByCurrentThread`).
final class OperationLock: @unchecked Sendable {
    // Heap-allocated: a pthread mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The holder's `pthread_self()`, 0 when free. Only the holder writes its
    /// own identity, so a thread reading its own there is never mistaken.
    private let owner = Atomic<UInt>(0)

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

    /// True while the calling thread is inside `run`.
    var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }

    /// Runs `body` holding the lock; nil, without running it, when the
    /// calling thread already holds the lock.
    func run<T>(_ body: () -> T) -> T? {
        guard !isHeldByCurrentThread, pthread_mutex_lock(mutex) == 0 else { return nil }
        owner.store(Self.currentThread, ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            pthread_mutex_unlock(mutex)
        }
        return body()
    }

    /// The calling thread's `pthread_t`, as a number (a pointer on some
    /// platforms, an integer on others; never 0 for a live thread).
    private static var currentThread: UInt {
        #if canImport(Glibc)
        pthread_self()
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}
