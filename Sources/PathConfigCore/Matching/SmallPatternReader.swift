/// Reads the plain patterns most configurations are made of (`/new$`,
/// `^/posts/\d+/edit$`, `^/admin(/.*)?$`, `.*\?.*tab=[a-z]+.*`) from their
/// syntax into the positions and follow relation of Glushkov's automaton,
/// which `SmallPattern` runs.
///
/// Only a whitelist of constructs is read, each one that ICU (iOS),
/// `java.util.regex` (Android) and PCRE2 match the same way on a subject of
/// printable ASCII characters (the only subjects `SmallPattern` is used on),
/// in a pattern of printable ASCII characters:
///
/// - characters other than `\ . [ ] ( ) { } * + ? | ^ $ #` and space,
///   which stand for themselves;
/// - `\` before an ASCII punctuation character (the character itself), and
///   `\d`, `\D`, `\w`, `\W` (`[0-9]`, `[A-Za-z0-9_]` and their complements:
///   Unicode and ASCII classes agree on ASCII text);
/// - `.` (any printable ASCII character: none is a line terminator);
/// - classes `[...]` and `[^...]` of letters, digits, `_`, a few punctuation
///   characters, escaped punctuation, `\d`, `\w` and ranges between two
///   letters of the same case or two digits;
/// - groups `(...)` and `(?:...)`, alternation `|`;
/// - greedy `*`, `+`, `?` and `{n}`, `{n,}`, `{n,m}` up to `maxCount`; never
///   lazy ones (ICU's lazy loop over a body that can match the empty string
///   gives up where the others go on) or possessive ones, nor a count of
///   two or more on a group that can match the empty string (the JDK's
///   loop stops at an empty iteration, even below its count);
/// - `^` as the pattern's first construct and `$` as its last, when the
///   pattern has no top-level `|`.
///
/// Anything else (inline flags, lookarounds, backreferences, `\b`, Unicode
/// properties, nested classes, characters by code, non-ASCII text, and the
/// empty pattern, which ICU refuses, or one of nothing but `\Q\E`) returns
/// nil, and the pattern is left to its engine.
struct SmallPatternReader {
    /// What a piece of a pattern can match: whether the empty string, and
    /// the positions its matches may start and end with.
    struct Facts {
        var nullable: Bool
        var first: UInt64
        var last: UInt64

        static let empty = Facts(nullable: true, first: 0, last: 0)
    }

    struct Reading {
        /// The character set of each position.
        var sets: [ByteSet]
        /// For each position, the positions that may follow it.
        var follow: [UInt64]
        var facts: Facts
        /// The pattern starts with `^`.
        var anchoredStart: Bool
        /// The pattern ends with `$`.
        var anchoredEnd: Bool

        /// What stands for a pattern that matches every subject: the empty one.
        static let everySubject = Reading(sets: [], follow: [], facts: .empty, anchoredStart: false, anchoredEnd: false)
    }

    /// The largest count a `{n,m}` may name.
    static let maxCount = 64
    /// The most positions a pattern may have: one bit each in a word.
    static let maxPositions = 64

    /// Whether `read` reads the pattern: the same walk, with positions
    /// counted but not recorded (what a load asks of each pattern; the
    /// automaton is built from a `read` on the first search).
    static func isPlain(_ syntax: PatternSyntax) -> Bool {
        read(syntax, caseInsensitive: false, recording: false) != nil
    }

    /// Reads the pattern whose syntax is `syntax`, or returns nil when it
    /// uses anything outside the whitelist or needs more than `maxPositions`
    /// positions. With `caseInsensitive`, every letter also stands for its
    /// other case.
    static func read(_ syntax: PatternSyntax, caseInsensitive: Bool, recording: Bool = true) -> Reading? {
        guard !syntax.nodes.isEmpty, syntax.text.withUnsafeBufferPointer(ByteSet.allPrintable) else { return nil }
        let nodes = syntax.nodes
        let anchoredStart = nodes[0].kind == .caret
        var k = anchoredStart ? 1 : 0
        let anchoredEnd = nodes.count > k && nodes[nodes.count - 1].kind == .dollar
        let to = anchoredEnd ? nodes.count - 1 : nodes.count
        var reader = SmallPatternReader(syntax: syntax, caseInsensitive: caseInsensitive, recording: recording)
        guard let (facts, branches) = reader.alternation(&k, end: to) else { return nil }
        // `^a|b`: the anchor binds to the first branch only.
        if (anchoredStart || anchoredEnd) && branches > 1 { return nil }
        return Reading(sets: reader.sets, follow: reader.follow, facts: facts, anchoredStart: anchoredStart, anchoredEnd: anchoredEnd)
    }

    private let syntax: PatternSyntax
    private let caseInsensitive: Bool
    /// Whether positions are recorded (`sets`, `follow`) or only counted.
    private let recording: Bool
    private var positions = 0
    private var sets: [ByteSet] = []
    private var follow: [UInt64] = []

    private init(syntax: PatternSyntax, caseInsensitive: Bool, recording: Bool) {
        self.syntax = syntax
        self.caseInsensitive = caseInsensitive
        self.recording = recording
        guard recording else { return }
        // About a position per character (a counted repetition makes more):
        // one allocation each, rather than one per doubling.
        let positions = Swift.min(syntax.nodes.count, Self.maxPositions)
        sets.reserveCapacity(positions)
        follow.reserveCapacity(positions)
    }

    /// `branch ('|' branch)*` from `k` to `end`, and how many branches.
    private mutating func alternation(_ k: inout Int, end: Int) -> (Facts, Int)? {
        var facts = Facts(nullable: false, first: 0, last: 0)
        var branches = 0
        repeat {
            if branches > 0 { k += 1 }
            guard let branch = sequence(&k, end: end) else { return nil }
            facts.nullable = facts.nullable || branch.nullable
            facts.first |= branch.first
            facts.last |= branch.last
            branches += 1
        } while k < end
        return (facts, branches)
    }

    /// `(atom quantifier?)*`, up to `|` or `end`.
    private mutating func sequence(_ k: inout Int, end: Int) -> Facts? {
        var facts = Facts.empty
        let nodes = syntax.nodes
        while k < end, !nodes[k].isAlternation {
            let start = k
            guard let atom = atom(at: k) else { return nil }
            k = nodes[k].itemEnd(at: k)
            var item = atom
            if k < end, case .quantifier(let min, let max, let mode) = nodes[k].kind {
                guard mode == .greedy, let repeated = quantified(atom, at: start, min: Int(min), max: max.map(Int.init)) else { return nil }
                item = repeated
                k += 1
            }
            facts = concatenate(facts, item)
        }
        return facts
    }

    /// One atom: its positions added.
    private mutating func atom(at k: Int) -> Facts? {
        let caseInsensitive = self.caseInsensitive  // (read before `position`, which mutates)
        switch syntax.nodes[k].kind {
        case .group(.capturing, let close), .group(.nonCapturing, let close):
            var inner = k + 1
            return alternation(&inner, end: Int(close))?.0
        case .characterClass(let index):
            guard let set = characterClass(syntax.classes[Int(index)]) else { return nil }
            return position(set)
        case .dot:
            return position(.printable)
        case .escape(.shorthand(let e)):
            guard let set = ByteSet.shorthand(e) else { return nil }
            return position(set)
        case .character(let c, .plain) where c < 0x80 && ByteSet.standsForItself(UInt8(c)),
             .character(let c, .escaped) where c < 0x80 && ByteSet.escapable.contains(UInt8(c)):
            return position(Self.literal(UInt8(c), caseInsensitive: caseInsensitive))
        default:
            return nil
        }
    }

    /// `atom` (read at `k`) repeated `min` to `max` times. A counted repeat
    /// reads the atom again for each further copy.
    private mutating func quantified(_ atom: Facts, at k: Int, min: Int, max: Int?) -> Facts? {
        guard min <= Self.maxCount, (max ?? 0) <= Self.maxCount, max.map({ $0 >= min }) ?? true else { return nil }
        // x{n,m}: n copies, then m - n optional ones; x{n,}: n copies (at
        // least one), the last of them looping. `x{0}` leaves the atom's
        // positions unreachable.
        var facts = Facts.empty
        let copies = max ?? Swift.max(min, 1)
        if atom.nullable && copies > 1 { return nil }
        for c in 0..<copies {
            guard var copy = c == 0 ? atom : self.atom(at: k) else { return nil }
            if max == nil && c == copies - 1 && recording { copy.last.forEachBit { follow[$0] |= copy.first } }
            if c >= min { copy.nullable = true }
            facts = concatenate(facts, copy)
        }
        return facts
    }

    private func characterClass(_ set: PatternSyntax.CharacterClass) -> ByteSet? {
        guard !set.items.isEmpty else { return nil }
        var bytes = ByteSet()
        for item in set.items {
            switch item {
            case .character(let c, .plain) where c < 0x80 && ByteSet.isClassMember(UInt8(c)),
                 .character(let c, .escaped) where c < 0x80 && ByteSet.escapable.contains(UInt8(c)):
                bytes.insert(UInt8(c))
            case .escape(.shorthand(let e)) where e == UInt8(ascii: "d") || e == UInt8(ascii: "w"):
                bytes.formUnion(ByteSet.shorthand(e)!)
            case .range(let lo, .plain, let hi, .plain) where lo < 0x80 && hi < 0x80 && ByteSet.isRange(UInt8(lo), UInt8(hi)):
                bytes.formUnion(.of(UInt8(lo)...UInt8(hi)))
            default:
                return nil
            }
        }
        if caseInsensitive { bytes = bytes.caseClosed }
        return set.negated ? ByteSet.printable.subtracting(bytes) : bytes
    }

    private static func literal(_ b: UInt8, caseInsensitive: Bool) -> ByteSet {
        let set = ByteSet.of(CollectionOfOne(b))
        return caseInsensitive ? set.caseClosed : set
    }

    /// A new position for `set`; nil past `maxPositions`.
    private mutating func position(_ set: @autoclosure () -> ByteSet) -> Facts? {
        guard positions < Self.maxPositions else { return nil }
        let bit: UInt64 = 1 << UInt64(positions)
        positions += 1
        if recording {
            sets.append(set())
            follow.append(0)
        }
        return Facts(nullable: false, first: bit, last: bit)
    }

    private mutating func concatenate(_ a: Facts, _ b: Facts) -> Facts {
        if recording { a.last.forEachBit { follow[$0] |= b.first } }
        return Facts(nullable: a.nullable && b.nullable,
                     first: a.nullable ? a.first | b.first : a.first,
                     last: b.nullable ? a.last | b.last : b.last)
    }
}
