import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one thread reuses from search to search: PCRE2 match data, and JIT
/// stacks, so that a search allocates nothing after a thread's first.
///
/// A JIT stack serves one search at a time, so each thread has its own, one
/// per size asked for (one per distinct heap limit; a search never gets a
/// larger stack than its limits give, whatever ran on the thread before).
/// A stack is reserved as virtual memory of its full size and backed by
/// pages only as deep as searches have gone. Everything is freed when the
/// thread ends.
final class PCRE2ThreadState {
    /// Match data for one pair of offsets (a search only asks whether).
    let matchData: OpaquePointer
    /// JIT stacks by their largest size, in KiB.
    private var stacks: [UInt32: OpaquePointer] = [:]

    private init() {
        matchData = pcre2_match_data_create_8(1, nil)!
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        for stack in stacks.values { pcre2_jit_stack_free_8(stack) }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<PCRE2ThreadState>.fromOpaque(pointer).release() }
        }
        return key
    }()

    /// The calling thread's state, made on its first search.
    static var current: PCRE2ThreadState {
        if let existing = pthread_getspecific(key) {
            return Unmanaged<PCRE2ThreadState>.fromOpaque(existing).takeUnretainedValue()
        }
        let state = PCRE2ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    /// This thread's JIT stack that grows to at most `maxKiB`; nil when it
    /// cannot be made (PCRE2 then uses its own 32 KiB stack).
    func jitStack(maxKiB: UInt32) -> OpaquePointer? {
        if let stack = stacks[maxKiB] { return stack }
        let maxBytes = Int(clamping: UInt64(maxKiB) * 1024)  // a 32-bit Int holds less than UInt32.max KiB
        guard let stack = pcre2_jit_stack_create_8(min(32 * 1024, maxBytes), maxBytes, nil) else { return nil }
        stacks[maxKiB] = stack
        return stack
    }
}
