/// A backslash escape as its dialect reads it: where it ends and what it
/// names. What it means to an engine (a property's code points, whether a
/// back reference may stand where it does) is left to whoever reads the
/// pattern: `PatternTranslator` for the engines, `PatternSyntax` for the
/// analyses. Both read escapes here, so each dialect's escape syntax is
/// written once.
enum EscapeToken: Equatable {
    /// One character: `\t`, `\x41`, `\u00E9`, `\0101`, `\cA`, `\N{NAME}`,
    /// `\.`, or ICU's `\y` (an escaped letter ICU has no meaning for is the
    /// letter). A code point by code may be a lone surrogate (`\uD800`).
    case character(UInt32, PatternSyntax.Spelling)
    /// ICU's `\Q`: what follows, to `\E` or the end, is itself
    /// (`PatternReader.quoted`). The JDK's quotes are rewritten before it
    /// reads (`PatternReader.javaUnquoted`).
    case quote
    /// A shorthand class, `\d \D \s \S \w \W \h \H \v \V` (the letter).
    case shorthand(UInt32)
    /// `\A \z \Z \b \B \G` outside a class (the letter).
    case assertion(UInt32)
    /// Java's `\b{g}`.
    case graphemeBoundary
    /// `\p{NAME}`, `\P{NAME}` or Java's `\pL`.
    case property(String, negated: Bool)
    /// A back reference by number, its digits read as the dialect reads
    /// them against the groups opened so far.
    case backReference(Int)
    /// `\k<name>`.
    case namedReference(String)
    /// `\R` or `\X` outside a class (the letter).
    case sequence(UInt32)
}

extension PatternReader {
    /// Reads the escape whose backslash, at `source`, was just taken.
    mutating func escape(at source: Int, inClass: Bool) throws(TranslationError) -> EscapeToken {
        guard let c = next() else { throw .syntax("\\ at end of pattern", at: source) }
        if !inClass {
            switch c {
            case 0x41, 0x7A, 0x47, 0x5A, 0x42: // \A \z \G \Z \B
                return .assertion(c)
            case 0x62: // \b, and Java's \b{g}: after `\b{` anything else, `{` is read again, as a repeat count
                if dialect == .java, peekPart() == 0x7B, peek(1) == 0x67 {
                    position += 2
                    guard nextPart() == 0x7D else { throw .invalid(dialect, "\\b{g needs its }", at: source) }
                    return .graphemeBoundary
                }
                return .assertion(c)
            case 0x52, 0x58: // \R \X
                return .sequence(c)
            case 0x45: // \E outside \Q: ICU reads a literal E
                guard dialect == .icu else { throw .invalid(dialect, "\\E without \\Q", at: source) }
                return .character(c, .letter)
            case 0x6B: // \k<name>
                guard nextSignificant() == 0x3C else { throw .invalid(dialect, "\\k must be followed by <name>", at: source) }
                guard let name = significantName(closedBy: 0x3E), Self.isGroupName(name) else {
                    throw .invalid(dialect, "\\k<name> needs a group name", at: source)
                }
                return .namedReference(name)
            case 0x31...0x39: // \1 to \9
                var number = Int(c - 0x30)
                while let d = peekPart(), d >= 0x30, d <= 0x39 {
                    let longer = number * 10 + Int(d - 0x30)
                    // ICU stops once the number reaches the groups seen so far;
                    // the JDK stops before a number above them.
                    if dialect == .icu ? number >= captures : longer > captures { break }
                    number = longer
                    position += 1
                }
                return .backReference(number)
            default:
                break
            }
        }
        switch c {
        case 0x61: return .character(0x07, .control) // \a
        case 0x65: return .character(0x1B, .control) // \e
        case 0x66: return .character(0x0C, .control) // \f
        case 0x6E: return .character(0x0A, .control) // \n
        case 0x72: return .character(0x0D, .control) // \r
        case 0x74: return .character(0x09, .control) // \t
        case 0x63: // \cX
            guard let x = nextPart() else {
                guard dialect == .icu, !inClass else { throw .invalid(dialect, "\\c needs a character", at: source) }
                return .character(0x63, .letter)
            }
            return .character(dialect == .icu ? x & 0x1F : x ^ 0x40, .controlLetter)
        case 0x78: return try hexEscape(at: source)
        case 0x75: return .character(try utf16Escape(at: source), .unicode)
        case 0x55 where dialect == .icu: // \Uhhhhhhhh
            guard let value = fixedHex(8), value <= 0x10FFFF else { throw .invalid(dialect, "\\U needs eight hex digits", at: source) }
            return .character(value, .longUnicode)
        case 0x30: return .character(try octalEscape(at: source), .octal)
        case 0x4E: return .character(try namedCharacter(at: source), .named) // \N{NAME}
        case _ where StandardClasses.shorthandLetters.contains(c): return .shorthand(c)
        case 0x70, 0x50: return .property(try propertyName(at: source), negated: c == 0x50)
        case 0x51 where dialect == .icu: return .quote
        default:
            guard Self.escapedSpelling(c) == .letter else { return .character(c, .escaped) }
            // ICU reads an escaped letter it has no meaning for as the letter
            // (`\y` is "y", `\K` is "K"); the JDK rejects it.
            guard dialect == .icu else { throw .invalid(dialect, "unknown escape \\\(Unicode.Scalar(c)!)", at: source) }
            return .character(c, .letter)
        }
    }

    /// The characters of `\Q...\E` (after `\Q`), with their offsets; an
    /// unterminated quote runs to the end.
    mutating func quoted() -> [(UInt32, Int)] {
        var values: [(UInt32, Int)] = []
        while let c = peek() {
            if c == 0x5C && peek(1) == 0x45 {
                position += 2
                break
            }
            values.append((c, position))
            position += 1
        }
        return values
    }

    /// `\N{NAME}`'s character (after the `N`).
    mutating func namedCharacter(at source: Int) throws(TranslationError) -> UInt32 {
        guard nextSignificant() == 0x7B else { throw .invalid(dialect, "\\N must be followed by {NAME}", at: source) }
        try refuseICUQuotedName(at: source)
        guard var name = significantName(closedBy: 0x7D, asWritten: dialect == .java) else {
            throw .invalid(dialect, "unterminated \\N{", at: source)
        }
        if dialect == .java {
            // `Character.codePointOf` trims the name as `String.trim` does:
            // every character up to U+0020 at either end, no other space.
            let scalars = name.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
            name = String(String.UnicodeScalarView(scalars))
        }
        guard let value = dialect == .icu ? CharacterNames.icu(named: name) : CharacterNames.java(named: name) else {
            throw .invalid(dialect, "no character is named \"\(name)\"", at: source)
        }
        return value
    }

    /// The name of `\p{NAME}` or `\P{NAME}` (after the `p`; the JDK also
    /// takes `\pL`). In free-spacing mode ICU's `scanProp` drops white
    /// space and comments from the name; the JDK's `Pattern.family` skips
    /// them before it and keeps them inside (`\p{ L}` is `\p{L}` in both,
    /// `\p{L }` an unknown name in the JDK).
    mutating func propertyName(at source: Int) throws(TranslationError) -> String {
        if peekSignificant() == 0x7B {
            position += 1
            try refuseICUQuotedName(at: source)
            if dialect == .java { skipInsignificant() }
            guard let name = significantName(closedBy: 0x7D, asWritten: dialect == .java) else {
                throw .invalid(dialect, "unterminated \\p{", at: source)
            }
            return name
        }
        guard dialect == .java, let c = next(), let letter = Unicode.Scalar(c) else {
            throw .invalid(dialect, "\\p must be followed by {NAME}", at: source)
        }
        return String(letter)
    }

    /// ICU reads the name of `\N{...}` and `\p{...}` through its scanner,
    /// which takes `\Q...\E` for the characters quoted
    /// (`\N{\QLATIN SMALL LETTER A\E}` is "a"); the names here are read as
    /// written, so a quote in one is refused.
    private func refuseICUQuotedName(at source: Int) throws(TranslationError) {
        guard dialect == .icu else { return }
        var k = position
        while k + 1 < count && self[k] != 0x7D {
            if self[k] == 0x5C && self[k + 1] == 0x51 {
                throw .refused(dialect, "\\Q...\\E in the name of \\N{...} or \\p{...}", because: "ICU reads the characters it quotes", at: source)
            }
            k += 1
        }
    }

    /// An ASCII letter followed by ASCII letters and digits.
    static func isGroupName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// A name up to `close`, taken with it, read as ICU's scanner and the
    /// JDK's `Pattern.read` read one: skipping white space and comments in
    /// free-spacing mode. Its characters (group names, and ICU's `\p{...}`
    /// and `\N{...}`), or with `asWritten` the text as written before
    /// `close` (the JDK's `\p{...}` and `\N{...}`, which it slices so).
    /// nil when the pattern ends first.
    mutating func significantName(closedBy close: UInt32, asWritten: Bool = false) -> String? {
        let start = position
        var name = ""
        while let c = nextSignificant() {
            if c == close {
                guard asWritten else { return name }
                return String(String.UnicodeScalarView((start..<position - 1).map { Unicode.Scalar(self[$0]) ?? "?" }))
            }
            name.unicodeScalars.append(Unicode.Scalar(c) ?? "?")
        }
        return nil
    }

    /// `\xhh` (ICU: one or two digits; JDK: exactly two) or `\x{h...}`.
    private mutating func hexEscape(at source: Int) throws(TranslationError) -> EscapeToken {
        if peekPart() == 0x7B {
            position += 1
            var value: UInt32 = 0
            var digits = 0
            while let c = peekPart(), let d = c.hexDigitValue {
                position += 1
                digits += 1
                value = min(value * 16 + d, 0x110000)
            }
            guard digits > 0, nextPart() == 0x7D, value <= 0x10FFFF, dialect == .java || digits <= 6 else {
                throw .invalid(dialect, "\\x{...} needs hex digits up to 10FFFF", at: source)
            }
            return .character(value, .hexBraced)
        }
        guard let value = hexDigits(2) ?? (dialect == .icu ? fixedHex(1) : nil) else {
            throw .invalid(dialect, "\\x needs two hex digits", at: source)
        }
        return .character(value, .hex)
    }

    /// `\uhhhh`; a surrogate pair written as two escapes is one code point.
    private mutating func utf16Escape(at source: Int) throws(TranslationError) -> UInt32 {
        guard let high = hexDigits(4) else { throw .invalid(dialect, "\\u needs four hex digits", at: source) }
        if (0xD800...0xDBFF).contains(high) {
            let mark = position
            if nextPart() == 0x5C, nextPart() == 0x75, let low = hexDigits(4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            position = mark
        }
        return high
    }

    /// `\0` and one to three octal digits, up to `\0377`.
    private mutating func octalEscape(at source: Int) throws(TranslationError) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        while digits < 3, let c = peekPart(), c >= 0x30, c <= 0x37, value * 8 + (c - 0x30) <= 0o377 {
            position += 1
            digits += 1
            value = value * 8 + (c - 0x30)
        }
        guard digits > 0 else { throw .invalid(dialect, "\\0 needs an octal digit", at: source) }
        return value
    }

    /// `count` hex digits read part by part (the JDK's `Pattern.x` and
    /// `uxxxx`, whose failure is an error), or ICU's `fixedHex`.
    private mutating func hexDigits(_ count: Int) -> UInt32? {
        guard dialect == .java else { return fixedHex(count) }
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let c = nextPart(), let d = c.hexDigitValue else { return nil }
            value = value * 16 + d
        }
        return value
    }

    /// Exactly `count` hex digits as written, or nil (nothing taken).
    private mutating func fixedHex(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<count {
            guard let c = peek(k), let d = c.hexDigitValue else { return nil }
            value = value * 16 + d
        }
        position += count
        return value
    }
}
