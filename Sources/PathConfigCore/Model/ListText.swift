extension Array where Element == String {
    /// The names as a sentence lists them: `a`, `a and b`, `a, b and c`.
    package var listedInText: String {
        count > 1 ? dropLast().joined(separator: ", ") + " and " + last! : first ?? ""
    }
}
