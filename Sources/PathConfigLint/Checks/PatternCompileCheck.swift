import PathConfigCore

/// `invalid-pattern`: a pattern that the engine rejects under one of the
/// selected profiles. Profiles that read patterns alike (the iOS ones: ICU;
/// the Android ones: Java) are checked once, together, on the patterns as
/// the first of them decodes the document (an Android app keeps the last of
/// two `"patterns"` in a rule, the iOS apps the first); the finding points
/// at the character where the engine stopped, when it says. Globs compile
/// the same under every profile; one the engine rejects is said once.
struct PatternCompileCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        // One finding per pattern and reason: profiles whose engines reject a
        // pattern for the same reason at the same place are listed together.
        var rejections: [(rule: Int, pattern: Int, text: String, error: RegexCompileError, location: SourceLocation?, profiles: [Profile])] = []
        for group in d.profiles.grouped(by: \.regexOptions) {
            let decoded = group.members.lazy.compactMap(d.decoded(as:)).first
            for rule in decoded?.rules ?? d.rules {
                for (p, pattern) in rule.patterns.enumerated() {
                    do {
                        _ = try d.options.engine.compile(pattern, options: group.key, limits: d.options.limits)
                    } catch {
                        if let same = rejections.firstIndex(where: { $0.rule == rule.index && $0.pattern == p && $0.text == pattern && $0.error == error }) {
                            rejections[same].profiles += group.members
                            continue
                        }
                        let scalar = error.offset ?? 0
                        // The offset is in the decoded text: located only where that is this document's text.
                        let location = decoded.map { decoded in
                            rule.patternOffsets.indices.contains(p) && decoded.source.bytes == d.source.bytes
                                ? d.location(ofScalar: scalar, inStringAt: rule.patternOffsets[p]) : nil
                        } ?? d.location(ofPattern: p, inRule: rule.index, scalar: scalar)
                        rejections.append((rule.index, p, pattern, error, location, group.members))
                    }
                }
            }
        }
        var out = rejections.map { r in
            let message = "pattern \(r.pattern): \(RuleCompiler.rejection(of: r.text, isGlob: false, r.error)) (under \(r.profiles.map(\.rawValue).joined(separator: ", ")))"
            return d.finding(.invalidPattern, message, at: r.location, rule: r.rule, pattern: r.pattern, profiles: r.profiles)
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
