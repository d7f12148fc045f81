/// Finds a literal string that every match of a pattern must contain.
///
/// The prefilter's soundness rests on this: if a pattern has a required
/// literal, a subject without that literal cannot match, so the regex need
/// not run. A wrong literal silently drops a rule, so the analysis is sound by
/// construction: `RequiredLiteralReader` reads only a whitelist of constructs
/// whose meaning is the same in ICU (iOS), `java.util.regex` (Android) and
/// PCRE2, and anything else either requires nothing of the text it covers or,
/// when the reader cannot tell where that text ends or what follows it means,
/// makes the whole pattern require nothing.
package enum RequiredLiteral {
    /// Literals shorter than this are too common to be worth checking.
    static let minimumLength = 2
    /// Literals are cut to this many bytes. Every part of a required
    /// literal is required too, so a shorter one filters a little less and
    /// never wrongly; the prefilter's automaton takes a state per literal
    /// byte, and the first 64 tell long patterns apart as well.
    static let maximumLength = 64

    /// The longest required literal of `pattern` (printable ASCII: the
    /// reader knows no other byte), or nil. With `caseInsensitive`, ASCII
    /// letters are lower-cased and the literal must be searched in a subject
    /// folded the same way (`fold`), where the plan also reads each
    /// character that case folding maps onto ASCII text as that text
    /// (`CaseFolding.ontoASCII`: KELVIN SIGN, LONG S, `ß`).
    package static func of(_ pattern: String, options: RegexOptions) -> [UInt8]? {
        of(try? PatternSyntax.read(pattern, dialect: options.dialect), caseInsensitive: options.caseInsensitive)
    }

    /// The longest required literal of the pattern read as `syntax` (nil:
    /// not read, and nothing is known), or nil.
    package static func of(_ syntax: PatternSyntax?, caseInsensitive: Bool) -> [UInt8]? {
        guard let syntax, let literal = RequiredLiteralReader.longest(syntax, caseInsensitive: caseInsensitive),
              literal.count >= minimumLength else { return nil }
        return Array(literal.prefix(maximumLength))
    }
}

/// What is known about every string a piece of a pattern matches, as text the
/// prefilter can search for.
///
/// Either the piece matches exactly one string (`exact`), or every match
/// starts with `prefix`, ends with `suffix` and contains `inner`. Each text is
/// a range of one `LiteralText` that a reading shares: bytes are only ever
/// appended to it, so a range stays what it was, a common prefix or suffix
/// is a part of a range, and appending a character to the text that ends
/// the buffer grows it in place. A reading allocates one buffer, not an
/// array for each text of each piece.
struct LiteralFacts {
    /// Whether the piece matches exactly `exact` and nothing else; the
    /// other ranges are then unused.
    private(set) var isExact: Bool
    private var exact: Range<Int> = 0..<0
    /// Every match starts with this (when not `isExact`).
    private var prefix: Range<Int> = 0..<0
    /// Every match ends with this (when not `isExact`).
    private var suffix: Range<Int> = 0..<0
    /// Every match contains this (when not `isExact`).
    private var inner: Range<Int> = 0..<0

    /// Nothing known: the piece may match any text (or none).
    static let unknown = LiteralFacts(isExact: false)
    /// The piece matches only the empty string.
    static let empty = LiteralFacts(isExact: true)

    /// Longest exact text a repetition is expanded to; longer ones keep one copy.
    static let maxExpansion = 256

    /// Text every match starts with.
    private var prefixText: Range<Int> { isExact ? exact : prefix }
    /// Text every match ends with.
    private var suffixText: Range<Int> { isExact ? exact : suffix }

    /// The longest string known to occur in every match.
    var longest: Range<Int> {
        isExact ? exact : Self.longer(Self.longer(inner, prefix), suffix)
    }

    /// Appends `next`: a match of the pair is a match of this piece
    /// immediately followed by one of `next`.
    mutating func append(_ next: LiteralFacts, in text: inout LiteralText) {
        switch (isExact, next.isExact) {
        case (true, true):
            exact = text.joined(exact, next.exact)
        case (true, false):
            self = LiteralFacts(isExact: false, prefix: text.joined(exact, next.prefix), suffix: next.suffix, inner: next.inner)
        case (false, true):
            suffix = text.joined(suffix, next.exact)
        case (false, false):
            // The suffix and `next`'s prefix meet; both are inside the join.
            inner = Self.longer(Self.longer(inner, next.inner), text.joined(suffix, next.prefix))
            suffix = next.suffix
        }
    }

    /// Appends the one-character literal `b`, growing `exact` or `suffix`
    /// in place where it ends the text.
    mutating func append(byte b: UInt8, in text: inout LiteralText) {
        if isExact {
            exact = text.appending(b, to: exact)
        } else {
            suffix = text.appending(b, to: suffix)
        }
    }

    /// One of `branches`: only what all of them share is known.
    static func anyOf(_ branches: [LiteralFacts], in text: LiteralText) -> LiteralFacts {
        let first = branches[0]
        if first.isExact, branches.allSatisfy({ $0.isExact && text.equal($0.exact, first.exact) }) { return first }
        var prefix = first.prefixText, suffix = first.suffixText
        for b in branches.dropFirst() {
            prefix = text.commonPrefix(prefix, b.prefixText)
            suffix = text.commonSuffix(suffix, b.suffixText)
        }
        return LiteralFacts(isExact: false, prefix: prefix, suffix: suffix)
    }

    /// This piece repeated between `min` and `max` times (nil: unbounded).
    func repeated(min: Int, max: Int?, in text: inout LiteralText) -> LiteralFacts {
        guard min >= 1 else { return .unknown }
        // Every repetition is a match of the piece: the first starts the
        // whole, the last ends it.
        guard isExact else { return self }
        let fits = exact.count * min <= Self.maxExpansion
        let copies = fits ? text.repeating(exact, count: min) : exact
        if max == min, fits { return LiteralFacts(isExact: true, exact: copies) }
        return LiteralFacts(isExact: false, prefix: copies, suffix: copies, inner: copies)
    }

    private static func longer(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> { b.count > a.count ? b : a }
}

/// The bytes a reading's `LiteralFacts` are ranges of, only ever appended to.
struct LiteralText {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// `range` and then `b`: `range` grown in place when it ends the bytes.
    mutating func appending(_ b: UInt8, to range: Range<Int>) -> Range<Int> {
        let start = startAtEnd(range)
        bytes.append(b)
        return start..<bytes.count
    }

    /// `a` followed by `b`: one of them when the other is empty, `a`
    /// stretched when `b` follows it in the bytes, else a copy of both.
    mutating func joined(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        if a.upperBound == b.lowerBound { return a.lowerBound..<b.upperBound }
        let start = startAtEnd(a)
        _ = copy(b)
        return start..<bytes.count
    }

    /// `range` written `count` times, one after another.
    mutating func repeating(_ range: Range<Int>, count: Int) -> Range<Int> {
        guard count > 1 else { return range }
        let start = startAtEnd(range)
        for _ in 1..<count { _ = copy(range) }
        return start..<bytes.count
    }

    /// Where the bytes of `range` start once they end the bytes: `range`'s
    /// own start when it ends them already, else a copy's.
    private mutating func startAtEnd(_ range: Range<Int>) -> Int {
        range.upperBound == bytes.count ? range.lowerBound : copy(range)
    }

    /// Appends the bytes at `range` (already in the bytes); where they start now.
    private mutating func copy(_ range: Range<Int>) -> Int {
        let start = bytes.count
        for i in range { bytes.append(bytes[i]) }
        return start
    }

    func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool { bytes[a].elementsEqual(bytes[b]) }

    func commonPrefix(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        var n = 0
        while n < a.count, n < b.count, bytes[a.lowerBound + n] == bytes[b.lowerBound + n] { n += 1 }
        return a.lowerBound..<(a.lowerBound + n)
    }

    func commonSuffix(_ a: Range<Int>, _ b: Range<Int>) -> Range<Int> {
        var n = 0
        while n < a.count, n < b.count, bytes[a.upperBound - 1 - n] == bytes[b.upperBound - 1 - n] { n += 1 }
        return (a.upperBound - n)..<a.upperBound
    }
}
