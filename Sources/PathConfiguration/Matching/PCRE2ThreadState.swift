import CPCRE2
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

    /// The word boundaries of the search in progress, for a pattern with
    /// `\b` or `\B` (`WordBoundaries`): reset by each such search.
    let boundaries = BoundaryTable()

    private init() {
        matchData = pcre2_match_data_create_8(1, nil)!
    }

    deinit {
        pcre2_match_data_free_8(matchData)
    }

    /// The calling thread's state, made on its first search. Inlined: a
    /// search reads it every time, and since the boundary callout reads it
    /// too, the optimizer no longer inlines it on its own (a call and a
    /// return on every PCRE2 search, measured under callgrind).
    @inline(__always)
    static var current: PCRE2ThreadState { perThread.value { PCRE2ThreadState() } }

    private static let perThread = ThreadLocal<PCRE2ThreadState>()
}
