import CPCRE2
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one thread reuses from search to search: PCRE2 match data, so that
/// a search of an ordinary URL allocates nothing after the thread's first.
/// Freed when the thread ends.
///
/// The match data also keeps the largest set of backtracking frames a
/// search on the thread needed, so only subjects of up to `reusedUpToBytes`
/// use it: their frames stay small, and a longer subject's search gets
/// match data of its own.
final class PCRE2ThreadState {
    /// The longest subject, in bytes, searched with the thread's match data.
    static let reusedUpToBytes = 2048

    /// Match data for one pair of offsets (a search only asks whether).
    let matchData: OpaquePointer

    private init() {
        matchData = pcre2_match_data_create_8(1, nil)!
    }

    deinit {
        pcre2_match_data_free_8(matchData)
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
}
