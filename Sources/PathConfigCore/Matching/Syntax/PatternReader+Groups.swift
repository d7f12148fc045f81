/// What a `(` opens, as its dialect reads it: the group's kind and name, or
/// the letters of a flag group, not yet judged (`PatternTranslator` judges
/// them in the order written, as the dialect does).
enum GroupOpener: Equatable {
    case capturing
    /// `(?<name>`.
    case named(String)
    /// `(?:`.
    case nonCapturing
    /// `(?>`.
    case atomic
    /// `(?=` or `(?!`.
    case lookahead(negative: Bool)
    /// `(?<=` or `(?<!`.
    case lookbehind(negative: Bool)
    /// `(?flags)` or `(?flags:`.
    case flags(FlagGroup)
}

/// The letters of `(?flags)` or `(?flags:`, each with its offset, and what
/// ended them: `)`, `:`, or nil where the pattern ended first.
struct FlagGroup: Equatable {
    var letters: [UInt32] = []
    var offsets: [Int] = []
    var end: UInt32?

    /// Reads the letters in the order written, as `dialect` does, handing
    /// `each` every flag, whether it is turned on, and its offset; returns
    /// what ended the group. A `-` turns the letters after it off (ICU
    /// takes any number, regexcst.txt's paren-flag-start; the JDK one,
    /// Pattern.addFlag then subFlag). Throws at the first letter the
    /// dialect has no flag for, then where the group has no end, then at
    /// ICU's empty `(?)` (the JDK reads it as setting no flag).
    func read(_ dialect: RegexDialect, at source: Int,
              each: (InlineFlag, _ on: Bool, _ offset: Int) throws(TranslationError) -> Void) throws(TranslationError) -> UInt32 {
        var on = true
        for (c, offset) in zip(letters, offsets) {
            if c == 0x2D, on || dialect == .icu {
                on = false
                continue
            }
            guard let flag = dialect.flag(c) else { throw .invalid(dialect, "unknown flag in (?...)", at: offset) }
            try each(flag, on, offset)
        }
        guard let end else { throw .invalid(dialect, "unterminated flag group", at: source) }
        if letters.isEmpty && dialect == .icu { throw .invalid(dialect, "empty flag group", at: source) }
        return end
    }
}

extension PatternReader {
    /// Reads what the `(` at `source`, just taken, opens; ICU's parser
    /// holds a level for it until its `)` (`holdICULevels`), unless it
    /// is a flag group without a body.
    mutating func groupOpener(at source: Int) throws(TranslationError) -> GroupOpener {
        let opener = try opener(at: source)
        if case .flags(let group) = opener, group.end != 0x3A { return opener }
        if dialect == .icu {
            icuOpenGroups += 1
            try holdICULevels(icuOpenGroups, at: source)
        }
        return opener
    }

    /// ICU's parser keeps its states on a stack of 100 (regexcmp.h's
    /// `kStackSize`), where every open group, every level of a class being
    /// read and a comment being read hold one (regexcst.txt's pushes): a
    /// pattern that would hold 100 is an error (`U_REGEX_INTERNAL_ERROR`).
    func holdICULevels(_ levels: Int, at source: Int) throws(TranslationError) {
        guard levels >= 100 else { return }
        throw .invalid(dialect, "groups, classes and comments nested 100 deep (ICU's parser holds 99)", at: source)
    }

    private mutating func opener(at source: Int) throws(TranslationError) -> GroupOpener {
        guard peekSignificant() == 0x3F else { captures += 1; return .capturing }
        position += 1
        // ICU skips white space here in free-spacing mode; a # here is no
        // comment to the end of the line (ICU's `(?#` never reaches here:
        // `skipsICUComment` read it). The JDK takes the character as written
        // (`Pattern.skip`): white space there starts a flag group, so
        // `(? :a)` is a group and `(? <n>a)` an error.
        if dialect == .icu { skipSpaces() }
        guard let kind = next() else { throw .invalid(dialect, "unterminated group", at: source) }
        switch kind {
        case 0x3A: return .nonCapturing
        case 0x3D: return .lookahead(negative: false)
        case 0x21: return .lookahead(negative: true)
        case 0x3E: return .atomic
        case 0x3C: // (?<= (?<! (?<name>
            if let next = peekSignificant(), next == 0x3D || next == 0x21 {
                position += 1
                return .lookbehind(negative: next == 0x21)
            }
            guard let name = significantName(closedBy: 0x3E), Self.isGroupName(name) else {
                throw .invalid(dialect, "a group name is an ASCII letter followed by letters and digits", at: source)
            }
            captures += 1
            return .named(name)
        default:
            position -= 1
            var group = FlagGroup()
            // The JDK applies each letter as it reads it (Pattern.addFlag and
            // subFlag), so an `x` makes the rest of the group free-spacing, a
            // `-x` ends that, and a `d` changes where a comment in it ends;
            // ICU applies the group's flags at its end. The modes after the
            // group are the caller's to set.
            let before = modes
            var on = true
            while let c = nextSignificant() {
                if c == 0x29 || c == 0x3A {
                    group.end = c
                    break
                }
                group.letters.append(c)
                group.offsets.append(position - 1)
                if dialect == .java {
                    if c == 0x2D { on = false } else if let flag = dialect.flag(c) { modes.set(flag, on) }
                }
            }
            modes = before
            return .flags(group)
        }
    }
}

/// What an inline flag letter stands for.
enum InlineFlag {
    case caseless, multiline, dotAll, extended, unixLines
    /// ICU `w` (UAX #29 word boundaries).
    case unicodeWord
    /// `u`: Java's UNICODE_CASE; ICU takes it and always folds Unicode case.
    case unicodeCase
    /// Java `U` (UNICODE_CHARACTER_CLASS).
    case unicodeCharacterClass
    /// Java `c` (CANON_EQ).
    case canonicalEquivalence
}

extension RegexDialect {
    /// The flag `letter` stands for in `(?letters)`, or nil where the
    /// dialect has none (an error there).
    func flag(_ letter: UInt32) -> InlineFlag? {
        switch (self, letter) {
        case (_, 0x69): return .caseless      // i
        case (_, 0x6D): return .multiline     // m
        case (_, 0x73): return .dotAll        // s
        case (_, 0x78): return .extended      // x
        case (_, 0x64): return .unixLines     // d
        case (_, 0x75): return .unicodeCase   // u
        case (.icu, 0x77): return .unicodeWord // w
        case (.java, 0x55): return .unicodeCharacterClass // U
        case (.java, 0x63): return .canonicalEquivalence  // c
        default: return nil
        }
    }
}
