import PrefilterFuzzing

/// Patterns from the grammar the ICU and Java dialects share, driven by a
/// source of choices (the fuzzer's bytes): literals (ASCII, non-ASCII, the
/// letters whose case variants are odd: `k` `K` U+212A, `s` `ſ`, `i` `İ`
/// `ı`), `.`, classes (ranges, negation, nested classes, `&&`, `--`, and the
/// shapes the JDK reads oddly: `[x&&]`, `[&&x]`, `[a&&&]`, `[a-&&b]`),
/// escapes (`\d` `\w` `\s`, their negations, `\b` `\B`, `\p{L}`, `\x{..}`),
/// anchors, groups (capturing, non-capturing, named, atomic, lookahead,
/// lookbehind of bounded length, which may hold groups, alternations and
/// counts), alternations, quantifiers (`?` `*` `+` `{n}` `{n,}` `{n,m}`,
/// lazy and possessive), quantifiers after assertions and after
/// quantifiers (`a?{2}`, `a{2}{3}`), inline flags (`moreFlags`: those one
/// dialect lacks), back references by number and name, ICU's comments,
/// escapes the dialects read apart (`moreEscapes`), and, now and then,
/// long runs and alternations up to the 16 KB pattern limit. A wide
/// grammar (`init(wide:)`) adds characters above U+FFFF to the literals,
/// classes, ranges, escapes and subjects: cased ones (Deseret, Adlam), one
/// with no case (`𝐀`), and an emoji. A cased grammar (`init(cased:)`)
/// adds the characters whose case closure is odd: sets of three or more
/// (Greek's symbol forms, `Ω` U+2126, `Å` U+212B, titlecase digraphs,
/// Cherokee, which folds to capitals), and those that fold to more than one
/// character (`ŉ`, `ǰ`, `ΐ`, `ᾳ`, the Latin ligatures), with their
/// expansions among the subjects.
///
/// Every pattern is tame for ICU and the JDK, which have no match budget:
/// at most four quantifiers, and a quantified item holds neither another
/// quantifier nor an alternation (a count stacked on a quantifier, which
/// repeats a single atom a bounded number of times, is the one nested
/// form), so a search of a subject of 40 characters backtracks at most
/// polynomially. Long shapes have no quantifier at all.
public struct DialectGrammar {
    /// Quantified items left to generate in this pattern.
    private var budget = 4
    /// Named groups generated so far (each name is used once).
    private var names = 0
    /// The vocabulary picked from: the statics below, and in a wide grammar
    /// the `wide` ones after them.
    private let nonASCII: [(String, String)]
    private let classCharacters: [(String, String)]
    private let ranges: [(String, String)]
    private let classEscapes: [(String, String)]
    private let escapes: [PatternNode]
    private let dotSamples: [String]
    /// Text around samples, and other subjects.
    public let fillers: [String]
    public let urls: [String]

    /// Creates the grammar; `wide` adds characters above U+FFFF to its
    /// vocabulary, `cased` those whose case closure is odd (each a choice
    /// of its own, so that the inputs stored before read as they did).
    public init(wide: Bool = false, cased: Bool = false) {
        nonASCII = Self.nonASCII + (wide ? Self.wideNonASCII : []) + (cased ? Self.casedNonASCII : [])
        classCharacters = Self.classCharacters + (wide ? Self.wideNonASCII : []) + (cased ? Self.casedNonASCII : [])
        ranges = Self.ranges + (wide ? Self.wideRanges : []) + (cased ? Self.casedRanges : [])
        classEscapes = Self.classEscapes + (wide ? Self.wideClassEscapes : []) + (cased ? Self.casedClassEscapes : [])
        escapes = Self.escapes + (wide ? Self.wideEscapes : []) + (cased ? Self.casedEscapes : [])
        dotSamples = ["x", "/", "é", "\u{212A}", "\n", "\u{1D400}"] + (wide ? ["\u{10428}", "\u{1E922}"] : []) + (cased ? ["\u{3C2}", "\u{1FB3}"] : [])
        fillers = Self.fillers + (wide ? Self.wideFillers : []) + (cased ? Self.casedFillers : [])
        urls = Self.urls + (wide ? Self.wideURLs : []) + (cased ? Self.casedURLs : [])
    }

    /// A pattern of the shared grammar.
    public mutating func pattern(_ c: inout some Choices) -> PatternNode {
        budget = 4
        names = 0
        var items: [PatternNode] = []
        if c.oneIn(5) { items.append(.atom(c.pick(Self.flags), samples: [""])) }
        items.append(alternation(&c, depth: 0, inside: false))
        if c.oneIn(8) { items.append(.atom(c.pick(Self.flags), samples: [""])) }
        return .sequence(items)
    }

    // MARK: Structure

    private mutating func alternation(_ c: inout some Choices, depth: Int, inside: Bool) -> PatternNode {
        // No alternation under a quantifier: `(a|a)+` backtracks exponentially.
        let count = !inside && c.oneIn(5) ? 2 + c.below(3) : 1
        let branches = (0..<count).map { _ in sequence(&c, depth: depth, inside: inside) }
        if count > 1, c.oneIn(6) { return .alternation(branches + [.atom("", samples: [""])]) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence(_ c: inout some Choices, depth: Int, inside: Bool) -> PatternNode {
        .sequence((0..<(1 + c.below(inside ? 3 : 5))).map { _ in item(&c, depth: depth, inside: inside) })
    }

    /// One item; `inside` when an enclosing group is quantified, so this
    /// one may not be.
    private mutating func item(_ c: inout some Choices, depth: Int, inside: Bool) -> PatternNode {
        let quantify = !inside && budget > 0 && c.oneIn(3)
        if quantify { budget -= 1 }
        let base: PatternNode
        switch c.below(64) {
        case 0..<20: base = literal(&c, length: quantify ? 1 : 1 + c.below(5))
        case 20..<26: base = .atom(".", samples: dotSamples)
        case 26..<36: base = charClass(&c, depth: 0)
        case 36..<46: base = c.pick(escapes)
        case 46..<50: base = c.pick(Self.assertions)
        case 50..<59 where depth < 3: base = group(&c, depth: depth + 1, inside: inside || quantify)
        case 59, 60: base = .atom(c.pick(Self.flags), samples: [""])
        case 61: base = .atom(c.pick(Self.references), samples: [""])
        case 62: base = c.pick(Self.moreEscapes)
        case 63: base = c.pick(Self.moreFlags)
        default: base = literal(&c, length: 1)
        }
        return quantify ? quantified(base, &c) : base
    }

    private mutating func quantified(_ base: PatternNode, _ c: inout some Choices) -> PatternNode {
        var (quantifier, minimum) = c.pick(Self.quantifiers)
        switch c.below(8) {
        case 0: quantifier += "?"
        case 1: quantifier += "+"
        default: break
        }
        // A count or a quantifier after a quantifier: an error in ICU, a count
        // on an empty atom in Java (`a?{2}` is `a?`; `a**` an error).
        if c.oneIn(6) {
            let (second, times) = c.pick(Self.stacked)
            quantifier += second
            minimum *= times
        }
        return .repeated(base, quantifier: quantifier, minimum: minimum)
    }

    private mutating func group(_ c: inout some Choices, depth: Int, inside: Bool) -> PatternNode {
        switch c.below(16) {
        case 0..<2:
            // Lookbehind: of bounded length, now and then not (which PCRE2
            // refuses); a positive one is sampled, so that subjects hold
            // what it looks for before what follows it.
            let open = c.oneIn(3) ? "(?<!" : "(?<="
            var branches: [PatternNode] = []
            for _ in 0..<(c.oneIn(4) ? 2 : 1) {
                var items: [PatternNode] = (0..<(1 + c.below(3))).map { _ in fixedWidth(&c, depth: 0) }
                if c.oneIn(8) { items.append(.repeated(literal(&c, length: 1), quantifier: c.pick(["?", "{1,2}", "{2}"]), minimum: 0)) }
                branches.append(.sequence(items))
            }
            return .group(open: open, branches.count == 1 ? branches[0] : .alternation(branches), close: ")", consumes: open == "(?<=")
        case 2..<4:
            let open = c.oneIn(3) ? "(?!" : "(?="
            return .group(open: open, alternation(&c, depth: depth, inside: true), close: ")", consumes: open == "(?=")
        case 4:
            names += 1
            return .group(open: "(?<g\(names)>", alternation(&c, depth: depth, inside: inside), close: ")", consumes: true)
        case 5:
            return .group(open: "(?>", alternation(&c, depth: depth, inside: inside), close: ")", consumes: true)
        case 6, 7:
            return .group(open: c.pick(Self.flagGroups), alternation(&c, depth: depth, inside: inside), close: ")", consumes: true)
        case 8..<12:
            return .group(open: "(?:", alternation(&c, depth: depth, inside: inside), close: ")", consumes: true)
        default:
            return .group(open: "(", alternation(&c, depth: depth, inside: inside), close: ")", consumes: true)
        }
    }

    /// An item for a lookbehind: one character wide, or a group of
    /// alternatives of such items, repeated a bounded number of times or
    /// not (the JDK measures `(?:ab){2}` and not `(a|b){2}`).
    private func fixedWidth(_ c: inout some Choices, depth: Int) -> PatternNode {
        switch c.below(6) {
        case 0: return .atom(".", samples: ["x"])
        case 1: return c.pick(escapes.filter { !$0.text.hasPrefix("\\1") })
        case 2: return .atom(c.pick(["[a-z]", "[^/]", "[kK]", "[\\d]", "[a-z&&[^k]]"]), samples: ["a", "k", "1"])
        case 3: return .repeated(literal(&c, length: 1), quantifier: "{2}", minimum: 2)
        case 4 where depth < 2: return boundedGroup(&c, depth: depth + 1)
        default: return literal(&c, length: 1 + c.below(3))
        }
    }

    /// A group for a lookbehind: one to three alternatives of one or two
    /// items (now and then an `x?`, or an empty one), maybe repeated a
    /// bounded number of times, rarely not.
    private func boundedGroup(_ c: inout some Choices, depth: Int) -> PatternNode {
        var branches: [PatternNode] = (0..<(1 + c.below(3))).map { _ in
            .sequence((0..<(1 + c.below(2))).map { _ in
                c.oneIn(6) ? .repeated(literal(&c, length: 1), quantifier: "?", minimum: 0) : fixedWidth(&c, depth: depth)
            })
        }
        if c.oneIn(6) { branches.append(.atom("", samples: [""])) }
        let group = PatternNode.group(open: c.pick(["(", "(?:", "(?:", "(?>", "(?i:"]), branches.count == 1 ? branches[0] : .alternation(branches),
                                      close: ")", consumes: true)
        let (quantifier, minimum) = c.pick(Self.boundedQuantifiers)
        return quantifier.isEmpty ? group : .repeated(group, quantifier: quantifier, minimum: minimum)
    }

    /// A run of literal characters, escaped where they are syntax.
    private func literal(_ c: inout some Choices, length: Int) -> PatternNode {
        var text = ""
        var sample = ""
        for _ in 0..<length {
            let (written, matched) = c.oneIn(6) ? c.pick(nonASCII) : c.pick(Self.ascii)
            text += written
            sample += matched
        }
        return .atom(text, samples: [sample, sample.uppercased(), sample.lowercased()])
    }

    /// A class: items (characters, ranges, escapes, nested classes) joined
    /// by union, `&&` or `--`, or one of the shapes the JDK reads oddly.
    private func charClass(_ c: inout some Choices, depth: Int) -> PatternNode {
        if depth == 0, c.oneIn(6) { return c.pick(Self.oddClasses) }
        var text = c.oneIn(4) ? "[^" : "["
        var samples: [String] = []
        for i in 0..<(1 + c.below(4)) {
            if i > 0, c.oneIn(4) { text += c.pick(["&&", "&&", "--", "&", "-"]) }
            switch c.below(10) {
            case 0..<4:
                let (written, matched) = c.pick(classCharacters)
                text += written
                samples.append(matched)
            case 4, 5:
                let (range, inRange) = c.pick(ranges)
                text += range
                samples.append(inRange)
            case 6, 7:
                let escape = c.pick(classEscapes)
                text += escape.0
                samples.append(escape.1)
            default:
                if depth < 2 {
                    let nested = charClass(&c, depth: depth + 1)
                    text += nested.text
                    samples.append(nested.sample(&c))
                } else {
                    text += "k"
                    samples.append("k")
                }
            }
        }
        text += "]"
        samples.append(c.pick(["\u{212A}", "\u{17F}", "\u{130}", "\u{131}", "K", "S", "-", "&"]))
        return .atom(text, samples: samples)
    }

    // MARK: Long shapes

    /// A pattern up to the 16 KB limit with its subjects: a run of one unit
    /// (`.`, `k`, `[a-z]`, ...), or an alternation of three-letter words;
    /// `mustCompile` for the shapes that compile at the limit in both
    /// dialects (Tests/PathConfigurationTests/Dialect/PatternSizeTests.swift:
    /// runs of `.`, of `k` and of `[a-z]`, and the alternation of words).
    public static func long(_ c: inout some Choices, limit: Int) -> (pattern: String, subjects: [String], mustCompile: Bool) {
        let (unit, sample, promised) = c.pick(longUnits)
        if unit == "|" {
            // `aaa|bbb|...`, or `kkk|sss|iii|...` (letters with odd case variants).
            let letters = c.oneIn(2) ? (0..<26).map { String(Unicode.Scalar(UInt8(0x61 + $0))) } : ["k", "s", "i", "K", "S", "I", "\u{17F}", "\u{212A}"]
            let size = c.oneIn(2) ? limit : 16 + c.below(limit - 16)
            var words: [String] = []
            var length = -1
            var k = 0
            while true {
                let word = String(repeating: letters[k % letters.count], count: 3)
                if length + 1 + word.utf8.count > size { break }
                words.append(word)
                length += 1 + word.utf8.count
                k += 1
            }
            let pattern = words.joined(separator: "|")
            return (pattern, ["/kkk/", "/\u{212A}\u{212A}\u{212A}/", "zzz", "/ſſſ/", "III", "\u{131}\u{131}\u{131}", "/ab/", "SSS", ""],
                    promised && letters.count == 26)
        }
        let most = limit / unit.utf8.count
        let count = min(most, c.pick([1_490, 1_599, 1_489, 2_048, 4_096, 16 + c.below(2_000), 16 + c.below(2_000), most]))
        var pattern = String(repeating: unit, count: count)
        var extra = false
        if c.oneIn(4) {
            let affix = c.pick(["\\b", "$", "\\B", "^", "(?i)", "/"])
            if pattern.utf8.count + affix.utf8.count <= limit {
                pattern = affix == "^" || affix == "(?i)" ? affix + pattern : pattern + affix
                extra = true
            }
        }
        let variant = c.pick(["\u{212A}", "K", "\u{17F}", "S", "\u{130}", "\u{131}", "\n", "/", "é"])
        var subjects = [String(repeating: sample, count: count), String(repeating: sample, count: count - 1),
                        String(repeating: sample, count: count + 1) + "/", String(repeating: sample.uppercased(), count: count), "/a/", ""]
        var mixed = Array(String(repeating: sample, count: count))
        mixed[c.below(mixed.count)] = Character(variant)
        subjects.append(String(mixed))
        subjects.append(String(repeating: variant, count: count))
        return (pattern, subjects, promised && !extra)
    }

    /// A long run's unit, what one copy matches, and whether a run of it at
    /// the limit must compile; `|` for the alternation of words.
    static let longUnits: [(String, String, Bool)] = [
        (".", "k", true), ("k", "k", true), ("[a-z]", "k", true), ("|", "", true), ("K", "K", false), ("s", "s", false),
        ("i", "i", false), ("\\w", "a", false), ("\\d", "7", false), ("a", "a", false), ("/", "/", false), ("é", "é", false),
        ("\u{17F}", "s", false), ("[^/]", "x", false), ("ab/", "ab/", false),
    ]

    // MARK: Vocabulary

    /// Literal characters as written, and the text each matches.
    static let ascii: [(String, String)] = "abcdeikKsSxyzIAZ019/-_=&%:~,;@!".map { (String($0), String($0)) }
        + [("\\.", "."), ("\\/", "/"), ("\\?", "?"), ("\\+", "+"), ("\\*", "*"), ("\\(", "("), ("\\[", "["), ("\\{", "{"),
           ("\\|", "|"), ("\\$", "$"), ("\\^", "^"), ("\\\\", "\\"), (" ", " "), ("#", "#")]
    static let nonASCII: [(String, String)] = ["é", "ß", "ẞ", "ſ", "\u{212A}", "ı", "İ", "日", "µ", "Å", "ÿ", "ς", "Σ"].map { ($0, $0) }

    static let escapes: [PatternNode] = [
        ("\\d", ["1", "\u{663}"]), ("\\D", ["a", "/"]), ("\\w", ["a", "_", "é", "\u{212A}"]), ("\\W", ["/", "-"]), ("\\s", [" ", "\t"]),
        ("\\S", ["x"]), ("\\p{L}", ["a", "é"]), ("\\P{L}", ["1", "/"]), ("\\p{Lu}", ["B", "\u{212A}"]), ("\\p{Ll}", ["k", "\u{17F}"]),
        ("\\x{41}", ["A", "a"]), ("\\x{6B}", ["k", "K", "\u{212A}"]), ("\\x{212A}", ["\u{212A}", "k"]), ("\\x{E9}", ["é", "É"]),
        ("\\x{2F}", ["/"]), ("\\x{17F}", ["\u{17F}", "s"]), ("\\x{130}", ["\u{130}", "i"]), ("\\x{131}", ["\u{131}", "I"]),
        ("\\u006B", ["k", "K"]), ("\\t", ["\t"]), ("\\n", ["\n"]), ("\\1", [""]),
        // Free spacing inside escapes and names, which ICU and the JDK read
        // apart (docs/format-and-profiles.md, the flags row).
        ("(?x:\\p {L})", ["a", "é"]), ("(?x:\\p{ L u})", ["B"]), ("(?x:\\x 6B)", ["k"]), ("(?x:\\x{ 41 })", ["A"]),
        ("(?x:\\u00 6B)", ["k"]), ("(?x:\\0 101)", ["A"]), ("(?x:\\N {SPACE})", [" "]), ("(?x:k{ 2})", ["kk"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    /// Escapes the two dialects read apart or that only one has: anchors,
    /// `\h` `\v` `\R`, quoting, octal, control and named characters,
    /// scripts, blocks and the POSIX-like and `java...` properties (ASCII
    /// in the JDK, Unicode in ICU), a surrogate pair, and the grapheme
    /// escapes both refuse.
    static let moreEscapes: [PatternNode] = [
        ("\\A", [""]), ("\\z", [""]), ("\\Z", ["", "\n"]), ("\\G", [""]), ("\\h", [" ", "\u{A0}"]), ("\\v", ["\n", "\u{B}"]),
        ("\\R", ["\r\n", "\n"]), ("\\Q.*\\E", [".*"]), ("\\Qk\\E", ["k", "\u{212A}"]), ("\\Q\\E", [""]), ("\\0101", ["A"]),
        ("\\cA", ["\u{1}"]), ("\\e", ["\u{1B}"]), ("\\a", ["\u{7}"]), ("\\f", ["\u{C}"]), ("\\N{KELVIN SIGN}", ["\u{212A}", "k"]),
        ("\\N{LATIN SMALL LETTER K}", ["k"]), ("\\p{IsGreek}", ["\u{3B1}"]), ("\\p{InGreek}", ["\u{3B1}"]), ("\\p{Greek}", ["\u{3B1}"]),
        ("\\p{sc=Grek}", ["\u{3B1}"]), ("\\p{Alpha}", ["a", "\u{E9}"]), ("\\p{Lower}", ["k", "\u{17F}"]), ("\\p{Upper}", ["K", "\u{212A}"]),
        ("\\p{Punct}", ["!", "\u{A1}"]), ("\\p{javaLowerCase}", ["k", "\u{17F}"]), ("\\p{IsAlphabetic}", ["\u{E9}"]),
        ("\\p{IsLatin}", ["k", "\u{212A}"]), ("\\uD835\\uDC00", ["\u{1D400}"]), ("\\x{1F600}", ["\u{1F600}"]), ("\\X", ["a"]),
        ("\\b{g}", [""]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    static let assertions: [PatternNode] = [
        ("^", [""]), ("$", [""]), ("\\b", [""]), ("\\B", [""]), ("\\b", [""]), ("\\B", [""]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    static let classCharacters: [(String, String)] = "abkKsSiIxz09/_.:=?+*$".map { (String($0), String($0)) }
        + [("\\-", "-"), ("\\]", "]"), ("\\[", "["), ("\\^", "^"), ("\\\\", "\\"), ("\\&", "&"), ("&", "&"), ("-", "-"),
           ("\u{212A}", "\u{212A}"), ("\u{17F}", "\u{17F}"), ("\u{130}", "\u{130}"), ("\u{131}", "\u{131}"), ("é", "é"), ("ß", "ß")]

    static let ranges: [(String, String)] = [
        ("a-z", "q"), ("A-Z", "Q"), ("0-9", "5"), ("h-j", "i"), ("a-c", "b"), ("k-m", "k"), ("r-t", "s"), ("J-L", "K"),
        ("\\x{100}-\\x{17F}", "\u{17F}"), ("à-ÿ", "é"), ("!-&", "&"), ("\\x{2000}-\\x{2200}", "\u{212A}"),
    ]

    static let classEscapes: [(String, String)] = [
        ("\\d", "7"), ("\\w", "w"), ("\\s", " "), ("\\D", "x"), ("\\W", "/"), ("\\S", "s"), ("\\p{L}", "é"), ("\\P{L}", "1"),
        ("\\p{Lu}", "K"), ("\\x{6B}", "k"), ("\\x{17F}", "\u{17F}"), ("\\x{212A}", "\u{212A}"),
    ]

    /// Classes whose reading differs between the dialects, or that JDK 17
    /// reads in a way of its own (docs/format-and-profiles.md, "Dialects").
    static let oddClasses: [PatternNode] = [
        ("[x&&]", ["x", "&"]), ("[&&x]", ["x", "&"]), ("[a&&&]", ["a", "&"]), ("[a-&&b]", ["a", "b", "&"]), ("[!-&&b]", ["!", "&", "b"]),
        ("[^&&a]", ["b", "a"]), ("[a&&[b]&c]", ["a", "b", "&"]), ("[[b]a&&]", ["a", "b"]), ("[a--b]", ["a", "-"]),
        ("[a-z--[aeiou]]", ["b", "a"]), ("[\\w&&[^\\d]]", ["w", "1"]), ("[a-z&&[^aeiou]]", ["b", "e"]), ("[k&&]", ["k", "\u{212A}"]),
        ("[&&k]", ["K", "\u{212A}"]), ("[&]", ["&"]), ("[&&]", ["&"]), ("[a&&]", ["a"]), ("[^]a]", ["b"]), ("[]a]", ["]"]),
        ("[a-]", ["-"]), ("[--a]", ["-"]), ("[s&&[\\x{17F}]]", ["s", "\u{17F}"]), ("[i&&[I]]", ["i", "I"]), ("[a&&\\d]", ["a"]),
        ("[a[b]]", ["b"]), ("[a-c[x-z]]", ["y"]), ("[^a[b]]", ["b", "c"]), ("[[a-z]--[k]]", ["k", "j"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    /// A quantifier, and the fewest times it repeats.
    static let quantifiers: [(String, Int)] = [
        ("?", 0), ("*", 0), ("+", 1), ("?", 0), ("*", 0), ("+", 1), ("{0}", 0), ("{1}", 1), ("{2}", 2), ("{3}", 3), ("{1,}", 1),
        ("{2,}", 2), ("{0,1}", 0), ("{1,3}", 1), ("{2,5}", 2), ("{1,5}", 1),
    ]

    /// Repeats of a group in a lookbehind (none, for the first two), and
    /// the fewest times each repeats.
    static let boundedQuantifiers: [(String, Int)] = [
        ("", 1), ("", 1), ("{2}", 2), ("{1,2}", 1), ("?", 0), ("{0,1}", 0), ("{0,2}", 0), ("{2}+", 2), ("??", 0), ("{1,2}?", 1),
        ("{1}", 1), ("*", 0),
    ]

    /// What follows a quantifier in `a?{2}`, `a{2}{3}`, `a**`.
    static let stacked: [(String, Int)] = [("{2}", 2), ("{3}", 3), ("{1,2}", 1), ("{0}", 0), ("?", 1), ("*", 1), ("+", 1), ("{2,}", 2)]

    /// Back references, by number and by name, to groups that may or may
    /// not exist (yet), and ICU's comments, whose text ICU scans as it
    /// scans a pattern (`\Q` quotes a `)`; an escape it reads is read).
    static let references = [
        "\\1", "\\2", "\\3", "\\10", "\\k<g1>", "\\k<g2>", "\\k<x>", "(?#c)", "(?#\\Q)\\E)", "(?#\\))", "(?#\\x41)",
        "(?# a #b)", "(?#(?#)",
    ]

    static let flags = ["(?i)", "(?-i)", "(?s)", "(?m)", "(?x)", "(?-x)", "(?is)", "(?i-s)", "(?-m)", "(?i)", "(?i)"]
    static let flagGroups = ["(?i:", "(?-i:", "(?s:", "(?m:", "(?x:", "(?i-x:", "(?-i:"]
    /// Flags only one dialect has or the two read apart: `d` (UNIX_LINES)
    /// in both, the JDK's `u` (UNICODE_CASE), `c` and `U` (which the
    /// library refuses), ICU's `w` (UREGEX_UWORD).
    static let moreFlags: [PatternNode] = [
        ("(?d)", [""]), ("(?u)", [""]), ("(?-u)", [""]), ("(?w)", [""]), ("(?md)", [""]), ("(?i-u)", [""]), ("(?d:a$)", ["a", "A"]),
        ("(?-d:.)", ["\r", "x"]), ("(?w:\\b)", [""]), ("(?c)", [""]), ("(?U)", [""]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }

    /// The wide grammar's characters above U+FFFF, as written and as
    /// matched: Deseret's capital and small long I and Adlam's capital and
    /// small alif (cased, so that case-insensitive matching folds across
    /// pairs), a mathematical bold A (a letter with no case mapping), an
    /// emoji. All were assigned by Unicode 9, which ICU, PCRE2 and the JDK
    /// share (`DialectInput.isStable`).
    static let wideNonASCII: [(String, String)] = ["\u{10400}", "\u{10428}", "\u{1E900}", "\u{1E922}", "\u{1D400}", "\u{1F600}"].map { ($0, $0) }
    static let wideRanges: [(String, String)] = [
        ("\\x{10400}-\\x{10410}", "\u{10405}"), ("\u{10428}-\u{1042F}", "\u{1042C}"), ("\\x{FF00}-\\x{10410}", "\u{10000}"),
        ("\\x{1D400}-\\x{1D419}", "\u{1D401}"), ("\u{1E900}-\u{1E921}", "\u{1E901}"), ("\\x{10000}-\\x{10FFFF}", "\u{1F600}"),
    ]
    static let wideClassEscapes: [(String, String)] = [
        ("\\x{10400}", "\u{10428}"), ("\\x{1E922}", "\u{1E900}"), ("\\x{1F600}", "\u{1F600}"), ("\\uD801\\uDC28", "\u{10428}"),
    ]
    static let wideEscapes: [PatternNode] = [
        ("\\x{10428}", ["\u{10400}", "\u{10428}"]), ("\\x{1D400}", ["\u{1D400}"]), ("\\uD801\\uDC00", ["\u{10400}", "\u{10428}"]),
        ("\\x{1E900}", ["\u{1E922}"]), ("\\uD835\\uDC00", ["\u{1D400}"]), ("\\N{DESERET SMALL LETTER LONG I}", ["\u{10428}", "\u{10400}"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }
    static let wideFillers = ["\u{1D400}", "\u{10400}", "\u{1E922}", "\u{1F600}", "/\u{10428}/"]
    static let wideURLs = ["/\u{10400}/\u{10428}/", "/\u{1D400}x\u{1F600}", "/\u{1E900}\u{1E922}?q=\u{10428}", "\u{1F600}"]

    /// The cased grammar's characters (`PatternGrammar.casedNonASCII`).
    static let casedNonASCII = PatternGrammar.casedNonASCII.map { ($0, $0) }
    static let casedRanges: [(String, String)] = [
        ("\u{391}-\u{3A9}", "\u{3A3}"), ("\u{3B1}-\u{3C9}", "\u{3C2}"), ("\u{3D0}-\u{3F5}", "\u{3D1}"), ("\\x{1F80}-\\x{1FBC}", "\u{1FB3}"),
        ("\u{13A0}-\u{13F5}", "\u{13A0}"), ("\\x{AB70}-\\x{ABBF}", "\u{AB70}"), ("\u{FB00}-\u{FB06}", "\u{FB01}"),
        ("\u{1C4}-\u{1CC}", "\u{1C5}"), ("\\x{2120}-\\x{212B}", "\u{2126}"), ("\u{140}-\u{150}", "\u{149}"),
    ]
    static let casedClassEscapes: [(String, String)] = [
        ("\\x{3C2}", "\u{3A3}"), ("\\x{1FBE}", "\u{3B9}"), ("\\x{345}", "\u{399}"), ("\\x{FB01}", "\u{FB01}"), ("\\x{1F0}", "\u{1F0}"),
        ("\\N{GREEK SMALL LETTER FINAL SIGMA}", "\u{3C3}"), ("\\x{13A0}", "\u{AB70}"),
    ]
    static let casedEscapes: [PatternNode] = [
        ("\\x{3D1}", ["\u{3B8}", "\u{398}", "\u{3F4}"]), ("\\x{1FBE}", ["\u{345}", "\u{399}"]), ("\\x{149}", ["\u{149}", "\u{2BC}n"]),
        ("\\x{FB01}", ["fi", "\u{FB01}", "FI"]), ("\\x{1C5}", ["\u{1C4}", "\u{1C6}"]), ("\\x{AB70}", ["\u{13A0}"]),
        ("\\x{1FB3}", ["\u{3B1}\u{3B9}", "\u{1FBC}"]), ("\\N{OHM SIGN}", ["\u{3C9}", "\u{3A9}"]),
    ].map { PatternNode.atom($0.0, samples: $0.1) }
    static let casedFillers = PatternGrammar.casedFillers
    static let casedURLs = ["/\u{3A3}\u{3C3}\u{3C2}/", "/\u{FB01}le/FILE/file", "/\u{13A0}\u{AB70}/", "/\u{1C4}\u{1C5}\u{1C6}", "/\u{2126}\u{3C9}/\u{212B}\u{E5}"]

    /// Subjects that are not samples: URL paths and queries.
    static let urls = [
        "/users/abc/", "/a/", "aa", "/", "", "/users/42/edit", "/api/v1/items?id=12&sort=asc", "/new", "/search?q=k%20s",
        "/\u{17F}/\u{212A}/\u{130}/\u{131}", "/Kelvin/KELVIN/\u{212A}elvin", "/caf\u{E9}/", "/STRASSE/stra\u{DF}e", "/a-b_c.d",
        "/x/y/z?a=1#f", "a\nb", "a\r\nb", "/a/\n", "日本/語", "/IIİı", "ab", "k", "\u{212A}",
    ]
    static let fillers = ["", "/", "x", "/a/", "?q=1", "A", "é", "\u{212A}", " ", "\u{131}", "\u{130}", "/users/", "&k=v"]
}
