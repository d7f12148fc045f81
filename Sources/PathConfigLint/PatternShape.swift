import PathConfigCore

/// What lint's shape checks (`UnescapedDotCheck`, `QueryStringAnchorCheck`,
/// `DeadPatternCheck`) ask of a pattern's `PatternSyntax`, as ICU and Java
/// both read it (`readAlike`). A pattern either dialect refuses, or the two
/// read differently (`[a&-z]`), is not looked at: the checks say nothing
/// about text whose meaning they do not know.
extension PatternSyntax {
    /// The nodes outside every group, in order: a group stands there for
    /// itself by its `(`, a quantifier after an item by itself.
    var topLevel: some Sequence<Int> {
        sequence(first: 0) { self.nodes[$0].itemEnd(at: $0) }.prefix { $0 < self.nodes.count }
    }

    /// Whether a `|` outside every group makes the pattern alternatives.
    var hasTopLevelAlternation: Bool { topLevel.contains { nodes[$0].kind == .alternation } }

    /// Whether the pattern sets inline flags, `(?i)` or `(?i:...)`, which
    /// change what the rest of it reads.
    var hasFlags: Bool {
        nodes.contains {
            if case .group(.flags, _) = $0.kind { return true }
            return $0.kind == .flags
        }
    }

    /// The character node `k` matches, however it is written (`é`, `\.`,
    /// `\xE9`, `\u00E9`), or nil when it is not a character or not a
    /// Unicode scalar.
    func character(at k: Int) -> Unicode.Scalar? {
        guard case .character(let c, _) = nodes[k].kind else { return nil }
        return Unicode.Scalar(c)
    }

    /// Where node `k` starts, in Unicode scalars of the pattern.
    func scalar(at k: Int) -> Int { scalarOffset(Int(nodes[k].start)) }
}
