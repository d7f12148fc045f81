/// Aho–Corasick over a set of literals: one pass over a subject finds every
/// literal it contains.
///
/// The trie is built breadth first from the literals in sorted order, so
/// that its states are numbered breadth first and each state's children
/// are consecutive states in byte order: the whole trie is a few flat
/// arrays (about 17 bytes a state), never an array per state. From it
/// comes a dense table: every state's next state for every byte, the
/// failure function already followed, over an alphabet of byte classes
/// (one per byte that occurs in some literal, one for all other bytes), so
/// a scan costs two loads per byte. Entries take two bytes when there are
/// few enough states (the table of 10,000 rules' literals then fits a
/// core's cache better), four otherwise. A set of literals whose table
/// would exceed `maxDenseEntries` is scanned on the trie instead,
/// following the failure function at match time. A dense matcher keeps
/// only its table and each state's outputs.
/// Immutable after construction, so one instance serves every thread.
struct LiteralMatcher: Sendable {
    /// The trie, kept only when there is no dense table (empty otherwise):
    /// state `s`'s children are the states `childStart[s]..<childStart[s + 1]`,
    /// the child `t` reached by the byte `byte[t]`, in increasing order.
    private var childStart: [Int32] = []
    private var byte: [UInt8] = []
    private var fail: [Int32] = []
    /// Each state's literal (-1 when none ends there) and the nearest state
    /// on its failure chain with one (-1 when none): what `report` reads.
    private var outputs: [(output: Int32, link: Int32)] = []

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

    /// Builds the automaton; literal `i` is reported as `i` (of equal
    /// literals, the last). A dense table is built when it has at most
    /// `maxDenseEntries` entries, of two bytes when there are at most
    /// `maxCompactStates` states (tests lower both).
    init(_ literals: [[UInt8]], maxDenseEntries: Int = LiteralMatcher.maxDenseEntries, maxCompactStates: Int = Int(Int16.max)) {
        buildTrie(literals)
        buildFailures()
        buildTable(maxEntries: maxDenseEntries, maxCompactStates: maxCompactStates)
        if isDense { (childStart, byte, fail) = ([], [], []) }
    }

    /// The trie, breadth first. State `s` stands for the prefix of length
    /// `depth[s]` shared by the sorted literals `sorted[first[s]..<end[s]]`:
    /// those of that length end there, and the others, grouped by their
    /// next byte, are its children.
    private mutating func buildTrie(_ literals: [[UInt8]]) {
        let sorted = literals.indices.sorted { a, b in
            literals[a].lexicographicallyPrecedes(literals[b]) || (literals[a] == literals[b] && a < b)
        }
        var first: [Int32] = [0], end = [Int32(sorted.count)], depth: [Int32] = [0]
        byte = [0]
        childStart = [1]  // the root's children start at state 1; each state then appends where its children end
        var s = 0
        while s < first.count {
            var i = Int(first[s])
            let stop = Int(end[s]), d = Int(depth[s])
            var output: Int32 = -1
            while i < stop, literals[sorted[i]].count == d {
                output = Int32(sorted[i])
                i += 1
            }
            outputs.append((output, -1))
            while i < stop {
                let b = literals[sorted[i]][d]
                var j = i + 1
                while j < stop, literals[sorted[j]][d] == b { j += 1 }
                first.append(Int32(i))
                end.append(Int32(j))
                depth.append(Int32(d + 1))
                byte.append(b)
                i = j
            }
            childStart.append(Int32(first.count))
            s += 1
        }
    }

    /// Each state's failure state and output link, breadth first.
    private mutating func buildFailures() {
        fail = [Int32](repeating: 0, count: byte.count)
        for s in 0..<byte.count {
            for t in Int(childStart[s])..<Int(childStart[s + 1]) {
                let b = byte[t]
                var f = Int(fail[s])
                var target: Int32 = 0
                while true {
                    if let n = edge(from: f, b), Int(n) != t { target = n; break }
                    if f == 0 { break }
                    f = Int(fail[f])
                }
                fail[t] = target
                let ft = Int(target)
                outputs[t].link = outputs[ft].output >= 0 ? target : outputs[ft].link
            }
        }
    }

    /// Fills `table`, rows in breadth-first order so that a state's failure
    /// row is complete before its own.
    private mutating func buildTable(maxEntries: Int, maxCompactStates: Int) {
        // The bytes of the literals are the bytes of the trie's edges.
        var present = [Bool](repeating: false, count: 256)
        for b in byte.dropFirst() { present[Int(b)] = true }
        let width = 1 + present.lazy.filter { $0 }.count  // class 0: bytes in no literal
        guard width <= 256, byte.count * width <= maxEntries else { return }
        var next = 1
        for b in 0..<256 where present[b] {
            classOf[b] = UInt8(next)
            next += 1
        }
        for b in 0..<256 { foldedClassOf[b] = classOf[Int(URLParts.asciiLowercased(UInt8(b)))] }
        classCount = width
        if byte.count <= min(maxCompactStates, Int(Int16.max)) {
            compactTable = rows(Int16.self, width: width)
        } else {
            table = rows(Int32.self, width: width)
        }
    }

    /// The dense table's rows, entries of type `Entry`, written in place. A
    /// state's row is its failure state's row (complete: rows are filled
    /// breadth first) with its own edges written over it; the root's is the
    /// root but for its edges. Class 0 stays the root in every row. Targets
    /// that end some literal are complemented.
    private func rows<Entry: FixedWidthInteger & SignedInteger>(_: Entry.Type, width: Int) -> [Entry] {
        func entry(_ t: Int) -> Entry {
            Entry(truncatingIfNeeded: outputs[t].output >= 0 || outputs[t].link >= 0 ? ~t : t)
        }
        var rows = [Entry](repeating: entry(0), count: byte.count * width)
        rows.withUnsafeMutableBufferPointer { rows in
            for s in 0..<byte.count {
                let row = s * width
                if s != 0 {
                    let failRow = Int(fail[s]) * width
                    for c in 0..<width { rows[row + c] = rows[failRow + c] }
                }
                for t in Int(childStart[s])..<Int(childStart[s + 1]) { rows[row + Int(classOf[Int(byte[t])])] = entry(t) }
            }
        }
        return rows
    }

    /// The child of `s` reached by `b`, found by bisection.
    private func edge(from s: Int, _ b: UInt8) -> Int32? {
        var lo = Int(childStart[s]), hi = Int(childStart[s + 1])
        while lo < hi {
            let mid = (lo + hi) >> 1
            if byte[mid] == b { return Int32(mid) }
            if byte[mid] < b { lo = mid + 1 } else { hi = mid }
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
            let b = fold ? URLParts.asciiLowercased(raw) : raw
            while true {
                if let n = edge(from: s, b) { s = Int(n); break }
                if s == 0 { break }
                s = Int(fail[s])
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
