import PathConfigCore

/// `dead-pattern`: a pattern that cannot match what a selected app matches
/// it against, so the rule never applies there through it.
///
/// What an app matches is asked of the profile itself
/// (`Profile.matchedString`), on two probes, never written down here:
///
/// - an app that matches a URL's path (and query) sees a string that starts
///   with `/` or `?`, or is empty. A pattern anchored with `^` whose first
///   character is another literal one (`^https://`, `^admin`) never matches
///   it. A pattern that requires a scheme and host (`http://localhost:3000/
///   recede_historical_location`) matches only a path that holds another
///   URL: the app never sees the URL's own scheme and host.
/// - an app that percent-encodes what it matches (hotwire-ios@main writes
///   `/café` as `/caf%C3%A9`) sees ASCII only. A pattern that requires a
///   character beyond ASCII (`/café$`) never matches it.
///
/// Said only when certain, of patterns without inline flags: the anchored
/// form and the character beyond ASCII are read by `PatternScanner` (no `|`
/// at the top level, the character outside every group and not repeated),
/// and the scheme and host are in the core's own required literal
/// (`RequiredLiteral`, the prefilter's, sound by construction).
struct DeadPatternCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        let facts = d.profiles.map { SubjectFacts($0, matchQueryStrings: d.options.matchesQueryStrings($0)) }
        var out: [LintFinding] = []
        for rule in d.rules {
            for (p, pattern) in rule.patterns.enumerated() {
                out += findings(pattern, p, rule: rule.index, facts, in: d)
            }
        }
        return out
    }

    private func findings(_ pattern: String, _ p: Int, rule: Int, _ facts: [SubjectFacts], in d: LintDocument) -> [LintFinding] {
        // Inline flags change what the rest reads; a pattern with one is left alone.
        guard !pattern.contains("(?") else { return [] }
        let tokens = PatternScanner.scan(pattern).flatMap { tokens in
            tokens.contains { $0.kind == .alternation && $0.depth == 0 } ? nil : tokens
        }
        func finding(_ apps: [Profile], _ says: String, _ sees: String, at scalar: Int = 0) -> LintFinding {
            let message = "pattern \(p) \(JSONWriter.quoted(pattern)) \(says): \(LintDocument.subject(apps)) "
                + "\(apps.count == 1 ? "matches" : "match") patterns against \(sees)"
            return d.finding(.deadPattern, message, at: d.location(ofPattern: p, inRule: rule, scalar: scalar), rule: rule, pattern: p,
                             profiles: apps)
        }
        let paths = facts.filter(\.isPath).map(\.profile)
        if !paths.isEmpty, pattern.hasPrefix("^"), let first = tokens.flatMap(Self.anchoredFirstLiteral), first != "/", first != "?" {
            return [finding(paths, "never matches",
                            "the URL's path (and query), which starts with \"/\" or \"?\", never with \(JSONWriter.quoted(String(first)))")]
        }
        var out: [LintFinding] = []
        if !paths.isEmpty, let literal = RequiredLiteral.of(pattern, caseInsensitive: false), literal.firstRange(of: Array("://".utf8)) != nil {
            out.append(finding(paths, "matches only a path that holds another URL",
                               "the URL's path (and query), never its scheme and host; match the path alone"))
        }
        let ascii = facts.filter(\.isASCII).map(\.profile)
        if !ascii.isEmpty, let scalar = tokens.flatMap(Self.requiredBeyondASCII) {
            out.append(finding(ascii, "never matches", "the percent-encoded URL, which holds no character beyond ASCII; "
                                   + "write the character percent-encoded, as the app sees it", at: scalar))
        }
        return out
    }

    /// The first character every match starts with, when the tokens (read
    /// by `PatternScanner`, no `|` at the top level) of a pattern that starts
    /// with `^` are that `^` and then a literal character not followed by a
    /// quantifier (which might repeat it zero times).
    static func anchoredFirstLiteral(_ tokens: [PatternScanner.Token]) -> Unicode.Scalar? {
        guard tokens.count >= 2, tokens[0].kind == .other, tokens[0].scalar == 0 else { return nil }
        if tokens.count > 2, tokens[2].kind == .quantifier { return nil }
        switch tokens[1].kind {
        case .literal(let c), .escaped(let c): return c
        default: return nil
        }
    }

    /// Where the tokens (read by `PatternScanner`, no `|` at the top level)
    /// hold a character beyond ASCII that every match holds: a literal one
    /// outside every group, not repeated (a quantifier might repeat it zero
    /// times).
    static func requiredBeyondASCII(_ tokens: [PatternScanner.Token]) -> Int? {
        for (i, token) in tokens.enumerated() where token.depth == 0 {
            guard case .literal(let c) = token.kind, !c.isASCII else { continue }
            if i + 1 < tokens.count, tokens[i + 1].kind == .quantifier { continue }
            return token.scalar
        }
        return nil
    }

    /// What one profile's app matches patterns against, asked of the profile.
    struct SubjectFacts {
        let profile: Profile
        /// The URL's path (and query): starts with `/` or `?`, or is empty.
        let isPath: Bool
        /// ASCII only, whatever the URL holds.
        let isASCII: Bool

        init(_ profile: Profile, matchQueryStrings: Bool) {
            self.profile = profile
            let url = profile.matchedString(for: "https://example.com/a/b?c=d", matchQueryStrings: matchQueryStrings)
            isPath = url.hasPrefix("/a/b")
            // A URL, as the app gets one (a bare path given to the library is
            // matched as written, which no app does).
            let beyond = profile.matchedString(for: "https://example.com/caf\u{E9}/\u{4E2D}?q=\u{E9}", matchQueryStrings: matchQueryStrings)
            isASCII = beyond.unicodeScalars.allSatisfy(\.isASCII)
        }
    }
}
