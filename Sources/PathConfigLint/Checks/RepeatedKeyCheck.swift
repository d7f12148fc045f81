import PathConfigCore

/// `duplicate-key`: a key an object already has, and which value each
/// selected app keeps, as loading decides it
/// (`DocumentReading.repeatedKeyEffect`): JSONSerialization the first;
/// Gson the last for the apps' own fields, and in `properties` or
/// `settings` it refuses the document ("duplicate key") unless the value
/// replaced is null. An error where a selected app refuses the file. A key
/// canonically equivalent to one before it but spelt otherwise is repeated
/// to JSONSerialization and new to Gson (`DocumentReading.keysAreCanonical`).
struct RepeatedKeyCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        d.repeatedKeys.compactMap { repeated in
            let place = d.place(ofContainerAt: repeated.objectOffset)
            let effects = d.profiles.compactMap { profile -> (Profile, DocumentEffect)? in
                let reading = profile.documentReading
                guard let before = reading.keysAreCanonical ? repeated.canonical : repeated.exact else { return nil }
                return (profile, reading.repeatedKeyEffect(repeated.key, place: place, previousValueIsNull: before.valueIsNull))
            }
            guard !effects.isEmpty else { return nil }
            let canonicalReader = effects.contains { $0.0.documentReading.keysAreCanonical }
            let first = d.location((canonicalReader ? repeated.canonical : repeated.exact ?? repeated.canonical).firstOffset)
            let fatal = effects.filter { $0.1.isFatal }.map(\.0)
            // Spelt otherwise than the key it repeats (to the iOS apps alone): its code points tell them apart.
            let key = repeated.exact == nil ? DocumentReading.spelling(repeated.key) : JSONWriter.quoted(repeated.key)
            return d.finding(.duplicateKey,
                             "duplicate key \(key) (first at line \(first.line), column \(first.column)): \(DocumentEffect.sentence(effects))",
                             at: d.location(repeated.offset), rule: d.rule(at: repeated.offset), profiles: fatal,
                             severity: fatal.isEmpty ? .warning : .error)
        }
    }
}
