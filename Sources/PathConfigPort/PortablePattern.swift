/// A pattern read as a list of tokens of the subset of regular expressions
/// that ICU and `java.util.regex` both read, and read alike on the URLs port
/// covers (`CoveredURLs`): literals, escaped punctuation, `.`, simple
/// classes, `\d` `\w` `\s` and their negations, `^` `$` `\A` `\z` `\Z`
/// `\b` `\B`, groups (capturing, non-capturing, atomic, lookaround), `|`
/// and quantifiers.
///
/// Anything else (inline flags, backreferences, named groups, `\p{...}`,
/// nested or intersected classes, `\Q...\E`, ...) is outside the subset:
/// `parse` says which construct, and port refuses the pattern rather than
/// guess what it means to the other engine.
struct PortablePattern: Equatable {
    /// One construct of the pattern, with the text it was written as.
    struct Token: Equatable {
        /// What the construct is.
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
            /// `(`, `(?:`, `(?>`, `(?=`, `(?!`, `(?<=`, `(?<!`.
            case groupOpen(GroupKind)
            /// `)`.
            case groupClose
            /// `|`.
            case alternation
            /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each maybe followed by `?` or `+`.
            case quantifier
        }

        /// What the construct is.
        let kind: Kind
        /// The construct as written.
        let text: String
    }

    /// The three shorthand classes.
    enum Shorthand: Character, Equatable { case digit = "d", word = "w", space = "s" }

    /// What a group does.
    enum GroupKind: Equatable { case capturing, nonCapturing, atomic, lookahead, negativeLookahead, lookbehind, negativeLookbehind }

    /// One item of a character class.
    enum ClassItem: Equatable {
        /// A character (written as itself or escaped).
        case character(Unicode.Scalar)
        /// `a-z`.
        case range(Unicode.Scalar, Unicode.Scalar)
        /// `\d`, `\w` or `\s` inside the class.
        case shorthand(Shorthand)
    }

    /// Why a pattern is outside the subset.
    struct Unsupported: Error, Equatable {
        /// The construct, named as a person would (`inline flags (?i)`).
        let construct: String
        /// Where it starts, in Unicode scalars.
        let offset: Int
    }

    /// The tokens, in order.
    let tokens: [Token]

    /// Reads `pattern`, or throws the first construct outside the subset.
    static func parse(_ pattern: String) throws(Unsupported) -> PortablePattern {
        var reader = Reader(pattern)
        return PortablePattern(tokens: try reader.readAll())
    }
}

/// The tokenizer behind `PortablePattern.parse`.
private struct Reader {
    let scalars: [Unicode.Scalar]
    var position = 0
    var depth = 0
    /// Whether the last token may take a quantifier.
    var quantifiable = false

    init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    typealias Token = PortablePattern.Token
    typealias Unsupported = PortablePattern.Unsupported

    /// The pattern's text from scalar `from` to the current position (in
    /// time proportional to its length, not to its place in the pattern).
    func slice(from: Int) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[from..<position])
        return String(text)
    }

    mutating func readAll() throws(Unsupported) -> [Token] {
        var tokens: [Token] = []
        while position < scalars.count {
            let start = position
            let kind = try readToken()
            tokens.append(Token(kind: kind, text: slice(from: start)))
        }
        guard depth == 0 else { throw Unsupported(construct: "a group without its )", offset: scalars.count) }
        return tokens
    }

    mutating func readToken() throws(Unsupported) -> Token.Kind {
        let start = position
        let c = scalars[position]
        position += 1
        switch c {
        case "\\":
            let kind = try readEscape(start: start)
            switch kind {
            case .start, .end, .wordBoundary: quantifiable = false
            default: quantifiable = true
            }
            return kind
        case ".":
            quantifiable = true
            return .any
        case "[":
            quantifiable = true
            return try readClass(start: start)
        case "^":
            quantifiable = false
            return .start
        case "$":
            quantifiable = false
            return .end
        case "|":
            quantifiable = false
            return .alternation
        case "(":
            quantifiable = false
            depth += 1
            return .groupOpen(try readGroupKind(start: start))
        case ")":
            guard depth > 0 else { throw Unsupported(construct: "an unmatched )", offset: start) }
            depth -= 1
            quantifiable = true
            return .groupClose
        case "*", "+", "?", "{":
            guard quantifiable else {
                throw Unsupported(construct: "a quantifier \(Character(c)) with nothing to repeat", offset: start)
            }
            if c == "{" { try readBraces(start: start) }
            if position < scalars.count, scalars[position] == "?" || scalars[position] == "+" { position += 1 }
            quantifiable = false
            return .quantifier
        case "]", "}":
            throw Unsupported(construct: "an unescaped \(Character(c)) (ICU and Java read it differently)", offset: start)
        default:
            quantifiable = true
            return .literal(c)
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` (the `{` read).
    mutating func readBraces(start: Int) throws(Unsupported) {
        var sawDigit = false, sawComma = false
        while position < scalars.count {
            let c = scalars[position]
            position += 1
            if c == "}" {
                guard sawDigit else { break }
                return
            }
            if c == ",", !sawComma, sawDigit { sawComma = true; continue }
            guard c.properties.numericType == .decimal, c.isASCII else { break }
            sawDigit = true
        }
        throw Unsupported(construct: "a { that is not a quantifier {n}, {n,} or {n,m}", offset: start)
    }

    /// What follows `(`.
    mutating func readGroupKind(start: Int) throws(Unsupported) -> PortablePattern.GroupKind {
        guard position < scalars.count, scalars[position] == "?" else { return .capturing }
        let rest = scalars[position...].prefix(4).map(Character.init)
        let kinds: [(String, PortablePattern.GroupKind)] = [
            ("?:", .nonCapturing), ("?>", .atomic), ("?=", .lookahead), ("?!", .negativeLookahead),
            ("?<=", .lookbehind), ("?<!", .negativeLookbehind),
        ]
        for (prefix, kind) in kinds where rest.starts(with: prefix) {
            position += prefix.count
            return kind
        }
        if rest.starts(with: "?<") { throw Unsupported(construct: "a named group (?<name>...)", offset: start) }
        throw Unsupported(construct: "inline flags or an option group (?...)", offset: start)
    }

    /// An escape outside a class (the `\` read).
    mutating func readEscape(start: Int) throws(Unsupported) -> Token.Kind {
        guard position < scalars.count else { throw Unsupported(construct: "a \\ at the end of the pattern", offset: start) }
        let c = scalars[position]
        position += 1
        switch c {
        case "d", "w", "s", "D", "W", "S":
            return .shorthand(shorthand(c), negated: c.properties.isUppercase)
        case "A": return .start
        case "z", "Z": return .end
        case "b", "B": return .wordBoundary
        default:
            if let literal = try readLiteralEscape(c, start: start) { return .literal(literal) }
            throw Unsupported(construct: "the escape \\\(Character(c))", offset: start)
        }
    }

    /// The character an escape stands for, when it is one both engines read
    /// alike: escaped ASCII punctuation, `\t` `\n` `\r` `\f`, `\xhh`, `\uhhhh`.
    mutating func readLiteralEscape(_ c: Unicode.Scalar, start: Int) throws(Unsupported) -> Unicode.Scalar? {
        switch c {
        case "t": return "\t"
        case "n": return "\n"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "x": return try readHex(count: 2, start: start)
        case "u": return try readHex(count: 4, start: start)
        default:
            // ICU and Java both read an escaped ASCII character that is not a
            // letter or digit as itself.
            guard c.isASCII, c.value > 0x20, c.value < 0x7F,
                  !c.properties.isAlphabetic, c.properties.numericType == nil else { return nil }
            return c
        }
    }

    /// `count` hex digits (after `\x` or `\u`) as a scalar.
    mutating func readHex(count: Int, start: Int) throws(Unsupported) -> Unicode.Scalar {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard position < scalars.count, let digit = Character(scalars[position]).hexDigitValue, scalars[position].isASCII else {
                throw Unsupported(construct: "an escape \\x or \\u without its hex digits", offset: start)
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        guard let scalar = Unicode.Scalar(value), !(0xD800...0xDFFF).contains(value) else {
            throw Unsupported(construct: "a surrogate escape", offset: start)
        }
        return scalar
    }

    func shorthand(_ c: Unicode.Scalar) -> PortablePattern.Shorthand {
        switch Character(c).lowercased() {
        case "d": return .digit
        case "w": return .word
        default: return .space
        }
    }

    /// A class (the `[` read).
    mutating func readClass(start: Int) throws(Unsupported) -> Token.Kind {
        var negated = false
        if position < scalars.count, scalars[position] == "^" {
            negated = true
            position += 1
        }
        var items: [PortablePattern.ClassItem] = []
        var first = true
        while true {
            guard position < scalars.count else { throw Unsupported(construct: "a class without its ]", offset: start) }
            let itemStart = position
            let c = scalars[position]
            position += 1
            if c == "]" {
                // Java reads a ] first in a class as a literal, ICU as the end.
                guard !first else { throw Unsupported(construct: "an empty class or a ] first in a class", offset: itemStart) }
                break
            }
            first = false
            var scalar: Unicode.Scalar
            switch c {
            case "[":
                throw Unsupported(construct: "a nested class [...[...]]", offset: itemStart)
            case "&":
                if position < scalars.count, scalars[position] == "&" {
                    throw Unsupported(construct: "a class intersection &&", offset: itemStart)
                }
                scalar = c
            case "-":
                // A dash only first or last, where both read it as itself.
                guard items.isEmpty || (position < scalars.count && scalars[position] == "]") else {
                    throw Unsupported(construct: "a - inside a class that is not a range", offset: itemStart)
                }
                scalar = c
            case "\\":
                guard position < scalars.count else { throw Unsupported(construct: "a class without its ]", offset: start) }
                let e = scalars[position]
                position += 1
                if e == "d" || e == "w" || e == "s" {
                    items.append(.shorthand(shorthand(e)))
                    continue
                }
                guard let literal = try readLiteralEscape(e, start: itemStart) else {
                    throw Unsupported(construct: "the escape \\\(Character(e)) inside a class", offset: itemStart)
                }
                scalar = literal
            default:
                scalar = c
            }
            // A range a-z (not a-] and not a-\d).
            if position + 1 < scalars.count, scalars[position] == "-", scalars[position + 1] != "]" {
                position += 1
                let upperStart = position
                var upper = scalars[position]
                position += 1
                if upper == "\\" {
                    guard position < scalars.count else { throw Unsupported(construct: "a class without its ]", offset: start) }
                    let e = scalars[position]
                    position += 1
                    guard let literal = try readLiteralEscape(e, start: upperStart) else {
                        throw Unsupported(construct: "a range ending in \\\(Character(e))", offset: upperStart)
                    }
                    upper = literal
                } else if upper == "[" {
                    throw Unsupported(construct: "a nested class [...[...]]", offset: upperStart)
                }
                guard scalar.value <= upper.value else {
                    throw Unsupported(construct: "a range out of order", offset: itemStart)
                }
                items.append(.range(scalar, upper))
            } else {
                items.append(.character(scalar))
            }
        }
        return .characterClass(items: items, negated: negated)
    }
}
