import PathConfigCore

/// A pattern read as a list of tokens of the subset of regular expressions
/// that ICU and `java.util.regex` both read, and read alike on the URLs port
/// covers (`CoveredURLs`): literals, escaped punctuation, `.`, simple
/// classes, `\d` `\w` `\s` and their negations, `^` `$` `\A` `\z` `\Z`
/// `\b` `\B`, groups (capturing, non-capturing, atomic, lookaround), `|`
/// and quantifiers.
///
/// Anything else (inline flags, backreferences, named groups, `\p{...}`,
/// nested or intersected classes, `\Q...\E`, repeats of groups the two
/// engines go back into differently, ...) is outside the subset:
/// `parse` says which construct, and port refuses the pattern rather than
/// guess what it means to the other engine.
struct PortablePattern: Equatable {
    /// One construct of the pattern, with the text it was written as.
    struct Token: Equatable {
        enum Kind: Equatable {
            /// A character matched as itself (`a`, `\.`, `\/`).
            case literal(Unicode.Scalar)
            /// `.`.
            case any
            /// `[...]`: its items, and whether it is negated (`[^...]`).
            case characterClass(items: [ClassItem], negated: Bool)
            /// `\d`, `\w`, `\s` (negated: `\D`, `\W`, `\S`).
            case shorthand(Shorthand, negated: Bool)
            /// `^` or `\A`.
            case start
            /// `$`, `\z` or `\Z`.
            case end
            /// `\b` or `\B`.
            case wordBoundary
            /// `(`, `(?:`, `(?>`, `(?=`, `(?!`, `(?<=`, `(?<!`: never `.named` or `.flags`, which are outside the subset.
            case groupOpen(PatternSyntax.Group)
            /// `)`.
            case groupClose
            /// `|`.
            case alternation
            /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe followed by `?` or `+`.
            case quantifier
        }

        let kind: Kind
        /// The construct as written.
        let text: String
    }

    enum Shorthand: Character, Equatable { case digit = "d", word = "w", space = "s", horizontalSpace = "h", verticalSpace = "v" }

    enum ClassItem: Equatable {
        /// A character (written as itself or escaped).
        case character(Unicode.Scalar)
        /// `a-z`.
        case range(Unicode.Scalar, Unicode.Scalar)
        /// `\d`, `\w`, `\s`, `\h` or `\v` inside the class.
        case shorthand(Shorthand)
    }

    /// Why a pattern is outside the subset.
    struct Unsupported: Error, Equatable {
        /// The construct, named as a person would (`inline flags (?i)`).
        let construct: String
        /// Where it starts, in Unicode scalars; for a construct inside a
        /// class, where the class starts.
        let offset: Int
    }

    let tokens: [Token]

    /// Reads `pattern`, or throws the first construct outside the subset:
    /// one `PatternSyntax` does not read, or one it reads that is outside.
    static func parse(_ pattern: String) throws(Unsupported) -> PortablePattern {
        let syntax: PatternSyntax
        do { syntax = try PatternSyntax.readAlike(pattern) } catch {
            throw Unsupported(construct: error.construct, offset: PatternSyntax.scalarOffset(error.offset, in: pattern.utf8))
        }
        let subset = Subset(syntax: syntax)
        return PortablePattern(tokens: try syntax.nodes.indices.map { (k: Int) throws(Unsupported) -> Token in
            Token(kind: try subset.kind(at: k), text: String(syntax.source(of: syntax.nodes[k])))
        })
    }
}

/// The subset, as a whitelist over `PatternSyntax`'s nodes: each node is a
/// token, or the construct that puts the pattern outside.
private struct Subset {
    let syntax: PatternSyntax
    /// For each node, whether a lookbehind encloses it.
    let inLookbehind: [Bool]
    /// For each `)` node, its group's `(` node.
    let opener: [Int: Int]

    init(syntax: PatternSyntax) {
        self.syntax = syntax
        var closes: [Int32] = []
        var opener: [Int: Int] = [:]
        inLookbehind = syntax.nodes.indices.map { k in
            while let close = closes.last, close < k { closes.removeLast() }
            let inside = !closes.isEmpty
            if case .group(let group, let close) = syntax.nodes[k].kind {
                opener[Int(close)] = k
                if group == .lookbehind || group == .negativeLookbehind { closes.append(close) }
            }
            return inside
        }
        self.opener = opener
    }

    func refusal(_ construct: String, at byteOffset: Int32) -> PortablePattern.Unsupported {
        PortablePattern.Unsupported(construct: construct, offset: syntax.scalarOffset(Int(byteOffset)))
    }

    /// The token node `k` is.
    func kind(at k: Int) throws(PortablePattern.Unsupported) -> PortablePattern.Token.Kind {
        let node = syntax.nodes[k]
        switch node.kind {
        case .character(let c, let spelling):
            // (An unescaped `}` never comes here: ICU refuses it, and `readAlike` with it.)
            if spelling == .plain, c == 0x5D {
                throw refusal("an unescaped ] (ICU and Java read it differently)", at: node.start)
            }
            guard let scalar = literal(c, spelling) else { throw refusal(Self.outside(c, spelling), at: node.start) }
            return .literal(scalar)
        case .dot: return .any
        case .caret: return .start
        case .dollar: return .end
        case .escape(.shorthand(let letter)):
            return .shorthand(Self.shorthand(letter), negated: letter < UInt8(ascii: "a"))
        case .escape(.assertion(UInt8(ascii: "A"))): return .start
        case .escape(.assertion(UInt8(ascii: "z"))), .escape(.assertion(UInt8(ascii: "Z"))): return .end
        case .escape(.assertion(UInt8(ascii: "b"))), .escape(.assertion(UInt8(ascii: "B"))): return .wordBoundary
        case .escape:
            // `\G`, `\p{..}`, back references, `\k<..>`, `\cX`, ...: the escape's first character names it.
            throw refusal("the escape " + String(String.UnicodeScalarView(syntax.source(of: node).unicodeScalars.prefix(2))), at: node.start)
        case .characterClass(let index):
            return try characterClass(Int(index), at: node.start)
        case .group(.named, _): throw refusal("a named group (?<name>...)", at: node.start)
        case .group(.flags, _), .flags: throw refusal("inline flags or an option group (?...)", at: node.start)
        case .group(let group, _): return .groupOpen(group)
        case .groupClose: return .groupClose
        case .alternation: return .alternation
        case .quantifier(let min, let max, let mode):
            // PatternSyntax reads a quantifier after an anchor, a boundary
            // or a lookaround (`^*`, `(?=a)?`); ICU rejects the last, and
            // the subset takes none.
            switch syntax.nodes[k - 1].kind {
            case .caret, .dollar, .escape(.assertion):
                throw refusal("a quantifier \(syntax.source(of: node).prefix(1)) with nothing to repeat", at: node.start)
            default:
                let open = opener[k - 1]  // the group the quantifier repeats, if it repeats one
                if let open, case .group(let group, _) = syntax.nodes[open].kind, Self.isLookaround(group) {
                    throw refusal("a quantifier on a lookaround", at: node.start)
                }
                // ICU needs a lookbehind's length bounded; the JDK takes some unbounded ones.
                if max == nil && inLookbehind[k] { throw refusal("an unbounded repeat in a lookbehind", at: node.start) }
                if let open { try checkGroupRepeat(body: open + 1 ..< k - 1, min: min, max: max, mode: mode, at: node.start) }
                return .quantifier
            }
        }
    }

    /// A repeat of a group whose iterations ICU and the JDK match alike.
    /// ICU's lazy or possessive loop without bound gives up on a body that
    /// can match the empty string (`(?:^)*+` matches nothing there). The
    /// JDK never goes back into an iteration of a possessive repeat (ICU
    /// makes the whole repeat atomic: `(?:a|ab){2}+c` finds "abac" there
    /// only), and its `Loop`, a repeat of a body with `|` or a repeat of
    /// varying count inside, ends at an iteration that matched the empty
    /// string, even below its count (`(^|a){2}b` finds "ab" in ICU only).
    func checkGroupRepeat(body: Range<Int>, min: Int32, max: Int32?, mode: PatternSyntax.Mode, at offset: Int32) throws(PortablePattern.Unsupported) {
        if mode != .greedy && max == nil && canMatchEmpty(body) {
            throw refusal("a lazy or possessive repeat without bound of a group that can match the empty string (ICU's loop gives up early)",
                          at: offset)
        }
        let branches = syntax.nodes[body].contains { node in
            if case .quantifier(let a, let b, _) = node.kind { return a != b }
            return node.kind == .alternation
        }
        guard branches else { return }
        if mode == .possessive && max != 1 {
            throw refusal("a possessive repeat of a group with | or a repeat inside (the JDK never backtracks into an iteration)", at: offset)
        }
        if mode != .possessive && (min >= 2 || (max ?? 0) >= 2) && canMatchEmpty(body) {
            throw refusal("a count on a group that can match the empty string, with | or a repeat inside (the JDK stops at an empty iteration)",
                          at: offset)
        }
    }

    /// `(?=`, `(?!`, `(?<=` or `(?<!`.
    static func isLookaround(_ group: PatternSyntax.Group) -> Bool {
        group == .lookahead || group == .negativeLookahead || group == .lookbehind || group == .negativeLookbehind
    }

    /// Whether the nodes of `range`, a group's body, can match the empty string.
    func canMatchEmpty(_ range: Range<Int>) -> Bool {
        var k = range.lowerBound, branchEmpty = true
        while k < range.upperBound {
            var next = k + 1, itemEmpty = false
            switch syntax.nodes[k].kind {
            case .alternation:
                if branchEmpty { return true }
                branchEmpty = true
                k = next
                continue
            case .group(let group, let close):
                next = Int(close) + 1
                itemEmpty = Self.isLookaround(group) || canMatchEmpty(k + 1 ..< Int(close))
            case .caret, .dollar, .escape(.assertion): itemEmpty = true
            default: break
            }
            if next < range.upperBound, case .quantifier(let min, _, _) = syntax.nodes[next].kind {
                itemEmpty = itemEmpty || min == 0
                next += 1
            }
            branchEmpty = branchEmpty && itemEmpty
            k = next
        }
        return branchEmpty
    }

    /// A character ICU and Java both read as `c`: written as itself, as
    /// escaped ASCII punctuation, `\t` `\n` `\r` `\f` `\a` `\e`, `\xhh` or `\uhhhh`
    /// (not a surrogate); nil for another spelling (`\ `, `\x{..}`, `\U`).
    func literal(_ c: UInt32, _ spelling: PatternSyntax.Spelling) -> Unicode.Scalar? {
        switch spelling {
        case .plain, .control, .hex, .unicode: return Unicode.Scalar(c)
        case .escaped: return c > 0x20 && c < 0x7F ? Unicode.Scalar(c) : nil
        case .hexBraced, .longUnicode, .octal, .controlLetter, .named, .letter, .quoted: return nil
        }
    }

    /// Why `literal` refused `c` written as `spelling`.
    static func outside(_ c: UInt32, _ spelling: PatternSyntax.Spelling, inClass: Bool = false) -> String {
        let escape: String
        switch spelling {
        case .unicode: return "a surrogate escape"
        case .quoted: return "quoting \\Q...\\E"
        case .hexBraced: escape = "x{...}"
        case .longUnicode: escape = "U"
        case .octal: escape = "0..."
        case .controlLetter: escape = "c"
        case .named: escape = "N{...}"
        default: escape = String(Character(Unicode.Scalar(c) ?? "?"))
        }
        return "the escape \\\(escape)" + (inClass ? " inside a class" : "")
    }

    static func shorthand(_ letter: UInt8) -> PortablePattern.Shorthand {
        PortablePattern.Shorthand(rawValue: Character(Unicode.Scalar(letter | 0x20)))!
    }

    /// The class `classes[index]`, whose `[` is at `start`, read alike by
    /// ICU and Java (`PatternSyntax.readAlike`): no nested class, no set
    /// operator, no `]` first, a `-` only first or last unless in a range,
    /// and of escapes only the characters `literal` reads and `\d` `\w`
    /// `\s` (`PortableSubsetDifferentialTests` holds it against ICU and the
    /// JDK).
    func characterClass(_ index: Int, at start: Int32) throws(PortablePattern.Unsupported) -> PortablePattern.Token.Kind {
        let set = syntax.classes[index]
        if let first = set.items.first, Self.starts(first, with: 0x5D) {
            // ICU and Java both read a plain ] first (and only there) as a
            // character (`readAlike` compares them); the subset leaves it
            // out, as a reader takes `[]` for an empty class.
            throw refusal("an empty class or a ] first in a class", at: start + (set.negated ? 2 : 1))
        }
        if set.items.contains(where: { if case .nested = $0 { return true } else { return false } }) {
            throw refusal("a nested class [...[...]]", at: start)
        }
        var items: [PortablePattern.ClassItem] = []
        for (n, item) in set.items.enumerated() {
            // A plain `-` only first (a range from it included) or last.
            if Self.starts(item, with: 0x2D), n > 0, !(n == set.items.count - 1 && item == .character(0x2D, .plain)) {
                throw refusal("a - inside a class that is not a range", at: start)
            }
            switch item {
            case .character(let c, let spelling):
                guard let scalar = literal(c, spelling) else { throw refusal(Self.outside(c, spelling, inClass: true), at: start) }
                items.append(.character(scalar))
            case .range(let lo, let loSpelling, let hi, let hiSpelling):
                guard let low = literal(lo, loSpelling) else { throw refusal(Self.outside(lo, loSpelling, inClass: true), at: start) }
                guard let high = literal(hi, hiSpelling) else { throw refusal(Self.outside(hi, hiSpelling, inClass: true), at: start) }
                items.append(.range(low, high))
            case .escape(.shorthand(let letter)) where letter >= UInt8(ascii: "a"):
                items.append(.shorthand(Self.shorthand(letter)))
            case .escape(.shorthand(let e)), .escape(.other(let e)), .escape(.assertion(let e)):
                throw refusal("the escape \\\(Character(Unicode.Scalar(e))) inside a class", at: start)
            case .nested:
                break // refused above
            case .intersection:
                throw refusal("a class intersection &&", at: start)
            case .difference:
                throw refusal("a class difference --", at: start)
            }
        }
        return .characterClass(items: items, negated: set.negated)
    }

    /// Whether a class item is `c` written as itself, or a range from it.
    static func starts(_ item: PatternSyntax.ClassItem, with c: UInt32) -> Bool {
        switch item {
        case .character(c, .plain), .range(c, .plain, _, _): return true
        default: return false
        }
    }
}
