/// Aho–Corasick over a set of literals: one pass over a subject finds every
/// literal it contains.
///
/// The trie is built with sorted edge lists per state. From it comes a dense
/// table: every state's next state for every byte, the failure function
/// already followed, over an alphabet of byte classes (one per byte that
/// occurs in some literal, one for all other bytes), so a scan costs two
/// loads per byte. Entries take two bytes when there are few enough states
/// (the table of 10,000 rules' literals then fits a core's cache better),
/// four otherwise. A set of literals whose table would exceed
/// `maxDenseEntries` is scanned on the edge lists instead, following the
/// failure function at match time. A dense matcher keeps only its table and
/// each state's outputs: the trie's edge lists (some 60 bytes a state) are
/// dropped once the table is made.
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

    /// The trie: kept only when there is no dense table (empty otherwise).
    private var states: [State] = [State()]
    /// Each state's `output` and `outputLink`, what `report` reads.
    private var outputs: [(output: Int32, link: Int32)] = []
    /// Number of distinct literals.
    let count: Int

    /// The largest dense table built (entries of 4 bytes: 32 MiB).
    static let maxDenseEntries = 8 << 20

    /// `table[state * classCount + class]`: the next state, bitwise
    /// complemented (negative) when that state ends some literal. One of the
    /// two is filled: `compactTable` when every state fits in an `Int16`;
    /// neither when the table would be too large.
    private var table: [Int32] = []
    private var compactTable: [Int16] = []
    private var classCount = 0
    /// Each byte's class, and each byte's class once ASCII upper-case letters
    /// are lower-cased (for `fold`).
    private var classOf = [UInt8](repeating: 0, count: 256)
    private var foldedClassOf = [UInt8](repeating: 0, count: 256)

    /// Whether scans use the dense table (false only for very large sets).
    var isDense: Bool { !table.isEmpty || !compactTable.isEmpty }
    /// Whether the dense table's entries take two bytes.
    var isCompact: Bool { !compactTable.isEmpty }

    /// Builds the automaton; literal `i` is reported as `i`. A dense table is
    /// built when it has at most `maxDenseEntries` entries, of two bytes when
    /// there are at most `maxCompactStates` states (tests lower both).
    init(_ literals: [[UInt8]], maxDenseEntries: Int = LiteralMatcher.maxDenseEntries, maxCompactStates: Int = Int(Int16.max)) {
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
        // Breadth-first failure links; `queue` ends up listing every state,
        // the root first.
        var queue: [Int] = []
        queue.reserveCapacity(states.count)
        queue.append(0)
        for e in states[0].edges { queue.append(Int(e.target)) }
        var head = 1
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
        outputs = states.map { ($0.output, $0.outputLink) }
        buildTable(breadthFirst: queue, literals: literals, maxEntries: maxDenseEntries, maxCompactStates: maxCompactStates)
        if isDense { states = [] }
    }

    /// Fills `table`, rows in breadth-first order so that a state's failure
    /// row is complete before its own.
    private mutating func buildTable(breadthFirst order: [Int], literals: [[UInt8]], maxEntries: Int, maxCompactStates: Int) {
        var present = [Bool](repeating: false, count: 256)
        for literal in literals { for b in literal { present[Int(b)] = true } }
        let width = 1 + present.lazy.filter { $0 }.count  // class 0: bytes in no literal
        guard width <= 256, states.count * width <= maxEntries else { return }
        var next = 1
        for b in 0..<256 where present[b] {
            classOf[b] = UInt8(next)
            next += 1
        }
        for b in 0..<256 { foldedClassOf[b] = classOf[Int(RequiredLiteral.fold(UInt8(b), true))] }
        classCount = width
        // Targets that end some literal are complemented.
        let ends = states.map { $0.output >= 0 || $0.outputLink >= 0 }
        if states.count <= min(maxCompactStates, Int(Int16.max)) {
            compactTable = rows(Int16.self, breadthFirst: order, width: width, ends: ends)
        } else {
            table = rows(Int32.self, breadthFirst: order, width: width, ends: ends)
        }
    }

    /// The dense table's rows, entries of type `Entry`, written in place. A
    /// state's row is its failure state's row (complete: rows are filled
    /// breadth first) with its own edges written over it; the root's is the
    /// root but for its edges. Class 0 stays the root in every row.
    private func rows<Entry: FixedWidthInteger & SignedInteger>(_: Entry.Type, breadthFirst order: [Int], width: Int,
                                                                ends: [Bool]) -> [Entry] {
        func entry(_ t: Int32) -> Entry { Entry(truncatingIfNeeded: ends[Int(t)] ? ~t : t) }
        var rows = [Entry](repeating: entry(0), count: states.count * width)
        rows.withUnsafeMutableBufferPointer { rows in
            for s in order {
                let row = s * width
                if s != 0 {
                    let failRow = Int(states[s].fail) * width
                    for c in 0..<width { rows[row + c] = rows[failRow + c] }
                }
                for (b, t) in states[s].edges { rows[row + Int(classOf[Int(b)])] = entry(t) }
            }
        }
        return rows
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
        if !compactTable.isEmpty { return compactTable.withUnsafeBufferPointer { scanDense($0, subject, fold: fold, found) } }
        if !table.isEmpty { return table.withUnsafeBufferPointer { scanDense($0, subject, fold: fold, found) } }
        var s = 0
        for raw in subject {
            let b = RequiredLiteral.fold(raw, fold)
            while true {
                if let n = Self.edge(states[s].edges, b) { s = Int(n); break }
                if s == 0 { break }
                s = Int(states[s].fail)
            }
            report(s, found)
        }
    }

    private func scanDense<Entry: FixedWidthInteger & SignedInteger>(_ table: UnsafeBufferPointer<Entry>, _ subject: UnsafeBufferPointer<UInt8>,
                                                                     fold: Bool, _ found: (Int) -> Void) {
        (fold ? foldedClassOf : classOf).withUnsafeBufferPointer { classOf in
            let width = classCount
            var s = 0
            for b in subject {
                let t = Int(table[s &* width &+ Int(classOf[Int(b)])])
                guard t < 0 else { s = t; continue }
                s = ~t
                report(s, found)
            }
        }
    }

    /// Calls `found` with every literal that ends at state `s`: its own and
    /// those along its failure chain.
    @inline(__always)
    private func report(_ s: Int, _ found: (Int) -> Void) {
        var o = outputs[s].output >= 0 ? Int32(s) : outputs[s].link
        while o >= 0 {
            found(Int(outputs[Int(o)].output))
            o = outputs[Int(o)].link
        }
    }
}
