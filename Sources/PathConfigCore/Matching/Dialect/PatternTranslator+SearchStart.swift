/// Java: a match the JDK finds by starting inside a surrogate pair.
///
/// The JDK's unanchored search (`Pattern.Start`) tries every UTF-16 index,
/// the trail surrogate of a pair too, unless its compiler set
/// `hasSupplementary` (then `StartS`, by code point, as PCRE2 searches
/// UTF-8): for a character above U+FFFF written in the pattern, a set it
/// does not keep as BMP-only (`newCharProperty`: a class with a range under
/// CASE_INSENSITIVE | UNICODE_CASE, or a negation; `\W`; `\p{L}`; a cased
/// letter standing alone), or a negated `\P{..}`. At the trail surrogate
/// `^`, `$`, `\A`, `\z`, `\G` and `\b` fail, and an item matches only if it
/// may match a surrogate alone (`.` does); a match from there reaches no
/// end the pair's start does not, unless a negative lookaround holds there
/// where it fails at the pair's start: `(?<!/)` reads the lead surrogate
/// alone, so `(?<!/).$` finds "/𝐀", and `(?!^).$` finds "𝐀". Such a
/// lookaround, tried at a match's start and followed there by an item that
/// may match a surrogate alone or by the pattern's end, is refused where
/// the search steps by unit; a lookaround after it is not followed into
/// (`(?<!/)(?=-).$` is refused too). (`\B` holds there as well, and is
/// refused everywhere: `wordBoundary`.)
struct JavaSearchStart {
    /// Whether something read sets `hasSupplementary`.
    var stepsByCodePoint = false
    /// Whether a search started inside a pair may still be at its start at
    /// the position read: nothing consumed and no anchor passed since
    /// (outside negative lookarounds, whose insides it does not follow).
    var atStart = true
    /// `atStart` before the last item, for a quantifier that may repeat it
    /// zero times.
    var atStartBeforeLast = true
    /// Where the first negative lookaround tried at a match's start is, in
    /// the current top-level alternative.
    var negativeLookaround: Int?
    /// Where the first such lookaround is that an item that may match a
    /// surrogate alone, or the pattern's end, follows at the start.
    var exposed: Int?
}

extension PatternTranslator {
    /// Whether a Java property's set (`property`) is one the JDK does not
    /// keep as BMP-only: all but the POSIX classes (`\p{Alpha}`), and every
    /// negated one.
    static func isWideJavaProperty(_ set: CharSet) -> Bool {
        if case .caseExact = set { return false }
        return true
    }

    /// Whether a Java shorthand's predicate is one the JDK does not keep as
    /// BMP-only: `\D \S \W \H \V`, the `negate()` of their lower case.
    static func isWideJavaShorthand(_ letter: UInt32) -> Bool { letter & 0x20 == 0 }

    /// Whether `Pattern.single` makes of `c` a predicate the JDK does not
    /// keep as BMP-only: `SingleS` above U+FFFF, and case-insensitively
    /// `SingleU` for a cased character.
    static func isWideJavaSingle(_ c: UInt32, caseless: Bool) -> Bool {
        c > 0xFFFF || (caseless && JavaCaseFolding.isCased(c))
    }

    var inNegativeLookaround: Bool { frames.contains(where: \.isNegative) }

    /// Where the pattern's last character above U+FFFF is (-1: nowhere),
    /// found once: the JDK's compiler sets `hasSupplementary` for one, and
    /// measures a lookbehind by code point where one follows it
    /// (`Frame.stepsByUnit`).
    mutating func lastSupplementaryOffset() -> Int {
        if let last = lastSupplementary { return last }
        let last = (0..<reader.count).last(where: { reader[$0] > 0xFFFF }) ?? -1
        lastSupplementary = last
        return last
    }

    /// An item is read: `mayMatchSurrogate`, whether it may match a lone
    /// surrogate; `nullable`, whether it may match the empty string.
    mutating func noteSearchItem(mayMatchSurrogate: Bool, nullable: Bool) {
        guard dialect == .java else { return }
        searchStart.atStartBeforeLast = searchStart.atStart
        guard searchStart.atStart, !inNegativeLookaround else { return }
        if mayMatchSurrogate, searchStart.exposed == nil { searchStart.exposed = searchStart.negativeLookaround }
        if !nullable { searchStart.atStart = false }
    }

    /// `^`, `$`, `\A`, `\z`, `\Z`, `\G` or `\b` is read: each fails inside a pair.
    mutating func noteSearchAnchor() {
        searchStart.atStartBeforeLast = searchStart.atStart
        if searchStart.atStart, !inNegativeLookaround { searchStart.atStart = false }
    }

    /// A negative lookaround opened (pushed) at `source`.
    mutating func noteSearchNegativeOpened(at source: Int) {
        let outside = !inNegativeLookaround
        frames[frames.count - 1].isNegative = true
        guard dialect == .java, outside, searchStart.atStart, searchStart.negativeLookaround == nil else { return }
        searchStart.negativeLookaround = source
    }

    /// A `|`, in the innermost open group or at the top level.
    mutating func noteSearchAlternation() {
        guard let k = frames.indices.last else {
            noteSearchEnd()
            searchStart.atStart = true
            searchStart.negativeLookaround = nil
            return
        }
        frames[k].searchAtBranchEnd = frames[k].searchAtBranchEnd || searchStart.atStart
        searchStart.atStart = frames[k].searchAtOpen
    }

    /// `frame` closed: after a group, the search may be at its start where
    /// one of its alternatives may end there; a lookaround leaves it where
    /// it was.
    mutating func noteSearchGroupClosed(_ frame: Frame) {
        searchStart.atStartBeforeLast = frame.searchAtOpen
        searchStart.atStart = frame.isAssertion ? frame.searchAtOpen : frame.searchAtBranchEnd || searchStart.atStart
    }

    /// A quantifier that may repeat the last item zero times.
    mutating func noteSearchOptional() {
        searchStart.atStart = searchStart.atStart || searchStart.atStartBeforeLast
    }

    /// The end of a top-level alternative: a match may end here.
    mutating func noteSearchEnd() {
        if searchStart.atStart, searchStart.exposed == nil { searchStart.exposed = searchStart.negativeLookaround }
    }

    /// The refusal, once the whole pattern is read, of a negative
    /// lookaround the JDK's search tries inside a surrogate pair.
    mutating func searchStartRefusal() -> TranslationError? {
        guard let offset = searchStart.exposed, !searchStart.stepsByCodePoint, lastSupplementaryOffset() < 0 else { return nil }
        return .refused(dialect, "negative lookaround where a match may start",
                        because: "the JDK's search also starts inside a surrogate pair where nothing in the pattern is a character above U+FFFF "
                            + "or a set it keeps wider than the BMP (a negation, \\p{L}, and under (?i) a range or a cased letter standing "
                            + "alone); there the lookaround reads half the pair: (?<!/).$ finds \"/\u{1D400}\"",
                        at: offset)
    }
}
