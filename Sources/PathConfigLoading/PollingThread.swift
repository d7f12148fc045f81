#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread that calls `tick` every `interval` until stopped.
///
/// `stop()` wakes the thread at once and, unless told not to wait, waits for
/// a running tick to end and joins it. A tick gets `isStopped`, to check
/// once it has waited for the loader's lock and before each event.
final class PollingThread: @unchecked Sendable {
    private let interval: Duration
    private let tick: @Sendable (_ isStopped: @escaping @Sendable () -> Bool) -> Void
    // Guarded by `mutex`.
    private var stopping = false
    private var thread: pthread_t?
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let wakeup: UnsafeMutablePointer<pthread_cond_t>
    /// The process that started the thread (a child of `fork()` has none).
    private let process = getpid()
    /// The least stack the thread gets. A refresh of a document at the
    /// nesting limits needs about 340 KiB under the Android profiles (the
    /// Gson reader's recursion; docs/limits-and-security.md, "Stack"), and
    /// a thread's default is musl's 128 KiB, or glibc's `ulimit -s`.
    static let minimumStack = 1 << 20

    /// Starts the thread.
    init(interval: Duration, tick: @escaping @Sendable (_ isStopped: @escaping @Sendable () -> Bool) -> Void) {
        self.interval = interval
        self.tick = tick
        mutex = .allocate(capacity: 1)
        wakeup = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if !canImport(Darwin)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(wakeup, &attributes)
        pthread_condattr_destroy(&attributes)

        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
        var handle: pthread_t?
        #else
        var handle = pthread_t()
        #endif
        var threadAttributes = pthread_attr_t()
        pthread_attr_init(&threadAttributes)
        var stack = 0
        pthread_attr_getstacksize(&threadAttributes, &stack)
        if stack < Self.minimumStack { pthread_attr_setstacksize(&threadAttributes, Self.minimumStack) }
        let rc = pthread_create(&handle, &threadAttributes, { context in
            let me = Unmanaged<PollingThread>.fromOpaque(context!).takeRetainedValue()
            me.loop()
            return nil
        }, context)
        pthread_attr_destroy(&threadAttributes)
        if rc == 0 {
            thread = handle
        } else {
            Unmanaged<PollingThread>.fromOpaque(context).release()
        }
    }

    deinit {
        pthread_cond_destroy(wakeup)
        pthread_mutex_destroy(mutex)
        wakeup.deallocate()
        mutex.deallocate()
    }

    /// Stops the thread and, when `waiting()` (asked once the thread is
    /// marked stopped) is true, waits for it. It detaches the thread instead
    /// when called from the thread itself, or when `waiting()` is false: a
    /// tick in progress then ends on its own, and one that has yet to start
    /// its refresh sees `isStopped`. Idempotent. In a child of `fork()` it
    /// does nothing: the thread is not there, and may have held `mutex` at
    /// the fork.
    func stop(waiting: () -> Bool = { true }) {
        guard getpid() == process else { return }
        pthread_mutex_lock(mutex)
        stopping = true
        let joinable = thread
        thread = nil
        pthread_cond_signal(wakeup)
        pthread_mutex_unlock(mutex)
        guard let joinable else { return }
        if pthread_equal(joinable, pthread_self()) != 0 || !waiting() {
            pthread_detach(joinable)
        } else {
            pthread_join(joinable, nil)
        }
    }

    private var isStopped: Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return stopping
    }

    private func loop() {
        while waitForNextTick() { tick { [self] in self.isStopped } }
    }

    /// Sleeps one interval; false when stopped meanwhile.
    private func waitForNextTick() -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var deadline = timespec()
        #if canImport(Darwin)
        clock_gettime(CLOCK_REALTIME, &deadline)
        #else
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        #endif
        let (seconds, attoseconds) = interval.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(clamping: seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while !stopping {
            if pthread_cond_timedwait(wakeup, mutex, &deadline) == ETIMEDOUT { break }
        }
        return !stopping
    }
}
