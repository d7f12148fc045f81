/// A pattern read once into its constructs, each with where it was written:
/// the one reading every analysis of a pattern's shape starts from.
///
/// It reads the pattern as one dialect does, ICU (iOS) or `java.util.regex`
/// (Android): its constructs as `PatternReader.token` delimits them, the
/// constructs the translation for the engine takes. What reads as nothing
/// has no node: the marks of `\Q...\E` (each quoted character is a node),
/// ICU's `(?#...)` comments, Java's `{n}` with nothing to repeat, and the
/// white space and `#` comments free-spacing mode (`(?x)`) skips. What the
/// tree does not read yet is refused (`Unsupported`, naming it): another
/// quantifier with nothing to repeat or after a quantifier, unbalanced
/// parentheses, and groups nested deeper than `maxDepth`; and what the
/// dialect itself refuses, in its words. A class is read by its dialect's
/// own class reader, which the translation reads it with too
/// (`PatternReader.icuClass`, `javaClass`): its items in the order the
/// dialect takes them, set operators included. `readAlike` reads a
/// pattern as both dialects read it, for lint and port, which look at a
/// pattern without its profile.
///
/// What a construct *means* is left to the reader of the syntax, each with
/// its own whitelist: `SmallPattern` (the plain patterns it decides without
/// the engine), `RequiredLiteral` (the prefilter's literals), port (the
/// subset ICU and Java read alike) and lint (a pattern's shape). The
/// engines' reading, which writes PCRE2, is `PatternTranslator`'s.
///
/// The syntax is a tree in pre-order: a group's node names the index of its
/// closing node, and a quantifier follows the item it repeats.
package struct PatternSyntax: Equatable, Sendable {
    /// One construct, and the UTF-8 bytes of the pattern it was written as.
    package struct Node: Equatable, Sendable {
        package var kind: Kind
        /// Where it starts, in UTF-8 bytes of the pattern.
        package var start: Int32
        /// Where it ends (exclusive), in UTF-8 bytes of the pattern.
        package var end: Int32

        /// The index of the node after the item this node, at `index`,
        /// starts (a group's `)` included), not counting a quantifier after it.
        package func itemEnd(at index: Int) -> Int {
            if case .group(_, let close) = kind { return Int(close) + 1 }
            return index + 1
        }

        /// Whether the node is `|` (a test cheaper than `==` on `Kind`).
        var isAlternation: Bool {
            if case .alternation = kind { return true }
            return false
        }

        var isQuantifier: Bool {
            if case .quantifier = kind { return true }
            return false
        }
    }

    package enum Kind: Equatable, Sendable {
        /// A character matched as itself, as it was written.
        case character(UInt32, Spelling)
        /// `.`, `^` and `$`.
        case dot, caret, dollar
        /// An escape that is not one character (`\d`, `\b`, `\p{L}`, `\1`).
        case escape(Escape)
        /// `[...]`: its index in `classes`.
        case characterClass(Int32)
        /// `(`, with what the group does and the index of its `)` node.
        case group(Group, close: Int32)
        /// `)` and `|`.
        case groupClose, alternation
        /// `*`, `+`, `?`, `{n}`, `{n,}` or `{n,m}`, with its mode; `max` is
        /// nil when the repeat has no bound.
        case quantifier(min: Int32, max: Int32?, Mode)
        /// Inline flags `(?flags)`, to the end of the enclosing group (its
        /// letters are the node's text).
        case flags
    }

    /// How a character was written.
    package enum Spelling: UInt8, Equatable, Sendable {
        /// As itself (`a`, `/`, `é`).
        case plain
        /// A backslash before a character that is not an ASCII letter or
        /// digit (`\.`, `\/`, `\ `, `\é`): the character itself in every engine.
        case escaped
        /// `\t`, `\n`, `\r`, `\f`, `\a` or `\e`.
        case control
        /// `\xHH` (ICU: also `\xH`).
        case hex
        /// `\x{H...}`.
        case hexBraced
        /// `\uHHHH`, or a surrogate pair of two.
        case unicode
        /// `\UHHHHHHHH` (ICU).
        case longUnicode
        /// `\0` and up to three octal digits.
        case octal
        /// `\cX`.
        case controlLetter
        /// `\N{NAME}`.
        case named
        /// An escaped letter or digit ICU reads as itself (`\y`, a `\E`
        /// outside quoting, a `\c` that ends the pattern).
        case letter
        /// Inside `\Q...\E`.
        case quoted
    }

    /// An escape that does not stand for one character.
    package enum Escape: Equatable, Sendable {
        /// A shorthand class, `\d \D \s \S \w \W \h \H \v \V` (the letter).
        case shorthand(UInt8)
        /// `\A`, `\z`, `\Z`, `\b`, `\B` or `\G` outside a class (the letter).
        case assertion(UInt8)
        /// Any other (its letter, or a back reference's first digit): a
        /// property `\p{..}` or `\P{..}`, a back reference `\12`, `\k<..>`,
        /// `\R`, `\X`, or Java's `\b{g}` (`b`). An escape that stands for one
        /// character (`\cX`, `\N{..}`, octal `\012`) is a `character` node.
        case other(UInt8)
    }

    package enum Group: Equatable, Sendable {
        case capturing
        /// `(?<name>`.
        case named
        case nonCapturing
        /// `(?>`.
        case atomic
        case lookahead, negativeLookahead, lookbehind, negativeLookbehind
        /// `(?flags:`; its letters are the text between `(?` and `:`.
        case flags
    }

    package enum Mode: UInt8, Equatable, Sendable { case greedy, lazy, possessive }

    /// A class `[...]`.
    package struct CharacterClass: Equatable, Sendable {
        /// `[^...]`.
        package var negated = false
        package var items: [ClassItem] = []
    }

    package enum ClassItem: Equatable, Sendable {
        case character(UInt32, Spelling)
        /// `a-z`, each end a character. ICU's starts at the last character
        /// the class added as itself, which need not be the item before
        /// (`[a&-z]`: `a`, `&` and `a` to `z`).
        case range(UInt32, Spelling, UInt32, Spelling)
        /// An escape that is not a character (`\d`, `\p{L}`; ICU's
        /// `[:name:]` is read as `\p` and `[:^name:]` as `\P`).
        case escape(Escape)
        /// A class nested in this one: its index in `classes`.
        case nested(Int32)
        /// A set operator: `&&` (Java and ICU), and ICU's `--`, and its
        /// single `&` and `-` between two nested classes.
        case intersection, difference
    }

    /// Why a pattern is not read: a construct the engines delimit
    /// differently, or that changes how the rest reads.
    package struct Unsupported: Error, Equatable, Sendable {
        /// The construct, named as a person would (`an unmatched )`).
        package let construct: String
        /// Where it starts, in UTF-8 bytes of the pattern.
        package let offset: Int
    }

    /// Deepest nesting of groups read (the readers of the syntax recurse
    /// into them; classes nest at most `PatternReader.maximumClassDepth`).
    package static let maxDepth = 200

    /// The pattern's UTF-8 bytes.
    package let text: [UInt8]
    /// The constructs, in the order written.
    package internal(set) var nodes: [Node] = []
    /// The classes, nested ones included.
    package internal(set) var classes: [CharacterClass] = []

    init(text: [UInt8]) { self.text = text }

    /// Reads `pattern`, or throws the first construct it does not read.
    package static func read(_ pattern: String, dialect: RegexDialect) throws(Unsupported) -> PatternSyntax {
        var reader = PatternSyntaxReader(pattern, dialect: dialect)
        try reader.readAll()
        return reader.syntax
    }

    /// Reads `pattern` as ICU and Java both read it, for the analyses that
    /// look at a pattern without a profile (lint, port): throws where either
    /// dialect does not read it, or where they read it differently.
    package static func readAlike(_ pattern: String) throws(Unsupported) -> PatternSyntax {
        let icu = try read(pattern, dialect: .icu)
        let java = quotedAsICU(try read(pattern, dialect: .java), icu)
        guard icu != java else { return icu }
        for (a, b) in zip(icu.nodes, java.nodes) {
            guard a == b else { throw Unsupported(construct: "a construct ICU and Java read differently", offset: Int(min(a.start, b.start))) }
            if case .characterClass(let index) = a.kind, let difference = classDifference(icu, java, Int(index)) {
                throw Unsupported(construct: "a class ICU and Java read differently: " + difference, offset: Int(a.start))
            }
        }
        throw Unsupported(construct: "a construct ICU and Java read differently", offset: Int(icu.nodes.last?.start ?? 0))
    }

    /// `java` with each character ICU reads as quoted spelled `.quoted`
    /// too: the JDK reads a quote as the text it rewrites it to (`\)`, `a`,
    /// `\x31` for `\Q)a1\E`, `PatternReader.javaUnquoted`), the same
    /// characters in the same places.
    private static func quotedAsICU(_ java: PatternSyntax, _ icu: PatternSyntax) -> PatternSyntax {
        var java = java
        for (k, node) in zip(java.nodes.indices, icu.nodes) {
            if case .character(let a, .quoted) = node.kind, case .character(let b, _) = java.nodes[k].kind, a == b { java.nodes[k].kind = node.kind }
        }
        for (c, set) in zip(java.classes.indices, icu.classes) {
            for (i, item) in zip(java.classes[c].items.indices, set.items) {
                switch (item, java.classes[c].items[i]) {
                case (.character(let a, .quoted), .character(let b, _)) where a == b:
                    java.classes[c].items[i] = item
                case (.range(let lo, let ls, let hi, let hs), .range(let jlo, let js, let jhi, let jh)) where lo == jlo && hi == jhi:
                    java.classes[c].items[i] = .range(lo, ls == .quoted ? ls : js, hi, hs == .quoted ? hs : jh)
                default:
                    break
                }
            }
        }
        return java
    }

    /// How the class at `index` (and those nested in it) reads in `icu`
    /// otherwise than in `java`, named by its first item that differs; nil
    /// where they read it alike.
    private static func classDifference(_ icu: PatternSyntax, _ java: PatternSyntax, _ index: Int) -> String? {
        let (a, b) = (icu.classes[index], java.classes[index])
        if a.negated != b.negated { return a.negated ? "ICU negates it" : "Java negates it" }
        for k in 0..<max(a.items.count, b.items.count) {
            let (x, y) = (a.items.indices.contains(k) ? a.items[k] : nil, b.items.indices.contains(k) ? b.items[k] : nil)
            if x != y { return "ICU reads \(describe(x)) where Java reads \(describe(y))" }
            if case .nested(let n)? = x, let difference = classDifference(icu, java, Int(n)) { return difference }
        }
        return nil
    }

    /// A class item, named as a person would.
    private static func describe(_ item: ClassItem?) -> String {
        func character(_ c: UInt32) -> String { Unicode.Scalar(c).map { "\"" + String(Character($0)) + "\"" } ?? "U+" + String(c, radix: 16) }
        switch item {
        case nil: return "nothing"
        case .character(let c, _)?: return character(c)
        case .range(let low, _, let high, _)?: return "the range " + character(low) + " to " + character(high)
        case .escape(.shorthand(let letter))?: return "\\" + String(Character(Unicode.Scalar(letter)))
        case .escape?: return "a property"
        case .nested?: return "a nested class"
        case .intersection?: return "an intersection"
        case .difference?: return "a difference"
        }
    }

    /// The text of `node`, as written.
    package func source(of node: Node) -> Substring {
        Substring(decoding: text[Int(node.start)..<Int(node.end)], as: UTF8.self)
    }

    /// The quantifier after the item at `index`, if any.
    package func quantifier(after index: Int) -> (min: Int, max: Int?, mode: Mode)? {
        let next = nodes[index].itemEnd(at: index)
        guard next < nodes.count, case .quantifier(let min, let max, let mode) = nodes[next].kind else { return nil }
        return (Int(min), max.map(Int.init), mode)
    }

    /// `byteOffset` counted in Unicode scalars.
    package func scalarOffset(_ byteOffset: Int) -> Int { Self.scalarOffset(byteOffset, in: text) }

    /// `byteOffset` of the UTF-8 `text` counted in Unicode scalars (for an
    /// `Unsupported`'s offset, which has no syntax to ask).
    package static func scalarOffset(_ byteOffset: Int, in text: some Collection<UInt8>) -> Int {
        text.prefix(byteOffset).reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }
}
