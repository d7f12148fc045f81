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
    /// byte, and a document of long literal patterns (an 8 MB one of
    /// 16,000-character patterns) took 90 bytes of memory per document
    /// byte, where the first 64 bytes tell the patterns apart as well.
    static let maximumLength = 64

    /// The longest required literal of `pattern`, or nil. With
    /// `caseInsensitive`, ASCII letters are lower-cased and the literal must be
    /// searched in a subject folded the same way (`fold`); the plan does so
    /// only for ASCII subjects, since Unicode case folding maps some non-ASCII
    /// characters (KELVIN SIGN, LONG S, `ß`) onto ASCII letters.
    package static func of(_ pattern: String, caseInsensitive: Bool) -> [UInt8]? {
        of(try? PatternSyntax.read(pattern), caseInsensitive: caseInsensitive)
    }

    /// The longest required literal of the pattern read as `syntax` (nil:
    /// not read, and nothing is known), or nil.
    static func of(_ syntax: PatternSyntax?, caseInsensitive: Bool) -> [UInt8]? {
        guard let syntax, let facts = RequiredLiteralReader.read(syntax, caseInsensitive: caseInsensitive) else { return nil }
        let literal = facts.longest
        guard literal.count >= minimumLength else { return nil }
        return literal.count <= maximumLength ? literal : Array(literal.prefix(maximumLength))
    }

    /// `b` as the prefilter compares it: ASCII upper-case letters lower-cased
    /// when `caseInsensitive`.
    static func fold(_ b: UInt8, _ caseInsensitive: Bool) -> UInt8 {
        caseInsensitive && b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }
}

/// What is known about every string a piece of a pattern matches, as text the
/// prefilter can search for.
///
/// Either the piece matches exactly one string (`exact`), or every match
/// starts with `prefix`, ends with `suffix` and contains `inner`. Appending
/// a character grows `exact` or `suffix` in place, so reading a long literal
/// pattern stays linear.
struct LiteralFacts {
    /// Set when the piece matches exactly this string and nothing else; the
    /// other fields are then unused.
    private(set) var exact: [UInt8]?
    /// Every match starts with this (when `exact` is nil).
    private var prefix: [UInt8] = []
    /// Every match ends with this (when `exact` is nil).
    private var suffix: [UInt8] = []
    /// Every match contains this (when `exact` is nil).
    private var inner: [UInt8] = []

    private init(exact: [UInt8]?, prefix: [UInt8] = [], suffix: [UInt8] = [], inner: [UInt8] = []) {
        self.exact = exact
        self.prefix = prefix
        self.suffix = suffix
        self.inner = inner
    }

    /// Nothing known: the piece may match any text (or none).
    static let unknown = LiteralFacts(exact: nil)
    /// The piece matches only the empty string.
    static let empty = literal([])

    /// The piece matches exactly `text`.
    static func literal(_ text: [UInt8]) -> LiteralFacts { LiteralFacts(exact: text) }

    /// Longest exact text a repetition is expanded to; longer ones keep one copy.
    static let maxExpansion = 256

    /// Text every match starts with.
    var prefixText: [UInt8] { exact ?? prefix }
    /// Text every match ends with.
    var suffixText: [UInt8] { exact ?? suffix }

    /// The longest string known to occur in every match.
    var longest: [UInt8] {
        exact ?? Self.longer(Self.longer(inner, prefix), suffix)
    }

    /// Appends `next`: a match of the pair is a match of this piece
    /// immediately followed by one of `next`.
    mutating func append(_ next: LiteralFacts) {
        switch (exact != nil, next.exact) {
        case (true, let b?):
            exact!.append(contentsOf: b)
        case (true, nil):
            // (Appending in place, `exact` given up first so that its
            // storage is not shared: `exact! + next.prefix` would copy even
            // when `next` is `.unknown`, the most common case.)
            var prefix = exact!
            exact = nil
            prefix.append(contentsOf: next.prefix)
            self = LiteralFacts(exact: nil, prefix: prefix, suffix: next.suffix, inner: next.inner)
        case (false, let b?):
            suffix.append(contentsOf: b) // the old suffix stays a prefix of it
        case (false, nil):
            // The suffix and `next`'s prefix meet; both are inside the join.
            inner = Self.longer(Self.longer(inner, next.inner), next.prefix.isEmpty ? suffix : suffix + next.prefix)
            suffix = next.suffix
        }
    }

    /// Appends the one-character literal `b`: `append(.literal([b]))`,
    /// growing `exact` or `suffix` in place.
    mutating func append(byte b: UInt8) {
        if exact != nil {
            exact!.append(b)
        } else {
            suffix.append(b)
        }
    }

    /// One of `branches`: only what all of them share is known.
    static func anyOf(_ branches: [LiteralFacts]) -> LiteralFacts {
        guard let first = branches.first else { return .empty }
        if branches.count == 1 { return first }
        if let e = first.exact, branches.allSatisfy({ $0.exact == e }) { return .literal(e) }
        var prefix = first.prefixText, suffix = first.suffixText
        for b in branches.dropFirst() {
            prefix = commonPrefix(prefix, b.prefixText)
            suffix = commonSuffix(suffix, b.suffixText)
        }
        return LiteralFacts(exact: nil, prefix: prefix, suffix: suffix)
    }

    /// This piece repeated between `min` and `max` times (nil: unbounded).
    func repeated(min: Int, max: Int?) -> LiteralFacts {
        guard min >= 1 else { return .unknown }
        guard let e = exact else {
            // Every repetition is a match of the piece: the first starts the
            // whole, the last ends it.
            return self
        }
        let fits = e.count * min <= Self.maxExpansion
        let copies = fits ? Array([[UInt8]](repeating: e, count: min).joined()) : e
        if max == min, fits { return .literal(copies) }
        return LiteralFacts(exact: nil, prefix: copies, suffix: copies, inner: copies)
    }

    private static func longer(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] { b.count > a.count ? b : a }

    private static func commonPrefix(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var n = 0
        while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
        return Array(a[0..<n])
    }

    private static func commonSuffix(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var n = 0
        while n < a.count, n < b.count, a[a.count - 1 - n] == b[b.count - 1 - n] { n += 1 }
        return Array(a[(a.count - n)...])
    }
}
