import PathConfigCore

/// How one pattern is rewritten for one app so that, on every URL port
/// covers, it matches the app's string exactly when the original matches
/// the reference's.
///
/// On a covered URL (`CoveredURLs`) the matched strings are printable ASCII,
/// and hotwire-ios, hotwire-android and turbo-android see the same string,
/// the path and `?query`; turbo-ios sees the path alone. So what can differ
/// is:
/// - case: the Android apps match case-insensitively. From an iOS
///   reference, the pattern starts with `(?-i)`; from an Android one, with
///   `(?i)`. Both engines read both flags, and on a covered URL's printable
///   ASCII they fold alike: what tells ICU's folding from Java's (`ß`
///   against `ss`, `ﬆ` against `st`, `ı`, `K`) needs a character beyond
///   ASCII in the subject or in the pattern, and a pattern with one is
///   refused where its case rule changes. Where this library's reading of
///   ICU cannot take `(?i)` (a literal such as `st` or `ss`, which ICU
///   matches against `ﬆ` and `ß` by folding whole strings, as the pcre2
///   backend cannot), each ASCII letter is written with its other case
///   instead (`expandsCase`: `/posts` as `/[pP][oO][sS][tT][sS]`, `[a-c]`
///   as `[a-cA-C]`), which every engine reads alike with case folding on or
///   off;
/// - dialect: `\d`, `\w` and `\s` are spelled out as the ASCII sets they
///   stand for on these strings, which every engine reads alike;
/// - the query, when the reference sees none (turbo-ios) and the app does
///   (`gainsQuery`): the pattern is confined to the path, `^[^?]*?(?:...)`
///   with `$` as `(?![^?])` and nothing that can match `?`;
/// - the query, when the reference sees it and the app does not
///   (turbo-ios, `losesQuery`): only a pattern whose answer cannot depend on
///   it ports (`isQueryBlind`).
struct PatternPort {
    let reference: Profile
    /// The app the pattern is rewritten for.
    let target: Profile
    /// `(?-i)` or `(?i)`, the reference's case rule, written before every
    /// pattern: set when some selected app matches case otherwise than the
    /// reference, so that one file serves apps of both kinds.
    let caseFlag: String?
    /// Whether ASCII letters are written with both cases, in place of the
    /// case flag `(?i)` (see `port(_:expandingCase:)`).
    private(set) var expandsCase = false
    /// Whether `\d`, `\w` and `\s` are spelled out: set when some selected
    /// app reads another dialect than the reference.
    let spellsOutShorthands: Bool

    /// The rewritten pattern, or why it cannot be ported.
    enum Outcome: Equatable {
        case ported(String)
        case refused(String)
    }

    /// Whether the reference matches the query and the target does not.
    var losesQuery: Bool { reference.matchesQueryStringsByDefault && !target.matchesQueryStringsByDefault }
    /// Whether the target matches the query and the reference does not.
    var gainsQuery: Bool { !reference.matchesQueryStringsByDefault && target.matchesQueryStringsByDefault }
    /// Whether the app's case mode differs from the reference's.
    var changesCase: Bool { reference.regexOptions.caseInsensitive != target.regexOptions.caseInsensitive }

    /// Whether the target reads every pattern as the reference does, so
    /// that a pattern is kept as written, whatever its syntax: the same
    /// dialect and case rule, the same view of the query, and no flag
    /// written for another app.
    var isIdentity: Bool {
        caseFlag == nil && !spellsOutShorthands && !gainsQuery && !losesQuery
            && reference.regexOptions == target.regexOptions
    }

    /// `pattern`, rewritten for the target, with ASCII letters in both
    /// cases in place of the flag when `expandingCase`.
    func port(_ pattern: String, expandingCase: Bool) -> Outcome {
        var port = self
        port.expandsCase = expandingCase
        return port.port(pattern)
    }

    /// `pattern`, rewritten for the target.
    func port(_ pattern: String) -> Outcome {
        if isIdentity { return .ported(pattern) }
        let parsed: PortablePattern
        do { parsed = try PortablePattern.parse(pattern) } catch {
            return .refused("\(error.construct) is outside what port can prove ICU and Java read alike")
        }
        if losesQuery, !Self.isQueryBlind(parsed) {
            return .refused("\(target.rawValue) never sees the query string, which \(reference.rawValue) matches, "
                + "and this pattern's answer can depend on it")
        }
        var out = ""
        for token in parsed.tokens {
            switch rewrite(token) {
            case .ported(let text): out += text
            case .refused(let why): return .refused(why)
            }
        }
        // An empty pattern matches everywhere, but ICU rejects it: ^ says the same.
        if out.isEmpty { out = "^" }
        if gainsQuery { out = "^[^?]*?(?:" + out + ")" }
        return .ported((expandsCase ? "" : caseFlag ?? "") + out)
    }

    /// One token's text for the target.
    private func rewrite(_ token: PortablePattern.Token) -> Outcome {
        switch token.kind {
        case .literal(let c):
            if changesCase, !c.isASCII { return refusedCase(c) }
            if gainsQuery, c == "?" { return .ported("(?!)") }
            if expandsCase, let other = Self.otherCase(c) { return .ported("[" + String(Character(c)) + String(Character(other)) + "]") }
            return .ported(token.text)
        case .any:
            return .ported(gainsQuery ? "[^?]" : ".")
        case .characterClass(let items, let negated):
            return rewriteClass(token, items: items, negated: negated)
        case .shorthand(let kind, let negated):
            guard spellsOutShorthands || (gainsQuery && negated) else { return .ported(token.text) }
            let set = spellsOutShorthands ? asciiSet(kind) : "\\" + String(kind.rawValue)
            if negated { return .ported("[^" + set + (gainsQuery ? "?" : "") + "]") }
            return .ported("[" + set + "]")
        case .end:
            return .ported(gainsQuery ? "(?![^?])" : token.text)
        case .start, .wordBoundary, .groupOpen, .groupClose, .alternation, .quantifier:
            return .ported(token.text)
        }
    }

    /// A class, rewritten when a shorthand in it is spelled out, the query
    /// must stay out of it, or its letters are written in both cases;
    /// refused when its characters go beyond ASCII under a case change.
    private func rewriteClass(_ token: PortablePattern.Token, items: [PortablePattern.ClassItem], negated: Bool) -> Outcome {
        var needsRewrite = negated && gainsQuery
        var body = "", otherCases = ""
        for item in items {
            switch item {
            case .character(let c):
                if changesCase, !c.isASCII { return refusedCase(c) }
                if gainsQuery, c == "?" {
                    if negated { body += "\\?" } else { needsRewrite = true }
                    continue
                }
                body += Self.classText(c)
                if expandsCase, let other = Self.otherCase(c) { otherCases += String(Character(other)) }
            case .range(let low, let high):
                if changesCase, !low.isASCII || !high.isASCII { return refusedCase(low.isASCII ? high : low) }
                if gainsQuery, low.value <= 0x3F, high.value >= 0x3F {
                    return .refused("the class \(token.text) holds ?, which the reference never sees in a path")
                }
                body += Self.classText(low) + "-" + Self.classText(high)
                if expandsCase { otherCases += Self.otherCases(low.value...high.value) }
            case .shorthand(let kind):
                if spellsOutShorthands {
                    needsRewrite = true
                    body += asciiSet(kind)
                } else {
                    body += "\\" + String(kind.rawValue)
                }
            }
        }
        if !otherCases.isEmpty {
            needsRewrite = true
            body += otherCases
        }
        guard needsRewrite else { return .ported(token.text) }
        if negated {
            return .ported("[^" + body + (gainsQuery && !body.hasSuffix("\\?") ? "\\?" : "") + "]")
        }
        return .ported(body.isEmpty ? "(?!)" : "[" + body + "]")
    }

    /// What a shorthand matches, in the reference's dialect, among the
    /// printable ASCII of a covered URL (and the ASCII controls besides),
    /// written inside a class.
    private func asciiSet(_ kind: PortablePattern.Shorthand) -> String {
        switch kind {
        case .digit: return "0-9"
        case .word: return "A-Za-z0-9_"
        // ICU's \s is [\t\n\f\r\p{Z}]; Java's adds \x0B.
        case .space: return reference.regexOptions.dialect == .java ? "\\t\\n\\x0B\\f\\r " : "\\t\\n\\f\\r "
        // Both: \h is tab and the space separators, \v [\n\x0B\f\r\x85\u2028\u2029].
        case .horizontalSpace: return "\\t "
        case .verticalSpace: return "\\n\\x0B\\f\\r"
        }
    }

    /// Whether `pattern` holds `\d`, `\w`, `\s`, `\h` or `\v` (or a negation), in a
    /// class or not: what `spellsOutShorthands` rewrites.
    static func hasShorthand(_ pattern: String) -> Bool {
        guard let parsed = try? PortablePattern.parse(pattern) else { return false }
        return parsed.tokens.contains { token in
            switch token.kind {
            case .shorthand: return true
            case .characterClass(let items, _):
                return items.contains { if case .shorthand = $0 { return true } else { return false } }
            default: return false
            }
        }
    }

    private func refusedCase(_ c: Unicode.Scalar) -> Outcome {
        .refused("\(Character(c)) is beyond ASCII and \(target.rawValue) matches case "
            + (target.regexOptions.caseInsensitive ? "insensitively" : "sensitively")
            + ", unlike \(reference.rawValue); ICU and Java fold such characters differently")
    }

    /// The other case of an ASCII letter.
    private static func otherCase(_ c: Unicode.Scalar) -> Unicode.Scalar? {
        (0x61...0x7A).contains(c.value | 0x20) ? Unicode.Scalar(c.value ^ 0x20) : nil
    }

    /// The other case of the ASCII letters in `range`, as class ranges.
    private static func otherCases(_ range: ClosedRange<UInt32>) -> String {
        var out = ""
        for (letters, shift) in [(UInt32(0x41)...0x5A, Int64(0x20)), (UInt32(0x61)...0x7A, Int64(-0x20))] where range.overlaps(letters) {
            let low = max(range.lowerBound, letters.lowerBound), high = min(range.upperBound, letters.upperBound)
            let a = Character(Unicode.Scalar(UInt32(Int64(low) + shift))!), b = Character(Unicode.Scalar(UInt32(Int64(high) + shift))!)
            out += low == high ? String(a) : String(a) + "-" + String(b)
        }
        return out
    }

    /// `c` as written inside a class: escaped when the class syntax gives
    /// it a meaning, `\xhh` for an ASCII control.
    private static func classText(_ c: Unicode.Scalar) -> String {
        if c.value < 0x20 || c.value == 0x7F {
            let hex = String(c.value, radix: 16, uppercase: true)
            return "\\x" + (hex.count < 2 ? "0" + hex : hex)
        }
        return "\\[]^-&".unicodeScalars.contains(c) ? "\\" + String(Character(c)) : String(Character(c))
    }

    /// Whether the pattern's answer is the same on `path?query` as on
    /// `path` for every path and query: it matches every string (`.*`,
    /// `^`, the empty pattern), or each alternative starts at `^` and no
    /// token can match `?` or look at the end of the string or past a
    /// match (then a match starts at 0 and stops before the `?`, and is a
    /// match in the path alone).
    static func isQueryBlind(_ pattern: PortablePattern) -> Bool {
        if matchesEverything(pattern) { return true }
        var depth = 0
        var atAlternativeStart = true
        for token in pattern.tokens {
            if atAlternativeStart {
                guard case .start = token.kind else { return false }
                atAlternativeStart = false
                continue
            }
            switch token.kind {
            case .literal(let c):
                if c == "?" { return false }
            case .any, .end, .wordBoundary:
                return false
            case .shorthand(_, let negated):
                if negated { return false }
            case .characterClass(let items, let negated):
                if negated || items.contains(where: { item in
                    switch item {
                    case .character(let c): return c == "?"
                    case .range(let low, let high): return low.value <= 0x3F && high.value >= 0x3F
                    case .shorthand: return false
                    }
                }) { return false }
            case .groupOpen(let kind):
                guard kind == .capturing || kind == .nonCapturing || kind == .atomic else { return false }
                depth += 1
            case .groupClose:
                depth -= 1
            case .alternation:
                // An alternative inside a group starts after the group's own start.
                if depth == 0 { atAlternativeStart = true }
            case .start, .quantifier:
                break
            }
        }
        return !atAlternativeStart
    }

    /// Whether the pattern is `.*`, `^.*`, `.*$`, `^.*$`, `^`, `$` or
    /// empty, which match every string of printable characters.
    static func matchesEverything(_ pattern: PortablePattern) -> Bool {
        var tokens = pattern.tokens[...]
        // "$" finds the end of every string; "^$" only the empty one.
        if tokens.count == 1, tokens.first?.kind == .end { return true }
        if tokens.first?.kind == .start { tokens.removeFirst() }
        // "" and "^".
        if tokens.isEmpty { return true }
        if tokens.last?.kind == .end { tokens.removeLast() }
        guard tokens.count == 2, tokens.first?.kind == .any, let star = tokens.last, star.kind == .quantifier else { return false }
        return star.text == "*" || star.text == "*?"
    }
}
