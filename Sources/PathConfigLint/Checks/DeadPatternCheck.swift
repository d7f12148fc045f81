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
/// Said only when certain, of patterns `PatternSyntax` reads, without inline
/// flags: the anchored form and the character beyond ASCII (written as
/// itself or by code, `\u00E9`) are read from its syntax (no `|` at the top
/// level, the character outside every group and not repeated), and the
/// scheme and host are in the core's own required literal (`RequiredLiteral`,
/// the prefilter's, sound by construction).
struct DeadPatternCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        // What each app matches patterns against, asked of the profile. The
        // URL's path (and query): starts with `/` or `?`, or is empty.
        let paths = d.profiles.filter {
            $0.matchedString(for: "https://example.com/a/b?c=d", matchQueryStrings: d.options.matchesQueryStrings($0)).hasPrefix("/a/b")
        }
        // ASCII only, whatever the URL holds. A URL, as the app gets one (a
        // bare path given to the library is matched as written, which no app does).
        let ascii = d.profiles.filter {
            $0.matchedString(for: "https://example.com/caf\u{E9}/\u{4E2D}?q=\u{E9}", matchQueryStrings: d.options.matchesQueryStrings($0))
                .unicodeScalars.allSatisfy(\.isASCII)
        }
        return d.patterns.flatMap { findings($0.pattern, $0.index, rule: $0.rule, paths: paths, ascii: ascii, in: d) }
    }

    private func findings(_ pattern: String, _ p: Int, rule: Int, paths: [Profile], ascii: [Profile], in d: LintDocument) -> [LintFinding] {
        // Inline flags change what the rest reads; a pattern with one is left alone.
        guard let syntax = try? PatternSyntax.readAlike(pattern), !syntax.hasFlags else { return [] }
        let oneAlternative = !syntax.hasTopLevelAlternation
        func finding(_ apps: [Profile], _ says: String, _ sees: String, at scalar: Int = 0) -> LintFinding {
            let message = "pattern \(p) \(JSONWriter.quoted(pattern)) \(says): \(LintDocument.subject(apps)) "
                + "\(apps.count == 1 ? "matches" : "match") patterns against \(sees)"
            return d.finding(.deadPattern, message, at: d.location(ofPattern: p, inRule: rule, scalar: scalar), rule: rule, pattern: p,
                             profiles: apps)
        }
        if !paths.isEmpty, oneAlternative, let first = Self.anchoredFirstLiteral(syntax), first != "/", first != "?" {
            return [finding(paths, "never matches",
                            "the URL's path (and query), which starts with \"/\" or \"?\", never with \(JSONWriter.quoted(String(first)))")]
        }
        var out: [LintFinding] = []
        if !paths.isEmpty, let literal = RequiredLiteral.of(syntax, caseInsensitive: false), literal.firstRange(of: Array("://".utf8)) != nil {
            out.append(finding(paths, "matches only a path that holds another URL",
                               "the URL's path (and query), never its scheme and host; match the path alone"))
        }
        if !ascii.isEmpty, oneAlternative, let scalar = Self.requiredBeyondASCII(syntax) {
            out.append(finding(ascii, "never matches", "the percent-encoded URL, which holds no character beyond ASCII; "
                                   + "write the character percent-encoded, as the app sees it", at: scalar))
        }
        return out
    }

    /// The first character every match starts with, when the pattern (one
    /// alternative) is `^` and then a character not followed by a quantifier
    /// (which might repeat it zero times).
    static func anchoredFirstLiteral(_ syntax: PatternSyntax) -> Unicode.Scalar? {
        guard syntax.nodes.count >= 2, syntax.nodes[0].kind == .caret, syntax.quantifier(after: 1) == nil else { return nil }
        return syntax.character(at: 1)
    }

    /// Where the pattern (one alternative) holds a character beyond ASCII
    /// that every match holds: one outside every group, not repeated (a
    /// quantifier might repeat it zero times).
    static func requiredBeyondASCII(_ syntax: PatternSyntax) -> Int? {
        syntax.topLevel.first { k in
            guard let c = syntax.character(at: k), !c.isASCII else { return false }
            return syntax.quantifier(after: k) == nil
        }.map(syntax.scalar(at:))
    }
}
