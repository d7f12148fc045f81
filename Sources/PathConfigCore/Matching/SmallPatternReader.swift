/// Reads the plain patterns most configurations are made of (`/new$`,
/// `^/posts/\d+/edit$`, `^/admin(/.*)?$`, `.*\?.*tab=[a-z]+.*`) straight into
/// the positions and follow relation of Glushkov's automaton, which
/// `SmallPattern` runs: one pass, no tree.
///
/// Only a whitelist of constructs is read, each one that ICU (iOS),
/// `java.util.regex` (Android) and PCRE2 match the same way on a subject of
/// printable ASCII characters (the only subjects `SmallPattern` is used on):
///
/// - printable ASCII characters other than `\ . [ ] ( ) { } * + ? | ^ $ #`
///   and space, which stand for themselves;
/// - `\` before an ASCII punctuation character (the character itself), and
///   `\d`, `\D`, `\w`, `\W` (`[0-9]`, `[A-Za-z0-9_]` and their complements:
///   Unicode and ASCII classes agree on ASCII text);
/// - `.` (any printable ASCII character: none is a line terminator);
/// - classes `[...]` and `[^...]` of letters, digits, `_`, a few punctuation
///   characters, escaped punctuation, `\d`, `\w` and ranges between two
///   letters of the same case or two digits;
/// - groups `(...)` and `(?:...)`, alternation `|`;
/// - greedy `*`, `+`, `?` and `{n}`, `{n,}`, `{n,m}`; never lazy ones (ICU's
///   lazy loop over a body that can match the empty string gives up where
///   the others go on) or possessive ones;
/// - `^` as the pattern's first character and `$` as its last, when the
///   pattern has no top-level `|`.
///
/// Anything else (inline flags, lookarounds, backreferences, `\b`, Unicode
/// properties, nested or set-operation classes, non-ASCII text, and the
/// empty pattern, which ICU refuses) returns nil, and the pattern is left to
/// its engine.
struct SmallPatternReader {
    /// What a piece of a pattern can match: whether the empty string, and
    /// the positions its matches may start and end with.
    struct Facts {
        var nullable: Bool
        var first: UInt64
        var last: UInt64

        static let empty = Facts(nullable: true, first: 0, last: 0)
    }

    /// A read pattern.
    struct Reading {
        /// The character set of each position.
        var sets: [ByteSet]
        /// For each position, the positions that may follow it.
        var follow: [UInt64]
        /// The whole pattern's facts.
        var facts: Facts
        /// The pattern starts with `^`.
        var anchoredStart: Bool
        /// The pattern ends with `$`.
        var anchoredEnd: Bool
    }

    /// The largest count a `{n,m}` may name.
    static let maxCount = 64
    /// The most positions a pattern may have: one bit each in a word.
    static let maxPositions = 64

    /// Reads `pattern`, or returns nil when it uses anything outside the
    /// whitelist or needs more than `maxPositions` positions. With
    /// `caseInsensitive`, every letter also stands for its other case.
    static func read(_ pattern: String, caseInsensitive: Bool) -> Reading? {
        var bytes = Array(pattern.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy(ByteSet.isPrintable) else { return nil }
        var anchoredStart = false, anchoredEnd = false
        if bytes.first == UInt8(ascii: "^") {
            anchoredStart = true
            bytes.removeFirst()
        }
        if bytes.last == UInt8(ascii: "$"), bytes.dropLast().reversed().prefix(while: { $0 == UInt8(ascii: "\\") }).count % 2 == 0 {
            anchoredEnd = true
            bytes.removeLast()
        }
        var reader = SmallPatternReader(bytes: bytes, caseInsensitive: caseInsensitive)
        guard let (facts, branches) = reader.alternation(), reader.i == bytes.count else { return nil }
        // `^a|b`: the anchor binds to the first branch only.
        if (anchoredStart || anchoredEnd) && branches > 1 { return nil }
        return Reading(sets: reader.sets, follow: reader.follow, facts: facts, anchoredStart: anchoredStart, anchoredEnd: anchoredEnd)
    }

    private let bytes: [UInt8]
    private let caseInsensitive: Bool
    private var i = 0
    private var sets: [ByteSet] = []
    private var follow: [UInt64] = []

    private init(bytes: [UInt8], caseInsensitive: Bool) {
        self.bytes = bytes
        self.caseInsensitive = caseInsensitive
        // About a position per character (a counted repetition makes more):
        // one allocation each, rather than one per doubling.
        let positions = Swift.min(bytes.count, Self.maxPositions)
        sets.reserveCapacity(positions)
        follow.reserveCapacity(positions)
    }

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    /// `branch ('|' branch)*`, and how many branches.
    private mutating func alternation() -> (Facts, Int)? {
        var facts = Facts(nullable: false, first: 0, last: 0)
        var branches = 0
        repeat {
            if branches > 0 { i += 1 }
            guard let branch = sequence() else { return nil }
            facts.nullable = facts.nullable || branch.nullable
            facts.first |= branch.first
            facts.last |= branch.last
            branches += 1
        } while peek == UInt8(ascii: "|")
        return (facts, branches)
    }

    /// `(atom quantifier?)*`, up to `|`, `)` or the end.
    private mutating func sequence() -> Facts? {
        var facts = Facts.empty
        while let b = peek, b != UInt8(ascii: "|"), b != UInt8(ascii: ")") {
            let start = i
            guard let atom = atom(), let item = quantified(atom, from: start) else { return nil }
            facts = concatenate(facts, item)
        }
        return facts
    }

    /// One atom: its positions added.
    private mutating func atom() -> Facts? {
        let b = bytes[i]
        i += 1
        switch b {
        case UInt8(ascii: "("):
            if peek == UInt8(ascii: "?") {
                guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ":") else { return nil }
                i += 2
            }
            guard let (inner, _) = alternation(), peek == UInt8(ascii: ")") else { return nil }
            i += 1
            return inner
        case UInt8(ascii: "["):
            guard let set = characterClass() else { return nil }
            return position(set)
        case UInt8(ascii: "."):
            return position(.printable)
        case UInt8(ascii: "\\"):
            guard let e = peek else { return nil }
            i += 1
            if let set = ByteSet.shorthand(e) { return position(set) }
            guard ByteSet.escapable(e) else { return nil }
            return position(literal(e))
        default:
            guard ByteSet.standsForItself(b) else { return nil }
            return position(literal(b))
        }
    }

    /// `atom` (read from `start`) with the quantifier that follows it, if any.
    /// A counted repeat reads the atom's text again for each further copy.
    private mutating func quantified(_ atom: Facts, from start: Int) -> Facts? {
        guard let q = peek else { return atom }
        let min: Int, max: Int?
        switch q {
        case UInt8(ascii: "*"): i += 1; (min, max) = (0, nil)
        case UInt8(ascii: "+"): i += 1; (min, max) = (1, nil)
        case UInt8(ascii: "?"): i += 1; (min, max) = (0, 1)
        case UInt8(ascii: "{"):
            i += 1
            guard let counts = counts() else { return nil }
            (min, max) = counts
        default: return atom
        }
        // Lazy and possessive quantifiers, and a second quantifier (an error).
        if let next = peek, next == UInt8(ascii: "*") || next == UInt8(ascii: "+") || next == UInt8(ascii: "?") || next == UInt8(ascii: "{") {
            return nil
        }
        // x{n,m}: n copies, then m - n optional ones; x{n,}: n copies (at
        // least one), the last of them looping. `x{0}` leaves the atom's
        // positions unreachable.
        let end = i
        var facts = Facts.empty
        let copies = max ?? Swift.max(min, 1)
        for k in 0..<copies {
            var copy: Facts
            if k == 0 {
                copy = atom
            } else {
                i = start
                guard let again = self.atom() else { return nil }
                copy = again
            }
            if max == nil && k == copies - 1 { each(copy.last) { follow[$0] |= copy.first } }
            if k >= min { copy.nullable = true }
            facts = concatenate(facts, copy)
        }
        i = end
        return facts
    }

    /// `n}`, `n,}` or `n,m}` after `{`.
    private mutating func counts() -> (Int, Int?)? {
        guard let min = number() else { return nil }
        if peek == UInt8(ascii: "}") { i += 1; return (min, min) }
        guard peek == UInt8(ascii: ",") else { return nil }
        i += 1
        if peek == UInt8(ascii: "}") { i += 1; return (min, nil) }
        guard let max = number(), max >= min, peek == UInt8(ascii: "}") else { return nil }
        i += 1
        return (min, max)
    }

    private mutating func number() -> Int? {
        var value = 0, digits = 0
        while let b = peek, b >= 0x30, b <= 0x39 {
            value = value * 10 + Int(b - 0x30)
            digits += 1
            i += 1
            guard value <= Self.maxCount else { return nil }
        }
        return digits > 0 ? value : nil
    }

    /// The set of a class, after its `[`.
    private mutating func characterClass() -> ByteSet? {
        var negated = false
        if peek == UInt8(ascii: "^") { negated = true; i += 1 }
        var set = ByteSet()
        var items = 0
        while let b = peek, b != UInt8(ascii: "]") {
            i += 1
            items += 1
            if b == UInt8(ascii: "\\") {
                guard let e = peek else { return nil }
                i += 1
                if e == UInt8(ascii: "d") || e == UInt8(ascii: "w") { set.formUnion(ByteSet.shorthand(e)!); continue }
                guard ByteSet.escapable(e) else { return nil }
                set.insert(e)
                continue
            }
            guard ByteSet.isClassMember(b) else { return nil }
            if peek == UInt8(ascii: "-") {
                guard i + 1 < bytes.count else { return nil }
                let hi = bytes[i + 1]
                guard ByteSet.isRange(b, hi) else { return nil }
                i += 2
                for c in b...hi { set.insert(c) }
            } else {
                set.insert(b)
            }
        }
        guard items > 0, peek == UInt8(ascii: "]") else { return nil }
        i += 1
        if caseInsensitive { set = set.caseClosed }
        return negated ? ByteSet.printable.subtracting(set) : set
    }

    private func literal(_ b: UInt8) -> ByteSet {
        var set = ByteSet()
        set.insert(b)
        return caseInsensitive ? set.caseClosed : set
    }

    /// A new position for `set`; nil past `maxPositions`.
    private mutating func position(_ set: ByteSet) -> Facts? {
        guard sets.count < Self.maxPositions else { return nil }
        let bit: UInt64 = 1 << UInt64(sets.count)
        sets.append(set)
        follow.append(0)
        return Facts(nullable: false, first: bit, last: bit)
    }

    private mutating func concatenate(_ a: Facts, _ b: Facts) -> Facts {
        each(a.last) { follow[$0] |= b.first }
        return Facts(nullable: a.nullable && b.nullable,
                     first: a.nullable ? a.first | b.first : a.first,
                     last: b.nullable ? a.last | b.last : b.last)
    }

    private func each(_ bits: UInt64, _ body: (Int) -> Void) {
        var bits = bits
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
    }
}

/// A set of ASCII bytes, one bit each.
package struct ByteSet: Equatable, Hashable, Sendable {
    private(set) var low: UInt64 = 0
    private(set) var high: UInt64 = 0

    /// Whether `b` (ASCII) is in the set.
    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        b < 64 ? low >> UInt64(b) & 1 != 0 : b < 128 && high >> UInt64(b - 64) & 1 != 0
    }

    /// The number of bytes in the set.
    var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    /// The smallest byte in the set, if any.
    var min: UInt8? {
        if low != 0 { return UInt8(low.trailingZeroBitCount) }
        return high != 0 ? UInt8(64 + high.trailingZeroBitCount) : nil
    }

    /// Calls `body` with each byte of the set, in order.
    func forEach(_ body: (UInt8) -> Void) {
        var bits = low
        while bits != 0 {
            body(UInt8(bits.trailingZeroBitCount))
            bits &= bits - 1
        }
        bits = high
        while bits != 0 {
            body(64 + UInt8(bits.trailingZeroBitCount))
            bits &= bits - 1
        }
    }

    mutating func insert(_ b: UInt8) {
        if b < 64 { low |= 1 << UInt64(b) } else { high |= 1 << UInt64(b - 64) }
    }

    mutating func formUnion(_ other: ByteSet) {
        low |= other.low
        high |= other.high
    }

    func subtracting(_ other: ByteSet) -> ByteSet {
        ByteSet(low: low & ~other.low, high: high & ~other.high)
    }

    /// The set with both cases of every ASCII letter in it.
    var caseClosed: ByteSet {
        var out = self
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") where contains(b) || contains(b | 0x20) {
            out.insert(b)
            out.insert(b | 0x20)
        }
        return out
    }

    static func of(_ range: ClosedRange<UInt8>) -> ByteSet {
        var set = ByteSet()
        for b in range { set.insert(b) }
        return set
    }

    /// The printable ASCII characters, space to `~`: every byte a subject
    /// matched by `SmallPattern` may hold.
    static let printable = ByteSet.of(0x20...0x7E)

    static func isPrintable(_ b: UInt8) -> Bool { b >= 0x20 && b <= 0x7E }

    /// Whether every byte of `bytes` is printable: `allSatisfy(isPrintable)`,
    /// eight bytes at a time, the last eight (which may overlap the word
    /// before them) read as one more word rather than byte by byte.
    package static func allPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let n = bytes.count
        guard n >= 8 else {
            for i in 0..<n where !isPrintable(base[i]) { return false }
            return true
        }
        var i = 0
        while i + 8 < n {
            if !allPrintable(word: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)) { return false }
            i += 8
        }
        return allPrintable(word: UnsafeRawPointer(base + n - 8).loadUnaligned(as: UInt64.self))
    }

    /// Whether the eight bytes of `x` are all printable. A word has a byte
    /// below 0x20 when subtracting 0x20 from every byte borrows into a byte
    /// whose top bit was clear, and one above 0x7E when adding 1 to every
    /// byte, or the byte itself, sets a top bit (a carry out of an 0xFF byte
    /// can only flag a word that already has a top bit set).
    @inline(__always)
    static func allPrintable(word x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let below = (x &- 0x20 &* ones) & ~x & highs
        let above = ((x &+ ones) | x) & highs
        return below | above == 0
    }

    static let digits = ByteSet.of(0x30...0x39)
    static let word: ByteSet = {
        var set = ByteSet.digits
        set.formUnion(.of(0x41...0x5A))
        set.formUnion(.of(0x61...0x7A))
        set.insert(UInt8(ascii: "_"))
        return set
    }()

    /// `\d`, `\D`, `\w`, `\W` on printable ASCII text.
    static func shorthand(_ e: UInt8) -> ByteSet? {
        switch e {
        case UInt8(ascii: "d"): return digits
        case UInt8(ascii: "D"): return printable.subtracting(digits)
        case UInt8(ascii: "w"): return word
        case UInt8(ascii: "W"): return printable.subtracting(word)
        default: return nil
        }
    }

    /// Punctuation that a backslash turns into itself in all three dialects.
    static func escapable(_ b: UInt8) -> Bool { escapes.contains(b) }
    private static let escapes = ByteSet.from(#".\/?-+*()[]{}|^$=&:@,;!%~#'"<>"#)

    /// Characters that stand for themselves outside a class.
    static func standsForItself(_ b: UInt8) -> Bool { isPrintable(b) && !specials.contains(b) }
    private static let specials = ByteSet.from(#"\.[](){}*+?|^$# "#)

    /// Characters a class may hold unescaped.
    static func isClassMember(_ b: UInt8) -> Bool { word.contains(b) || classPunctuation.contains(b) }
    /// (Not `:`: ICU reads a class opening `[:` as a POSIX-like property.)
    private static let classPunctuation = ByteSet.from("/.,@=%~!;")

    /// Whether `lo-hi` is a range all three dialects read alike: two digits,
    /// two lower-case or two upper-case letters, in order.
    static func isRange(_ lo: UInt8, _ hi: UInt8) -> Bool {
        guard lo <= hi else { return false }
        for kind in [ByteSet.digits, .of(0x41...0x5A), .of(0x61...0x7A)] where kind.contains(lo) { return kind.contains(hi) }
        return false
    }

    private static func from(_ text: String) -> ByteSet {
        var set = ByteSet()
        for b in text.utf8 { set.insert(b) }
        return set
    }
}
