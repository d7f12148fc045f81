/// Class expressions, `[...]`: each dialect's own reading (`icuClass`,
/// `javaClass`), and what both share.
extension PatternTranslator {
    /// How deep classes may nest, and how many operators one class may
    /// have: the translation recurses on both (the reading, or the set it
    /// builds), so a hostile pattern must not reach the stack's end.
    static let maximumClassDepth = 32
    static let maximumOperators = 64

    /// The class opened by the `[` at `openedAt` (already taken).
    mutating func classExpression(openedAt: Int) throws(TranslationError) -> CharSet {
        switch dialect {
        case .icu: return try icuClass(openedAt: openedAt)
        case .java: return try javaClass(openedAt: openedAt, consume: true)
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
        return try characterEscape(at: source, inClass: true)
    }
}
