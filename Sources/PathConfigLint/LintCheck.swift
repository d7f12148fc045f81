/// One lint check: reads the document, returns what it found.
protocol LintCheck: Sendable {
    /// The findings about `document`, in any order (`Linter` sorts them).
    func findings(in document: LintDocument) -> [LintFinding]
}
