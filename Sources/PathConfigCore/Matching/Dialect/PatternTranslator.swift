/// Rewrites a pattern written for ICU or `java.util.regex` in PCRE2's syntax,
/// so that PCRE2 finds exactly what the dialect's engine finds, or refuses it.
///
/// One pass over the pattern's constructs, as `PatternReader.token` reads
/// them for the syntax tree too, tracking what the dialect's own compiler
/// tracks: inline flags and their scope, free-spacing mode, capture groups
/// so far (ICU and the JDK read `\12` by how many groups exist), what a
/// quantifier may follow. Everything whose meaning depends on the engine is
/// written out explicitly (`\d` as `\p{Nd}` or `[0-9]`, `.` as a class of
/// non-terminators, `$` as lookarounds), so PCRE2's own options and version
/// never decide it. A construct with no exact PCRE2 form is refused with a
/// `TranslationError` naming it; see the dialect table in
/// docs/format-and-profiles.md.
struct PatternTranslator {
    /// The inline flags in force.
    struct Flags: Equatable {
        var caseless = false
        var multiline = false
        var dotAll = false
        var extended = false
        var unixLines = false
        /// ICU `w` (UAX #29 word boundaries).
        var unicodeWord = false
        /// Java `u` (UNICODE_CASE).
        var unicodeCase = false
    }

    /// What the last thing written was, for the quantifier that may follow.
    enum Atom: Equatable {
        /// Nothing a quantifier can follow (start, `|`, `(`, `(?i)`).
        case none
        /// A character, class, group or back reference starting at this output index.
        case item(Int)
        /// `^` or `$`: ICU lets them be quantified.
        case anchor(Int)
        /// A zero-width assertion: ICU refuses a quantifier, the JDK allows one.
        case assertion(Int)
        case quantified
    }

    /// An open group.
    struct Frame {
        let saved: Flags
        let start: Int
        let isAssertion: Bool
        /// The group's number, for a capture group.
        var capture: Int?
        /// The number the first capture group inside it gets.
        var firstInnerCapture = 0
        /// Java: an atomic group or a lookaround, which the JDK runs to an
        /// end of its own, keeping what the groups inside captured when the
        /// search later backtracks out of it (or, for a negative one, fails
        /// because its body matched).
        var keepsCaptures = false
        /// A lookbehind, `(?<=` or `(?<!`.
        var isLookbehind = false
        /// Java: a lookbehind the JDK runs as `Behind`, measured and tried
        /// by UTF-16 unit, since no character above U+FFFF is written from
        /// it to the pattern's end (`Pattern.findSupplementary`); its
        /// `BehindS` steps by code point, as PCRE2 does.
        var stepsByUnit = false
        /// Whether every item so far in the current alternative can match
        /// the empty string.
        var branchNullable = true
        /// Whether an earlier alternative can.
        var earlierBranchNullable = false
        /// Java: whether the JDK's `TreeInfo` finds the body so far
        /// deterministic: no `|`, no `?` and no repeat whose bounds differ,
        /// in it or in a group in it (a lookaround's body aside).
        var deterministic = true
        /// Java: whether a `\R` is written in it (`javaRepeatsAtomically`).
        var holdsLineBreak = false
        /// A negative lookaround.
        var isNegative = false
        /// Java: whether a search started inside a surrogate pair may be at
        /// its start where it opened, and at the end of an earlier
        /// alternative (`JavaSearchStart`).
        var searchAtOpen = true
        var searchAtBranchEnd = false
    }

    let dialect: RegexDialect
    var reader: PatternReader
    var out: TranslationBuilder
    var flags = Flags()
    var frames: [Frame] = []
    var atom = Atom.none
    /// Whether the last item written can match the empty string (not yet
    /// counted into its group): ICU's possessive `*+` and `++` never match
    /// such an item.
    var lastNullable: Bool?
    /// ICU: the numbered back references written, and whether a zero
    /// repeat dropped each (`finishICUBackReferences`).
    var icuBackReferences: [(mark: Int, group: Int, dropped: Bool)] = []
    /// ICU, case-insensitive: the literal characters written since the last
    /// other construct, checked for full case folding.
    var literalRun: [UInt32] = []
    var literalRunStart = 0
    /// Whether the translation relies on PCRE2's `(*ANY)` newline
    /// convention (CR, LF, CR LF, VT, FF, NEL, LS, PS), which it then
    /// starts with.
    var usesAnyNewline = false
    /// Java, case-insensitive: the literal characters written since the
    /// last other construct (a run of two or more matches otherwise than a
    /// character alone), not yet written out.
    var javaRun: [(value: UInt32, source: Int)] = []
    /// Java: what the back references need checked once every group is
    /// known (`finishJavaBackReferences`).
    var javaBackReferences = JavaBackReferences()
    /// Named groups' numbers. A group is written by number, and so is a
    /// reference to it: PCRE2 takes names of at most 32 code units, ICU
    /// and the JDK any length.
    var groupNumbers: [String: Int] = [:]
    /// The run of one repeated item the output ends with (`countRepeat`).
    var repeatRun: RepeatRun?
    /// The group just closed, for the quantifier that may follow: where it
    /// starts in the output, its number if it captures, the capture groups
    /// inside it, and (Java) whether the JDK finds it deterministic.
    var closedGroup: (start: Int, capture: Int?, inner: ClosedRange<Int>?, deterministic: Bool, holdsLineBreak: Bool)?
    /// Java: where the last `\R` written starts in the output.
    var javaLineBreak: Int?
    /// Java: where the last character above U+FFFF is read (-1: nowhere),
    /// once asked (`lastSupplementaryOffset`).
    var lastSupplementary: Int?
    /// Java: the first item refused in a lookbehind the JDK tries by UTF-16
    /// unit (`noteItem`), thrown once the whole pattern is read: a pattern
    /// the JDK rejects, or one refused without a judgement, says so
    /// instead, since this refusal calls the pattern valid.
    var byUnitRefusal: TranslationError?
    /// Java: whether the JDK's search may start a match inside a surrogate
    /// pair (`JavaSearchStart`).
    var searchStart = JavaSearchStart()
    /// Where the first `\b` or `\B` is, once one was written as a callout.
    var firstWordBoundary: Int?
    /// Where the first ICU `^` under `(?m)` (without `(?d)`) is.
    var multilineCaret: Int?
    /// Whether the pattern holds an atomic group: `(?>...)`, or a group
    /// (or anchor) with a possessive quantifier, which PCRE2 compiles as one
    /// (`PatternTranslation.hasAtomicGroup`). The `(?>\r\n|...)` written
    /// for ICU's `.` and `\R`, and the `(?>...)` around a Java `\R` under a
    /// repeat, are not counted: they never match the empty string.
    var hasAtomicGroup = false

    /// Translates `pattern`, compiled by the dialect with `caseInsensitive`
    /// (the profile's flag; inline `(?i)` is read from the pattern).
    static func translate(_ pattern: String, dialect: RegexDialect, caseInsensitive: Bool) throws(TranslationError) -> PatternTranslation {
        // NSRegularExpression refuses an empty pattern (java.util.regex takes it).
        if pattern.isEmpty, dialect == .icu {
            throw TranslationError(message: "an empty pattern (ICU, as NSRegularExpression, rejects it)", offset: 0)
        }
        var translator = PatternTranslator(pattern, dialect: dialect, caseInsensitive: caseInsensitive)
        do throws(TranslationError) {
            try translator.run()
            if dialect == .java {
                try translator.finishJavaBackReferences()
                if let refusal = translator.byUnitRefusal { throw refusal }
                if let refusal = translator.searchStartRefusal() { throw refusal }
            }
        } catch {
            throw TranslationError(message: error.message, offset: translator.reader.sourceOffset(error.offset), isRefusal: error.isRefusal)
        }
        if dialect == .icu { translator.finishICUBackReferences() }
        if let guardText = translator.leadingDotGuard() { translator.out.insert(guardText, at: 0, from: 0) }
        if translator.usesAnyNewline { translator.out.insert("(*ANY)", at: 0, from: 0) }
        // Only a rewritten pattern's reader is kept (a copy costs at load).
        let written: ((Int) -> Int)? = translator.reader.isRewritten ? { [reader = translator.reader] in reader.sourceOffset($0) } : nil
        return translator.out.finish(end: translator.reader.count, firstWordBoundary: translator.firstWordBoundary,
                                     multilineCaret: translator.multilineCaret, hasAtomicGroup: translator.hasAtomicGroup, sourceOffset: written)
    }

    private init(_ pattern: String, dialect: RegexDialect, caseInsensitive: Bool) {
        self.dialect = dialect
        self.reader = PatternReader(pattern, dialect: dialect)
        self.out = TranslationBuilder(capacity: reader.count * 2 + 16)
        // Kotlin's Regex adds UNICODE_CASE to IGNORE_CASE.
        flags = Flags(caseless: caseInsensitive, unicodeCase: caseInsensitive)
    }

    private mutating func run() throws(TranslationError) {
        try reader.refuseICUEmptyQuote()
        while let (token, at) = try reader.token() {
            switch token {
            case .escape:
                try escape(reader.escape(at: at, inClass: false), at: at)
            case .classOpen:
                try flushLiterals()
                let set = try classExpression(openedAt: at)
                if dialect == .icu, flags.caseless, let value = try Self.singleCodePoint(set, at: at) {
                    // ICU compiles a set that keeps one code point after its
                    // case closure as a literal, which starts a literal run
                    // (compileSet, regexcmp.cpp): `(?i)[ﬁ]` finds "fi". One
                    // with case partners keeps more, and starts none; taking
                    // it as one too can only refuse more, never less.
                    literal(value, at: at)
                    continue
                }
                try write(CharSetEmitter.emit(set, caseless: pcre2Caseless), at: at, as: .item, matching: set)
            case .groupOpen:
                try openGroup(at: at)
            case .groupClose:
                try closeGroup(at: at)
            case .alternation:
                try flushLiterals()
                foldLast()
                noteSearchAlternation()
                if let k = frames.indices.last {
                    frames[k].earlierBranchNullable = frames[k].earlierBranchNullable || frames[k].branchNullable
                    frames[k].branchNullable = true
                    frames[k].deterministic = false
                }
                out.emit("|", from: at)
                atom = .none
            case .quantifier(let quantifier):
                try self.quantifier(quantifier, at: at)
            case .dot: try write(dot(), at: at, as: .item)
            case .caret: try write(lineStart(at: at), at: at, as: .anchor)
            case .dollar: try write(lineEnd(multiline: flags.multiline, unixLines: flags.unixLines), at: at, as: .anchor)
            case .character(let c):
                literal(c, at: at)
            }
        }
        try flushLiterals()
        noteSearchEnd()
    }

    // MARK: - Writing

    /// The kinds of construct `write` records for a following quantifier.
    enum Kind { case item, anchor, assertion }

    /// Whether PCRE2 itself folds case where the translation is: for ICU's
    /// `(?i)`, passed on. Java's case-insensitivity is written out instead
    /// (`JavaCaseFolding`), and PCRE2 compiles a Java pattern without it.
    var pcre2Caseless: Bool { flags.caseless && dialect == .icu }

    /// Writes a construct and remembers what it was; `nullable` says
    /// whether an item can match the empty string (anchors and assertions
    /// always can); `set`, when known, is what an item matches (nil: it may
    /// match anything), for Java's back references and lookbehinds.
    mutating func write(_ text: String, at source: Int, as kind: Kind, nullable: Bool = false, matching set: CharSet? = nil) throws(TranslationError) {
        try flushLiterals()
        if kind == .item {
            noteItem(matching: set, at: source)
            noteSearchItem(mayMatchSurrogate: set?.mayHoldSurrogate ?? true, nullable: nullable)
        } else {
            noteSearchAnchor()
        }
        foldLast()
        var start = out.count
        out.emit(text, from: source)
        if kind == .item { start = countRepeat(from: start, at: source) }
        atom = kind == .item ? .item(start) : kind == .anchor ? .anchor(start) : .assertion(start)
        lastNullable = nullable || kind != .item
    }

    /// Counts the last item into its group's alternative.
    mutating func foldLast() {
        guard let nullable = lastNullable else { return }
        lastNullable = nil
        if !nullable, let k = frames.indices.last { frames[k].branchNullable = false }
    }

    // Inlined: `run` calls it for each literal character (a call a
    // character cost 3% of loading 800 KB of literals).
    @inline(__always)
    mutating func literal(_ value: UInt32, at source: Int) {
        if dialect == .java && flags.caseless {
            javaRun.append((value, source))
            return
        }
        noteItem(matching: .scalar(value), at: source)
        noteSearchItem(mayMatchSurrogate: false, nullable: false)
        if dialect == .icu && flags.caseless {
            if literalRun.isEmpty { literalRunStart = source }
            literalRun.append(value)
        }
        foldLast()
        let start = out.count
        out.emitLiteral(value, from: source)
        atom = .item(countRepeat(from: start, at: source))
        lastNullable = false
    }

    /// A run of one item written again and again, as PCRE2 text: the
    /// copies before the last, written out or as `X{n}`, and the last copy.
    struct RepeatRun {
        var start: Int
        var last: Int
        var end: Int
        var copies: Int
        let source: Int
    }

    /// Writes the item just written at `start` (to the end of the output)
    /// as one more copy of the run before it, when it is the same text as
    /// that run's last copy, right after it, and a single-character atom
    /// (`isSingleCharacterAtom`); returns where that last copy now starts.
    ///
    /// PCRE2 10.42, as Debian builds it (LINK_SIZE 2), holds at most 64 KB
    /// of compiled code, and copies each class in full: 1,490 of the Java
    /// `.` (a class of 45 bytes) or 1,338 case-insensitive `[a-z]` are too
    /// many, though a pattern may be 16 KB long. So from the fourth copy on
    /// the copies before the last are `X{n}`, which PCRE2 compiles to one
    /// class and a count, and which is exactly `n` copies for an atom that
    /// matches one character and captures nothing. The last copy stays
    /// apart, for a quantifier that may follow (`kkkk+` is `k{3}k+`).
    mutating func countRepeat(from start: Int, at source: Int) -> Int {
        let end = out.count
        // A copy of the run's unit is an atom like it (checked once, on the second).
        guard let run = repeatRun, run.end == start, run.copies < 65_000, run.last < start,
              out.bytes[run.last..<start].elementsEqual(out.bytes[start..<end]),
              run.copies > 0 || Self.isSingleCharacterAtom(out.bytes[start..<end]) else {
            repeatRun = RepeatRun(start: start, last: start, end: end, copies: 0, source: source)
            return start
        }
        let copies = run.copies + 1
        guard copies >= 3 else {
            repeatRun = RepeatRun(start: run.start, last: start, end: end, copies: copies, source: run.source)
            return start
        }
        let last: Int
        if copies == 3 {
            let unit = String(decoding: out.bytes[start..<end], as: UTF8.self)
            let prefix = unit + "{\(copies)}"
            out.replace(run.start..<start, with: prefix, from: run.source)
            last = run.start + prefix.utf8.count
        } else {
            // `X{n}X` and a new `X`: the new copy goes, and n counts it,
            // its digits turned in place (a run of k copies costs O(k), not
            // k rewrites of its text).
            out.dropCopy(end - start, from: source)
            last = run.last + out.incrementNumber(endingAt: run.last - 1)
        }
        repeatRun = RepeatRun(start: run.start, last: last, end: out.count, copies: copies, source: run.source)
        return last
    }

    /// Whether PCRE2 text is one atom that matches exactly one character
    /// and holds no group: a letter or digit, an escaped character or `\V`,
    /// `\x{..}`, `\p{..}`, or a class without a nested one (as
    /// `CharSetEmitter` writes them).
    static func isSingleCharacterAtom(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first, let lastByte = text.last else { return false }
        let body = text.dropFirst().dropLast()
        switch first {
        case _ where CharSetEmitter.isASCIIAlphanumeric(UInt32(first)):
            return text.count == 1
        case UInt8(ascii: "["):
            return lastByte == UInt8(ascii: "]") && text.count > 2 && !body.contains(UInt8(ascii: "[")) && !body.contains(UInt8(ascii: "]"))
        case UInt8(ascii: "\\"):
            guard text.count > 1 else { return false }
            let second = text[text.startIndex + 1]
            if text.count == 2 {
                // `\V`, `\v`, or an escaped ASCII punctuation character.
                return second == UInt8(ascii: "V") || second == UInt8(ascii: "v")
                    || (second >= 0x21 && second < 0x7F && !CharSetEmitter.isASCIIAlphanumeric(UInt32(second)))
            }
            guard second == UInt8(ascii: "x") || second == UInt8(ascii: "p") || second == UInt8(ascii: "P"),
                  text[text.startIndex + 2] == UInt8(ascii: "{"), lastByte == UInt8(ascii: "}") else { return false }
            return !text.dropFirst(3).dropLast().contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
        default:
            return false
        }
    }

    /// The code point an ICU class holds when it holds exactly one after
    /// ICU's case closure, however it is written (`[İ]`, `[İİ]`,
    /// `[ʼ-ʽ--ʽ]`), or a plain class of one (`[k]`, whose closure keeps
    /// three). Each nested class is closed over case at its end, before the
    /// operations on it: `[^[k[^K]]]` holds no code point, and `[[kx]&&[Kx]]`
    /// five. A property's code points are not counted: a class that
    /// negates one or operates on one (`[\p{Lm}&&ʼ]`) is refused unless two
    /// of a few sample characters are in it.
    static func singleCodePoint(_ set: CharSet, at source: Int) throws(TranslationError) -> UInt32? {
        // Most classes are items, or items negated: counted as they stand
        // (a load of 1,000 `(?i)` patterns with two such classes each took
        // 8.6% more instructions when their ranges were built). Closed over
        // case, items of one code point hold its partners, which its literal
        // matches too; items negated hold two or more unless closing them
        // adds all but one (closing adds at most `mostPartners`).
        if let items = set.plainItems {
            var single: UInt32?
            for item in items {
                // A range of two or more, or a property: more than one.
                guard let (low, high) = item.bounds, low == high, single ?? low == low else { return nil }
                single = low
            }
            return single
        }
        if case .complement(let inner) = set, let count = inner.itemCount, count + CaseFolding.mostPartners < 0x10FFFF { return nil }
        if let ranges = set.ranges(caseClosed: true) { return ranges.count == 1 && ranges[0].count == 1 ? ranges[0].lowerBound : nil }
        guard PCRE2Probe.count(of: singleWitnesses, matching: "(?i)" + CharSetEmitter.emit(set, caseless: true)) ?? 0 < 2 else { return nil }
        throw .refused(.icu, "property negated or in a set operation under (?i)",
                       because: "ICU compiles a class left with one code point as a literal, which it folds with its neighbours "
                           + "as one string (`(?i)[\\p{Lm}&&ʼ]n` finds \"ŉ\"); the translation cannot count a property's code points, "
                           + "and takes such a class only where two of a few sample characters are in it", at: source)
    }

    /// Code points of many kinds: a set they show two members of is not
    /// one code point.
    static let singleWitnesses: [UInt32] = Array("aZé0٣²Ⅻ_ /-.ʼ\u{307}\u{2028}一😀".unicodeScalars.map(\.value))

    /// Ends the current literal run, before a quantifier or not: Java's
    /// case-insensitive literals are written out; ICU matches a
    /// case-insensitive literal with full case folding, which PCRE2 cannot.
    mutating func flushLiterals(beforeQuantifier: Bool = false) throws(TranslationError) {
        if !javaRun.isEmpty { writeJavaRun(beforeQuantifier: beforeQuantifier) }
        defer { literalRun.removeAll() }
        guard literalRun.count > 0, CaseFolding.needsFullFolding(literalRun) else { return }
        let text = String(String.UnicodeScalarView(literalRun.compactMap(Unicode.Scalar.init)))
        throw .refused(dialect, "case-insensitive literal \"\(text)\"",
                       because: "ICU folds whole strings, so \"ss\" and \"ß\" match each other; PCRE2 folds one character at a time",
                       at: literalRunStart)
    }

    // MARK: - Quantifiers

    private mutating func quantifier(_ quantifier: Quantifier, at source: Int) throws(TranslationError) {
        let (low, high) = (quantifier.min, quantifier.max)
        if max(low, high ?? 0) > 65_535 {
            throw .refused(dialect, "repeat count above 65535", because: "PCRE2's limit", at: source)
        }
        var text = quantifier.text
        try flushLiterals(beforeQuantifier: true)
        if dialect == .java, quantifier.symbol == 0x7B, atom == .none || atom == .quantified {
            // The JDK reads a `{` where no atom is, or after a quantifier
            // (`a?{2}`, `a{2}{3}`, `{2}` at the start), as a repeat count on
            // an empty atom (`Pattern.atom` reads nothing, and `closure` the
            // count): it matches the empty string, so `a?{2}` is `a?`, never
            // `(?:a?){2}`. `a**` and `a{2}*` are errors there, as here.
            atom = .quantified
            return
        }
        if dialect == .java { try noteJavaRepeat(quantifier, at: source) }
        let itemStart: Int
        switch atom {
        case .none:
            throw .syntax("quantifier does not follow a repeatable item", at: source)
        case .quantified:
            throw .invalid(dialect, "quantifier after a quantifier", at: source)
        case .assertion(let start), .anchor(let start):
            if case .assertion = atom, dialect != .java { throw .invalid(dialect, "quantifier after a zero-width assertion", at: source) }
            // Both dialects take `^*` or `$?`, as PCRE2 does `(?:$)?`. ICU
            // compiles a greedy loop on an item that can match the empty
            // string to stop once an iteration consumes nothing (URX_JMP_SAV_X,
            // regexcmp.cpp), as PCRE2 does; its lazy and possessive unbounded
            // loops differ (`$*?a|` finds nothing in ""), and are refused
            // below for every item that can match the empty string.
            repeatRun = nil
            out.insert("(?:", at: start, from: source)
            out.emit(")", from: source)
            itemStart = start
        case .item(let start):
            itemStart = start
            // ICU drops an item repeated at most zero times, unread
            // (compileInlineInterval, regexcmp.cpp): a back reference in it
            // is never checked against the groups. Not when lazy or
            // possessive (`\1{0}?`, `\1{0}+`): compileInterval loops those.
            if dialect == .icu && high == 0 && quantifier.mode == .greedy {
                for k in icuBackReferences.indices where out.marks[icuBackReferences[k].mark].lowerBound >= start {
                    icuBackReferences[k].dropped = true
                }
            }
        }
        if dialect == .java, let group = closedGroup, atom == .item(group.start) || atom == .assertion(group.start) {
            // The JDK repeats a group whose body it finds deterministic with
            // one node (`GroupCurly`), which keeps what the groups inside
            // captured in an iteration it then backtracks out of; its other
            // loops, and `?` and `{0,1}` (`Ques`), restore them. Which
            // bodies it finds deterministic is not modelled. A possessive
            // repeat keeps the group's own capture too. A back reference to
            // any of these groups is refused at the end
            // (`finishJavaBackReferences`).
            if quantifier.mode == .possessive, let own = group.capture { javaBackReferences.notRestored.insert(own) }
            if let inner = group.inner, quantifier.mode == .possessive || (high != 0 && !quantifier.isQues) {
                javaBackReferences.notRestored.formUnion(inner)
            }
            // A greedy or lazy `GroupCurly` whose iteration past the minimum
            // matched the empty string gives the group back what it held
            // before (`match0`, `match1`): with no minimum, nothing. A body
            // with no `|`, `?` or varying repeat that can match the empty
            // string always does (its back references aside).
            if let own = group.capture, group.deterministic, quantifier.mode != .possessive, !quantifier.isQues,
               low == 0, high != 0, lastNullable == true {
                javaBackReferences.forgetsEmptyIteration.insert(own)
            }
        }
        if high == nil && inLookbehind {
            // ICU rejects every unbounded repeat in a lookbehind. The JDK
            // compiles those its `TreeInfo` length sum keeps "valid", mostly
            // repeats of one character, class or one-character group
            // (`(?<=a+)`, `(?<=\d+b+)`; the sum may overflow, and the
            // lookbehind then searches from the start or never matches),
            // and rejects the rest (`(?<=(?:ab)+)`). PCRE2 10.42 has no
            // unbounded lookbehind, so Java's are refused, valid or not.
            guard dialect == .icu else {
                throw .unjudged(dialect, "\(text) in a lookbehind",
                                because: "PCRE2 10.42's lookbehinds have a bounded length; the JDK compiles some unbounded ones", at: source)
            }
            throw .invalid(dialect, "a lookbehind needs a bounded length, and \(text) repeats without limit", at: source)
        }
        if dialect == .java && javaRepeatsAtomically(quantifier, itemStart: itemStart) {
            if out.bytes[itemStart] == UInt8(ascii: "(") && javaLineBreak != itemStart { hasAtomicGroup = true }
            out.insert("(?>", at: itemStart, from: source)
            out.emit(")", from: source)
        }
        if quantifier.mode != .greedy {
            let lazy = quantifier.mode == .lazy
            text.append(lazy ? "?" : "+")
            if !lazy && out.bytes[itemStart] == UInt8(ascii: "(") { hasAtomicGroup = true }
            // ICU's unbounded possessive and lazy loops go wrong on an item
            // that can match the empty string: `(?:a?)++` never matches,
            // `(?:|b)*?\d` never tries the b.
            if high == nil && dialect == .icu && lastNullable == true {
                throw .refused(dialect, "\(lazy ? "lazy" : "possessive") \(text) on something that can match the empty string",
                               because: "ICU's loop then gives up where PCRE2's goes on", at: source)
            }
        }
        if high == 0 {
            // Repeated at most zero times, the item matches the empty string
            // and sets no group; PCRE2 10.42's start-of-match analysis still
            // reads it (`(?:k|(?=a)b){0}` finds only text holding an `a`),
            // but skips a group it never runs: `(?(DEFINE)...)`, which keeps
            // the groups' numbers.
            repeatRun = nil
            out.insert("(?(DEFINE)", at: itemStart, from: source)
            out.emit(")", from: source)
        } else {
            out.emit(text, from: source)
        }
        atom = .quantified
        if low == 0 {
            lastNullable = true
            noteSearchOptional()
        }
    }

    /// Whether the innermost lookaround around the position is a lookbehind,
    /// whose length ICU and the JDK require to be bounded (a lookahead
    /// inside it adds no length).
    var inLookbehind: Bool { frames.last(where: \.isAssertion)?.isLookbehind ?? false }

    /// Java: the JDK repeats a group by a count, `*` or `+` (not by `?` or
    /// `{0,1}`, its `Ques`, nor possessively) with a `GroupCurly` when
    /// `TreeInfo` finds its body deterministic, and with a `Loop`
    /// otherwise, whose length it cannot measure: in a lookbehind that is
    /// an error (`(?<=(?:a|b){2})`, `(?<=(?:a?){2})`; `(?<=(?:ab){2})`,
    /// `(?<=(?>a|b){2})` and `(?<=(?:a|b){0,1})` compile). A `Ques` of any
    /// mode, and a repeat whose bounds differ, make the body around them
    /// not deterministic. A count on a `Loop` whose body can match the
    /// empty string is refused.
    private mutating func noteJavaRepeat(_ quantifier: Quantifier, at source: Int) throws(TranslationError) {
        let loop = closedGroup.map { atom == .item($0.start) && !$0.deterministic } == true && !quantifier.isQues
            && quantifier.mode != .possessive
        if loop && inLookbehind {
            throw .invalid(dialect, "a lookbehind needs an obvious maximum length, and a group repeated with | or ? or a varying "
                           + "repeat inside has none", at: source)
        }
        if loop && lastNullable == true && (quantifier.min >= 2 || (quantifier.max ?? 0) >= 2) {
            // The JDK's `Loop` ends at an iteration that matched the empty
            // string, even below its count (`(?:(?=a)|a){2}b` never matches
            // "ab"); PCRE2 writes out each counted iteration, which may go on.
            throw .refused(dialect, "\(quantifier.text) on a group that can match the empty string and holds | or ?",
                           because: "the JDK stops repeating it at an empty iteration, even below its count", at: source)
        }
        if quantifier.isQues || quantifier.min != quantifier.max, let k = frames.indices.last { frames[k].deterministic = false }
    }

    /// Java: whether the JDK repeats the item at `itemStart` one iteration
    /// at a time, never going back into one, where PCRE2 would: each
    /// iteration takes the item's first match. A repeat of one atom
    /// (`Curly`, `Ques`) does so, and of a group a possessive repeat
    /// (`(?:a+){2}+` never matches "aa"), or a count, `*` or `+` where
    /// `TreeInfo` finds the body deterministic (`GroupCurly`). Only a `\R`
    /// can match otherwise in a deterministic body or as one atom: it gives
    /// CR LF back to CR alone when what follows fails (`LineEnding`), so
    /// `\R{2}` and `(?:a\R){1,2}` never match "\r\n" as CR then LF. A
    /// `Ques` on a group and the `Loop` of other bodies go back into an
    /// iteration, as PCRE2 does.
    private func javaRepeatsAtomically(_ quantifier: Quantifier, itemStart: Int) -> Bool {
        if javaLineBreak == itemStart { return true }
        guard let group = closedGroup, group.start == itemStart else { return false }
        return quantifier.mode == .possessive || (group.holdsLineBreak && group.deterministic && !quantifier.isQues)
    }

    // MARK: - Groups

    private mutating func openGroup(at source: Int) throws(TranslationError) {
        // ICU's `(?#...)` comments, which never come here, end no literal
        // run: `(?i)s(?#c)s` finds "ß". Every group ends one.
        try flushLiterals()
        switch try reader.groupOpener(at: source) {
        case .capturing: push(at: source, text: "(", isAssertion: false, capture: reader.captures)
        case .nonCapturing: push(at: source, text: "(?:", isAssertion: false)
        case .lookahead(let negative):
            push(at: source, text: negative ? "(?!" : "(?=", isAssertion: true, keepsCaptures: true)
            if negative { noteSearchNegativeOpened(at: source) }
        case .atomic:
            hasAtomicGroup = true
            push(at: source, text: "(?>", isAssertion: false, keepsCaptures: true)
        case .lookbehind(let negative):
            push(at: source, text: negative ? "(?<!" : "(?<=", isAssertion: true, isLookbehind: true, keepsCaptures: true)
            if negative { noteSearchNegativeOpened(at: source) }
            if dialect == .java {
                frames[frames.count - 1].stepsByUnit = lastSupplementaryOffset() < source
            }
        case .named(let name):
            guard groupNumbers.updateValue(reader.captures, forKey: name) == nil else {
                throw .invalid(dialect, "a group named <\(name)> is already defined", at: source)
            }
            push(at: source, text: "(", isAssertion: false, capture: reader.captures)
        case .flags(let group):
            try flagGroup(group, at: source)
        }
    }

    private mutating func push(at source: Int, text: String, isAssertion: Bool, capture: Int? = nil, isLookbehind: Bool = false,
                               keepsCaptures: Bool = false) {
        foldLast()
        frames.append(Frame(saved: flags, start: out.count, isAssertion: isAssertion, capture: capture, firstInnerCapture: reader.captures + 1,
                            keepsCaptures: keepsCaptures, isLookbehind: isLookbehind, searchAtOpen: searchStart.atStart))
        out.emit(text, from: source)
        atom = .none
    }

    private mutating func closeGroup(at source: Int) throws(TranslationError) {
        try flushLiterals()
        foldLast()
        guard let frame = frames.popLast() else { throw .syntax("unmatched closing parenthesis", at: source) }
        noteSearchGroupClosed(frame)
        setFlags(frame.saved)
        out.emit(")", from: source)
        atom = frame.isAssertion ? .assertion(frame.start) : .item(frame.start)
        lastNullable = frame.isAssertion || frame.branchNullable || frame.earlierBranchNullable
        let inner = reader.captures >= frame.firstInnerCapture ? frame.firstInnerCapture...reader.captures : nil
        // An atomic group (the one consuming frame that keeps captures) is
        // deterministic to the JDK whatever its body.
        closedGroup = (frame.start, frame.capture, inner, frame.deterministic || (frame.keepsCaptures && !frame.isAssertion), frame.holdsLineBreak)
        if frame.holdsLineBreak, let k = frames.indices.last { frames[k].holdsLineBreak = true }
        if frame.keepsCaptures, let inner { javaBackReferences.notRestored.formUnion(inner) }
        if !frame.isAssertion && !frame.deterministic, let k = frames.indices.last { frames[k].deterministic = false }
    }

    /// `(?flags)` or `(?flags:...)`, its letters judged in the order written.
    private mutating func flagGroup(_ group: FlagGroup, at source: Int) throws(TranslationError) {
        var new = flags
        let dialect = dialect
        let end = try group.read(dialect, at: source) { (flag, on, offset) throws(TranslationError) in
            switch flag {
            case .caseless: new.caseless = on
            case .multiline: new.multiline = on
            case .dotAll: new.dotAll = on
            case .extended: new.extended = on
            case .unixLines: new.unixLines = on
            case .unicodeWord: new.unicodeWord = on
            case .unicodeCase: if dialect == .java { new.unicodeCase = on } // ICU always folds Unicode case
            case .unicodeCharacterClass:
                if on { throw .refused(dialect, "flag (?U)", because: "UNICODE_CHARACTER_CLASS", at: offset) }
            case .canonicalEquivalence:
                if on { throw .refused(dialect, "flag (?c)", because: "CANON_EQ: canonically equivalent sequences match each other", at: offset) }
            }
        }
        if dialect == .java && new.caseless && !new.unicodeCase {
            throw .refused(dialect, "(?i) without UNICODE_CASE", because: "ASCII-only case folding", at: source)
        }
        // Java's case-insensitivity is written out, not passed on.
        let caseText = new.caseless == flags.caseless || dialect == .java ? "" : (new.caseless ? "i" : "-i")
        if end == 0x3A {
            push(at: source, text: "(?" + caseText + ":", isAssertion: false)
            setFlags(new)
        } else {
            foldLast()
            if !caseText.isEmpty { out.emit("(?" + caseText + ")", from: source) }
            setFlags(new)
            atom = .none
        }
    }

    private mutating func setFlags(_ new: Flags) {
        flags = new
        reader.modes = PatternReader.Modes(extended: new.extended, unixLines: new.unixLines)
    }

    // MARK: - Lines

    /// `.`: any character but a line terminator; with `(?s)` any character,
    /// and ICU takes CR LF as one. (Not PCRE2's `.` under `(*ANY)`, though
    /// its newlines are ICU's terminators: a search under `(*ANY)` never
    /// starts at the LF of a CR LF unless the pattern names CR or LF.)
    private func dot() -> String {
        if flags.dotAll {
            return dialect == .icu && !flags.unixLines ? "(?>\\r\\n|" + CharSetEmitter.anyCharacter + ")" : CharSetEmitter.anyCharacter
        }
        return Self.lineDots[dialect]![flags.unixLines ? 1 : 0]
    }

    /// `.` without `(?s)`, by dialect, without and with `(?d)`: written once,
    /// not for each `.` (a pattern of 16 KB may hold 16,000).
    private static let lineDots: [RegexDialect: [String]] = Dictionary(uniqueKeysWithValues: RegexDialect.allCases.map { dialect in
        (dialect, [false, true].map { CharSetEmitter.emit(.complement(StandardClasses.lineTerminators(dialect, unixLines: $0)), caseless: false) })
    })

    /// `(?<!DOT)`, written first, when the pattern starts with `.` (not
    /// under `(?s)`) repeated without bound: where that first alternative
    /// matches after a character `.` matches, it matches from that
    /// character too (the repeat takes it), so the leftmost match is found
    /// there, one start before, and the search need not try the first
    /// alternative after such a character. PCRE2 skips those starts itself
    /// for its own `.*` (its dotstar anchoring); for the class written for
    /// `.` it tries each, in time the square of the subject's length for
    /// `.*x`, the cube for `.*\?.*x=`. The search starts at 0 and finds the
    /// same match. Not with ICU's `(?m)^`, whose check reads where a match
    /// can start (`multilineCaret`).
    func leadingDotGuard() -> String? {
        guard multilineCaret == nil, let dot = Self.lineDots[dialect]!.first(where: { out.bytes.starts(with: $0.utf8) }) else { return nil }
        let after = out.bytes[dot.utf8.count...]
        let unbounded = switch after.first {
        case UInt8(ascii: "*"), UInt8(ascii: "+"): true
        case UInt8(ascii: "{"): after.prefix { $0 != UInt8(ascii: "}") }.last == UInt8(ascii: ",")
        default: false
        }
        return unbounded ? "(?<!\(dot))" : nil
    }

    /// `^`: the start; with `(?m)` also after a line terminator that does
    /// not end the text (the JDK: never between CR and LF, and never at the
    /// end, even of an empty text; ICU: also between CR and LF,
    /// `URX_CARET_M` in rematch.cpp; ICU with `(?d)`: after every LF, the
    /// text's last too, `URX_CARET_M_UNIX`). ICU's search for a pattern
    /// that starts with `^` (START_LINE) never tries the position between
    /// CR and LF, though: there ICU's answer depends on the pattern's shape,
    /// so the engine accepts the pattern only where no match can start with
    /// LF (`PatternTranslation.multilineCaret`).
    private mutating func lineStart(at source: Int) -> String {
        guard flags.multiline else { return "^" }
        if dialect == .icu && !flags.unixLines && multilineCaret == nil { multilineCaret = source }
        let after = "(?<=" + CharSetEmitter.emit(StandardClasses.lineTerminators(dialect, unixLines: flags.unixLines), caseless: false) + ")"
            + (dialect == .icu && flags.unixLines ? "" : "(?!\\z)")
        if dialect == .java {
            return "(?!\\z)(?:^|" + after + (flags.unixLines ? "" : "(?!(?<=\\r)\\n)") + ")"
        }
        return "(?:^|" + after + ")"
    }

    /// `$` (and `\Z` as non-multiline `$`): the end, or before a line
    /// terminator at the end (CR LF counting as one, never between them);
    /// with `(?m)` before any line terminator. PCRE2's `$` under `(*ANY)`
    /// is that for ICU, but for the position inside CR LF; the JDK also
    /// leaves out VT and FF. (The `\r` and `\n` written here also keep
    /// `(*ANY)` from skipping the LF of a CR LF as a start position.)
    mutating func lineEnd(multiline: Bool, unixLines: Bool) -> String {
        if unixLines { return multiline ? "(?=\\n|\\z)" : "(?=\\n?\\z)" }
        usesAnyNewline = true
        switch (dialect, multiline) {
        case (.icu, false): return "$(?!(?<=\\r)\\n)"
        case (.icu, true): return "(?m:$)(?!(?<=\\r)\\n)"
        case (.java, false): return "$(?![\\x{B}\\x{C}]\\z)(?!(?<=\\r)\\n)"
        case (.java, true): return "(?m:$)(?![\\x{B}\\x{C}])(?!(?<=\\r)\\n)"
        }
    }
}
