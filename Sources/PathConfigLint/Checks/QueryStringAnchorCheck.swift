import PathConfigCore

/// `query-string-anchor`: a pattern that ends in `$` right after a literal
/// character (`/new$`), under profiles that append `?query` before matching.
/// Every string it matches ends with that character, so once a URL it
/// matches carries a query string (`/messages/new?draft=1`), it matches no
/// more.
///
/// Said only when that is certain: `PatternSyntax` reads the pattern; the
/// `$` is its last construct, outside every group, with no `|` at the top
/// level; and the pattern mentions no literal `?` (`\?`, `\x3F`, or one in a
/// class, in a range included: it already expects a query).
struct QueryStringAnchorCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        let affected = d.profiles.filter(d.options.matchesQueryStrings)
        guard !affected.isEmpty else { return [] }
        return d.patterns.compactMap { rule, p, pattern in
            guard let dollar = Self.finalAnchor(pattern) else { return nil }
            let scalars = Array(pattern.unicodeScalars)
            var suggested = String.UnicodeScalarView(scalars[..<dollar])
            suggested.append(contentsOf: #"(?:$|\?)"#.unicodeScalars)
            let apps = LintDocument.subject(affected)
            let message = "pattern \(p) \(JSONWriter.quoted(pattern)) does not match URLs with a query string (such as ?page=2): "
                + "\(apps) \(affected.count == 1 ? "matches" : "match") patterns against the path and query string together; "
                + "write \(JSONWriter.quoted(String(suggested))) to match with or without one"
            return d.finding(.queryStringAnchor, message, at: d.location(ofPattern: p, inRule: rule, scalar: dollar),
                             rule: rule, pattern: p, profiles: affected)
        }
    }

    /// The scalar index of the final `$` when the pattern is of the shape
    /// described above, else nil.
    static func finalAnchor(_ pattern: String) -> Int? {
        guard let syntax = try? PatternSyntax.readAlike(pattern), syntax.nodes.count >= 2, syntax.nodes.last?.kind == .dollar,
              !syntax.hasTopLevelAlternation, syntax.character(at: syntax.nodes.count - 2) != nil else { return nil }
        let question: UInt32 = 0x3F
        let mentionsQuestionMark = syntax.nodes.contains { if case .character(question, _) = $0.kind { true } else { false } }
            || syntax.classes.contains { set in
                set.items.contains { item in
                    switch item {
                    case .character(let c, _): c == question
                    case .range(let low, _, let high, _): low <= question && question <= high
                    case .escape, .nested, .intersection, .difference: false
                    }
                }
            }
        return mentionsQuestionMark ? nil : syntax.scalar(at: syntax.nodes.count - 1)
    }
}
