/// A cursor over the original pattern's scalars. In free-spacing mode
/// (`(?x)`) the *significant* reads skip white space and `#` comments, as
/// ICU's and the JDK's scanners do between tokens; escapes read raw.
struct PatternReader {
    /// The pattern's UTF-8 bytes: its scalars, when it is ASCII.
    let bytes: [UInt8]
    /// The pattern's scalars when it is not ASCII; empty when it is (most
    /// patterns are: at load, where every pattern's syntax is read, a
    /// second array for them cost about 5% of the load).
    private let wide: [UInt32]
    /// How many scalars the pattern has.
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

    init(_ pattern: String, dialect: RegexDialect) {
        bytes = Array(pattern.utf8)
        wide = bytes.allSatisfy { $0 < 0x80 } ? [] : pattern.unicodeScalars.map(\.value)
        count = wide.isEmpty ? bytes.count : wide.count
        self.dialect = dialect
    }

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
