/// A prefilter's `LiteralMatcher`, made on its first scan.
///
/// A plan with an automaton (`PlanAutomaton`) scans for literals only the
/// subjects its automaton leaves: those that are not printable ASCII, and
/// those met once the automaton's memory is spent. Most configurations
/// never scan at all, so such a plan keeps the literals alone, in one
/// array, and the matcher is made on the first scan (`MadeOnce`). (A plan
/// without an automaton scans on every lookup, and makes its matcher at load.)
final class DeferredLiteralMatcher: @unchecked Sendable {
    /// The literals, end to end: literal `i` ends at `ends[i]`.
    private let bytes: [UInt8]
    private let ends: [Int32]
    private let made = MadeOnce<Boxed<LiteralMatcher>>()

    /// Literal `i` is reported as `i`.
    init(_ literals: [[UInt8]]) {
        var bytes: [UInt8] = [], ends: [Int32] = []
        bytes.reserveCapacity(literals.reduce(0) { $0 + $1.count })
        ends.reserveCapacity(literals.count)
        for literal in literals {
            bytes += literal
            ends.append(Int32(bytes.count))
        }
        (self.bytes, self.ends) = (bytes, ends)
    }

    /// Whether the matcher has been made (for tests).
    var isMade: Bool { made.current != nil }

    /// `LiteralMatcher.scan`, the matcher made first if it was not.
    @inline(__always)
    func scan(_ subject: UnsafeBufferPointer<UInt8>, fold: Bool, _ found: (Int) -> Void) {
        let box = made.current ?? made.publish(Boxed(matcher()))
        box._withUnsafeGuaranteedRef { $0.value.scan(subject, fold: fold, found) }
    }

    private func matcher() -> LiteralMatcher {
        LiteralMatcher(ends.indices.map { i in Array(bytes[(i == 0 ? 0 : Int(ends[i - 1]))..<Int(ends[i])]) })
    }
}
