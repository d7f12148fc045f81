/// What the decoder knows, as findings: the warnings it gives with a
/// configuration (`duplicate-key`, `ignored-settings`, `not-portable`), and
/// the selected profiles under which it rejects the file (`not-portable`:
/// turbo-android refuses nested values, for one).
struct DecoderCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        var out: [LintFinding] = []
        let mobile = d.profiles.filter(\.isMobileApp)
        // An app's decoding first: its warnings say which app ignores what.
        var warnings: [ConfigurationWarning]?
        for profile in mobile + d.profiles.filter({ !$0.isMobileApp }) {
            do {
                let decoded = try ConfigurationDecoder(profile: profile, limits: d.options.limits).decode(d.source.bytes)
                if warnings == nil { warnings = decoded.warnings }
            } catch {
                let rule = error.ruleIndex ?? error.location.flatMap { d.rule(at: $0.offset) }
                out.append(d.finding(.notPortable, "the \(profile.rawValue) app rejects this file: \(d.withoutRuleName(error.message, rule: rule))",
                                     at: error.location, rule: rule, pattern: error.patternIndex, profiles: [profile]))
            }
        }
        for w in warnings ?? d.document.warnings {
            guard let kind = LintFinding.Kind(rawValue: w.kind.rawValue) else { continue }
            let rule = w.ruleIndex ?? w.location.flatMap { d.rule(at: $0.offset) }
            out.append(d.finding(kind, d.withoutRuleName(w.message, rule: rule), at: w.location, rule: rule,
                                 pattern: w.patternIndex, profiles: kind == .notPortable ? mobile : []))
        }
        return out
    }
}
