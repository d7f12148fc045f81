/// Reads a pattern's syntax for `RequiredLiteral`, taking as literal text
/// only what ICU (iOS profiles, the `foundation` backend), `java.util.regex`
/// (Android profiles) and PCRE2 (the default backend, directly or after
/// translation) all match as that text.
///
/// Read for the text they require: printable ASCII characters, written as
/// themselves (not `]` or `}`), escaped, or by code (`\x41`, `\x{41}`,
/// `\u0041`, `\U00000041`); groups, named groups, atomic groups, branch
/// resets and `(?flags:...)`; alternation; every quantifier.
///
/// Read as requiring nothing of the text they cover: `.`, anchors, classes,
/// other escapes (`\d`, `\b`, `\p{..}`, back references, ...), control and
/// non-ASCII characters, lookarounds (their contents need not be in the
/// matched text), `(?flags)` and `(?#...)`.
///
/// Everything else makes the whole pattern require nothing: what
/// `PatternSyntax` does not read, and inline flags other than
/// `i m s n J U d u w`.
///
/// Case: under case-insensitive matching ASCII letters are lower-cased (the
/// prefilter folds subjects the same way, and reads a character that folds
/// onto ASCII text as that text).
/// Under case-sensitive matching, once any flag group mentions `i` every
/// later letter requires nothing: scoping rules differ between engines, so
/// case-insensitivity is assumed from there to the end of the pattern.
/// Characters other than letters match only themselves under any case
/// folding, so they stay required.
struct RequiredLiteralReader {
    /// Why reading stopped: the pattern holds something outside the whitelist.
    struct Unsupported: Error {}

    private let syntax: PatternSyntax
    /// The whole pattern is compiled case-insensitively.
    private let foldCase: Bool
    /// A flag group mentioning `i` has been seen (case-sensitive patterns only).
    private var caselessFromHere = false
    /// The bytes the facts' texts are ranges of.
    private var text: LiteralText

    private init(syntax: PatternSyntax, foldCase: Bool) {
        self.syntax = syntax
        self.foldCase = foldCase
        // Literal bytes are at most about the pattern's, unless repeats copy them.
        text = LiteralText(capacity: syntax.text.count)
    }

    /// The longest text every match of the pattern read as `syntax`
    /// contains (maybe empty), or nil when the pattern holds something
    /// outside the whitelist.
    static func longest(_ syntax: PatternSyntax, caseInsensitive: Bool) -> ArraySlice<UInt8>? {
        var reader = RequiredLiteralReader(syntax: syntax, foldCase: caseInsensitive)
        var k = 0
        guard let facts = try? reader.alternation(&k, end: syntax.nodes.count) else { return nil }
        return reader.text.bytes[facts.longest]
    }

    private mutating func alternation(_ k: inout Int, end: Int) throws(Unsupported) -> LiteralFacts {
        let first = try sequence(&k, end: end)
        guard k < end else { return first }  // one branch, as most are: no array
        var branches = [first]
        while k < end {  // at a `|`
            k += 1
            branches.append(try sequence(&k, end: end))
        }
        return .anyOf(branches, in: text)
    }

    private mutating func sequence(_ k: inout Int, end: Int) throws(Unsupported) -> LiteralFacts {
        var facts = LiteralFacts.empty
        let nodes = syntax.nodes
        while k < end, !nodes[k].isAlternation {
            // Most of a pattern is characters matched literally, one at a
            // time: those not repeated grow the facts in place (what
            // appending `atom`'s piece does, without a piece for each).
            if case .character(let c, let spelling) = nodes[k].kind, !(k + 1 < end && nodes[k + 1].isQuantifier),
               let b = literalByte(c, spelling) {
                facts.append(byte: b, in: &text)
                k += 1
                continue
            }
            var piece = try atom(at: k)
            k = nodes[k].itemEnd(at: k)
            if k < end, case .quantifier(let min, let max, _) = nodes[k].kind {
                piece = piece.repeated(min: Int(min), max: max.map(Int.init), in: &text)
                k += 1
            }
            facts.append(piece, in: &text)
        }
        return facts
    }

    private mutating func atom(at k: Int) throws(Unsupported) -> LiteralFacts {
        switch syntax.nodes[k].kind {
        case .character(let c, let spelling):
            guard let b = literalByte(c, spelling) else { return .unknown }
            var facts = LiteralFacts.empty
            facts.append(byte: b, in: &text)
            return facts
        case .characterClass:
            // One character: where the class ends is where its dialect's
            // own class reader ends it, which the translation reads it with.
            return .unknown
        case .group(let kind, let close):
            if kind == .flags { try readFlags(of: k) }
            var inner = k + 1
            let contents = try alternation(&inner, end: Int(close))
            switch kind {
            case .lookahead, .negativeLookahead, .lookbehind, .negativeLookbehind: return .unknown
            default: return contents
            }
        case .flags:
            try readFlags(of: k)
            return .unknown
        case .dot, .caret, .dollar, .escape, .groupClose, .alternation, .quantifier:
            return .unknown
        }
    }

    /// The letters of the flag group at `k`: `i` makes later letters
    /// unknown; those that do not change what a literal character matches
    /// pass; any other makes the pattern unsupported.
    private mutating func readFlags(of k: Int) throws(Unsupported) {
        let node = syntax.nodes[k]
        for b in syntax.text[Int(node.start) + 2 ..< Int(node.end) - 1] {
            if b == UInt8(ascii: "i") {
                if !foldCase { caselessFromHere = true }
            } else if !"msnJUduw-^".utf8.contains(b) {
                throw Unsupported()
            }
        }
    }

    /// The byte the prefilter searches for a character `c` matched
    /// literally (lower-cased when the whole pattern folds case), or nil
    /// when nothing is known of it: a control or non-ASCII character, an
    /// unescaped `]` or `}` (an error in some engines), or a letter after
    /// `(?i)` in a case-sensitive pattern.
    private func literalByte(_ c: UInt32, _ spelling: PatternSyntax.Spelling) -> UInt8? {
        guard c >= 0x20, c < 0x7F else { return nil }
        if spelling == .plain, c == 0x5D || c == 0x7D { return nil }
        let b = UInt8(c)
        guard URLParts.isAlpha(b) else { return b }
        if foldCase { return b | 0x20 }
        return caselessFromHere ? nil : b
    }
}
