/// What both dialects' class readers hand on, besides their own grammar's
/// steps (`ICUClassSink`, `JavaClassSink`).
protocol ClassSink {
    /// A character written by code (`\x41`, `\uD800`), whose `\` is at
    /// `source`: the translation refuses a lone surrogate here, where the
    /// dialect's compiler reads it.
    mutating func escaped(_ value: UInt32, at source: Int) throws(TranslationError)
}

/// What both dialects' class readers share (`icuClass`, `javaClass`): their
/// limits, and how one element of a class is read.
extension PatternReader {
    /// How deep classes may nest, and how many operators one class may
    /// have: the readers recurse on the first, and the translation on both
    /// (the set it builds), so a hostile pattern must not reach the stack's
    /// end.
    static let maximumClassDepth = 32
    static let maximumOperators = 64

    /// One element of a class at the reader's position: a character, as
    /// itself or escaped (`.character`), `\Q` (its characters are next,
    /// `quoted()`), or a class escape (`.shorthand`, `.property`).
    mutating func classElement<Sink: ClassSink>(into sink: inout Sink) throws(TranslationError) -> EscapeToken {
        let source = position
        // Java's free spacing can end the pattern where a literal `&` stepped
        // back (`(?x)[a& `).
        guard let c = next() else { throw .syntax("missing terminating ] for character class", at: count) }
        guard c == 0x5C else { return .character(c, .plain) }
        let token = try escape(at: source, inClass: true, captures: 0)
        switch token {
        case .character(let value, _):
            try sink.escaped(value, at: source)
            return token
        case .quote, .shorthand, .property:
            return token
        case .assertion, .graphemeBoundary, .sequence, .backReference, .namedReference:
            // Read outside a class only (`escape`); never a trap in the library.
            throw .invalid(dialect, "escape not allowed in a class", at: source)
        }
    }

    /// How a character after a `\` that the reader takes as itself was
    /// written: `.letter` for an ASCII letter or digit, which only ICU
    /// reads as itself, `.escaped` for any other.
    static func escapedSpelling(_ c: UInt32) -> PatternSyntax.Spelling {
        switch c {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return .letter
        default: return .escaped
        }
    }
}
