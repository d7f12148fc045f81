/// One construct outside a class, as the dialect's scanner delimits it.
/// `PatternSyntaxReader` makes the tree's nodes of these and
/// `PatternTranslator` writes PCRE2 for them, so which character starts
/// which construct, and where each ends, is said once (`PatternReader.token`).
enum PatternToken: Equatable {
    /// A character written as itself.
    case character(UInt32)
    /// `\`: the escape is the caller's to read (`escape(at:inClass:)`).
    case escape
    /// `[`: the class is the caller's to read, in its dialect's grammar.
    case classOpen
    /// `(`: what it opens is the caller's to read (`groupOpener`), after
    /// ending what the group ends. Never an ICU `(?#...)` comment, which
    /// reads as nothing.
    case groupOpen
    /// `)`, `|`, `.`, `^` and `$`.
    case groupClose, alternation, dot, caret, dollar
    /// `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`, with its mode.
    case quantifier(Quantifier)
}

/// A quantifier as written: its symbol, bounds and mode.
struct Quantifier: Equatable {
    /// `*`, `+`, `?` or `{`.
    let symbol: UInt32
    let min: Int
    /// Nil when the repeat has no bound.
    let max: Int?
    let mode: PatternSyntax.Mode

    /// `?` or `{0,1}`, which the JDK runs with a `Ques` node, not a loop.
    var isQues: Bool { min == 0 && max == 1 }

    /// The quantifier's text without its mode, as PCRE2 reads it too
    /// (`*`, `{2,}`).
    var text: String {
        guard symbol == 0x7B else { return String(Unicode.Scalar(UInt8(symbol))) }
        if max == min { return "{\(min)}" }
        return max.map { "{\(min),\($0)}" } ?? "{\(min),}"
    }
}

extension PatternReader {
    /// Reads the next construct outside a class and where it starts, or
    /// nil at the end. Free-spacing white space and comments, and ICU's
    /// `(?#...)` comments, are skipped. Throws where the dialect refuses
    /// what is written: a comment, a repeat count, or ICU's `}`.
    @inline(__always)
    mutating func token() throws(TranslationError) -> (PatternToken, at: Int)? {
        while let c = nextSignificant() {
            let at = position - 1
            switch c {
            case 0x5C: return (.escape, at)
            case 0x5B: return (.classOpen, at)
            case 0x28:
                if try skipsICUComment(at: at) { continue }
                return (.groupOpen, at)
            case 0x29:
                if icuOpenGroups > 0 { icuOpenGroups -= 1 }
                return (.groupClose, at)
            case 0x7C: return (.alternation, at)
            case 0x2E: return (.dot, at)
            case 0x5E: return (.caret, at)
            case 0x24: return (.dollar, at)
            case 0x2A: return (.quantifier(withMode(0x2A, 0, nil)), at)
            case 0x2B: return (.quantifier(withMode(0x2B, 1, nil)), at)
            case 0x3F: return (.quantifier(withMode(0x3F, 0, 1)), at)
            case 0x7B:
                let (low, high) = try repeatCount(at: at)
                return (.quantifier(withMode(0x7B, low, high)), at)
            case 0x7D where dialect == .icu:
                throw .invalid(dialect, "unescaped }", at: at)
            default: return (.character(c), at)
            }
        }
        return nil
    }

    /// The quantifier with the `?` (lazy) or `+` (possessive) after it, if any, taken.
    private mutating func withMode(_ symbol: UInt32, _ min: Int, _ max: Int?) -> Quantifier {
        let next = peekSignificant()
        let mode: PatternSyntax.Mode = next == 0x3F ? .lazy : next == 0x2B ? .possessive : .greedy
        if mode != .greedy { position += 1 }
        return Quantifier(symbol: symbol, min: min, max: max, mode: mode)
    }

    /// Whether the `(` just taken, at `source`, opens an ICU `(?#...)`
    /// comment, then read to its `)`; reads nothing otherwise. ICU reads
    /// the comment through its scanner (`nextChar`), as a class: a `)` that
    /// `\Q...\E` quotes or an escape writes (`\x29`) does not end it, nor
    /// one in a free-spacing `#` comment.
    private mutating func skipsICUComment(at source: Int) throws(TranslationError) -> Bool {
        let mark = position
        guard dialect == .icu, peekSignificant() == 0x3F else { position = mark; return false }
        position += 1
        skipSpaces() // a # here is the comment's, not one to the end of the line
        guard next() == 0x23 else { position = mark; return false }
        try holdICULevels(icuOpenGroups + 1, at: source)
        var scanner = ICUScanner()
        var unread = UnreadEscapes()
        while true {
            let c = try icuNextCharacter(&scanner, &unread)
            if c.is(0x29) { return true }
            if c.value == nil { throw .invalid(dialect, "unterminated comment", at: source) }
        }
    }
}

/// The escapes of an ICU comment, which nothing reads.
private struct UnreadEscapes: ClassSink {
    func escaped(_ value: UInt32, at source: Int) {}
}
