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
package final class SmallPattern: @unchecked Sendable {
    private let pattern: String
    private let caseInsensitive: Bool
    private let dialect: RegexDialect
    /// The automaton once built: an `Automaton` followed by its tables.
    private let built = Atomic<UnsafeRawPointer?>(nil)

    /// `pattern`, when it is plain (`SmallPatternReader`) and needs at most
    /// `SmallPatternReader.maxPositions` positions; nil otherwise.
    package convenience init?(_ pattern: String, options: RegexOptions) {
        self.init(pattern, syntax: try? PatternSyntax.read(pattern, dialect: options.dialect), options: options)
    }

    /// `pattern`, read as `syntax` (nil: not read) with `options`' dialect, when it is plain.
    init?(_ pattern: String, syntax: PatternSyntax?, options: RegexOptions) {
        guard let syntax, SmallPatternReader.isPlain(syntax) else { return nil }
        self.pattern = pattern
        self.caseInsensitive = options.caseInsensitive
        self.dialect = options.dialect
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
        return Automaton.matches(made.assumingMemoryBound(to: Automaton.self), subject)
    }

    /// The pattern as read (read again: `init` read it, and a reading of
    /// the same text never changes). What `PlanAutomaton` combines.
    var reading: SmallPatternReader.Reading? {
        (try? PatternSyntax.read(pattern, dialect: dialect)).flatMap { SmallPatternReader.read($0, caseInsensitive: caseInsensitive) }
    }

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
/// static functions on its address, so that each reads only the fields it
/// needs from that memory, inlined or not (a method the compiler did not
/// inline was handed a copy of all).
private struct Automaton {
    // A literal sets only the fields without a default.
    let isLiteral: Bool
    let caseInsensitive: Bool
    let anchoredStart: Bool
    let anchoredEnd: Bool
    /// The literal's bytes (lower-cased under case folding).
    var literal = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// Positions a match may start with, and end with.
    var first: UInt64 = 0, last: UInt64 = 0
    /// Whether the pattern matches the empty string.
    var nullable = false
    /// For each position, the positions that may follow it.
    var follow = UnsafeBufferPointer<UInt64>(start: nil, count: 0)
    /// Set when every position is followed only by itself or the next one
    /// (`^/posts/\d+/edit$`): the automaton then steps by shifts
    /// (`shiftAnd`), with `chain` the positions reached from the one before
    /// and `loops` those that follow themselves.
    var isChain = false
    var chain: UInt64 = 0, loops: UInt64 = 0
    /// With `$`: the last bytes of every match, so of every subject that
    /// matches (up to 8, packed little-endian, lower-cased under case
    /// folding; `suffixLength` 0 when none is known). Checked before the
    /// automaton runs: patterns picked by a shared literal (`/posts/`)
    /// usually differ in how they end.
    var suffix: UInt64 = 0, suffixLength = 0
    /// With `^`: the first bytes of every match, so of every subject that
    /// matches (up to 16, lower-cased under case folding; `prefixLength` 0
    /// when none is known), as two little-endian words: the first eight
    /// (`prefixMask` keeps those of a shorter prefix) and, past eight, the
    /// last eight. And the one position active after them. Compared a word
    /// at a time before the automaton runs, which then starts from that
    /// position: patterns picked by a shared literal (`/posts/`) usually
    /// share how they start too, and stepping through those bytes was most
    /// of their search.
    var prefix: (UInt64, UInt64) = (0, 0), prefixMask: UInt64 = 0, prefixLength = 0, afterPrefix: UInt64 = 0
    /// For each byte (0...127), the index in `masks` of its class: bytes
    /// that every position treats alike share one, so a pattern keeps 128
    /// bytes and a few words rather than 128 words.
    var classOf = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    /// For each class of bytes, the positions that accept it.
    var masks = UnsafeBufferPointer<UInt64>(start: nil, count: 0)

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
                isLiteral: true, caseInsensitive: caseInsensitive, anchoredStart: reading.anchoredStart, anchoredEnd: reading.anchoredEnd,
                literal: UnsafeBufferPointer(start: text, count: bytes.count)))
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
        let (prefixBytes, afterPrefix) = requiredPrefix(reading, caseInsensitive: caseInsensitive)
        let prefixLength = prefixBytes.count
        func word(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        let prefix = (word(prefixBytes.prefix(8)), prefixLength > 8 ? word(prefixBytes.suffix(8)) : 0)
        let prefixMask: UInt64 = prefixLength >= 8 ? .max : (1 << UInt64(8 * prefixLength)) - 1
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
                    first: reading.facts.first, last: reading.facts.last, nullable: reading.facts.nullable,
                    follow: UnsafeBufferPointer(start: wordTables, count: wordCount), isChain: isChain, chain: chain, loops: loops,
                    suffix: suffix, suffixLength: suffixLength, prefix: prefix, prefixMask: prefixMask, prefixLength: prefixLength,
                    afterPrefix: afterPrefix,
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
        return (bytes.reduce(0) { $0 << 8 | UInt64($1) }, bytes.count)  // the first byte of the suffix lowest
    }

    /// With `^`, the first bytes every match starts with (at most 16,
    /// lower-cased under case folding), and the position active after them
    /// (0 when none): walking forward from the one position a match can
    /// start at, through positions that each stand for one character (both
    /// cases of a letter counting as one under `caseInsensitive`), while the
    /// position reached cannot end a match and has exactly one successor.
    /// Every match then reads those bytes through those positions, so after
    /// them the automaton's active set is exactly the last one's. None for a
    /// pattern that matches the empty string.
    private static func requiredPrefix(_ r: SmallPatternReader.Reading, caseInsensitive: Bool) -> ([UInt8], UInt64) {
        guard r.anchoredStart, !r.facts.nullable, r.facts.first.nonzeroBitCount == 1 else { return ([], 0) }
        var position = r.facts.first.trailingZeroBitCount
        var bytes: [UInt8] = [], end = 0
        while bytes.count < 16, let b = character(r.sets[position], caseInsensitive: caseInsensitive) {
            bytes.append(b)
            end = position
            let next = r.follow[position]
            guard r.facts.last & (1 << UInt64(position)) == 0, next.nonzeroBitCount == 1 else { break }
            position = next.trailingZeroBitCount
        }
        return (bytes, bytes.isEmpty ? 0 : 1 << UInt64(end))
    }

    /// Whether `subject` starts with the `prefixLength` bytes of `prefix`:
    /// a word at a time when it holds eight bytes or more.
    @inline(__always)
    private static func startsWithPrefix(_ a: UnsafePointer<Automaton>, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.pointee.prefixLength, m = subject.count
        guard n <= m else { return false }
        if m >= 8 {
            let base = UnsafeRawPointer(subject.baseAddress!)
            let head = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
            guard Self.folded(head, a.pointee.caseInsensitive) & a.pointee.prefixMask == a.pointee.prefix.0 else { return false }
            guard n > 8 else { return true }
            let tail = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
            return Self.folded(tail, a.pointee.caseInsensitive) == a.pointee.prefix.1
        }
        return holds(a.pointee.prefix.0, count: n, in: subject, at: 0, a.pointee.caseInsensitive)
    }

    /// Whether `subject[start..<start + count]`, folded as
    /// `URLParts.asciiLowercased` folds, is the `count` bytes packed in `word`
    /// (little-endian, at most 8), byte by byte.
    @inline(__always)
    private static func holds(_ word: UInt64, count: Int, in subject: UnsafeBufferPointer<UInt8>, at start: Int,
                              _ caseInsensitive: Bool) -> Bool {
        var word = word
        for k in start..<(start + count) {
            if (caseInsensitive ? URLParts.asciiLowercased(subject[k]) : subject[k]) != UInt8(truncatingIfNeeded: word) { return false }
            word >>= 8
        }
        return true
    }

    /// `word`'s eight bytes as `URLParts.asciiLowercased` folds each (ASCII
    /// upper-case letters lower-cased when `caseInsensitive`), for bytes
    /// below 0x80 (printable ASCII): no sum below carries into the next byte.
    @inline(__always)
    private static func folded(_ word: UInt64, _ caseInsensitive: Bool) -> UInt64 {
        guard caseInsensitive else { return word }
        let ones: UInt64 = 0x0101_0101_0101_0101, high: UInt64 = 0x8080_8080_8080_8080
        let atLeastA = word &+ ones &* (0x80 - 0x41)  // high bit set where a byte is 0x41 ('A') or more
        let pastZ = word &+ ones &* (0x80 - 0x5B)  // where it is past 0x5A ('Z')
        let upper = atLeastA & ~pastZ & high
        return word | upper >> 2  // 0x80 >> 2 is 0x20, the case bit
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
    private static func endsWithSuffix(_ a: UnsafePointer<Automaton>, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.pointee.suffixLength, m = subject.count
        guard n <= m else { return false }
        return holds(a.pointee.suffix, count: n, in: subject, at: m - n, a.pointee.caseInsensitive)
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

    /// Whether the pattern of the automaton at `automaton` occurs in
    /// `subject`, every byte of which is printable ASCII.
    static func matches(_ automaton: UnsafePointer<Automaton>, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        automaton.pointee.isLiteral ? matchesLiteral(automaton, subject) : runAutomaton(automaton, subject)
    }

    @inline(__always)
    private static func matchesLiteral(_ a: UnsafePointer<Automaton>, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.pointee.literal.count, m = subject.count
        guard n <= m else { return false }
        func at(_ start: Int) -> Bool {
            var k = 0
            while k < n {
                let b = a.pointee.caseInsensitive ? URLParts.asciiLowercased(subject[start + k]) : subject[start + k]
                if b != a.pointee.literal[k] { return false }
                k += 1
            }
            return true
        }
        switch (a.pointee.anchoredStart, a.pointee.anchoredEnd) {
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
    private static func runAutomaton(_ a: UnsafePointer<Automaton>, _ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if a.pointee.nullable && (!a.pointee.anchoredEnd || !a.pointee.anchoredStart || subject.isEmpty) { return true }
        if a.pointee.suffixLength > 0 && !endsWithSuffix(a, subject) { return false }
        var active: UInt64 = 0
        var starts = a.pointee.first
        var i = 0
        if a.pointee.prefixLength > 0 {
            guard startsWithPrefix(a, subject) else { return false }
            active = a.pointee.afterPrefix
            starts = 0
            i = a.pointee.prefixLength
            if !a.pointee.anchoredEnd && active & a.pointee.last != 0 { return true }
        }
        if a.pointee.isChain { return shiftAnd(a, subject, from: i, active: active, starts: starts) }
        let follow = a.pointee.follow, masks = a.pointee.masks, classOf = a.pointee.classOf
        let last = a.pointee.last, anchoredStart = a.pointee.anchoredStart, anchoredEnd = a.pointee.anchoredEnd
        while i < subject.count {
            let b = subject[i]
            i += 1
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
    /// It starts at `subject[start...]` with `active` and `starts`: from the
    /// beginning with none active and `first`, or after the prefix.
    @inline(__always)
    private static func shiftAnd(_ a: UnsafePointer<Automaton>, _ subject: UnsafeBufferPointer<UInt8>, from start: Int, active: UInt64,
                                 starts: UInt64) -> Bool {
        var active = active, starts = starts
        var i = start
        let chain = a.pointee.chain, loops = a.pointee.loops, masks = a.pointee.masks, classOf = a.pointee.classOf
        let last = a.pointee.last, anchoredStart = a.pointee.anchoredStart, anchoredEnd = a.pointee.anchoredEnd
        while i < subject.count {
            let b = subject[i]
            i += 1
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
