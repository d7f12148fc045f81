/// Aho–Corasick over a set of literals: one pass over a subject finds every
/// literal it contains.
///
/// Transitions are kept as sorted edge lists per state (the alphabet is bytes
/// and the trie is sparse); the failure function is followed at match time.
/// Immutable after construction, so one instance serves every thread.
struct LiteralMatcher: Sendable {
    private struct State: Sendable {
        var edges: [(byte: UInt8, target: Int32)] = []
        var fail: Int32 = 0
        /// The literal ending here, if any.
        var output: Int32 = -1
        /// Nearest state on the failure chain with an output (-1 when none).
        var outputLink: Int32 = -1
    }

    private var states: [State] = [State()]
    /// Number of distinct literals.
    let count: Int

    /// Builds the automaton; literal `i` is reported as `i`.
    init(_ literals: [[UInt8]]) {
        count = literals.count
        for (id, literal) in literals.enumerated() {
            var s = 0
            for b in literal {
                if let next = Self.edge(states[s].edges, b) {
                    s = Int(next)
                } else {
                    states.append(State())
                    let n = Int32(states.count - 1)
                    let pos = states[s].edges.firstIndex { $0.byte > b } ?? states[s].edges.count
                    states[s].edges.insert((b, n), at: pos)
                    s = Int(n)
                }
            }
            states[s].output = Int32(id)
        }
        // Breadth-first failure links.
        var queue: [Int] = states[0].edges.map { Int($0.target) }
        var head = 0
        while head < queue.count {
            let s = queue[head]
            head += 1
            for (b, t) in states[s].edges {
                var f = Int(states[s].fail)
                var target: Int32 = 0
                while true {
                    if let n = Self.edge(states[f].edges, b), Int(n) != Int(t) { target = n; break }
                    if f == 0 { break }
                    f = Int(states[f].fail)
                }
                states[Int(t)].fail = target
                let ft = Int(target)
                states[Int(t)].outputLink = states[ft].output >= 0 ? target : states[ft].outputLink
                queue.append(Int(t))
            }
        }
    }

    private static func edge(_ edges: [(byte: UInt8, target: Int32)], _ b: UInt8) -> Int32? {
        var lo = 0, hi = edges.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            let e = edges[mid]
            if e.byte == b { return e.target }
            if e.byte < b { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    /// Calls `found` with the id of every literal occurring in `subject`
    /// (possibly more than once per literal).
    func scan(_ subject: UnsafeBufferPointer<UInt8>, fold: Bool, _ found: (Int) -> Void) {
        var s = 0
        for raw in subject {
            let b = RequiredLiteral.fold(raw, fold)
            while true {
                if let n = Self.edge(states[s].edges, b) { s = Int(n); break }
                if s == 0 { break }
                s = Int(states[s].fail)
            }
            var o = states[s].output >= 0 ? Int32(s) : states[s].outputLink
            while o >= 0 {
                found(Int(states[Int(o)].output))
                o = states[Int(o)].outputLink
            }
        }
    }
}
