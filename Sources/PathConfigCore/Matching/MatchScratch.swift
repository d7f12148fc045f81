/// What one thread reuses from lookup to lookup for a plan's candidate set,
/// so that a lookup allocates nothing for it: a word per 64 patterns and a
/// summary word per 64 of those, all zero between runs (the plan clears what
/// it sets). Grows to the largest plan the thread has run; freed when the
/// thread ends.
final class MatchScratch {
    private var storage = UnsafeMutablePointer<UInt64>.allocate(capacity: 0)
    private var capacity = 0

    deinit { storage.deallocate() }

    /// A candidate set of `words` words and its summary, all zero, valid
    /// until the thread's next call; the caller leaves them zero.
    func candidateSet(words: Int) -> CandidateSet {
        let summaryCount = (words + 63) / 64
        if words + summaryCount > capacity {
            storage.deallocate()
            capacity = max(words + summaryCount, capacity * 2)
            storage = .allocate(capacity: capacity)
            storage.initialize(repeating: 0, count: capacity)
        }
        return CandidateSet(words: storage, summary: storage + words, summaryCount: summaryCount)
    }

    struct CandidateSet {
        /// One bit per pattern ordinal.
        let words: UnsafeMutablePointer<UInt64>
        /// One bit per word of `words` that may be nonzero.
        let summary: UnsafeMutablePointer<UInt64>
        let summaryCount: Int
    }

    /// `body` of the calling thread's scratch (made on its first lookup),
    /// lent without counting a reference.
    @inline(__always)
    static func withCurrent<R>(_ body: (MatchScratch) -> R) -> R { perThread.withValue({ MatchScratch() }, body) }

    private static let perThread = ThreadLocal<MatchScratch>()
}
