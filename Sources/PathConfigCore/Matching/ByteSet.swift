/// A set of ASCII bytes, one bit each.
struct ByteSet: Equatable, Hashable, Sendable {
    private(set) var low: UInt64 = 0
    private(set) var high: UInt64 = 0

    /// Whether `b` (ASCII) is in the set.
    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        b < 64 ? low >> UInt64(b) & 1 != 0 : b < 128 && high >> UInt64(b - 64) & 1 != 0
    }

    var count: Int { low.nonzeroBitCount + high.nonzeroBitCount }

    var min: UInt8? {
        if low != 0 { return UInt8(low.trailingZeroBitCount) }
        return high != 0 ? UInt8(64 + high.trailingZeroBitCount) : nil
    }

    /// Calls `body` with each byte of the set, in order.
    func forEach(_ body: (UInt8) -> Void) {
        low.forEachBit { body(UInt8($0)) }
        high.forEachBit { body(64 + UInt8($0)) }
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

    static func of(_ bytes: some Sequence<UInt8>) -> ByteSet {
        var set = ByteSet()
        for b in bytes { set.insert(b) }
        return set
    }

    /// The printable ASCII characters, space to `~`: every byte a subject
    /// matched by `SmallPattern` may hold.
    static let printable = ByteSet.of(0x20...0x7E)

    static func isPrintable(_ b: UInt8) -> Bool { b >= 0x20 && b <= 0x7E }

    /// Whether every byte of `bytes` is printable: `allSatisfy(isPrintable)`,
    /// eight bytes at a time, the last eight (which may overlap the word
    /// before them) read as one more word rather than byte by byte.
    static func allPrintable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
    static let word = ByteSet.of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

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
    static let escapable = ByteSet.of(#".\/?-+*()[]{}|^$=&:@,;!%~#'"<>"#.utf8)

    /// Characters that stand for themselves outside a class. (A switch: a
    /// static set here cost 0.8% of a load's instructions at 1,000 rules.)
    static func standsForItself(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "\\"), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "|"),
             UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: " "):
            return false
        default:
            return isPrintable(b)
        }
    }

    /// Characters a class may hold unescaped.
    static func isClassMember(_ b: UInt8) -> Bool { word.contains(b) || classPunctuation.contains(b) }
    /// (Not `:`: ICU reads a class opening `[:` as a POSIX-like property.)
    private static let classPunctuation = ByteSet.of("/.,@=%~!;".utf8)

    /// Whether `lo-hi` is a range all three dialects read alike: two digits,
    /// two lower-case or two upper-case letters, in order.
    static func isRange(_ lo: UInt8, _ hi: UInt8) -> Bool {
        guard lo <= hi else { return false }
        return [ByteSet.digits, .of(0x41...0x5A), .of(0x61...0x7A)].first { $0.contains(lo) }?.contains(hi) ?? false
    }
}

extension UInt64 {
    /// Calls `body` with the index of each bit set, lowest first.
    @inline(__always)
    func forEachBit(_ body: (Int) -> Void) {
        var bits = self
        while bits != 0 {
            body(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
    }
}
