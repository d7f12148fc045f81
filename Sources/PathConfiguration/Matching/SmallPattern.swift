import Synchronization

/// A plain pattern (`SmallPatternReader`) compiled to a position automaton
/// that decides, without the regex engine, whether it occurs in a subject of
/// printable ASCII characters.
///
/// Most patterns of real configurations are a literal with anchors (`/new$`)
/// or a few literals, digits and classes (`^/posts/\d+/edit$`). Running the
/// engine costs hundreds of instructions a search before it looks at the
/// subject; this answers in a few per byte, and a literal in a comparison.
///
/// The automaton is Glushkov's: one state per character position of the
/// pattern (at most 64, one bit each), the set of active positions advanced
/// a byte at a time. It decides exactly the language the pattern denotes,
/// which is whether ICU, Java and PCRE2 find a match: every construct the
/// reader accepts is regular and means the same in all three on such
/// subjects (no backreference, lookaround, lazy or possessive quantifier).
/// Subjects with any other byte (a line terminator, which `$` and `.`
/// treat specially, or non-ASCII text, which Unicode classes and case
/// folding do) are left to the engine: `matches` is only called when
/// `MatchSubject.isPrintableASCII`.
///
/// Decided at load (the reading tells whether a pattern is plain, which
/// decides whether its engine form is deferred), built on the first search:
/// a configuration's many patterns cost a load only their reading, and a
/// pattern never searched costs nothing more. The automaton (`Automaton` and
/// its tables, one allocation) is made once, by whichever thread searches
/// first (a thread that loses the race frees its copy), and only read after,
/// so one instance serves every thread (`@unchecked Sendable`).
final class SmallPattern: @unchecked Sendable {
    /// The positions the automaton may have.
    static let maxPositions = SmallPatternReader.maxPositions

    private let pattern: String
    private let caseInsensitive: Bool
    /// The automaton once built: an `Automaton` followed by its tables.
    private let built = Atomic<UnsafeRawPointer?>(nil)

    /// `pattern`, when it is plain (`SmallPatternReader`) and needs at most
    /// `maxPositions` positions; nil otherwise.
    init?(_ pattern: String, caseInsensitive: Bool) {
        guard SmallPatternReader.read(pattern, caseInsensitive: caseInsensitive) != nil else { return nil }
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
    }

    deinit {
        if let made = built.load(ordering: .acquiring) { UnsafeMutableRawPointer(mutating: made).deallocate() }
    }

    /// Whether the automaton has been built (for tests).
    var isBuilt: Bool { built.load(ordering: .acquiring) != nil }

    /// Whether the pattern occurs in `subject`, every byte of which is
    /// printable ASCII.
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let made = built.load(ordering: .acquiring) ?? build()
        return made.assumingMemoryBound(to: Automaton.self).pointee.matches(subject)
    }

    /// The pattern as read (read again: `init` read it, and a reading of
    /// the same text never changes). What `PlanAutomaton` combines.
    var reading: SmallPatternReader.Reading? { SmallPatternReader.read(pattern, caseInsensitive: caseInsensitive) }

    private func build() -> UnsafeRawPointer {
        guard let reading else { preconditionFailure("a plain pattern no longer reads as plain") }
        let made = UnsafeRawPointer(Automaton.make(reading, caseInsensitive: caseInsensitive))
        let (stored, existing) = built.compareExchange(expected: nil, desired: made, ordering: .acquiringAndReleasing)
        if stored { return made }
        UnsafeMutableRawPointer(mutating: made).deallocate()
        return existing!
    }
}

/// What `SmallPattern.matches` runs: a literal compared directly (folded
/// under case folding), or the automaton. It sits at the start of the one
/// allocation that also holds its tables, in the order a search reads them
/// (`follow`, `masks`, `classOf`, or `literal`), so that a search touches
/// neighbouring cache lines and no reference count. Its searches are
/// inlined into `SmallPattern.matches`, which then reads only the fields a
/// search needs from that memory (called, each would take a copy of all).
private struct Automaton {
    let isLiteral: Bool
    let caseInsensitive: Bool
    let anchoredStart: Bool
    let anchoredEnd: Bool
    /// The literal's bytes (lower-cased under case folding).
    let literal: UnsafeBufferPointer<UInt8>
    /// Positions a match may start with, and end with.
    let first: UInt64, last: UInt64
    /// Whether the pattern matches the empty string.
    let nullable: Bool
    /// For each position, the positions that may follow it.
    let follow: UnsafeBufferPointer<UInt64>
    /// Set when every position is followed only by itself or the next one
    /// (`^/posts/\d+/edit$`): the automaton then steps by shifts
    /// (`shiftAnd`), with `chain` the positions reached from the one before
    /// and `loops` those that follow themselves.
    let isChain: Bool
    let chain: UInt64, loops: UInt64
    /// With `$`: the last bytes of every match, so of every subject that
    /// matches (up to 8, packed little-endian, lower-cased under case
    /// folding; `suffixLength` 0 when none is known). Checked before the
    /// automaton runs: patterns picked by a shared literal (`/posts/`)
    /// usually differ in how they end.
    let suffix: UInt64, suffixLength: Int
    /// For each byte (0...127), the index in `masks` of its class: bytes
    /// that every position treats alike share one, so a pattern keeps 128
    /// bytes and a few words rather than 128 words.
    let classOf: UnsafeBufferPointer<UInt8>
    /// For each class of bytes, the positions that accept it.
    let masks: UnsafeBufferPointer<UInt64>

    /// The bytes before the tables: the automaton itself, rounded to words.
    private static let headerBytes = (MemoryLayout<Automaton>.stride + 7) & ~7

    /// Builds the automaton of `reading` in one new allocation (freed with
    /// `deallocate()` on the pointer returned).
    static func make(_ reading: SmallPatternReader.Reading, caseInsensitive: Bool) -> UnsafeMutableRawPointer {
        if let bytes = literal(reading, caseInsensitive: caseInsensitive) {
            let storage = UnsafeMutableRawPointer.allocate(byteCount: headerBytes + bytes.count, alignment: 8)
            let text = (storage + headerBytes).bindMemory(to: UInt8.self, capacity: bytes.count)
            text.initialize(from: bytes, count: bytes.count)
            storage.initializeMemory(as: Automaton.self, to: Automaton(
                isLiteral: true, caseInsensitive: caseInsensitive,
                anchoredStart: reading.anchoredStart, anchoredEnd: reading.anchoredEnd,
                literal: UnsafeBufferPointer(start: text, count: bytes.count), first: 0, last: 0, nullable: false,
                follow: UnsafeBufferPointer(start: nil, count: 0), isChain: false, chain: 0, loops: 0,
                suffix: 0, suffixLength: 0,
                classOf: UnsafeBufferPointer(start: nil, count: 0), masks: UnsafeBufferPointer(start: nil, count: 0)))
            return storage
        }
        var chain: UInt64 = 0, loops: UInt64 = 0, isChain = true
        for (p, next) in reading.follow.enumerated() {
            let itself: UInt64 = 1 << UInt64(p), following: UInt64 = p + 1 < 64 ? 1 << UInt64(p + 1) : 0
            if next & ~(itself | following) != 0 { isChain = false }
            chain |= next & following
            loops |= next & itself
        }
        let (suffix, suffixLength) = reading.anchoredEnd ? requiredSuffix(reading, caseInsensitive: caseInsensitive) : (0, 0)
        // Each byte's positions; then the few distinct masks (one per kind of
        // character the pattern names), found by a linear search once per run
        // of bytes with the same mask (ranges and the bytes no position takes
        // come in runs). Both tables live on the stack until copied.
        let wordCount = reading.follow.count
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 256) { scratch in
            let byByte = UnsafeMutableBufferPointer(rebasing: scratch[..<128])
            let distinct = UnsafeMutableBufferPointer(rebasing: scratch[128...])
            byByte.initialize(repeating: 0)
            for (p, set) in reading.sets.enumerated() {
                set.forEach { byByte[Int($0)] |= 1 << UInt64(p) }
            }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { classes in
                var count = 0, runMask = UInt64.max, runClass = 0
                for b in 0..<128 {
                    let mask = byByte[b]
                    if mask != runMask {
                        runClass = 0
                        while runClass < count && distinct[runClass] != mask { runClass += 1 }
                        if runClass == count {
                            distinct[count] = mask
                            count += 1
                        }
                        runMask = mask
                    }
                    classes[b] = UInt8(runClass)
                }
                let words = wordCount + count
                let storage = UnsafeMutableRawPointer.allocate(byteCount: headerBytes + words * 8 + 128, alignment: 8)
                let wordTables = (storage + headerBytes).bindMemory(to: UInt64.self, capacity: words)
                reading.follow.withUnsafeBufferPointer { wordTables.initialize(from: $0.baseAddress!, count: wordCount) }
                (wordTables + wordCount).initialize(from: distinct.baseAddress!, count: count)
                let classTable = (storage + headerBytes + words * 8).bindMemory(to: UInt8.self, capacity: 128)
                classTable.initialize(from: classes.baseAddress!, count: 128)
                storage.initializeMemory(as: Automaton.self, to: Automaton(
                    isLiteral: false, caseInsensitive: caseInsensitive,
                    anchoredStart: reading.anchoredStart, anchoredEnd: reading.anchoredEnd,
                    literal: UnsafeBufferPointer(start: nil, count: 0),
                    first: reading.facts.first, last: reading.facts.last, nullable: reading.facts.nullable,
                    follow: UnsafeBufferPointer(start: wordTables, count: wordCount), isChain: isChain, chain: chain, loops: loops,
                    suffix: suffix, suffixLength: suffixLength,
                    classOf: UnsafeBufferPointer(start: classTable, count: 128),
                    masks: UnsafeBufferPointer(start: wordTables + wordCount, count: count)))
                return storage
            }
        }
    }

    /// The last bytes every match of `r` ends with (at most 8, packed
    /// little-endian, and how many): walking back from the one position a
    /// match can end at, through positions that each have one predecessor
    /// and stand for one character (both cases of a letter counting as one
    /// under `caseInsensitive`: then lower-cased), until a match could start
    /// at the position reached.
    private static func requiredSuffix(_ r: SmallPatternReader.Reading, caseInsensitive: Bool) -> (UInt64, Int) {
        guard !r.facts.nullable, r.facts.last.nonzeroBitCount == 1 else { return (0, 0) }
        var position = r.facts.last.trailingZeroBitCount
        var bytes: [UInt8] = []  // last byte first
        while bytes.count < 8, let b = character(r.sets[position], caseInsensitive: caseInsensitive) {
            bytes.append(b)
            let bit: UInt64 = 1 << UInt64(position)
            if r.facts.first & bit != 0 { break }  // a match may start here
            var predecessors: UInt64 = 0
            for (q, next) in r.follow.enumerated() where next & bit != 0 { predecessors |= 1 << UInt64(q) }
            guard predecessors.nonzeroBitCount == 1, predecessors != bit else { break }
            position = predecessors.trailingZeroBitCount
        }
        var word: UInt64 = 0
        for b in bytes { word = word << 8 | UInt64(b) }  // the first byte of the suffix lowest
        return (word, bytes.count)
    }

    /// The one character `set` stands for (lower-cased when it is both cases
    /// of a letter under `caseInsensitive`: 'A' is below 'a'), or nil.
    private static func character(_ set: ByteSet, caseInsensitive: Bool) -> UInt8? {
        guard let lowest = set.min else { return nil }
        if set.count == 1 { return lowest }
        if caseInsensitive, set.count == 2, lowest | 0x20 != lowest, set.contains(lowest | 0x20) { return lowest | 0x20 }
        return nil
    }

    /// Whether `subject` ends with the `suffixLength` bytes of `suffix`.
    @inline(__always)
    private func endsWithSuffix(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = suffixLength, m = subject.count
        guard n <= m else { return false }
        var word = suffix
        for k in (m - n)..<m {
            if RequiredLiteral.fold(subject[k], caseInsensitive) != UInt8(truncatingIfNeeded: word) { return false }
            word >>= 8
        }
        return true
    }

    /// The bytes of a reading that is a chain of single characters (both
    /// cases of a letter counting as one under `caseInsensitive`: then
    /// lower-cased): position p followed only by p + 1, the last ending it.
    private static func literal(_ r: SmallPatternReader.Reading, caseInsensitive: Bool) -> [UInt8]? {
        let n = r.sets.count
        guard n > 0, !r.facts.nullable, r.facts.first == 1, r.facts.last == 1 << UInt64(n - 1) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(n)
        for (p, set) in r.sets.enumerated() {
            guard r.follow[p] == (p == n - 1 ? 0 : 1 << UInt64(p + 1)),
                  let b = character(set, caseInsensitive: caseInsensitive) else { return nil }
            out.append(b)
        }
        return out
    }

    /// Whether the pattern occurs in `subject`, every byte of which is
    /// printable ASCII.
    @inline(__always)
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        isLiteral ? matchesLiteral(subject) : runAutomaton(subject)
    }

    @inline(__always)
    private func matchesLiteral(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = literal.count, m = subject.count
        guard n <= m else { return false }
        func at(_ start: Int) -> Bool {
            var k = 0
            while k < n {
                let b = caseInsensitive ? RequiredLiteral.fold(subject[start + k], true) : subject[start + k]
                if b != literal[k] { return false }
                k += 1
            }
            return true
        }
        switch (anchoredStart, anchoredEnd) {
        case (true, true): return n == m && at(0)
        case (true, false): return at(0)
        case (false, true): return at(m - n)
        case (false, false):
            var start = 0
            while start <= m - n {
                if at(start) { return true }
                start += 1
            }
            return false
        }
    }

    /// Runs the automaton over `subject`, starting a match at every offset
    /// unless `anchoredStart`.
    @inline(__always)
    private func runAutomaton(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if nullable && (!anchoredEnd || !anchoredStart || subject.isEmpty) { return true }
        if suffixLength > 0 && !endsWithSuffix(subject) { return false }
        if isChain { return shiftAnd(subject) }
        var active: UInt64 = 0
        var starts = first
        for b in subject {
            var next = starts
            var bits = active
            while bits != 0 {
                next |= follow[bits.trailingZeroBitCount]
                bits &= bits - 1
            }
            active = next & masks[Int(classOf[Int(b & 0x7F)])]
            if anchoredStart {
                starts = 0
                if active == 0 { return false }
            }
            if !anchoredEnd && active & last != 0 { return true }
        }
        return active & last != 0
    }

    /// `runAutomaton` for a chain: the positions that follow the active ones
    /// are the active ones shifted by one (where the chain goes on) and the
    /// active ones that loop, so a byte costs a few instructions whatever
    /// the number of active positions.
    @inline(__always)
    private func shiftAnd(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        var active: UInt64 = 0
        var starts = first
        for b in subject {
            active = ((active << 1) & chain | active & loops | starts) & masks[Int(classOf[Int(b & 0x7F)])]
            if anchoredStart {
                starts = 0
                if active == 0 { return false }
            }
            if !anchoredEnd && active & last != 0 { return true }
        }
        return active & last != 0
    }
}
