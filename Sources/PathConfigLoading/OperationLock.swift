#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PathConfigCore
import Synchronization

/// A lock that knows whether the calling thread holds it.
///
/// The loader holds one while an operation (load, refresh, polling) runs, so
/// that two never download or write the cache at once. A thread that asks
/// for the lock it already holds (an event handler calling `refresh()`) is
/// refused instead of deadlocking, and can ask first
/// (`isHeldByCurrentThread`).
final class OperationLock: Sendable {
    private let mutex = Locked(())
    /// The holder's `pthread_self()`, 0 when free. Only the holder writes its
    /// own identity, so a thread reading its own there is never mistaken.
    private let owner = Atomic<UInt>(0)

    /// True while the calling thread is inside `run`.
    var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == Self.currentThread }

    /// Runs `body` holding the lock; nil, without running it, when the
    /// calling thread already holds the lock.
    func run<T>(_ body: () -> T) -> T? {
        guard !isHeldByCurrentThread else { return nil }
        var result: T?
        mutex.withLock { _ in
            owner.store(Self.currentThread, ordering: .relaxed)
            result = body()
            owner.store(0, ordering: .relaxed)
        }
        return result
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
