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
/// subjects (no backreference, lookaround or possessive quantifier).
/// Subjects with any other byte (a line terminator, which `$` and `.`
/// treat specially, or non-ASCII text, which Unicode classes and case
/// folding do) are left to the engine: `matches` is only called when
/// `MatchSubject.isPrintableASCII`.
///
/// Immutable once made: its raw memory is written by `init` and only read
/// after, so one instance serves every thread (`@unchecked Sendable`).
final class SmallPattern: @unchecked Sendable {
    /// The positions the automaton may have.
    static let maxPositions = 64

    /// What `matches` runs: a literal compared directly (folded under case
    /// folding), or the automaton. Kept in raw memory the instance owns, so
    /// that a search touches no reference count.
    private let isLiteral: Bool
    private let caseInsensitive: Bool
    private let anchoredStart: Bool
    private let anchoredEnd: Bool
    /// The literal's bytes (lower-cased under case folding); `count` of them.
    private let literal: UnsafeMutableBufferPointer<UInt8>
    /// Positions a match may start with, and end with.
    private let first: UInt64, last: UInt64
    /// Whether the pattern matches the empty string.
    private let nullable: Bool
    /// For each position, the positions that may follow it.
    private let follow: UnsafeMutableBufferPointer<UInt64>
    /// For each byte (0...127), the index in `masks` of its class: bytes
    /// that every position treats alike share one, so a pattern keeps 128
    /// bytes and a few words rather than 128 words.
    private let classOf: UnsafeMutableBufferPointer<UInt8>
    /// For each class of bytes, the positions that accept it.
    private let masks: UnsafeMutableBufferPointer<UInt64>

    /// Compiles `pattern`, or returns nil when it is not plain
    /// (`SmallPatternReader`) or needs more than `maxPositions` positions.
    init?(_ pattern: String, caseInsensitive: Bool) {
        guard let reading = SmallPatternReader.read(pattern, caseInsensitive: caseInsensitive) else { return nil }
        self.caseInsensitive = caseInsensitive
        anchoredStart = reading.anchoredStart
        anchoredEnd = reading.anchoredEnd
        if let bytes = Self.literal(reading.node, caseInsensitive: caseInsensitive) {
            isLiteral = true
            literal = .allocate(capacity: bytes.count)
            _ = literal.initialize(from: bytes)
            (first, last, nullable) = (0, 0, false)
            follow = .allocate(capacity: 0)
            classOf = .allocate(capacity: 0)
            masks = .allocate(capacity: 0)
            return
        }
        var builder = Builder()
        guard let top = builder.build(reading.node) else { return nil }
        isLiteral = false
        literal = .allocate(capacity: 0)
        (first, last, nullable) = (top.first, top.last, top.nullable)
        follow = .allocate(capacity: builder.follow.count)
        _ = follow.initialize(from: builder.follow)
        var distinct: [UInt64] = [], ids: [UInt64: UInt8] = [:]
        classOf = .allocate(capacity: 128)
        for b in UInt8(0)..<128 {
            var mask: UInt64 = 0
            for (p, set) in builder.sets.enumerated() where set.contains(b) { mask |= 1 << UInt64(p) }
            let id = ids[mask] ?? UInt8(distinct.count)
            if id == distinct.count {
                ids[mask] = id
                distinct.append(mask)
            }
            classOf[Int(b)] = id
        }
        masks = .allocate(capacity: distinct.count)
        _ = masks.initialize(from: distinct)
    }

    deinit {
        literal.deallocate()
        follow.deallocate()
        classOf.deallocate()
        masks.deallocate()
    }

    /// The bytes of a node that is a sequence of single characters (both
    /// cases of a letter counting as one under `caseInsensitive`), lower-cased.
    private static func literal(_ node: SmallPatternReader.Node, caseInsensitive: Bool) -> [UInt8]? {
        func byte(_ n: SmallPatternReader.Node) -> UInt8? {
            guard case let .character(set) = n else { return nil }
            let members = (UInt8(0)..<128).filter(set.contains)
            if members.count == 1 { return members[0] }
            if caseInsensitive, members.count == 2, members[0] | 0x20 == members[1] { return members[1] }
            return nil
        }
        switch node {
        case .character: return byte(node).map { [$0] }
        case let .sequence(items):
            var out: [UInt8] = []
            for item in items {
                guard let b = byte(item) else { return nil }
                out.append(b)
            }
            return out
        default: return nil
        }
    }

    /// Whether the pattern occurs in `subject`, every byte of which is
    /// printable ASCII.
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        isLiteral ? matchesLiteral(subject) : runAutomaton(subject)
    }

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
    private func runAutomaton(_ subject: UnsafeBufferPointer<UInt8>) -> Bool {
        if nullable && (!anchoredEnd || !anchoredStart || subject.isEmpty) { return true }
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

    /// Builds Glushkov's automaton: positions, and the follow relation.
    private struct Builder {
        var sets: [ByteSet] = []
        var follow: [UInt64] = []

        /// Whether a node matches the empty string, and the positions its
        /// matches may start and end with.
        struct Facts {
            var nullable: Bool
            var first: UInt64
            var last: UInt64
        }

        /// Adds the node's positions; nil when they would exceed `maxPositions`.
        mutating func build(_ node: SmallPatternReader.Node) -> Facts? {
            switch node {
            case .empty:
                return Facts(nullable: true, first: 0, last: 0)
            case let .character(set):
                guard sets.count < SmallPattern.maxPositions else { return nil }
                let bit: UInt64 = 1 << UInt64(sets.count)
                sets.append(set)
                follow.append(0)
                return Facts(nullable: false, first: bit, last: bit)
            case let .sequence(items):
                var facts = Facts(nullable: true, first: 0, last: 0)
                for item in items {
                    guard let next = build(item) else { return nil }
                    facts = concatenate(facts, next)
                }
                return facts
            case let .alternation(branches):
                var facts = Facts(nullable: false, first: 0, last: 0)
                for branch in branches {
                    guard let next = build(branch) else { return nil }
                    facts.nullable = facts.nullable || next.nullable
                    facts.first |= next.first
                    facts.last |= next.last
                }
                return facts
            case let .repeated(inner, min, max):
                // x{n,m}: n copies, then m - n optional ones; x{n,}: n copies
                // (at least one), the last of them looping.
                var facts = Facts(nullable: true, first: 0, last: 0)
                let copies = max ?? Swift.max(min, 1)
                for k in 0..<copies {
                    guard var copy = build(inner) else { return nil }
                    if max == nil && k == copies - 1 { loop(copy) }
                    if k >= min { copy.nullable = true }
                    facts = concatenate(facts, copy)
                }
                return facts
            }
        }

        private mutating func concatenate(_ a: Facts, _ b: Facts) -> Facts {
            each(a.last) { follow[$0] |= b.first }
            return Facts(nullable: a.nullable && b.nullable,
                         first: a.nullable ? a.first | b.first : a.first,
                         last: b.nullable ? a.last | b.last : b.last)
        }

        private mutating func loop(_ x: Facts) {
            each(x.last) { follow[$0] |= x.first }
        }

        private func each(_ bits: UInt64, _ body: (Int) -> Void) {
            var bits = bits
            while bits != 0 {
                body(bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }
}
