/// Patterns of the plain kind real configurations hold and `SmallPattern`
/// decides without the engine: literals and escaped punctuation, `.`, `\d`,
/// `\w` and their complements, small classes with ranges and negation,
/// groups, alternation, greedy quantifiers and counted repeats, optionally
/// anchored with `^` and `$`. Now and then a construct outside that
/// whitelist (a lazy or possessive quantifier, `\b`, `(?i)`, a `$` inside a
/// group) is mixed in, so that the reader's refusals are exercised too.
///
/// With subjects from `PatternGrammar.subjects`, mostly printable ASCII (the
/// automaton's) and sometimes not (the engine's), the prefilter differential
/// compares the automaton with the engines on both dialects and both engines.
public struct PlainPatternGrammar: Sendable {
    /// Creates the grammar.
    public init() {}

    /// A random pattern.
    public func pattern(_ c: inout some Choices) -> PatternNode {
        var items: [PatternNode] = []
        let anchored = c.below(4)
        if anchored & 1 != 0 { items.append(.atom("^", samples: [""])) }
        items.append(alternation(&c, depth: 0, top: anchored == 0))
        if anchored & 2 != 0 { items.append(.atom("$", samples: [""])) }
        return .sequence(items)
    }

    private func alternation(_ c: inout some Choices, depth: Int, top: Bool) -> PatternNode {
        let branches = depth < 2 && (top || depth > 0) && c.oneIn(4) ? 2 + c.below(2) : 1
        let made = (0..<branches).map { _ in sequence(&c, depth: depth) }
        return made.count == 1 ? made[0] : .alternation(made)
    }

    private func sequence(_ c: inout some Choices, depth: Int) -> PatternNode {
        .sequence((0..<(1 + c.below(5))).map { _ in quantified(&c, depth: depth) })
    }

    private func quantified(_ c: inout some Choices, depth: Int) -> PatternNode {
        let item = atom(&c, depth: depth)
        guard c.oneIn(3) else { return item }
        let (quantifier, minimum) = c.pick(Self.quantifiers)
        return .repeated(item, quantifier: quantifier + (c.oneIn(5) ? c.pick(["?", "?", "+"]) : ""), minimum: minimum)
    }

    private func atom(_ c: inout some Choices, depth: Int) -> PatternNode {
        switch c.below(14) {
        case 0 where depth < 2:
            return .group(open: c.pick(["(", "(?:"]), alternation(&c, depth: depth + 1, top: false), close: ")", consumes: true)
        case 1: return .atom(".", samples: ["a", "/", "7", "?", "."])
        case 2:
            let (text, samples) = c.pick(Self.shorthands)
            return .atom(text, samples: samples)
        case 3:
            let (text, samples) = c.pick(Self.classes)
            return .atom(text, samples: samples)
        case 4:
            let p = c.pick(Self.escaped)
            return .atom("\\" + p, samples: [p])
        case 5 where c.oneIn(6):
            let (text, samples) = c.pick(Self.outside)
            return .atom(text, samples: samples)
        default:
            let word = c.pick(Self.words)
            return .atom(word, samples: [word, word.uppercased()])
        }
    }

    private static let quantifiers: [(String, Int)] = [("*", 0), ("+", 1), ("?", 0), ("{2}", 2), ("{1,3}", 1), ("{2,}", 2), ("{0,2}", 0)]
    private static let shorthands: [(String, [String])] = [
        ("\\d", ["0", "7"]), ("\\w", ["a", "Z", "_", "5"]), ("\\D", ["a", "/"]), ("\\W", ["/", "-", "?"]),
    ]
    private static let classes: [(String, [String])] = [
        ("[0-9]", ["4"]), ("[a-z]", ["q"]), ("[A-Z]", ["Q"]), ("[a-z0-9_]", ["k", "3", "_"]), ("[^/]", ["x", "?"]),
        ("[^/?]", ["x"]), ("[.,]", [".", ","]), ("[\\-\\]]", ["-", "]"]), ("[\\d\\w]", ["1", "b"]), ("[^a-z]", ["A", "/"]),
        ("[Kk]", ["k", "K"]), ("[=%~!;@]", ["=", "@"]),
    ]
    private static let escaped = [".", "/", "?", "-", "+", "*", "(", ")", "[", "]", "{", "}", "|", "^", "$", "\\", "=", "&", "#"]
    private static let words = ["/", "/posts", "/new", "edit", "a", "b", "K", "s", "=", "-", "_", "~", "/comments/", "tab", "%2F", "@", "x1"]
    /// Constructs outside the whitelist, which the reader must refuse.
    private static let outside: [(String, [String])] = [
        ("\\b", [""]), ("(?i)", [""]), ("\\s", [" "]), ("($|x)", ["", "x"]), ("[:a]", ["a"]), ("\\Qa.b\\E", ["a.b"]),
        ("(?=/)", [""]), ("[a-]", ["-"]), ("a++", ["aa"]), ("é", ["é"]), ("\\x41", ["A"]), ("#", ["#"]), (" ", [" "]),
    ]
}
