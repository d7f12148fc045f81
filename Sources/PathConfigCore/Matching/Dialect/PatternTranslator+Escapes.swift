/// Backslash escapes, inside and outside classes.
extension PatternTranslator {
    /// An escape outside a class, read.
    mutating func escape(_ escape: EscapeToken, at source: Int) throws(TranslationError) {
        switch escape {
        case .assertion(0x5A): // \Z: $ without (?m); ICU ignores (?d) here
            try write(lineEnd(multiline: false, unixLines: dialect == .java && flags.unixLines), at: source, as: .assertion)
        case .assertion(let c) where c == 0x62 || c == 0x42: // \b \B
            try flushLiterals()
            try wordBoundary(negated: c == 0x42, at: source)
        case .assertion(let c): // \A \z \G
            try write("\\" + String(Unicode.Scalar(c)!), at: source, as: .assertion)
        case .graphemeBoundary:
            throw .refused(dialect, "\\b{g}", because: "grapheme cluster boundaries follow each engine's own Unicode version and rules", at: source)
        case .sequence(0x58): // \X
            throw .refused(dialect, "\\X", because: "grapheme clusters follow each engine's own Unicode version and rules", at: source)
        case .sequence: // \R
            let breaks = CharSetEmitter.emit(StandardClasses.verticalSpace, caseless: false)
            if dialect == .java {
                // Backtracks into CR alone, except under a repeat (`javaRepeatsAtomically`).
                try flushLiterals()
                javaLineBreak = out.count
                if let k = frames.indices.last { frames[k].holdsLineBreak = true }
            }
            // It matches line breaks alone (CR LF among them).
            try write(dialect == .icu ? "(?>\\r\\n|" + breaks + ")" : "(?:\\r\\n|" + breaks + ")", at: source, as: .item,
                      matching: StandardClasses.verticalSpace)
        case .quote:
            for value in reader.quoted() { literal(value.0, at: value.1) }
        case .namedReference(let name):
            // Both dialects look the name up as they read the reference.
            guard let number = groupNumbers[name] else {
                throw .invalid(dialect, "\\k<\(name)> before the group it names", at: source)
            }
            try backReference(number, at: source)
        case .backReference(let number):
            try backReference(number, at: source)
        case .shorthand(let c):
            if dialect == .java && Self.isWideJavaShorthand(c) { searchStart.stepsByCodePoint = true }
            // \d \w \s and the like: their text is the same every time.
            try write(StandardClasses.shorthand(c, dialect: dialect, caseless: pcre2Caseless), at: source, as: .item,
                  matching: StandardClasses.set(for: c, dialect: dialect))
        case .character(let value, _):
            try Self.checkScalar(value, dialect, at: source)
            literal(value, at: source)
        case .property(let name, let negated):
            let set = try Self.property(name, negated: negated, inClass: false, dialect: dialect, caseless: flags.caseless, at: source)
            if dialect == .java && Self.isWideJavaProperty(set) { searchStart.stepsByCodePoint = true }
            try write(CharSetEmitter.emit(set, caseless: pcre2Caseless), at: source, as: .item, matching: set)
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
        if dialect == .icu && flags.unicodeWord {
            throw .refused(dialect, name + " under (?w)", because: "UAX #29 word breaks follow each engine's own Unicode version and rules", at: source)
        }
        if dialect == .java && negated {
            throw .refused(dialect, name, because: "the JDK's search also tries positions inside a surrogate pair, where \\B holds", at: source)
        }
        if dialect == .java && frames.contains(where: \.isLookbehind) {
            throw .refused(dialect, name + " in a lookbehind",
                           because: "the JDK's lookbehind steps back by UTF-16 unit and tests \\b inside a surrogate pair", at: source)
        }
        if firstWordBoundary == nil { firstWordBoundary = source }
        try write(WordBoundaries.Kind(dialect: dialect, negated: negated).callout, at: source, as: .assertion)
    }

    private mutating func backReference(_ group: Int, at source: Int) throws(TranslationError) {
        let text = "\\g{\(group)}"
        try flushLiterals()
        if inLookbehind {
            throw .invalid(dialect, "a lookbehind needs a bounded length, and a back reference has none", at: source)
        }
        if dialect == .icu && flags.caseless {
            throw .refused(dialect, "back reference under (?i)", because: "ICU compares the captured text with full case folding", at: source)
        }
        let start = out.count
        guard dialect == .java else {
            try write(text, at: source, as: .item, nullable: true)
            icuBackReferences.append((out.mark(from: start), group, false))
            return
        }
        // Java: PCRE2 folds the back reference (the rest is written out),
        // checked, with a reference to a group the pattern lacks, at the end.
        try write(flags.caseless ? "(?i:" + text + ")" : text, at: source, as: .item, nullable: true, matching: .items([]))
        javaBackReferences.references.append(.init(group: group, caseless: flags.caseless, mark: out.mark(from: start), source: source,
                                                   inside: frames.compactMap(\.capture)))
    }

    /// Once every group is known: ICU checks a back reference against the
    /// groups only where a zero repeat did not drop it, and PCRE2 checks
    /// every one, so a dropped one to a group the pattern lacks becomes
    /// `(?!)` (it is never tried).
    mutating func finishICUBackReferences() {
        out.replaceMarks(icuBackReferences.filter { $0.dropped && $0.group > reader.captures }.map { ($0.mark, "(?!)", 0) })
    }

    /// A lone surrogate (`\uD800`) cannot occur in a UTF-8 subject: refused
    /// rather than guessed at, for what the dialect's UTF-16 engine would do
    /// with one.
    static func checkScalar(_ value: UInt32, _ dialect: RegexDialect, at source: Int) throws(TranslationError) {
        guard Unicode.Scalar(value) == nil else { return }
        throw .refused(dialect, "\\u" + String(value, radix: 16, uppercase: true), because: "a lone surrogate cannot occur in UTF-8 text", at: source)
    }

    /// The set `\p{NAME}` (or `\P{NAME}`, `negated`) stands for in `dialect`;
    /// `written` names it in a refusal where it was written otherwise
    /// (ICU's `[:name:]`).
    static func property(_ name: String, negated: Bool, inClass: Bool, dialect: RegexDialect, caseless: Bool, written: String? = nil,
                         at source: Int) throws(TranslationError) -> CharSet {
        let written = written ?? (negated ? "\\P{" : "\\p{") + name + "}"
        let resolution = dialect == .icu ? PropertyNames.icu(name) : PropertyNames.java(name, caseInsensitive: caseless)
        switch resolution {
        case .set(let set, let caseClosed):
            if dialect == .icu && caseless && !caseClosed {
                throw .refused(dialect, written + " under (?i)", because: "ICU adds the other cases of its members, PCRE2 never case-folds a property", at: source)
            }
            return negated ? .complement(set) : set
        case .block(let range):
            if inClass && caseless {
                // ICU closes the whole class over case by full case folding
                // (U+0390 brings U+1FD3), PCRE2 by simple.
                throw .refused(dialect, written + " in a class under (?i)", because: "ICU closes the class over case by full case folding, PCRE2 by simple",
                               at: source)
            }
            let set: CharSet = .range(range.lowerBound, range.upperBound)
            let signed = negated ? .complement(set) : set
            return inClass ? signed : .caseExact(signed)
        case .refused(let why):
            throw .refused(dialect, written, because: why, at: source)
        case .unknown:
            throw .unknownName(dialect, written, because: "not in the dialect table, whose properties and blocks are Unicode \(UnicodeBlocks.unicodeVersion)'s", at: source)
        }
    }
}
