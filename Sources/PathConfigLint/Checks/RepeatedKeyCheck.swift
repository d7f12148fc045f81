import PathConfigCore

/// `duplicate-key`: a key an object already has, and which value each
/// selected app keeps, as loading decides it
/// (`DocumentReading.repeatedKeyEffect`): JSONSerialization the first;
/// Gson the last for the apps' own fields, and in `properties` or
/// `settings` it refuses the document ("duplicate key") unless the value
/// replaced is null. An error where a selected app refuses the file.
struct RepeatedKeyCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        d.repeatedKeys.map { repeated in
            let place = d.place(ofContainerAt: repeated.objectOffset)
            let effects = d.profiles.map {
                ($0, $0.documentReading.repeatedKeyEffect(repeated.key, place: place, previousValueIsNull: repeated.previousValueIsNull))
            }
            let first = d.location(repeated.firstOffset)
            let fatal = effects.filter { $0.1.isFatal }.map(\.0)
            return d.finding(.duplicateKey,
                             "duplicate key \(JSONWriter.quoted(repeated.key)) (first at line \(first.line), column \(first.column)): \(DocumentEffect.sentence(effects))",
                             at: d.location(repeated.offset), rule: d.rule(at: repeated.offset), profiles: fatal,
                             severity: fatal.isEmpty ? .warning : .error)
        }
    }
}
