/// A cursor over the pattern's scalars as its dialect parses them: as
/// written, but for a Java pattern with `\Q`, which is read as the JDK
/// reads it, after rewriting its quotes (`javaUnquoted`). In free-spacing
/// mode (`(?x)`) the *significant* reads skip white space and `#`
/// comments, as ICU's and the JDK's scanners do between tokens; escapes
/// read raw.
struct PatternReader {
    /// The pattern's UTF-8 bytes, as written: its scalars, when it is
    /// ASCII and not rewritten.
    let bytes: [UInt8]
    /// The scalars read when the pattern is not ASCII or was rewritten
    /// (and is not empty); empty otherwise (most patterns: at load, where
    /// every pattern's syntax is read, a second array for them cost about
    /// 5% of the load).
    private let wide: [UInt32]
    /// For a rewritten pattern, the offset as written of each scalar read,
    /// and one past the end; empty when the reading is the pattern.
    private let origin: [Int]
    /// How many scalars are read.
    let count: Int
    let dialect: RegexDialect
    var position = 0
    /// The flags in force that change the scan.
    var modes = Modes()
    /// ICU: the last character a class added as itself, where a range
    /// written after a `-` starts; kept from one class to the next, as
    /// regexcmp.cpp keeps it (`[b][&-z]` holds `b` to `z`).
    var icuLastSetLiteral: UInt32?
    /// Capture groups opened so far (`groupOpener`), against which a back
    /// reference's digits are read.
    var captures = 0
    /// ICU: the groups open here (`groupOpener`, less the `)` read since),
    /// each holding a level of its parser's stack (`holdICULevels`).
    var icuOpenGroups = 0
    /// ICU: where an empty quote `\Q\E` is (`firstQuote`), refused by
    /// `refuseICUEmptyQuote` before reading.
    private var icuEmptyQuote: Int?

    init(_ pattern: String, dialect: RegexDialect) {
        let bytes = Array(pattern.utf8)
        self.bytes = bytes
        let scalars = bytes.allSatisfy { $0 < 0x80 } ? [] : pattern.unicodeScalars.map(\.value)
        // A `\Q` the JDK's pre-scan finds is found in the UTF-8 bytes too:
        // no byte of a longer character is a `\` or a `Q`. (`memchr` first:
        // a loop over the bytes for the `Q` cost about 1% of a load.)
        let hasQ = bytes.withUnsafeBufferPointer { URLParts.index(of: 0x51, in: $0, from: 0, to: $0.count) < $0.count }
        let quotes = hasQ && Self.firstQuote(bytes.lazy.map(UInt32.init)) != nil
        if dialect == .java && quotes {
            (wide, origin) = Self.javaUnquoted(scalars.isEmpty ? bytes.map(UInt32.init) : scalars)
            count = wide.count
        } else {
            (wide, origin) = (scalars, [])
            count = wide.isEmpty ? bytes.count : wide.count
        }
        self.dialect = dialect
        if dialect == .icu && quotes { icuEmptyQuote = Self.firstQuote(scalars.isEmpty ? bytes.map(UInt32.init) : scalars, empty: true) }
    }

    /// The offset in the pattern as written of the scalar read at `k` (or
    /// of the end).
    func sourceOffset(_ k: Int) -> Int { origin.isEmpty ? k : origin[min(k, origin.count - 1)] }

    /// The offset as written just past the scalar read before `k`: where a
    /// construct read up to `k` ends (a `\E` after it is not its own).
    func sourceEnd(_ k: Int) -> Int { origin.isEmpty || k == 0 ? k : origin[min(k, origin.count) - 1] + 1 }

    /// Refuses an ICU pattern with an empty quote: ICU's scanner reads what
    /// is around it as if it were not there, inside a construct too
    /// (`(?i\Q\E)`, `a{1\Q\E,2}`, `\x4\Q\E1`), where this reader would take
    /// a quote for a construct of its own.
    func refuseICUEmptyQuote() throws(TranslationError) {
        guard let at = icuEmptyQuote else { return }
        throw .refused(dialect, "an empty quote \\Q\\E", because: "ICU reads what is around it as if it were not there, "
                       + "inside another construct too, as (?i\\Q\\E) or a{1\\Q\\E,2}", at: at)
    }

    /// How many scalars the pattern as written has.
    var sourceCount: Int { origin.last ?? count }

    /// Whether the scalars read are not the pattern as written.
    var isRewritten: Bool { !origin.isEmpty }

    @inline(__always)
    subscript(k: Int) -> UInt32 { wide.isEmpty ? UInt32(bytes[k]) : wide[k] }

    /// The scalar `ahead` places on, raw.
    @inline(__always)
    func peek(_ ahead: Int = 0) -> UInt32? {
        position + ahead < count ? self[position + ahead] : nil
    }

    /// Takes one scalar, raw.
    @inline(__always)
    mutating func next() -> UInt32? {
        guard position < count else { return nil }
        defer { position += 1 }
        return self[position]
    }

    /// Skips white space and comments in free-spacing mode.
    mutating func skipInsignificant() {
        guard modes.extended else { return }
        while let c = peek() {
            if isSpace(c) {
                position += 1
            } else if c == 0x23 { // '#': to the end of the line
                while let d = peek(), !endsComment(d) { position += 1 }
            } else {
                return
            }
        }
    }

    /// Skips white space, not comments, in free-spacing mode.
    mutating func skipSpaces() {
        guard modes.extended else { return }
        while let c = peek(), isSpace(c) { position += 1 }
    }

    mutating func peekSignificant() -> UInt32? {
        skipInsignificant()
        return peek()
    }

    mutating func nextSignificant() -> UInt32? {
        skipInsignificant()
        return next()
    }

    /// Takes the next part of an escape (its digits, the `{` of `\x{`) as
    /// the dialect reads it: the JDK's `Pattern.read` skips white space and
    /// comments in free-spacing mode there too (`\x 41` is `A`); ICU
    /// unescapes `\x`, `\u`, `\0` and `\c` as written (`u_unescapeAt`),
    /// and back references' digits too. (Names and counts both read with
    /// `nextSignificant`.)
    mutating func nextPart() -> UInt32? {
        dialect == .java ? nextSignificant() : next()
    }

    /// The next part, not taken (the JDK's `Pattern.peek`, which steps over
    /// what it skips).
    mutating func peekPart() -> UInt32? {
        dialect == .java ? peekSignificant() : peek()
    }

    /// Free-spacing white space: ICU's Pattern_White_Space, the JDK's ASCII
    /// white space.
    func isSpace(_ c: UInt32) -> Bool {
        (0x09...0x0D).contains(c) || c == 0x20 || (dialect == .icu && (c == 0x85 || c == 0x200E || c == 0x200F || c == 0x2028 || c == 0x2029))
    }

    /// What ends a `#` comment: a line terminator (U+2029 only for the
    /// JDK), and for the JDK under UNIX_LINES `\n` alone
    /// (Pattern.isLineSeparator).
    private func endsComment(_ c: UInt32) -> Bool {
        if dialect == .java && modes.unixLines { return c == 0x0A }
        return c == 0x0A || c == 0x0D || c == 0x85 || c == 0x2028 || (c == 0x2029 && dialect == .java)
    }

    /// The offset of the first `\Q` (with `empty`, of the first `\Q\E`)
    /// found as JDK 17's `RemoveQEQuoting` finds one, stepping over each
    /// `\` and the character after it. ICU's scanner finds quotes so too,
    /// but inside one, where a `\Q\E` is a quoted `\Q` and the end, and
    /// after `\c`, which takes a `\` as written: there an empty quote
    /// found is refused only by caution.
    static func firstQuote(_ s: some RandomAccessCollection<UInt32>, empty: Bool = false) -> Int? {
        let s = Array(s)
        var k = 0
        while k + 1 < s.count {
            guard s[k] == 0x5C else {
                k += 1
                continue
            }
            if s[k + 1] == 0x51 && (!empty || (k + 3 < s.count && s[k + 2] == 0x5C && s[k + 3] == 0x45)) { return k }
            k += 2
        }
        return nil
    }

    /// A Java pattern as the JDK parses it, and the offset as written of
    /// each scalar: JDK 17's `Pattern.RemoveQEQuoting` rewrites the text
    /// before it parses, so its parser never sees `\Q...\E`. A quote's
    /// letters and non-ASCII characters stay as they are, other characters
    /// are escaped (a `\` as `\\`), a digit first in a quote is written
    /// `\x3` and the digit, and `\Q` and `\E` go. So a quote is not a
    /// token: `[\Qa\E-z]` is `[a-z]`, `a{2\Q\E}` is `a{2}`, and `\c\Qa`
    /// is `\ca`, the `\c` taking the first character the quote leaves.
    static func javaUnquoted(_ s: [UInt32]) -> (scalars: [UInt32], origin: [Int]) {
        let start = firstQuote(s) ?? s.count
        var out = Array(s[..<start])
        var origin = Array(0..<start)
        var k = start + 2
        var inQuote = true
        var beginQuote = true
        func put(_ c: UInt32, from at: Int) {
            out.append(c)
            origin.append(at)
        }
        while k < s.count {
            let at = k
            let c = s[k]
            k += 1
            let letter = (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c)
            if c >= 0x80 || letter {
                put(c, from: at)
            } else if (0x30...0x39).contains(c) {
                if beginQuote { for e in [0x5C, 0x78, 0x33] as [UInt32] { put(e, from: at) } }
                put(c, from: at)
            } else if c != 0x5C {
                if inQuote { put(0x5C, from: at) }
                put(c, from: at)
            } else if inQuote {
                if k < s.count && s[k] == 0x45 {
                    k += 1
                    inQuote = false
                } else {
                    put(0x5C, from: at)
                    put(0x5C, from: at)
                }
            } else if k < s.count && s[k] == 0x51 {
                k += 1
                inQuote = true
                beginQuote = true
                continue
            } else {
                put(c, from: at)
                if k < s.count {
                    put(s[k], from: k)
                    k += 1
                }
            }
            beginQuote = false
        }
        origin.append(s.count)
        return (out, origin)
    }

    /// The flags that change how the rest of a pattern is scanned.
    struct Modes: Equatable {
        /// Free spacing (`x`): white space and `#` comments are skipped.
        var extended = false
        /// UNIX_LINES (`d`), which ends the JDK's comments at `\n` alone.
        var unixLines = false

        /// Turns `flag` on or off, where it is one of them.
        mutating func set(_ flag: InlineFlag, _ on: Bool) {
            if flag == .extended { extended = on } else if flag == .unixLines { unixLines = on }
        }
    }
}
