import PathConfigCore

/// `trailing-comma`: a comma before the `]` or `}` that closes an array or
/// object, and what each selected app does with it, as loading decides it
/// (`DocumentReading.trailingCommaEffect`): JSONSerialization accepts it;
/// Gson reads one more `null` element in an array (a null rule or pattern
/// crashes the app) and refuses the document for one in an object. Strict
/// JSON parsers (`JSON.parse`, `jq`, Python's `json`) reject the file. An
/// error where a selected app crashes or refuses the file, else a warning.
struct TrailingCommaCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        d.tree.trailingCommas.map { comma in
            let bytes = d.source.bytes
            let inObject = bytes.indices.contains(comma.containerOffset) && bytes[comma.containerOffset] == UInt8(ascii: "{")
            let place = d.place(ofContainerAt: comma.containerOffset)
            let effects = d.profiles.map { ($0, $0.documentReading.trailingCommaEffect(inObject: inObject, place: place)) }
            let fatal = effects.filter { $0.1.isFatal }.map(\.0)
            return d.finding(.trailingComma,
                             "trailing comma before \"\(inObject ? "}" : "]")\": \(DocumentEffect.sentence(effects)); strict JSON parsers (JSON.parse, jq, Python's json) reject the file",
                             at: d.location(comma.offset), rule: d.rule(at: comma.containerOffset), profiles: fatal,
                             severity: fatal.isEmpty ? .warning : .error)
        }
    }
}
