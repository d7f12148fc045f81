/// Class expressions, `[...]`: each dialect's own reading (`icuClass`,
/// `javaClass`), and what both share.
extension PatternTranslator {
    /// How deep classes may nest, and how many operators one class may
    /// have: the translation recurses on both (the reading, or the set it
    /// builds), so a hostile pattern must not reach the stack's end.
    static let maximumClassDepth = 32
    static let maximumOperators = 64
    /// How many Java `&&` with nothing after it one class may intersect
    /// with null (JDK 17): each adds a set to what the class throws on.
    static let maximumNullIntersections = 8

    /// The class opened by the `[` at `openedAt` (already taken).
    mutating func classExpression(openedAt: Int) throws(TranslationError) -> CharSet {
        switch dialect {
        case .icu: return try icuClass(openedAt: openedAt)
        case .java:
            nullIntersections = 0
            let javaClass = try javaClass(openedAt: openedAt, consume: true)
            guard let throwing = javaClass.throwing else { return javaClass.set }
            // One code point from each run where the set is all or nothing
            // (a property in it: unjudged).
            let found = throwing.boundaries.flatMap { boundaries in
                PCRE2Probe.matchesOne(of: Set(boundaries + [0, 0xE000]).filter { $0 <= 0x10FFFF },
                                      CharSetEmitter.emit(throwing, caseless: false))
            }
            switch found {
            case false?:
                // The search never reaches the null: it matches the set.
                return javaClass.set
            case true?:
                throw .invalid(dialect, "JDK 17 compiles this class, but its search throws a NullPointerException:"
                               + " an && with nothing after it, after a character of the class's bit set, intersects with null", at: openedAt)
            case nil:
                throw .unjudged(dialect, "class with && that intersect with null",
                                because: "JDK 17 compiles it; the translation finds where its search throws only for sets of code points and ranges", at: openedAt)
            }
        }
    }

    /// Java, case-insensitive: characters and ranges match what
    /// `JavaCaseFolding` says, written out.
    var javaCaseless: Bool { dialect == .java && flags.caseless }

    /// Code points (sorted) as a set of ranges.
    static func set(of values: [UInt32]) -> CharSet { set(of: JavaCaseFolding.ranges(of: values)) }

    /// Ranges as a set.
    static func set(of ranges: [ClosedRange<UInt32>]) -> CharSet { .ranges(ranges.map { ($0.lowerBound, $0.upperBound) }) }

    /// One element of a class: a character, an escape, or `\Q...\E`.
    mutating func classElement(at source: Int) throws(TranslationError) -> EscapeValue {
        let c = reader.next()!
        guard c == 0x5C else { return .character(c) }
        return try classEscape(at: source)
    }
}
