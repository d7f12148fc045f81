/// Class expressions, `[...]`: each dialect's reading (`PatternReader`'s
/// `icuClass`, `javaClass`), built into a set as the dialect builds it.
extension PatternTranslator {
    /// The class opened by the `[` at `openedAt` (already taken).
    mutating func classExpression(openedAt: Int) throws(TranslationError) -> CharSet {
        switch dialect {
        case .icu:
            var builder = ICUSetBuilder(caseless: flags.caseless, openedAt: openedAt)
            try reader.icuClass(openedAt: openedAt, into: &builder)
            return builder.set
        case .java:
            var builder = JavaClassBuilder(caseless: flags.caseless)
            guard case .set(let javaClass) = try reader.javaClass(openedAt: openedAt, consume: true, into: &builder) else {
                // `endLevel` makes every class a set; never a trap in the library.
                throw .invalid(dialect, "a class the reader did not end", at: openedAt)
            }
            if javaClass.wide { searchStart.stepsByCodePoint = true }
            guard let throwing = javaClass.throwing else { return javaClass.set }
            guard let reached = throwing.ranges() else {
                throw .unjudged(dialect, "class with && that intersect with null",
                                because: "JDK 17 compiles it; the translation finds where its search throws only for sets of code points and ranges", at: openedAt)
            }
            // Where the search never reaches the null (at a character, not
            // a lone surrogate, which UTF-8 text has not), it matches the set.
            guard reached.contains(where: { $0.lowerBound < 0xD800 || $0.upperBound > 0xDFFF }) else { return javaClass.set }
            throw .invalid(dialect, "JDK 17 compiles this class, but its search throws a NullPointerException:"
                           + " an && with nothing after it, after a character of the class's bit set, intersects with null", at: openedAt)
        }
    }

    /// Code points (sorted) as a set of ranges.
    static func set(of values: [UInt32]) -> CharSet { set(of: JavaCaseFolding.ranges(of: values)) }

    static func set(of ranges: [ClosedRange<UInt32>]) -> CharSet { .ranges(ranges.map { ($0.lowerBound, $0.upperBound) }) }
}
