extension Array where Element == String {
    /// The names as a sentence lists them: `a`, `a and b`, `a, b and c`
    /// (or `a, b or c`, with "or").
    package func listed(_ conjunction: String = "and") -> String {
        count > 1 ? dropLast().joined(separator: ", ") + " \(conjunction) " + last! : first ?? ""
    }
}
