import PathConfiguration
@testable import PathConfigCore
import Testing

/// `PatternSyntax`, the one reading of a pattern's constructs: what each is
/// read as and the text it was written as, what is refused and where, and
/// that the nodes tile the pattern.
@Suite("PatternSyntax")
struct PatternSyntaxTests {
    typealias Kind = PatternSyntax.Kind
    typealias Item = PatternSyntax.ClassItem

    /// A pattern and its nodes: each kind and the text it was written as.
    struct Reading: Sendable, CustomTestStringConvertible {
        let pattern: String
        let nodes: [(Kind, String)]
        var testDescription: String { pattern }
        init(_ pattern: String, _ nodes: [(Kind, String)]) {
            self.pattern = pattern
            self.nodes = nodes
        }
    }

    static func a(_ c: Character) -> Kind { .character(c.unicodeScalars.first!.value, .plain) }
    static func q(_ min: Int32, _ max: Int32?, _ mode: PatternSyntax.Mode = .greedy) -> Kind { .quantifier(min: min, max: max, mode) }
    static func esc(_ letter: Character) -> UInt8 { letter.asciiValue! }

    static let readings: [Reading] = [
        // Characters as themselves, ASCII and not.
        Reading("a/é😀", [(a("a"), "a"), (a("/"), "/"), (a("é"), "é"), (.character(0x1F600, .plain), "😀")]),
        Reading(#"]"#, [(a("]"), "]")]),
        // Escaped ASCII that is not a letter or digit, space included.
        Reading(#"\.\/\ \-"#, [(.character(0x2E, .escaped), #"\."#), (.character(0x2F, .escaped), #"\/"#),
                               (.character(0x20, .escaped), #"\ "#), (.character(0x2D, .escaped), #"\-"#)]),
        Reading(#"\t\n\r\f"#, [(.character(0x09, .control), #"\t"#), (.character(0x0A, .control), #"\n"#),
                               (.character(0x0D, .control), #"\r"#), (.character(0x0C, .control), #"\f"#)]),
        // Characters by code.
        Reading(#"\x41\x{1F600}\u00E9\U0001F600"#, [(.character(0x41, .hex), #"\x41"#), (.character(0x1F600, .hexBraced), #"\x{1F600}"#),
                                                     (.character(0xE9, .unicode), #"\u00E9"#), (.character(0x1F600, .longUnicode), #"\U0001F600"#)]),
        // Shorthands and assertions.
        Reading(#"\d\D\w\W\s\S\h\v"#, ["d", "D", "w", "W", "s", "S", "h", "v"].map { (.escape(.shorthand(esc($0))), "\\" + String($0)) }),
        Reading(#"\A\z\Z\b\B\G"#, ["A", "z", "Z", "b", "B", "G"].map { (.escape(.assertion(esc($0))), "\\" + String($0)) }),
        // Other escapes, each to its end.
        Reading(#"\p{L}\P{Lu}\R\X\k<n>"#, [(.escape(.other(esc("p"))), #"\p{L}"#), (.escape(.other(esc("P"))), #"\P{Lu}"#),
                                          (.escape(.other(esc("R"))), #"\R"#), (.escape(.other(esc("X"))), #"\X"#),
                                          (.escape(.other(esc("k"))), #"\k<n>"#)]),
        // A back reference takes the digits ICU takes: after one group, `\12` is `\1` and 2.
        Reading(#"(a)\12"#, [(.group(.capturing, close: 2), "("), (a("a"), "a"), (.groupClose, ")"), (.escape(.other(esc("1"))), #"\1"#),
                             (a("2"), "2")]),
        // Characters by octal code, control letter and name; ICU's escaped letter, and \x with one digit.
        Reading(#"\0101\cA\N{SOLIDUS}\K\x4\é"#, [(.character(0x41, .octal), #"\0101"#), (.character(0x01, .controlLetter), #"\cA"#),
                                                 (.character(0x2F, .named), #"\N{SOLIDUS}"#), (.character(0x4B, .letter), #"\K"#),
                                                 (.character(0x04, .hex), #"\x4"#), (.character(0xE9, .escaped), #"\é"#)]),
        // Quoting: each quoted character a node of its own; ICU reads a lone \E as E.
        Reading(#"a\Q.*\E\E"#, [(a("a"), "a"), (.character(0x2E, .quoted), "."), (.character(0x2A, .quoted), "*"),
                                (.character(0x45, .letter), #"\E"#)]),
        Reading(".^$|", [(.dot, "."), (.caret, "^"), (.dollar, "$"), (.alternation, "|")]),
        // Groups, each with the index of its `)`.
        Reading("((a)|b)", [(.group(.capturing, close: 6), "("), (.group(.capturing, close: 3), "("), (a("a"), "a"), (.groupClose, ")"),
                            (.alternation, "|"), (a("b"), "b"), (.groupClose, ")")]),
        Reading("(?:)(?>)(?=)(?!)(?<=)(?<!)", [
            (.group(.nonCapturing, close: 1), "(?:"), (.groupClose, ")"), (.group(.atomic, close: 3), "(?>"), (.groupClose, ")"),
            (.group(.lookahead, close: 5), "(?="), (.groupClose, ")"), (.group(.negativeLookahead, close: 7), "(?!"), (.groupClose, ")"),
            (.group(.lookbehind, close: 9), "(?<="), (.groupClose, ")"), (.group(.negativeLookbehind, close: 11), "(?<!"), (.groupClose, ")"),
        ]),
        Reading("(?<n1>)(?<n2>)", [(.group(.named, close: 1), "(?<n1>"), (.groupClose, ")"), (.group(.named, close: 3), "(?<n2>"),
                                  (.groupClose, ")")]),
        // Flags, alone and as a group; a comment to the first `)`.
        Reading("(?i)a(?-i:b)(?sw)", [(.flags, "(?i)"), (a("a"), "a"), (.group(.flags, close: 4), "(?-i:"), (a("b"), "b"), (.groupClose, ")"),
                                     (.flags, "(?sw)")]),
        // A comment (to the first `)`) reads as nothing: a quantifier after it repeats what came before.
        Reading("a(?#no (te)b", [(a("a"), "a"), (a("b"), "b")]),
        Reading("a(?#c)*", [(a("a"), "a"), (q(0, nil), "*")]),
        // Free-spacing mode skips white space and # comments, to the end of its group.
        Reading("a(?x) b # c\n*(?-x: c)", [(a("a"), "a"), (.flags, "(?x)"), (a("b"), "b"), (q(0, nil), "*"), (.group(.flags, close: 7), "(?-x:"),
                                          (a(" "), " "), (a("c"), "c"), (.groupClose, ")")]),
        // Quantifiers, every form and mode.
        Reading("a*a+a?a{2}a{2,}a{2,5}", [(a("a"), "a"), (q(0, nil), "*"), (a("a"), "a"), (q(1, nil), "+"), (a("a"), "a"), (q(0, 1), "?"),
                                         (a("a"), "a"), (q(2, 2), "{2}"), (a("a"), "a"), (q(2, nil), "{2,}"), (a("a"), "a"), (q(2, 5), "{2,5}")]),
        Reading("a*?a+?a??a{2}?", [(a("a"), "a"), (q(0, nil, .lazy), "*?"), (a("a"), "a"), (q(1, nil, .lazy), "+?"), (a("a"), "a"),
                                  (q(0, 1, .lazy), "??"), (a("a"), "a"), (q(2, 2, .lazy), "{2}?")]),
        Reading("a*+a++a?+a{0,99999}+", [(a("a"), "a"), (q(0, nil, .possessive), "*+"), (a("a"), "a"), (q(1, nil, .possessive), "++"),
                                        (a("a"), "a"), (q(0, 1, .possessive), "?+"), (a("a"), "a"), (q(0, 99999, .possessive), "{0,99999}+")]),
        Reading("(ab){3}[a]+.*^?$*", [(.group(.capturing, close: 3), "("), (a("a"), "a"), (a("b"), "b"), (.groupClose, ")"), (q(3, 3), "{3}"),
                                     (.characterClass(0), "[a]"), (q(1, nil), "+"), (.dot, "."), (q(0, nil), "*"), (.caret, "^"), (q(0, 1), "?"),
                                     (.dollar, "$"), (q(0, nil), "*")]),
        // Classes: one node each, as written.
        Reading(#"x[a-z][^\d\]][]a][[b]c]"#, [(a("x"), "x"), (.characterClass(0), "[a-z]"), (.characterClass(1), #"[^\d\]]"#),
                                              (.characterClass(2), "[]a]"), (.characterClass(3), "[[b]c]")]),
    ]

    @Test("each construct: its kind and the text it was written as", arguments: readings)
    func reads(_ reading: Reading) throws {
        let syntax = try PatternSyntax.read(reading.pattern, dialect: .icu)
        #expect(syntax.nodes.map(\.kind) == reading.nodes.map(\.0))
        #expect(syntax.nodes.map { String(syntax.source(of: $0)) } == reading.nodes.map(\.1))
    }

    @Test("classes: ranges, escapes, negation, a ] first and nested classes, as ICU reads them", arguments: [
        ("[a-z0-9_]", [PatternSyntax.CharacterClass(items: [.range(0x61, .plain, 0x7A, .plain), .range(0x30, .plain, 0x39, .plain), .character(0x5F, .plain)])]),
        (#"[^\d\x41-\x5A\-.]"#, [PatternSyntax.CharacterClass(negated: true, items: [
            .escape(.shorthand(0x64)), .range(0x41, .hex, 0x5A, .hex), .character(0x2D, .escaped), .character(0x2E, .plain)])]),
        ("[]a]", [PatternSyntax.CharacterClass(items: [.character(0x5D, .plain), .character(0x61, .plain)])]),
        ("[^]]", [PatternSyntax.CharacterClass(negated: true, items: [.character(0x5D, .plain)])]),
        ("[a[b-c]]", [PatternSyntax.CharacterClass(items: [.character(0x61, .plain), .nested(1)]),
                      PatternSyntax.CharacterClass(items: [.range(0x62, .plain, 0x63, .plain)])]),
        // A - first or last, or after an escape that is not a character, is itself.
        ("[-a-]", [PatternSyntax.CharacterClass(items: [.character(0x2D, .plain), .character(0x61, .plain), .character(0x2D, .plain)])]),
        (#"[\d-a]"#, [PatternSyntax.CharacterClass(items: [.escape(.shorthand(0x64)), .character(0x2D, .plain), .character(0x61, .plain)])]),
        // A range starts at the last character added as itself: not at a & (Java: a and & to z).
        ("[a&-z]", [PatternSyntax.CharacterClass(items: [.character(0x61, .plain), .character(0x26, .plain), .range(0x61, .plain, 0x7A, .plain)])]),
        // Set operators, and [:name:] as a property.
        ("[[a]-[b]]", [PatternSyntax.CharacterClass(items: [.nested(1), .difference, .nested(2)]),
                       PatternSyntax.CharacterClass(items: [.character(0x61, .plain)]), PatternSyntax.CharacterClass(items: [.character(0x62, .plain)])]),
        ("[:^alpha:]", [PatternSyntax.CharacterClass(items: [.escape(.other(0x50))])]),
        (#"[\t-\u00FF]"#, [PatternSyntax.CharacterClass(items: [.range(0x09, .control, 0xFF, .unicode)])]),
        // \b in a class is not an assertion (ICU: the letter); \p{..} is an escape.
        (#"[\b\p{L}&&é-ü]"#, [PatternSyntax.CharacterClass(items: [.character(0x62, .letter), .escape(.other(0x70)), .intersection,
                                                                 .range(0xE9, .plain, 0xFC, .plain)])]),
    ])
    func classes(_ pattern: String, _ expected: [PatternSyntax.CharacterClass]) throws {
        let syntax = try PatternSyntax.read(pattern, dialect: .icu)
        #expect(syntax.classes == expected)
        #expect(syntax.nodes.map(\.kind) == [.characterClass(0)])
    }

    @Test("classes as Java reads them: a range from a &, && as an operator, and its right operand's characters as the class's", arguments: [
        ("[a&-z]", [PatternSyntax.CharacterClass(items: [.character(0x61, .plain), .range(0x26, .plain, 0x7A, .plain)])]),
        ("[a-c&&b[d]]", [PatternSyntax.CharacterClass(items: [.range(0x61, .plain, 0x63, .plain), .intersection, .character(0x62, .plain), .nested(1)]),
                         PatternSyntax.CharacterClass(items: [.character(0x64, .plain)])]),
        ("[:alpha:]", [PatternSyntax.CharacterClass(items: [0x3A, 0x61, 0x6C, 0x70, 0x68, 0x61, 0x3A].map { .character($0, .plain) })]),
        // The JDK rewrites a quote before it reads (`[\-\]]`), so `[\Qa\E-z]` is `[a-z]`.
        (#"[\Q-]\E]"#, [PatternSyntax.CharacterClass(items: [.character(0x2D, .escaped), .character(0x5D, .escaped)])]),
        (#"[\Qa\E-z\Q1\E]"#, [PatternSyntax.CharacterClass(items: [.range(0x61, .plain, 0x7A, .plain), .character(0x31, .hex)])]),
    ])
    func javaClasses(_ pattern: String, _ expected: [PatternSyntax.CharacterClass]) throws {
        #expect(try PatternSyntax.read(pattern, dialect: .java).classes == expected)
    }

    @Test("what the engines delimit differently, or ICU refuses, is refused, naming it, at its first UTF-8 byte", arguments: [
        (#"[\Q]"#, "missing terminating ] for character class", 4), (#"[a-\d]"#, "not a valid ICU pattern: a range cannot end in \\d", 4),
        ("(*UTF)a", "a quantifier * with nothing to repeat", 1), ("(?(1)a|b)", "not a valid ICU pattern: unknown flag in (?...)", 2),
        ("(?1)", "not a valid ICU pattern: unknown flag in (?...)", 2), ("(?&n)", "not a valid ICU pattern: unknown flag in (?...)", 2),
        ("(?|a)", "not a valid ICU pattern: unknown flag in (?...)", 2), ("(?P<n>a)", "not a valid ICU pattern: unknown flag in (?...)", 2),
        ("a(?i-", "not a valid ICU pattern: unterminated flag group", 1), ("a(?)", "not a valid ICU pattern: empty flag group", 1),
        ("a{x", "not a valid ICU pattern: { does not start a repeat count", 1), ("a{,2}", "not a valid ICU pattern: { does not start", 1),
        ("a{2", "not a valid ICU pattern: unterminated repeat count", 1), ("a{3,2}", "not a valid ICU pattern: repeat count {3,2} out of order", 1),
        ("{2}", "a quantifier { with nothing to repeat", 0), ("*a", "a quantifier * with nothing to repeat", 0),
        ("a|+", "a quantifier + with nothing to repeat", 2), ("(?:?)", "a quantifier ? with nothing to repeat", 3),
        ("(?i)*", "a quantifier * with nothing to repeat", 4), ("a**", "a quantifier after a quantifier", 2),
        ("a{2}{3}", "a quantifier after a quantifier", 4), ("a*??", "a quantifier after a quantifier", 3),
        ("(a", "a group without its )", 2), ("(", "a group without its )", 1), ("(?", "not a valid ICU pattern: unterminated group", 0),
        ("éa)", "an unmatched )", 3), ("[a", "missing terminating ] for character class", 2),
        ("[]", "missing terminating ] for character class", 2), ("x[b[c]", "missing terminating ] for character class", 6), ("a\\", "\\ at end of pattern", 1), ("a}", "not a valid ICU pattern: unescaped }", 1),
        (#"\x{zz}"#, "not a valid ICU pattern: \\x{...} needs hex digits", 0), (#"\x{7FFFFFFF}"#, "not a valid ICU pattern: \\x{...}", 0),
        (#"\x{1234567}"#, "not a valid ICU pattern: \\x{...}", 0), (#"\u12"#, "not a valid ICU pattern: \\u needs four hex digits", 0),
        (#"a\U1234"#, "not a valid ICU pattern: \\U needs eight hex digits", 1), (#"\pL"#, "not a valid ICU pattern: \\p must be followed by {NAME}", 0),
        (#"\p{L"#, "not a valid ICU pattern: unterminated \\p{", 0), (#"\k"#, "not a valid ICU pattern: \\k must be followed by <name>", 0),
        (#"\k<n"#, "not a valid ICU pattern: \\k<name> needs a group name", 0), (#"é\0"#, "not a valid ICU pattern: \\0 needs an octal digit", 2),
        ("(?<a-b>x)", "not a valid ICU pattern: a group name is an ASCII letter", 0), ("(?#abc", "not a valid ICU pattern: unterminated comment", 0),
        // ICU's parser holds 99 levels (the reader's own limit, 200, is Java's).
        (String(repeating: "(", count: 100) + String(repeating: ")", count: 100), "not a valid ICU pattern: groups, classes and comments nested 100 deep", 99),
        (String(repeating: "[", count: 100_000), "the ICU construct a class nested more than 32 deep", 32),
    ])
    func refused(_ pattern: String, _ construct: String, _ offset: Int) {
        #expect {
            try PatternSyntax.read(pattern, dialect: .icu)
        } throws: { error in
            guard let error = error as? PatternSyntax.Unsupported else { return false }
            return error.construct.hasPrefix(construct) && error.offset == offset
        }
    }

    @Test("Java reads escapes its own way: \\pL, \\cA as A xor 0x40, \\b{g}; no unknown letters, lone \\E, \\x with one digit or second -")
    func java() throws {
        let syntax = try PatternSyntax.read(#"\pL\c!\b{g}\Q\E*}"#, dialect: .java)
        #expect(syntax.nodes.map(\.kind) == [.escape(.other(0x70)), .character(0x61, .controlLetter), .escape(.other(0x62)),
                                             .quantifier(min: 0, max: nil, .greedy), .character(0x7D, .plain)])
        for (pattern, message, offset) in [(#"\y"#, "unknown escape \\y", 0), (#"a\E"#, "\\E without \\Q", 1),
                                           (#"\x4"#, "\\x needs two hex digits", 0), (#"\b{g"#, "\\b{g needs its }", 0),
                                           (#"\c"#, "\\c needs a character", 0), ("(?--i)", "unknown flag in (?...)", 3)] {
            #expect(throws: PatternSyntax.Unsupported(construct: "not a valid Java pattern: " + message, offset: offset)) {
                try PatternSyntax.read(pattern, dialect: .java)
            }
        }
        #expect {
            try PatternSyntax.read(String(repeating: "(", count: 201) + String(repeating: ")", count: 201), dialect: .java)
        } throws: { error in
            (error as? PatternSyntax.Unsupported).map { $0.construct.hasPrefix("groups nested deeper than 200") && $0.offset == 200 } ?? false
        }
        // What the two read alike, and where they do not.
        #expect(try PatternSyntax.readAlike(#"\Qa.\E\x41"#) == PatternSyntax.read(#"\Qa.\E\x41"#, dialect: .icu))
        #expect(throws: PatternSyntax.Unsupported.self) { try PatternSyntax.readAlike(#"\x4"#) }
        // After two groups ICU reads `\12` whole, Java `\1` and 2.
        #expect(throws: PatternSyntax.Unsupported(construct: "a construct ICU and Java read differently", offset: 6)) {
            try PatternSyntax.readAlike(#"(a)(b)\12"#)
        }
    }

    @Test("offsets are UTF-8 bytes; scalarOffset counts them in Unicode scalars")
    func offsets() throws {
        let syntax = try PatternSyntax.read("é😀a+", dialect: .icu)
        #expect(syntax.nodes.map(\.start) == [0, 2, 6, 7] && syntax.nodes.map(\.end) == [2, 6, 7, 8])
        #expect([0, 2, 6, 7, 8, 99].map(syntax.scalarOffset) == [0, 1, 2, 3, 4, 4])
        #expect(syntax.quantifier(after: 2)! == (1, nil, .greedy) && syntax.quantifier(after: 1) == nil)
        let groups = try PatternSyntax.read("(a)*b", dialect: .icu)
        #expect(groups.nodes[0].itemEnd(at: 0) == 3 && groups.nodes[1].itemEnd(at: 1) == 2 && groups.quantifier(after: 0)! == (0, nil, .greedy))
    }

    /// Every pattern of the conformance fixtures and the bench corpora.
    static let corpus: [String] = {
        var out: [String] = []
        func collect(_ value: JSONValue, key: String?) {
            switch value {
            case .object(let o): for (k, v) in o { collect(v, key: k) }
            case .array(let a): for v in a { collect(v, key: key) }
            case .string(let s): if key == "patterns" || key == "pattern" { out.append(s) }
            default: break
            }
        }
        for file in [Conformance.ios, Conformance.android, Conformance.siesta] { collect(.object(file), key: nil) }
        for size in [10, 100, 1000, 10000] {
            let path = Conformance.repositoryRoot + "/bench/corpora/rules-\(size).json"
            guard let bytes = try? Conformance.readFile(path), let value = try? JSONValue(parsing: bytes) else { fatalError("cannot read \(path)") }
            collect(value, key: nil)
        }
        return out
    }()

    @Test("the nodes tile the pattern: in order, without gaps or overlaps, a class's contents inside its node; groups close where they say")
    func tiles() throws {
        var read = 0
        for pattern in Self.corpus + Self.readings.map(\.pattern) {
            guard let syntax = try? PatternSyntax.read(pattern, dialect: .icu) else { continue }
            read += 1
            // Only the marks of quoting, comments and free-spacing white space read as nothing.
            let bounds = [0] + syntax.nodes.flatMap { [Int($0.start), Int($0.end)] } + [syntax.text.count]
            #expect(stride(from: 0, to: bounds.count, by: 2).allSatisfy { k in
                let gap = String(decoding: syntax.text[bounds[k]..<bounds[k + 1]], as: UTF8.self).replacing(#"\Q"#, with: "").replacing(#"\E"#, with: "")
                if gap.hasPrefix("(?#") && gap.hasSuffix(")") { return true }
                return gap.split(separator: "\n").allSatisfy { line in
                    let text = line.drop { $0.isWhitespace }
                    return text.isEmpty || text.hasPrefix("#")
                }
            }, "\(pattern)")
            #expect(syntax.nodes.allSatisfy { $0.start < $0.end }, "\(pattern)")
            var open: [Int] = []
            for (k, node) in syntax.nodes.enumerated() {
                if case .group = node.kind { open.append(k) }
                guard node.kind == .groupClose else { continue }
                guard case .group(_, let close) = syntax.nodes[open.removeLast()].kind, close == k else {
                    Issue.record("\(pattern): ) at node \(k) closes another group")
                    break
                }
            }
            #expect(open.isEmpty, "\(pattern)")
        }
        // Not vacuous: the corpora's patterns are read.
        #expect(Self.corpus.count > 1000 && read > Self.corpus.count * 9 / 10, "\(read) of \(Self.corpus.count)")
    }
}
