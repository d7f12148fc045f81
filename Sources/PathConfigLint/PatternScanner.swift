/// A pattern read as a flat list of tokens, enough for lint's checks on its
/// shape (an unescaped `.`, a final `$`), in ICU and Java syntax alike.
///
/// It reads only what both dialects spell the same way. A pattern holding a
/// construct whose extent or meaning it does not follow (`\Q...\E`, the
/// `(?x)` flag, `(?#...)` comments, characters given by code such as `\x2E`,
/// an unclosed class) is not read at all: `scan` returns nil and the checks
/// say nothing about it.
struct PatternScanner {
    /// One token of the pattern.
    struct Token: Equatable {
        enum Kind: Equatable {
            /// A character standing for itself (`a`, `/`, `-`).
            case literal(Unicode.Scalar)
            /// A punctuation character escaped to stand for itself (`\.`, `\?`).
            case escaped(Unicode.Scalar)
            /// An unescaped `.` outside a class.
            case dot
            /// An unescaped `$` outside a class.
            case dollar
            /// `*`, `+`, `?` or `{` after an atom.
            case quantifier
            /// `|`.
            case alternation
            /// `(` (any group) or `)`.
            case group
            /// A class `[...]`; `hasQuestionMark` when a `?` is among its characters.
            case characterClass(hasQuestionMark: Bool)
            /// Anything else: `^`, `\d`, `\b`, a back reference, `\p{L}`.
            case other
        }

        let kind: Kind
        /// The token's first scalar, 0-based, in the pattern as written.
        let scalar: Int
        /// How many groups are open around it.
        let depth: Int
    }

    /// The tokens of `pattern`, or nil when it holds a construct the scanner
    /// does not read (see the type's comment).
    static func scan(_ pattern: String) -> [Token]? {
        let s = Array(pattern.unicodeScalars)
        var tokens: [Token] = []
        var i = 0, depth = 0
        while i < s.count {
            let c = s[i]
            let start = i
            func add(_ kind: Token.Kind) { tokens.append(Token(kind: kind, scalar: start, depth: depth)) }
            switch c {
            case "\\":
                guard i + 1 < s.count else { return nil }
                let e = s[i + 1]
                i += 2
                if "QExuUN0c".unicodeScalars.contains(e) { return nil }
                if e.properties.isAlphabetic || ("1"..."9").contains(e) {
                    // \p{..}, \k<..>, \g{..}: the braces belong to the escape.
                    if "pPkg".unicodeScalars.contains(e), i < s.count, s[i] == "{" || s[i] == "<" {
                        let close: Unicode.Scalar = s[i] == "{" ? "}" : ">"
                        guard let end = s[i...].firstIndex(of: close) else { return nil }
                        i = end + 1
                    }
                    add(.other)
                } else {
                    add(.escaped(e))
                }
                continue
            case "[":
                guard let (end, question) = classEnd(s, from: i) else { return nil }
                i = end + 1
                add(.characterClass(hasQuestionMark: question))
                continue
            case "(":
                if i + 1 < s.count, s[i + 1] == "?" {
                    if i + 2 < s.count, s[i + 2] == "#" { return nil }
                    // Inline flags: (?ix) or (?ix:...) — refuse extended mode.
                    var j = i + 2
                    while j < s.count, s[j].properties.isAlphabetic || s[j] == "-" {
                        if s[j] == "x" { return nil }
                        j += 1
                    }
                }
                add(.group)
                depth += 1
            case ")":
                depth = max(0, depth - 1)
                add(.group)
            case ".": add(.dot)
            case "$": add(.dollar)
            case "|": add(.alternation)
            case "*", "+", "?", "{": add(.quantifier)
            case "^": add(.other)
            default: add(.literal(c))
            }
            i += 1
        }
        return tokens
    }

    /// The index of the `]` closing the class opened at `open` (classes nest
    /// in ICU and Java), and whether a `?` is among its characters; nil when
    /// it is not closed or holds an escape by code.
    private static func classEnd(_ s: [Unicode.Scalar], from open: Int) -> (Int, Bool)? {
        var i = open + 1
        var depth = 1
        var question = false
        if i < s.count, s[i] == "^" { i += 1 }
        if i < s.count, s[i] == "]" { i += 1 }  // a leading ] is a literal in both
        while i < s.count {
            switch s[i] {
            case "\\":
                guard i + 1 < s.count else { return nil }
                if "QExuUN0c".unicodeScalars.contains(s[i + 1]) { return nil }
                if s[i + 1] == "?" { question = true }
                i += 2
                continue
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return (i, question) }
            case "?": question = true
            default: break
            }
            i += 1
        }
        return nil
    }
}
