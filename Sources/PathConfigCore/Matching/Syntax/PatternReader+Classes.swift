/// What both dialects' class readers hand on, besides their own grammar's
/// steps (`ICUClassSink`, `JavaClassSink`).
protocol ClassSink {
    /// A character written by code (`\x41`, `\uD800`), whose `\` is at
    /// `source`: the translation refuses a lone surrogate here, where the
    /// dialect's compiler reads it.
    mutating func escaped(_ value: UInt32, at source: Int) throws(TranslationError)
}

/// What both dialects' class readers share (`icuClass`, `javaClass`): their
/// limits, and how an escaped character they take as itself was written.
extension PatternReader {
    /// How deep classes may nest, and how many operators one class may
    /// have: the readers recurse on the first, and the translation on both
    /// (the set it builds), so a hostile pattern must not reach the stack's
    /// end.
    static let maximumClassDepth = 32
    static let maximumOperators = 64

    /// Refuses a class nested `depth` deep, past `maximumClassDepth`.
    func checkClassDepth(_ depth: Int, at source: Int) throws(TranslationError) {
        guard depth > Self.maximumClassDepth else { return }
        throw .refused(dialect, "a class nested more than \(Self.maximumClassDepth) deep", because: "the translation's limit", at: source)
    }

    /// Refuses a class with `count` set operators, past `maximumOperators`.
    func checkOperatorCount(_ count: Int, at source: Int) throws(TranslationError) {
        guard count > Self.maximumOperators else { return }
        throw .refused(dialect, "a class with more than \(Self.maximumOperators) set operators", because: "the translation's limit", at: source)
    }

    /// How a character after a `\` that the reader takes as itself was
    /// written: `.letter` for an ASCII letter or digit, which only ICU
    /// reads as itself, `.escaped` for any other.
    static func escapedSpelling(_ c: UInt32) -> PatternSyntax.Spelling { CharSetEmitter.isASCIIAlphanumeric(c) ? .letter : .escaped }
}
