/// `trailing-comma`: a comma before the `]` or `}` that closes an array or
/// object. The apps and this library accept it (the seed documents have
/// them); strict JSON parsers (`JSON.parse`, `jq`, Python's `json`) reject
/// the whole file, so a team's other tools cannot read it.
struct TrailingCommaCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        d.tree.trailingCommas.map { comma in
            let bytes = d.source.bytes
            let close = bytes.indices.contains(comma.containerOffset) && bytes[comma.containerOffset] == UInt8(ascii: "{") ? "}" : "]"
            return d.finding(.trailingComma,
                             "trailing comma before \"\(close)\": the apps accept it, but strict JSON parsers (JSON.parse, jq, Python's json) reject the file",
                             at: d.location(comma.offset), rule: d.rule(at: comma.containerOffset))
        }
    }
}
