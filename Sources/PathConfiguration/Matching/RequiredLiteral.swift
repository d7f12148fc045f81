/// Finds a literal string that every match of a pattern must contain.
///
/// The prefilter's soundness rests on this: if a pattern has a required
/// literal, a subject without that literal cannot match, so the regex need
/// not run. The analysis is deliberately conservative and gives up (nil) on
/// anything it does not fully understand: top-level alternation, inline
/// options `(?i)`, `\Q...\E`, non-ASCII text, unusual braces.
///
/// It walks the top-level concatenation: consecutive mandatory literal
/// characters form a run; a quantifier that allows zero repetitions removes
/// the character before it; `+` keeps it and ends the run; classes, groups,
/// `.`, anchors and escapes like `\d` end the run. The longest run wins.
enum RequiredLiteral {
    /// Runs shorter than this are too common to be worth checking.
    static let minimumLength = 2

    /// The longest required literal of `pattern`, or nil. With
    /// `caseInsensitive`, the literal is lower-cased (ASCII) and must be
    /// searched in a lower-cased subject.
    static func of(_ pattern: String, caseInsensitive: Bool) -> [UInt8]? {
        let p = Array(pattern.utf8)
        var best: [UInt8] = []
        var run: [UInt8] = []
        func endRun() {
            if run.count > best.count { best = run }
            run.removeAll(keepingCapacity: true)
        }
        var i = 0
        while i < p.count {
            let c = p[i]
            if c >= 0x80 { endRun(); i += 1; continue } // non-ASCII: leave to the regex
            switch c {
            case UInt8(ascii: "|"):
                return nil
            case UInt8(ascii: "\\"):
                guard i + 1 < p.count else { return nil }
                let e = p[i + 1]
                if e == UInt8(ascii: "Q") || e == UInt8(ascii: "E") { return nil }
                if isAlphanumeric(e) || e >= 0x80 {
                    endRun()
                    guard let next = escapeEnd(p, letterAt: i + 1) else { return nil }
                    i = next
                    continue
                }
                run.append(fold(e, caseInsensitive))
                i += 2
            case UInt8(ascii: "["):
                endRun()
                guard let end = classEnd(p, from: i) else { return nil }
                i = end + 1
            case UInt8(ascii: "("):
                if i + 1 < p.count, p[i + 1] == UInt8(ascii: "?") {
                    // Only plain non-capturing groups; inline options and lookarounds give up.
                    guard i + 2 < p.count, p[i + 2] == UInt8(ascii: ":") else { return nil }
                }
                endRun()
                guard let end = groupEnd(p, from: i) else { return nil }
                if p[(i + 1)..<end].contains(UInt8(ascii: "(")) && p[(i + 1)..<end].contains(UInt8(ascii: "?")) {
                    // Nested (?...) inside a group could carry options; be safe.
                    if containsInlineOption(p[(i + 1)..<end]) { return nil }
                }
                i = end + 1
            case UInt8(ascii: ")"):
                return nil // unbalanced
            case UInt8(ascii: "*"), UInt8(ascii: "?"):
                if !run.isEmpty { run.removeLast() }
                endRun()
                i += 1
            case UInt8(ascii: "+"):
                endRun()
                i += 1
            case UInt8(ascii: "{"):
                guard let end = quantifierEnd(p, from: i) else { return nil }
                if !run.isEmpty { run.removeLast() }
                endRun()
                i = end + 1
            case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"):
                endRun()
                i += 1
            default:
                run.append(fold(c, caseInsensitive))
                i += 1
            }
        }
        endRun()
        return best.count >= minimumLength ? best : nil
    }

    /// The index after an escape like `\d`, `\x41`, `\u00e9`, `\p{L}`, `\k<n>`,
    /// `\12` or `\cM`, whose letter is at `at`; nil when its form is unclear.
    private static func escapeEnd(_ p: [UInt8], letterAt at: Int) -> Int? {
        var i = at + 1
        func skip(max: Int, _ allowed: (UInt8) -> Bool) {
            var n = 0
            while i < p.count, n < max, allowed(p[i]) { i += 1; n += 1 }
        }
        let isHex: (UInt8) -> Bool = { ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }
        let isDigit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        if i < p.count, p[i] == UInt8(ascii: "{") || p[i] == UInt8(ascii: "<") || p[i] == UInt8(ascii: "'") {
            // \p{..} \x{..} \N{..} \g{..} \k<..> \k'..' \o{..}
            let close: UInt8 = p[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : p[i] == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'")
            guard let end = p[(i + 1)...].firstIndex(of: close) else { return nil }
            return end + 1
        }
        switch p[at] {
        case UInt8(ascii: "x"): skip(max: 2, isHex)
        case UInt8(ascii: "u"): skip(max: 4, isHex)
        case UInt8(ascii: "U"): skip(max: 8, isHex)
        case UInt8(ascii: "c"): skip(max: 1) { _ in true }
        case UInt8(ascii: "g"): skip(max: 1) { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }; skip(max: 10, isDigit)
        case UInt8(ascii: "0")...UInt8(ascii: "9"): skip(max: 10, isDigit)
        default: break
        }
        return i
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
    }

    static func fold(_ b: UInt8, _ caseInsensitive: Bool) -> UInt8 {
        caseInsensitive && b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }

    /// Index of the `]` closing the class that opens at `start`.
    private static func classEnd(_ p: [UInt8], from start: Int) -> Int? {
        var i = start + 1
        if i < p.count, p[i] == UInt8(ascii: "^") { i += 1 }
        if i < p.count, p[i] == UInt8(ascii: "]") { i += 1 } // a leading ] is literal
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "["):
                // POSIX classes [:alpha:] or ICU nested sets: give up unless simple POSIX.
                if i + 1 < p.count, p[i + 1] == UInt8(ascii: ":"),
                   let close = p[(i + 2)...].firstIndex(of: UInt8(ascii: "]")), close > i + 2, p[close - 1] == UInt8(ascii: ":") {
                    i = close + 1
                } else {
                    return nil
                }
            case UInt8(ascii: "]"): return i
            default: i += 1
            }
        }
        return nil
    }

    /// Index of the `)` closing the group that opens at `start`.
    private static func groupEnd(_ p: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var i = start
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "\\"): i += 2; continue
            case UInt8(ascii: "["):
                guard let end = classEnd(p, from: i) else { return nil }
                i = end + 1; continue
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return i }
            default: break
            }
            i += 1
        }
        return nil
    }

    /// Index of the `}` of a `{n}`, `{n,}` or `{n,m}` quantifier at `start`.
    private static func quantifierEnd(_ p: [UInt8], from start: Int) -> Int? {
        var i = start + 1
        var digits = 0
        while i < p.count, p[i] >= 0x30, p[i] <= 0x39 { i += 1; digits += 1 }
        guard digits > 0, i < p.count else { return nil }
        if p[i] == UInt8(ascii: ",") {
            i += 1
            while i < p.count, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        return i < p.count && p[i] == UInt8(ascii: "}") ? i : nil
    }

    private static func containsInlineOption(_ s: ArraySlice<UInt8>) -> Bool {
        var i = s.startIndex
        while i + 2 < s.endIndex {
            if s[i] == UInt8(ascii: "("), s[i + 1] == UInt8(ascii: "?"), s[i + 2] != UInt8(ascii: ":") { return true }
            i += 1
        }
        return false
    }
}
