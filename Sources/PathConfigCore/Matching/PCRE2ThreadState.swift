/// What a search with `\b` or `\B` keeps on its thread: the word boundaries
/// of the subject it is searching (`BoundaryTable`), which the boundary
/// callout reads. Freed when the thread ends.
final class PCRE2ThreadState {
    /// The longest subject, in bytes, whose boundary table the thread keeps
    /// after its search; a longer one's is given back.
    static let keptTableUpToBytes = 2048

    /// The word boundaries of the search in progress, for a pattern with
    /// `\b` or `\B` (`WordBoundaries`): reset by each such search.
    let boundaries = BoundaryTable()

    private init() {}

    /// The calling thread's state, made on its first search with `\b` or `\B`.
    @inline(__always)
    static var current: PCRE2ThreadState { perThread.value { PCRE2ThreadState() } }

    private static let perThread = ThreadLocal<PCRE2ThreadState>()
}
