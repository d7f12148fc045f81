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
        let quoted = JSONWriter.quoted(pattern)
        let paths = facts.filter(\.isPath).map(\.profile)
        if !paths.isEmpty, let first = Self.anchoredFirstLiteral(pattern), first != "/", first != "?" {
            let message = "pattern \(p) \(quoted) never matches: \(Self.apps(paths)) \(paths.count == 1 ? "matches" : "match") "
                + "patterns against the URL's path (and query), which starts with \"/\" or \"?\", never with \(JSONWriter.quoted(String(first)))"
            return [d.finding(.deadPattern, message, at: d.location(ofPattern: p, inRule: rule), rule: rule, pattern: p, profiles: paths)]
        }
        guard !pattern.contains("(?") else { return [] }
        var out: [LintFinding] = []
        if !paths.isEmpty, let literal = RequiredLiteral.of(pattern, caseInsensitive: false), Self.contains(literal, Array("://".utf8)) {
            let message = "pattern \(p) \(quoted) matches only a path that holds another URL: \(Self.apps(paths)) "
                + "\(paths.count == 1 ? "matches" : "match") patterns against the URL's path (and query), never its scheme and host; "
                + "match the path alone"
            out.append(d.finding(.deadPattern, message, at: d.location(ofPattern: p, inRule: rule), rule: rule, pattern: p, profiles: paths))
        }
        let ascii = facts.filter(\.isASCII).map(\.profile)
        if !ascii.isEmpty, let scalar = Self.requiredBeyondASCII(pattern) {
            let message = "pattern \(p) \(quoted) never matches: \(Self.apps(ascii)) \(ascii.count == 1 ? "matches" : "match") "
                + "patterns against the percent-encoded URL, which holds no character beyond ASCII; write the character "
                + "percent-encoded, as the app sees it"
            out.append(d.finding(.deadPattern, message, at: d.location(ofPattern: p, inRule: rule, scalar: scalar), rule: rule, pattern: p,
                                 profiles: ascii))
        }
        return out
    }

    /// The first character of `pattern` when it is `^` and then a literal
    /// character that every match starts with: read by `PatternScanner`, no
    /// `|` at the top level, no inline flags, and the literal not followed
    /// by a quantifier (which might repeat it zero times).
    static func anchoredFirstLiteral(_ pattern: String) -> Unicode.Scalar? {
        guard pattern.hasPrefix("^"), !pattern.contains("(?"), let tokens = PatternScanner.scan(pattern), tokens.count >= 2,
              tokens[0].kind == .other, tokens[0].scalar == 0,
              !tokens.contains(where: { $0.kind == .alternation && $0.depth == 0 }) else { return nil }
        if tokens.count > 2, tokens[2].kind == .quantifier { return nil }
        switch tokens[1].kind {
        case .literal(let c), .escaped(let c): return c
        default: return nil
        }
    }

    /// Where `pattern` holds a character beyond ASCII that every match
    /// holds: a literal one outside every group, with no `|` at the top
    /// level, not repeated (a quantifier might repeat it zero times); read
    /// by `PatternScanner`.
    static func requiredBeyondASCII(_ pattern: String) -> Int? {
        guard let tokens = PatternScanner.scan(pattern),
              !tokens.contains(where: { $0.kind == .alternation && $0.depth == 0 }) else { return nil }
        for (i, token) in tokens.enumerated() where token.depth == 0 {
            guard case .literal(let c) = token.kind, !c.isASCII else { continue }
            if i + 1 < tokens.count, tokens[i + 1].kind == .quantifier { continue }
            return token.scalar
        }
        return nil
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    private static func apps(_ profiles: [Profile]) -> String { LintDocument.subject(profiles) }

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
