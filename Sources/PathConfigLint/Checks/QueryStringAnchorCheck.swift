import PathConfigCore

/// `query-string-anchor`: a pattern that ends in `$` right after a literal
/// character (`/new$`), under profiles that append `?query` before matching.
/// Every string it matches ends with that character, so once a URL it
/// matches carries a query string (`/messages/new?draft=1`), it matches no
/// more.
///
/// Said only when that is certain: the `$` is the pattern's last token,
/// outside every group, with no `|` at the top level; the pattern mentions
/// no literal `?` (`\?`, or one in a class: it already expects a query); and
/// `PatternScanner` reads the whole pattern.
struct QueryStringAnchorCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        let affected = d.profiles.filter(d.options.matchesQueryStrings)
        guard !affected.isEmpty else { return [] }
        var out: [LintFinding] = []
        for rule in d.rules {
            for (p, pattern) in rule.patterns.enumerated() {
                guard let dollar = Self.finalAnchor(pattern) else { continue }
                let scalars = Array(pattern.unicodeScalars)
                var suggested = String.UnicodeScalarView(scalars[..<dollar])
                suggested.append(contentsOf: #"(?:$|\?)"#.unicodeScalars)
                let apps = LintDocument.subject(affected)
                let message = "pattern \(p) \(JSONWriter.quoted(pattern)) does not match URLs with a query string (such as ?page=2): "
                    + "\(apps) \(affected.count == 1 ? "matches" : "match") patterns against the path and query string together; "
                    + "write \(JSONWriter.quoted(String(suggested))) to match with or without one"
                out.append(d.finding(.queryStringAnchor, message, at: d.location(ofPattern: p, inRule: rule.index, scalar: dollar),
                                     rule: rule.index, pattern: p, profiles: affected))
            }
        }
        return out
    }

    /// The scalar index of the final `$` when the pattern is of the shape
    /// described above, else nil.
    static func finalAnchor(_ pattern: String) -> Int? {
        guard let tokens = PatternScanner.scan(pattern), tokens.count >= 2,
              let last = tokens.last, last.kind == .dollar, last.depth == 0 else { return nil }
        for t in tokens {
            switch t.kind {
            case .alternation where t.depth == 0: return nil
            case .escaped("?"), .characterClass(hasQuestionMark: true): return nil
            default: continue
            }
        }
        switch tokens[tokens.count - 2].kind {
        case .literal(let c), .escaped(let c): return c == "?" ? nil : last.scalar
        default: return nil
        }
    }
}
