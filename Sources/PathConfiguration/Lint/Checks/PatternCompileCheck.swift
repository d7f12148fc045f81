/// `invalid-pattern`: a pattern that the engine rejects under one of the
/// selected profiles. Profiles that read patterns alike (the iOS ones: ICU;
/// the Android ones: Java) are checked once, together; the finding points at
/// the character where the engine stopped, when it says.
struct PatternCompileCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        var groups: [(options: RegexOptions, profiles: [Profile])] = []
        for profile in d.profiles {
            if let g = groups.firstIndex(where: { $0.options == profile.regexOptions }) {
                groups[g].profiles.append(profile)
            } else {
                groups.append((profile.regexOptions, [profile]))
            }
        }
        var out: [LintFinding] = []
        for group in groups {
            for rule in d.rules {
                for (p, pattern) in rule.patterns.enumerated() {
                    do {
                        _ = try d.options.engine.compile(pattern, options: group.options, limits: d.options.limits)
                    } catch {
                        let message = "pattern \(p): \(RuleCompiler.rejection(of: pattern, isGlob: false, error)) (under \(LintDocument.names(group.profiles)))"
                        out.append(d.finding(.invalidPattern, message,
                                             at: d.location(ofPattern: p, inRule: rule.index, scalar: error.offset ?? 0),
                                             rule: rule.index, pattern: p, profiles: group.profiles))
                    }
                }
            }
        }
        return out
    }
}
