/// A generated pattern: its text, and text that may match it.
///
/// The grammar is built to hit what a required-literal analysis can get wrong
/// in ICU, Java and PCRE2 syntax: escapes of every form (`\pL`, `\x4`, `\0123`,
/// `\Q..\E`, a lone `\E`, `\N{..}`, `\b{g}`), verbs and start options
/// (`(*ACCEPT)`, `(*UTF)`), callouts, conditionals, recursion, inline flags
/// (`(?i)`, `(?x)`), comments, lookarounds, classes read differently by each
/// engine (`[a[b]c]`, `[[:alpha:]]`, `[]a]`), braces that are or are not
/// quantifiers (`a{,3}`, `a{ 2}`, `x{0}`), lazy and possessive quantifiers,
/// and characters with non-ASCII case variants (`k`/KELVIN SIGN, `s`/LONG S,
/// `ß`). Many generated patterns are invalid in one engine or all; the
/// configurations are loaded leniently, so those are skipped.
public indirect enum PatternNode: Sendable {
    /// Pattern text and the texts it may match (`""` for zero-width items);
    /// `endsMatch` marks `(*ACCEPT)`, after which nothing else need match.
    case atom(String, samples: [String], endsMatch: Bool = false)
    /// Items in order.
    case sequence([PatternNode])
    /// `a|b|c`.
    case alternation([PatternNode])
    /// A group; `consumes` is false for negative lookarounds.
    case group(open: String, PatternNode, close: String, consumes: Bool)
    /// An item and a quantifier (maybe not one the engines accept); sampled
    /// `minimum...minimum + 2` times.
    case repeated(PatternNode, quantifier: String, minimum: Int)

    /// The pattern text.
    public var text: String {
        switch self {
        case let .atom(text, _, _): return text
        case let .sequence(items): return items.map(\.text).joined()
        case let .alternation(branches): return branches.map(\.text).joined(separator: "|")
        case let .group(open, inner, close, _): return open + inner.text + close
        case let .repeated(inner, quantifier, _): return inner.text + quantifier
        }
    }

    /// Whether ICU, which has no match budget, can run it on short subjects
    /// without exponential backtracking: no quantified item holds another
    /// quantifier or an alternation, and at most four quantifiers in all.
    public var isTame: Bool { quantifierCount <= 4 && !hasNestedRepetition(inside: false) }

    private var quantifierCount: Int {
        switch self {
        case .atom: return 0
        case let .sequence(items), let .alternation(items): return items.reduce(0) { $0 + $1.quantifierCount }
        case let .group(_, inner, _, _): return inner.quantifierCount
        case let .repeated(inner, _, _): return 1 + inner.quantifierCount
        }
    }

    private func hasNestedRepetition(inside: Bool) -> Bool {
        switch self {
        case .atom: return false
        case let .sequence(items): return items.contains { $0.hasNestedRepetition(inside: inside) }
        case let .alternation(items): return inside || items.contains { $0.hasNestedRepetition(inside: inside) }
        case let .group(_, inner, _, _): return inner.hasNestedRepetition(inside: inside)
        case let .repeated(inner, _, _): return inside || inner.hasNestedRepetition(inside: true)
        }
    }

    /// Text that may match the pattern (often does; it is a starting point
    /// for subjects, not a promise).
    public func sample(_ c: inout some Choices) -> String {
        var out = ""
        _ = sample(into: &out, &c)
        return out
    }

    /// Appends a sample; returns false when an `(*ACCEPT)` ended it early.
    private func sample(into out: inout String, _ c: inout some Choices) -> Bool {
        switch self {
        case let .atom(_, samples, endsMatch):
            out += c.pick(samples)
            return !(endsMatch && c.oneIn(2))
        case let .sequence(items):
            for item in items where !item.sample(into: &out, &c) { return false }
            return true
        case let .alternation(branches):
            return c.pick(branches).sample(into: &out, &c)
        case let .group(_, inner, _, consumes):
            guard consumes else { return true }
            return inner.sample(into: &out, &c)
        case let .repeated(inner, _, minimum):
            for _ in 0..<(minimum + c.below(3)) where !inner.sample(into: &out, &c) { return false }
            return true
        }
    }
}

/// Generates `PatternNode`s and subjects from a source of choices.
public struct PatternGrammar: Sendable {
    /// Deepest group nesting generated.
    public var maxDepth = 3
    /// The vocabulary picked from: the statics below, and in a wide grammar
    /// the `wide` ones after them.
    private let nonASCII: [String]
    private let fillers: [String]
    private let escapes: [PatternNode]
    private let classes: [PatternNode]

    /// Creates the grammar; `wide` adds characters above U+FFFF to its
    /// literals, escapes, classes and subjects, `cased` those whose case
    /// closure is odd to its literals and subjects (each a choice of its
    /// own, so that seeded runs and stored inputs read as they did).
    public init(wide: Bool = false, cased: Bool = false) {
        nonASCII = Self.nonASCII + (wide ? Self.wideNonASCII : []) + (cased ? Self.casedNonASCII : [])
        fillers = Self.fillers + (wide ? Self.wideNonASCII + ["/\u{10428}/"] : []) + (cased ? Self.casedNonASCII + Self.casedFillers : [])
        escapes = Self.escapes + (wide ? Self.wideEscapes : [])
        classes = Self.classes + (wide ? Self.wideClasses : [])
    }

    /// A random pattern.
    public func pattern(_ c: inout some Choices) -> PatternNode {
        var node = alternation(&c, depth: 0)
        if c.oneIn(12) { node = .sequence([.atom(c.pick(Self.startOptions), samples: [""]), node]) }
        return node
    }

    /// Subjects for `pattern`: samples of it, with text around them, and
    /// mutations that change case, swap in non-ASCII case variants, or drop
    /// and add characters.
    public func subjects(for pattern: PatternNode, count: Int, _ c: inout some Choices) -> [String] {
        var out: [String] = []
        for n in 0..<count {
            var s = pattern.sample(&c)
            if n > 0, c.oneIn(2) { s = c.pick(fillers) + s + c.pick(fillers) }
            if n > 1 { for _ in 0...c.below(2) { s = mutate(s, &c) } }
            out.append(s)
        }
        return out
    }

    /// One random change to `s`.
    public func mutate(_ s: String, _ c: inout some Choices) -> String {
        var scalars = Array(s.unicodeScalars)
        let at = scalars.isEmpty ? 0 : c.below(scalars.count)
        switch c.below(8) {
        case 0 where !scalars.isEmpty:
            scalars.remove(at: at)
        case 1:
            scalars.insert(c.pick(c.oneIn(4) ? nonASCII : Self.alphabet).unicodeScalars.first!, at: at)
        case 2:
            return s.uppercased()
        case 3:
            return s.lowercased()
        case 4 where !scalars.isEmpty:
            // Flip the case of one ASCII letter.
            let v = scalars[at].value
            if (v | 0x20) >= 0x61, (v | 0x20) <= 0x7A { scalars[at] = Unicode.Scalar(v ^ 0x20)! }
        case 5:
            // Non-ASCII characters that case-fold onto ASCII letters.
            for (from, to) in [("k", "\u{212A}"), ("K", "\u{212A}"), ("s", "\u{17F}"), ("S", "\u{17F}"),
                               ("ss", "\u{DF}"), ("SS", "\u{1E9E}"), ("st", "\u{FB06}"), ("i", "\u{130}"), ("i", "\u{131}"),
                               ("I", "\u{131}"), ("I", "\u{130}"), ("\u{DF}", "\u{1E9E}"), ("\u{1E9E}", "\u{DF}")]
            where c.oneIn(2) && s.contains(from) {
                return s.replacing(from, with: to, maxReplacements: 1)
            }
        case 6 where scalars.count > 1:
            scalars.removeSubrange(at...)
        default:
            return s + s
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    // MARK: Structure

    private func alternation(_ c: inout some Choices, depth: Int) -> PatternNode {
        let count = c.oneIn(6) ? 2 + c.below(2) : 1
        let branches = (0..<count).map { _ in sequence(&c, depth: depth) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private func sequence(_ c: inout some Choices, depth: Int) -> PatternNode {
        .sequence((0..<(1 + c.below(4))).map { _ in item(&c, depth: depth) })
    }

    private func item(_ c: inout some Choices, depth: Int) -> PatternNode {
        let base: PatternNode
        // Mostly constructs the analysis reads, so that many patterns have a
        // required literal to get wrong; the rest make it give up.
        switch c.below(48) {
        case 0..<24: base = word(&c)
        case 24..<32: base = c.pick(escapes)
        case 32..<36: base = c.pick(classes)
        case 36..<43 where depth < maxDepth: base = group(&c, depth: depth + 1)
        case 43, 44: base = .atom(c.pick(Self.standalone), samples: [""], endsMatch: false)
        case 45: base = .atom(c.pick(Self.verbs), samples: [""], endsMatch: true)
        case 46, 47: base = c.pick(Self.punctuation)
        default: base = word(&c)
        }
        guard c.oneIn(3) else { return base }
        let (quantifier, minimum) = c.oneIn(8) ? c.pick(Self.disputedBraces) : c.pick(Self.quantifiers)
        let modifier = c.oneIn(4) ? c.pick(["?", "+", "?", "+", "*", "{2}"]) : ""
        return .repeated(base, quantifier: quantifier + modifier, minimum: minimum)
    }

    private func group(_ c: inout some Choices, depth: Int) -> PatternNode {
        let (open, consumes) = c.pick(Self.groupOpeners)
        return .group(open: open, alternation(&c, depth: depth), close: ")", consumes: consumes)
    }

    /// A literal run of one to six characters.
    private func word(_ c: inout some Choices) -> PatternNode {
        let text = (0..<(1 + c.below(6))).map { _ in c.oneIn(8) ? c.pick(nonASCII) : c.pick(Self.alphabet) }.joined()
        return .atom(text, samples: [text, text.uppercased(), text.lowercased()])
    }

    // MARK: Vocabulary

    /// Characters of literal runs: URL text and letters with non-ASCII case
    /// variants (`k`, `s`, `i`)...
    static let alphabet: [String] = "abcdeikKsSxyz/-_.=&%:~# 019AXZ".map(String.init)
    /// ... and non-ASCII letters, some of which fold onto ASCII, and those
    /// whose case the JDK and Unicode folding treat apart (`µ`, `Å`, `ÿ`,
    /// `ς`, `ǅ`, `ϴ`).
    static let nonASCII = ["é", "ß", "ẞ", "ſ", "\u{212A}", "ı", "İ", "ﬆ", "\u{301}", "日", "µ", "\u{3BC}", "\u{39C}", "\u{212B}",
                           "Å", "ÿ", "\u{178}", "\u{3C2}", "\u{3A3}", "\u{1C5}", "\u{3F4}"]

    static let fillers = ["", "/", "x", "/a/", "?q=1", "A", "é", "\u{212A}", "  ", "\u{131}", "\u{130}"]

    /// The wide grammar's characters above U+FFFF: Deseret's and Adlam's
    /// capital and small letters (cased), a mathematical bold A (a letter
    /// with no case mapping), an emoji; each four bytes of UTF-8, two UTF-16
    /// units in ICU and the JDK.
    static let wideNonASCII = ["\u{10400}", "\u{10428}", "\u{1E900}", "\u{1E922}", "\u{1D400}", "\u{1F600}"]
    static let wideEscapes: [PatternNode] = [
        ("\\x{10400}", ["\u{10400}", "\u{10428}"]), ("\\x{1F600}", ["\u{1F600}"]), ("\\uD801\\uDC28", ["\u{10428}", "\u{10400}"]),
        ("\\U0001D400", ["\u{1D400}"]), ("\\N{U+1E922}", ["\u{1E922}", "\u{1E900}"]), ("\\x{10428}/", ["\u{10428}/", "\u{10400}/"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }
    static let wideClasses: [PatternNode] = [
        ("[\u{10400}-\u{1040F}]", ["\u{10405}", "\u{1042D}"]), ("[^\u{10400}]", ["\u{10428}", "x"]), ("[\\x{10000}-\\x{10FFFF}]", ["\u{1F600}"]),
        ("[\u{1F600}a]", ["\u{1F600}", "a"]), ("[^/]", ["\u{1D400}"]), ("[\u{1D400}-\u{1D419}]", ["\u{1D401}"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    /// The cased grammar's characters, whose case closure is odd: Greek's
    /// letters with symbol forms (β ϐ, θ ϑ ϴ, κ ϰ, π ϖ, ρ ϱ, φ ϕ, ε ϵ), the
    /// iota subscript (U+0345, U+1FBE), `Ω` U+2126 and `Å` U+212B, the
    /// digraphs with a titlecase form (Ǆ ǅ ǆ), Cherokee (Ꭰ U+13A0, ꭰ
    /// U+AB70, which folds to the capital), Cyrillic's old `ᲀ` (U+1C80, a
    /// form of в), `ẛ` (a form of ṡ), and the characters that fold to more
    /// than one (`ŉ` `ǰ` `ΐ` `ΰ` `և` `ẖ` `ᾳ` `ᾼ` `ὐ` `ﬀ` `ﬁ` `ﬃ` `ﬆ` `ﬓ`).
    /// All were assigned by Unicode 9, which ICU, PCRE2 and the JDK share.
    public static let casedNonASCII = [
        "\u{3B2}", "\u{3D0}", "\u{398}", "\u{3D1}", "\u{3F4}", "\u{3BA}", "\u{3F0}", "\u{3C0}", "\u{3D6}", "\u{3F1}", "\u{3D5}",
        "\u{3F5}", "\u{345}", "\u{1FBE}", "\u{399}", "\u{2126}", "\u{3C9}", "\u{212B}", "\u{E5}", "\u{1C4}", "\u{1C5}", "\u{1C6}",
        "\u{13A0}", "\u{AB70}", "\u{1C80}", "\u{432}", "\u{1E9B}", "\u{1E61}", "\u{149}", "\u{1F0}", "\u{390}", "\u{3B0}",
        "\u{587}", "\u{1E96}", "\u{1FB3}", "\u{1FBC}", "\u{1F50}", "\u{FB00}", "\u{FB01}", "\u{FB03}", "\u{FB06}", "\u{FB13}",
    ]
    /// Subjects for them: what the full case folds expand to, and partners.
    public static let casedFillers = [
        "ss", "fi", "FFI", "st", "\u{2BC}n", "j\u{30C}", "\u{3B9}\u{308}\u{301}", "\u{3B1}\u{3B9}", "\u{391}\u{399}",
        "\u{565}\u{582}", "h\u{331}", "i\u{307}", "\u{3C5}\u{313}", "\u{574}\u{576}", "\u{3C3}", "\u{3B8}",
    ]

    static let punctuation: [PatternNode] = [
        .atom(".", samples: ["x", "/", "é"]), .atom("^", samples: [""]), .atom("$", samples: [""]),
        .atom("]", samples: ["]"]), .atom("}", samples: ["}"]), .atom("{", samples: ["{"]), .atom(")", samples: [")"]),
        .atom("(", samples: ["("]), .atom("|", samples: [""]), .atom("#x\n", samples: ["#x\n", ""]), .atom(" ", samples: [" ", ""]),
    ]

    static let escapes: [PatternNode] = [
        ("\\d", ["1", "\u{663}"]), ("\\D", ["a"]), ("\\w", ["a", "_", "é"]), ("\\W", ["/"]), ("\\s", [" "]), ("\\S", ["x"]),
        ("\\b", [""]), ("\\B", [""]), ("\\pL", ["a", "é"]), ("\\PL", ["1"]), ("\\p{L}", ["b"]), ("\\p{Lu}", ["B"]), ("\\pN", ["5"]),
        ("\\p{javaLowerCase}", ["a"]), ("\\N", ["x"]), ("\\R", ["\n"]), ("\\X", ["e\u{301}"]), ("\\h", [" "]), ("\\v", ["\n"]),
        ("\\K", [""]), ("\\G", [""]), ("\\A", [""]), ("\\z", [""]), ("\\Z", [""]), ("\\C", ["x"]),
        ("\\t", ["\t"]), ("\\n", ["\n"]), ("\\e", ["\u{1B}"]), ("\\a", ["\u{7}"]), ("\\f", ["\u{C}"]),
        ("\\0", ["\0"]), ("\\01", ["\u{1}"]), ("\\012", ["\n"]), ("\\0123", ["S", "\n3"]), ("\\1", [""]), ("\\2", [""]),
        ("\\11", ["\t", ""]), ("\\18", ["\u{1}8", "8"]),
        ("\\x41", ["A", "a"]), ("\\x4", ["\u{4}"]), ("\\x4g", ["\u{4}g"]), ("\\x", ["\0"]), ("\\x{41}", ["A"]),
        ("\\x{212A}", ["\u{212A}", "k"]), ("\\x{6b}", ["k", "K"]), ("\\x2F", ["/"]), ("\\x2e", ["."]), ("\\x{2F}", ["/"]),
        ("\\u0041", ["A"]), ("\\u002F", ["/"]), ("\\u212a", ["\u{212A}", "k"]), ("\\u006B", ["k", "K"]), ("\\U00000041", ["A"]),
        ("\\U0000002f", ["/"]), ("\\N{LATIN SMALL LETTER A}", ["a"]), ("\\N{SOLIDUS}", ["/"]), ("\\N{U+41}", ["A"]),
        ("\\o{101}", ["A", "ooo"]), ("\\o{57}", ["/"]), ("\\cA", ["\u{1}"]), ("\\c\\", ["\u{1C}"]),
        ("\\g1", ["", "g1"]), ("\\g{1}", [""]), ("\\g{-1}", [""]), ("\\g<1>", [""]), ("\\k<n>", [""]), ("\\k'n'", [""]), ("\\k{n}", [""]),
        ("\\Qa.b\\E", ["a.b"]), ("\\Q/x\\E", ["/x"]), ("\\Q\\E", [""]), ("\\E", ["", "E"]), ("\\Qab", ["ab"]), ("\\Q(?i)\\E", ["(?i)"]),
        ("\\.", ["."]), ("\\/", ["/"]), ("\\-", ["-"]), ("\\?", ["?"]), ("\\*", ["*"]), ("\\(", ["("]), ("\\)", [")"]),
        ("\\[", ["["]), ("\\]", ["]"]), ("\\{", ["{"]), ("\\}", ["}"]), ("\\|", ["|"]), ("\\\\", ["\\"]), ("\\ ", [" "]),
        ("\\#", ["#"]), ("\\<", ["<"]), ("\\_", ["_"]), ("\\é", ["é"]), ("\\i", ["i"]), ("\\y", ["y"]), ("\\q", ["q"]),
        ("\\l", ["l"]), ("\\m", ["m"]), ("\\b{g}", [""]), ("\\b{2}", [""]), ("\\", ["\\"]),
        ("\\p{InGreek}", ["\u{3B1}"]), ("\\p{InBasicLatin}", ["a", "/"]), ("\\P{InGreek}", ["a"]), ("\\p{Block=ASCII}", ["k"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    static let classes: [PatternNode] = [
        ("[a-z]", ["q"]), ("[^/]", ["x"]), ("[abc]", ["b"]), ("[\\d]", ["7"]), ("[a&&b]", ["a", "&"]),
        ("[a-z&&[^aeiou]]", ["b", "a"]), ("[[:alpha:]]", ["a", ":"]), ("[]a]", ["]"]), ("[^]a]", ["x"]), ("[a[b]c]", ["b", "c]"]),
        ("[\\w&&[^\\d]]", ["w"]), ("[{ab}]", ["a", "{"]), ("[kK]", ["k", "\u{212A}"]), ("[\\p{L}]", ["z"]), ("[a--b]", ["-"]),
        ("[\\Q]\\E]", ["]"]), ("[.]", ["."]), ("[a-]", ["-"]), ("[\\]]", ["]"]), ("[^\\]]", ["x"]), ("[ss]", ["s", "ß"]),
        ("[ß]", ["ß", "ss"]), ("[\\x41-\\x43]", ["B"]), ("[/\\-]", ["-"]), ("[#]", ["#"]), ("[ ]", [" "]),
        ("[[a][b]]", ["a", "]"]), ("[a-z--[aeiou]]", ["b", "-"]), ("[[ab]c]", ["c", "]"]), ("[\\u0041-\\u0043]", ["B"]), ("[\\N{SOLIDUS}]", ["/"]),
        ("[A-Z]", ["Q", "\u{212A}", "\u{131}"]), ("[i]", ["I", "\u{131}", "\u{130}"]), ("[^i]", ["x", "\u{131}"]),
        ("[\\u0130-\\u0131]", ["i", "I"]), ("[ẞ]", ["ß", "ẞ"]), ("[\\u00B5]", ["\u{3BC}", "\u{39C}"]), ("[h-j]", ["\u{131}", "I"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    static let groupOpeners: [(String, Bool)] = [
        ("(", true), ("(", true), ("(", true), ("(?:", true), ("(?:", true), ("(?:", true), ("(?>", true), ("(?<n>", true), ("(?>", true), ("(?|", true), ("(?<n>", true), ("(?P<n>", true),
        ("(?'n'", true), ("(?=", true), ("(?!", false), ("(?<=", true), ("(?<!", false), ("(?i:", true), ("(?-i:", true),
        ("(?x:", true), ("(?s:", true), ("(?i-x:", true), ("(?^:", true), ("(?m:", true), ("(*atomic:", true), ("(*pla:", true),
        ("(*napla:", true), ("(?(1)", true), ("(?(<n>)", true), ("(?(?=a)", true), ("(?(DEFINE)", false), ("(?C1)(", true),
    ]

    static let standalone = [
        "(?i)", "(?i)", "(?-i)", "(?x)", "(?s)", "(?m)", "(?U)", "(?n)", "(?J)", "(?d)", "(?u)", "(?w)", "(?^)", "(?)",
        "(?#c)", "(?#a)b)", "(?C)", "(?C1)", "(?C\"x)\")", "(?R)", "(?1)", "(?-1)", "(?+1)", "(?&n)", "(?P>n)", "(?P=n)",
        "(*COMMIT)", "(*SKIP)", "(*PRUNE)", "(*THEN)", "(*F)", "(*FAIL)", "(*MARK:a)", "(*:a)",
    ]

    /// `(*ACCEPT)` and its forms: the match ends there.
    static let verbs = ["(*ACCEPT)", "(*ACCEPT:a)", "(*ACCEPT)", "(*COMMIT)(*ACCEPT)"]

    static let startOptions = ["(*UTF)", "(*UCP)", "(*CR)", "(*NO_START_OPT)", "(*LIMIT_MATCH=100)"]

    /// Quantifiers the engines agree on.
    static let quantifiers: [(String, Int)] = [
        ("*", 0), ("+", 1), ("?", 0), ("{0}", 0), ("{1}", 1), ("{2}", 2), ("{0,1}", 0), ("{1,}", 1), ("{2,3}", 2), ("{0,0}", 0),
        ("{3}", 3), ("{1,2}", 1), ("{2,}", 2),
    ]

    /// Braces the engines read differently (text, an error, or a quantifier).
    static let disputedBraces: [(String, Int)] = [("{,3}", 0), ("{ 2}", 0), ("{2, 3}", 0), ("{2,1}", 0), ("{", 0), ("{x}", 0), ("{1", 0)]
}
