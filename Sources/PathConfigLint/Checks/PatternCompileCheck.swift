import PathConfigModel
import PathConfigMatching
import PathConfigResolution

/// `invalid-pattern`: a pattern that the engine rejects under one of the
/// selected profiles. Profiles that read patterns alike (the iOS ones: ICU;
/// the Android ones: Java) are checked once, together; the finding points at
/// the character where the engine stopped, when it says. Globs compile the
/// same under every profile; one the engine rejects is said once.
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
        // One finding per pattern and reason: profiles whose engines reject a
        // pattern for the same reason at the same place are listed together.
        var rejections: [(rule: Int, pattern: Int, error: RegexCompileError, profiles: [Profile])] = []
        for group in groups {
            for rule in d.rules {
                for (p, pattern) in rule.patterns.enumerated() {
                    do {
                        _ = try d.options.engine.compile(pattern, options: group.options, limits: d.options.limits)
                    } catch {
                        if let same = rejections.firstIndex(where: { $0.rule == rule.index && $0.pattern == p && $0.error == error }) {
                            rejections[same].profiles += group.profiles
                        } else {
                            rejections.append((rule.index, p, error, group.profiles))
                        }
                    }
                }
            }
        }
        var out = rejections.map { r in
            let pattern = d.rules[r.rule].patterns[r.pattern]
            let message = "pattern \(r.pattern): \(RuleCompiler.rejection(of: pattern, isGlob: false, r.error)) (under \(LintDocument.names(r.profiles)))"
            return d.finding(.invalidPattern, message, at: d.location(ofPattern: r.pattern, inRule: r.rule, scalar: r.error.offset ?? 0),
                             rule: r.rule, pattern: r.pattern, profiles: r.profiles)
        }
        for rule in d.rules {
            for (g, glob) in rule.globs.enumerated() {
                let regex = GlobPattern.regex(for: glob, base: d.options.baseURL)
                do {
                    _ = try d.options.engine.compile(regex, options: RuleCompiler.globOptions, limits: d.options.limits)
                } catch {
                    let offset = rule.globOffsets.indices.contains(g) ? rule.globOffsets[g] : nil
                    out.append(d.finding(.invalidPattern, "glob \(g): \(RuleCompiler.rejection(of: glob, isGlob: true, error))",
                                         at: offset.map(d.location), rule: rule.index, pattern: g))
                }
            }
        }
        return out
    }
}
