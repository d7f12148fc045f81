/// Backslash escapes, inside and outside classes.
extension PatternTranslator {
    /// What a character or class escape stands for.
    enum EscapeValue {
        /// One code point.
        case character(UInt32)
        /// Several code points (`\Q...\E` inside a class).
        case characters([UInt32])
        /// A class (`\d`, `\p{L}`).
        case set(CharSet)
    }

    /// An escape outside a class, after its backslash.
    mutating func escape(at source: Int) throws(TranslationError) {
        guard let c = reader.peek() else { throw .syntax("\\ at end of pattern", at: source) }
        switch c {
        case 0x41, 0x7A, 0x47: // \A \z \G
            reader.position += 1
            try flushLiterals()
            write(c == 0x41 ? "\\A" : c == 0x7A ? "\\z" : "\\G", at: source, as: .assertion)
        case 0x5A: // \Z: $ without (?m); ICU ignores (?d) here
            reader.position += 1
            try flushLiterals()
            write(lineEnd(multiline: false, unixLines: dialect == .java && flags.unixLines), at: source, as: .assertion)
        case 0x62, 0x42: // \b \B
            reader.position += 1
            try flushLiterals()
            try wordBoundary(negated: c == 0x42, at: source)
        case 0x58: // \X
            throw .refused(dialect, "\\X", because: "grapheme clusters follow each engine's own Unicode version and rules", at: source)
        case 0x52: // \R
            reader.position += 1
            try flushLiterals()
            let breaks = CharSetEmitter.emit(StandardClasses.verticalSpace, caseless: false)
            write(dialect == .icu ? "(?>\\r\\n|" + breaks + ")" : "(?:\\r\\n|" + breaks + ")", at: source, as: .item)
        case 0x51: // \Q...\E
            reader.position += 1
            for value in quoted() { literal(value.0, at: value.1) }
        case 0x45: // \E outside \Q: ICU reads a literal E
            reader.position += 1
            guard dialect == .icu else { throw .invalid(dialect, "\\E without \\Q", at: source) }
            literal(0x45, at: source)
        case 0x6B: // \k<name>
            reader.position += 1
            guard reader.next() == 0x3C else { throw .invalid(dialect, "\\k must be followed by <name>", at: source) }
            var name = ""
            var closed = false
            while !closed, let n = reader.next() {
                if n == 0x3E { closed = true } else { name.unicodeScalars.append(Unicode.Scalar(n) ?? "?") }
            }
            guard closed, isGroupName(name) else { throw .invalid(dialect, "\\k<name> needs a group name", at: source) }
            if dialect == .icu && !groupNames.contains(name) {
                throw .invalid(dialect, "\\k<\(name)> before the group it names", at: source)
            }
            try backReference("\\k<" + name + ">", group: .name(name), at: source)
        case 0x31...0x39: // \1 to \9
            reader.position += 1
            var number = Int(c - 0x30)
            while let d = reader.peek(), d >= 0x30, d <= 0x39 {
                let longer = number * 10 + Int(d - 0x30)
                // ICU stops once the number reaches the groups seen so far;
                // the JDK stops before a number above them.
                if dialect == .icu ? number >= captures : longer > captures { break }
                number = longer
                reader.position += 1
            }
            try backReference("\\g{\(number)}", group: .number(number), at: source)
        case _ where StandardClasses.shorthandLetters.contains(c):
            // \d \w \s and the like: their text is the same every time.
            reader.position += 1
            try flushLiterals()
            write(StandardClasses.shorthand(c, dialect: dialect, caseless: pcre2Caseless), at: source, as: .item,
                  matching: StandardClasses.set(for: c, dialect: dialect))
        default:
            switch try characterEscape(at: source, inClass: false) {
            case .character(let value): literal(value, at: source)
            case .characters(let values): for value in values { literal(value, at: source) }
            case .set(let set):
                try flushLiterals()
                write(CharSetEmitter.emit(set, caseless: pcre2Caseless), at: source, as: .item, matching: set)
            }
        }
    }

    /// `\b` or `\B` (after the letter): a `WordBoundaries` callout, which
    /// computes the dialect's own boundary, except where the dialect means
    /// another kind of boundary, whose rules follow each engine's Unicode
    /// version (ICU's under `(?w)`: UAX #29 words; the JDK's `\b{g}`), and
    /// where the JDK tests it inside a surrogate pair, a position UTF-8 text
    /// does not have. Its unanchored search (`Pattern.Start`, for a pattern
    /// without supplementary characters) and its lookbehinds (`Behind`) step
    /// by UTF-16 unit: there `\b` is false and `\B` true, as each side is a
    /// lone surrogate. `\b` false can only fail a match that PCRE2 never
    /// tries, except in a lookbehind, which the JDK may start there instead
    /// of at the character; `\B` true lets `\B` alone match "𐐀".
    private mutating func wordBoundary(negated: Bool, at source: Int) throws(TranslationError) {
        let name = negated ? "\\B" : "\\b"
        switch dialect {
        case .icu:
            if flags.unicodeWord {
                throw .refused(dialect, name + " under (?w)", because: "UAX #29 word breaks follow each engine's own Unicode version and rules",
                               at: source)
            }
        case .java:
            if negated {
                throw .refused(dialect, name, because: "the JDK's search also tries positions inside a surrogate pair, where \\B holds",
                               at: source)
            }
            // Pattern.escape: `\b{g}` is a grapheme cluster boundary; `\b{g`
            // without `}` is an error; after `\b{` anything else, `{` is read
            // again, as a repeat count on `\b`.
            if reader.peek() == 0x7B, reader.peek(1) == 0x67 {
                guard reader.peek(2) == 0x7D else { throw .invalid(dialect, "\\b{g needs its }", at: source) }
                throw .refused(dialect, "\\b{g}", because: "grapheme cluster boundaries follow each engine's own Unicode version and rules",
                               at: source)
            }
            if frames.contains(where: \.isLookbehind) {
                throw .refused(dialect, name + " in a lookbehind",
                               because: "the JDK's lookbehind steps back by UTF-16 unit and tests \\b inside a surrogate pair", at: source)
            }
        }
        if firstWordBoundary == nil { firstWordBoundary = source }
        write(WordBoundaries.Kind(dialect: dialect, negated: negated).callout, at: source, as: .assertion)
    }

    private mutating func backReference(_ text: String, group: JavaBackReferences.Group, at source: Int) throws(TranslationError) {
        try flushLiterals()
        if inLookbehind {
            throw .invalid(dialect, "a lookbehind needs a bounded length, and a back reference has none", at: source)
        }
        if dialect == .icu && flags.caseless {
            throw .refused(dialect, "back reference under (?i)", because: "ICU compares the captured text with full case folding", at: source)
        }
        guard dialect == .java else {
            let start = out.count
            write(text, at: source, as: .item, nullable: true)
            if case .number(let n) = group { icuBackReferences.append((out.mark(from: start), n, false)) }
            return
        }
        // Java: PCRE2 folds the back reference (the rest is written out),
        // checked, with a reference to a group the pattern lacks, at the end.
        let start = out.count
        write(flags.caseless ? "(?i:" + text + ")" : text, at: source, as: .item, nullable: true, matching: .items([]))
        noteBackReference(to: group, caseless: flags.caseless, from: start, at: source)
    }

    /// Once every group is known: ICU checks a back reference against the
    /// groups only where a zero repeat did not drop it, and PCRE2 checks
    /// every one, so a dropped one to a group the pattern lacks becomes
    /// `(?!)` (it is never tried).
    mutating func finishICUBackReferences() {
        out.replaceMarks(icuBackReferences.filter { $0.dropped && $0.group > captures }.map { ($0.mark, "(?!)", 0) })
    }

    /// The characters of `\Q...\E` (after `\Q`), with their offsets; an
    /// unterminated quote runs to the end.
    mutating func quoted() -> [(UInt32, Int)] {
        var values: [(UInt32, Int)] = []
        while let c = reader.peek() {
            if c == 0x5C && reader.peek(1) == 0x45 {
                reader.position += 2
                break
            }
            values.append((c, reader.position))
            reader.position += 1
        }
        return values
    }

    /// An escape that stands for characters or a class (after the
    /// backslash, which is at `source`).
    mutating func characterEscape(at source: Int, inClass: Bool) throws(TranslationError) -> EscapeValue {
        guard let c = reader.next() else { throw .syntax("\\ at end of pattern", at: source) }
        switch c {
        case 0x61: return .character(0x07) // \a
        case 0x65: return .character(0x1B) // \e
        case 0x66: return .character(0x0C) // \f
        case 0x6E: return .character(0x0A) // \n
        case 0x72: return .character(0x0D) // \r
        case 0x74: return .character(0x09) // \t
        case 0x63: // \cX
            guard let x = reader.next() else {
                guard dialect == .icu, !inClass else { throw .invalid(dialect, "\\c needs a character", at: source) }
                return .character(0x63)
            }
            return .character(dialect == .icu ? x & 0x1F : x ^ 0x40)
        case 0x78: return .character(try hexEscape(at: source))
        case 0x75: return .character(try utf16Escape(at: source))
        case 0x55 where dialect == .icu: // \Uhhhhhhhh
            guard let value = fixedHex(8), value <= 0x10FFFF else { throw .invalid(dialect, "\\U needs eight hex digits", at: source) }
            return .character(try validScalar(value, at: source))
        case 0x30: return .character(try octalEscape(at: source))
        case 0x4E: return .character(try namedCharacter(at: source)) // \N{NAME}
        case _ where StandardClasses.shorthandLetters.contains(c): return .set(StandardClasses.set(for: c, dialect: dialect))
        case 0x70, 0x50: return .set(try property(negated: c == 0x50, inClass: inClass, at: source))
        case 0x51 where inClass: return .characters(quoted().map(\.0))
        default:
            let letter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            let digit = c >= 0x30 && c <= 0x39
            // ICU reads an escaped letter it has no meaning for as the letter
            // (`\y` is "y", `\K` is "K"); the JDK rejects it.
            if dialect == .java && (letter || digit) {
                throw .invalid(dialect, "unknown escape \\\(Unicode.Scalar(c)!)", at: source)
            }
            return .character(c)
        }
    }

    private func negate(_ negated: Bool, _ set: CharSet) -> CharSet { negated ? .complement(set) : set }

    /// `\xhh` (ICU: one or two digits; JDK: exactly two) or `\x{h...}`.
    private mutating func hexEscape(at source: Int) throws(TranslationError) -> UInt32 {
        if reader.peek() == 0x7B {
            reader.position += 1
            var value: UInt32 = 0
            var digits = 0
            while let c = reader.peek(), let d = hexDigit(c) {
                reader.position += 1
                digits += 1
                value = min(value * 16 + d, 0x110000)
            }
            guard digits > 0, reader.next() == 0x7D, value <= 0x10FFFF, dialect == .java || digits <= 6 else {
                throw .invalid(dialect, "\\x{...} needs hex digits up to 10FFFF", at: source)
            }
            return try validScalar(value, at: source)
        }
        var value: UInt32 = 0
        var digits = 0
        while digits < 2, let c = reader.peek(), let d = hexDigit(c) {
            reader.position += 1
            digits += 1
            value = value * 16 + d
        }
        guard digits == 2 || (dialect == .icu && digits == 1) else { throw .invalid(dialect, "\\x needs two hex digits", at: source) }
        return value
    }

    /// `\uhhhh`; a surrogate pair written as two escapes is one code point.
    private mutating func utf16Escape(at source: Int) throws(TranslationError) -> UInt32 {
        guard let high = fixedHex(4) else { throw .invalid(dialect, "\\u needs four hex digits", at: source) }
        if (0xD800...0xDBFF).contains(high), reader.peek() == 0x5C, reader.peek(1) == 0x75 {
            let mark = reader.position
            reader.position += 2
            if let low = fixedHex(4), (0xDC00...0xDFFF).contains(low) {
                return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            }
            reader.position = mark
        }
        return try validScalar(high, at: source)
    }

    /// A lone surrogate cannot occur in a UTF-8 subject; refuse rather than
    /// guess what the dialect's UTF-16 engine would do with one.
    private func validScalar(_ value: UInt32, at source: Int) throws(TranslationError) -> UInt32 {
        guard Unicode.Scalar(value) != nil else {
            throw .refused(dialect, "\\u" + String(value, radix: 16, uppercase: true), because: "a lone surrogate cannot occur in UTF-8 text", at: source)
        }
        return value
    }

    /// `\0` and one to three octal digits, up to `\0377`.
    private mutating func octalEscape(at source: Int) throws(TranslationError) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        while digits < 3, let c = reader.peek(), c >= 0x30, c <= 0x37, value * 8 + (c - 0x30) <= 0o377 {
            reader.position += 1
            digits += 1
            value = value * 8 + (c - 0x30)
        }
        guard digits > 0 else { throw .invalid(dialect, "\\0 needs an octal digit", at: source) }
        return value
    }

    /// `\N{NAME}`.
    mutating func namedCharacter(at source: Int) throws(TranslationError) -> UInt32 {
        guard reader.next() == 0x7B else { throw .invalid(dialect, "\\N must be followed by {NAME}", at: source) }
        var name = ""
        var closed = false
        while !closed, let c = reader.next() {
            if c == 0x7D { closed = true } else { name.unicodeScalars.append(Unicode.Scalar(c) ?? "?") }
        }
        guard closed else { throw .invalid(dialect, "unterminated \\N{", at: source) }
        if dialect == .java {
            // `Character.codePointOf` trims the name as `String.trim` does:
            // every character up to U+0020 at either end, no other space.
            let scalars = name.unicodeScalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
            name = String(String.UnicodeScalarView(scalars))
        }
        // ICU's free-spacing mode drops white space inside the braces too.
        if dialect == .icu && reader.extended { name.unicodeScalars.removeAll { reader.isSpace($0.value) } }
        guard let value = CharacterNames.scalar(named: name) else {
            throw .invalid(dialect, "no character is named \"\(name)\"", at: source)
        }
        return value
    }

    /// `\p{NAME}` or `\P{NAME}` (the JDK also takes `\pL`).
    mutating func property(negated: Bool, inClass: Bool, at source: Int) throws(TranslationError) -> CharSet {
        var name = ""
        if reader.peek() == 0x7B {
            reader.position += 1
            var closed = false
            while !closed, let c = reader.next() {
                if c == 0x7D { closed = true } else { name.unicodeScalars.append(Unicode.Scalar(c) ?? "?") }
            }
            guard closed else { throw .invalid(dialect, "unterminated \\p{", at: source) }
        } else if dialect == .java, let c = reader.next(), let letter = Unicode.Scalar(c) {
            name = String(letter)
        } else {
            throw .invalid(dialect, "\\p must be followed by {NAME}", at: source)
        }
        let written = (negated ? "\\P{" : "\\p{") + name + "}"
        let resolution = dialect == .icu ? PropertyNames.icu(name) : PropertyNames.java(name, caseInsensitive: flags.caseless)
        switch resolution {
        case .set(let set, let caseClosed):
            if dialect == .icu && flags.caseless && !caseClosed {
                throw .refused(dialect, written + " under (?i)", because: "ICU adds the other cases of its members, PCRE2 never case-folds a property", at: source)
            }
            return negate(negated, set)
        case .block(let range):
            if inClass && flags.caseless { throw Self.blockInCaselessClass(dialect, written, at: source) }
            let set = negate(negated, .range(range.lowerBound, range.upperBound))
            return inClass ? set : .caseExact(set)
        case .refused(let why):
            throw .refused(dialect, written, because: why, at: source)
        case .unknown:
            throw .unknownName(dialect, written, because: "not in the dialect table, whose properties and blocks are Unicode \(UnicodeBlocks.unicodeVersion)'s", at: source)
        }
    }

    /// A block in a class under `(?i)`: ICU closes the whole class over case
    /// with full case folding (U+0390 brings U+1FD3), PCRE2 with simple.
    static func blockInCaselessClass(_ dialect: RegexDialect, _ written: String, at source: Int) -> TranslationError {
        .refused(dialect, written + " in a class under (?i)", because: "ICU closes the class over case by full case folding, PCRE2 by simple",
                 at: source)
    }

    /// Exactly `count` hex digits, or nil (nothing taken).
    private mutating func fixedHex(_ count: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<count {
            guard let c = reader.peek(k), let d = hexDigit(c) else { return nil }
            value = value * 16 + d
        }
        reader.position += count
        return value
    }

    private func hexDigit(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
