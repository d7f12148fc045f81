/// A prefilter's `LiteralMatcher`, made on its first scan.
///
/// A plan with an automaton (`PlanAutomaton`) scans for literals only the
/// subjects its automaton leaves: those that are not printable ASCII, and
/// those met once the automaton's memory is spent. Most configurations
/// never scan at all, so such a plan keeps the literals alone, in one
/// array, and the matcher is made on the first scan, once, by whichever
/// thread gets there first (a thread that loses the race drops its copy),
/// as `DeferredPattern` compiles a pattern. (A plan without an automaton
/// scans on every lookup, and makes its matcher at load.)
///
/// At 100 rules the matcher's table and outputs were 26 KB of the load's
/// 151 KB peak (`make bench`, peak load memory per document byte).
final class DeferredLiteralMatcher: @unchecked Sendable {
    /// The literals, end to end: literal `i` ends at `ends[i]`.
    private let bytes: [UInt8]
    private let ends: [Int32]
    /// The matcher, once made.
    private let made = MadeOnce<Box>()

    private final class Box {
        let matcher: LiteralMatcher
        init(_ matcher: LiteralMatcher) { self.matcher = matcher }
    }

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
        let box = made.current ?? made.publish(Box(matcher()))
        box._withUnsafeGuaranteedRef { $0.matcher.scan(subject, fold: fold, found) }
    }

    /// The matcher of the literals.
    private func matcher() -> LiteralMatcher {
        var literals: [[UInt8]] = []
        literals.reserveCapacity(ends.count)
        var start = 0
        for end in ends {
            literals.append(Array(bytes[start..<Int(end)]))
            start = Int(end)
        }
        return LiteralMatcher(literals)
    }
}
