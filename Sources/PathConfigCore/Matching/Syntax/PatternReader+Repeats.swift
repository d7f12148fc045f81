extension PatternReader {
    /// The bounds of `{n}`, `{n,}` or `{n,m}` (nil: no upper bound), read
    /// after the `{` at `source` as the dialect reads them: digits only, each
    /// count at most 10,000,000, white space skipped in free-spacing mode.
    mutating func repeatCount(at source: Int) throws(TranslationError) -> (low: Int, high: Int?) {
        func number() -> Int? {
            var value: Int?
            while let c = peekSignificant(), c >= 0x30, c <= 0x39 {
                position += 1
                value = min((value ?? 0) * 10 + Int(c - 0x30), 10_000_000)
            }
            return value
        }
        // The JDK takes the first digit as written (`a{ 2}` is an error).
        let digitFirst = dialect == .icu || peek().map { $0 >= 0x30 && $0 <= 0x39 } == true
        guard digitFirst, let low = number() else { throw .invalid(dialect, "{ does not start a repeat count {n,m}", at: source) }
        var high: Int? = low
        if peekSignificant() == 0x2C {
            position += 1
            high = number()
        }
        guard nextSignificant() == 0x7D else { throw .invalid(dialect, "unterminated repeat count", at: source) }
        if let high, high < low { throw .invalid(dialect, "repeat count {\(low),\(high)} out of order", at: source) }
        return (low, high)
    }
}
