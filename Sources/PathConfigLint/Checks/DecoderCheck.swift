import PathConfigCore

/// What the decoder knows, as findings: the warnings it gives with a
/// configuration (`ignored-settings`, `not-portable`), and the selected
/// profiles under which it rejects the file (`not-portable`: turbo-android
/// refuses nested values, the Android apps crash on a null rule, for some).
/// A rejection at a trailing comma or a repeated key is left to
/// `TrailingCommaCheck` and `RepeatedKeyCheck`, which say what every app does
/// there; repeated keys are theirs altogether. A rejection is an error.
struct DecoderCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        var out: [LintFinding] = []
        let mobile = d.profiles.filter(\.isMobileApp)
        let explained = Set(d.tree.trailingCommas.map(\.offset) + d.repeatedKeys.map(\.offset))
        // An app's decoding first: its warnings say which app ignores what.
        // A later profile's warning at a place none before it warned about
        // is that profile's alone (turbo-android's null settings).
        var warnings: [ConfigurationWarning]?
        var ownWarnings: [(ConfigurationWarning, Profile)] = []
        for profile in mobile + d.profiles.filter({ !$0.isMobileApp }) {
            do {
                let decoded = try ConfigurationDecoder(profile: profile, limits: d.options.limits).decode(d.original)
                if let known = warnings {
                    for w in decoded.warnings where w.kind != .duplicateKey && !known.contains(where: {
                        $0.kind == w.kind && $0.location?.offset == w.location?.offset && $0.ruleIndex == w.ruleIndex
                    }) && !ownWarnings.contains(where: { $0.0 == w }) {
                        ownWarnings.append((w, profile))
                    }
                } else {
                    warnings = decoded.warnings
                }
            } catch {
                if let offset = error.location?.offset, explained.contains(offset) { continue }
                let rule = error.ruleIndex ?? error.location.flatMap { d.rule(at: $0.offset) }
                out.append(d.finding(.notPortable, "the \(profile.rawValue) app rejects this file: \(d.withoutRuleName(error.message, rule: rule))", at: error.location,
                                     rule: rule, pattern: error.patternIndex, profiles: [profile], severity: .error))
            }
        }
        let shared = (warnings ?? d.document.warnings).filter { $0.kind != .duplicateKey }.map { ($0, nil as Profile?) }
        for (w, profile) in shared + ownWarnings.map({ ($0.0, Optional($0.1)) }) {
            guard let kind = LintFinding.Kind(rawValue: w.kind.rawValue) else { continue }
            let rule = w.ruleIndex ?? w.location.flatMap { d.rule(at: $0.offset) }
            out.append(d.finding(kind, d.withoutRuleName(w.message, rule: rule), at: w.location, rule: rule,
                                 pattern: w.patternIndex, profiles: profile.map { [$0] } ?? (kind == .notPortable ? mobile : [])))
        }
        return out
    }
}
