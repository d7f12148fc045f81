@testable import PathConfigPort
import Testing

/// `PortablePattern`: the subset of patterns port proves ICU and Java read
/// alike, as a whitelist over `PatternSyntax`: what it takes as tokens, and
/// what it refuses, naming the construct.
@Suite("port: the portable subset")
struct PortablePatternTests {
    @Test("the tokens, each with the text it was written as")
    func tokens() throws {
        let parsed = try PortablePattern.parse(#"^(?:/a\.b|\x41\u00E9)[^a-c\d-]+?\S\b.{2,}\z"#)
        #expect(parsed.tokens.map(\.kind) == [
            .start, .groupOpen(.nonCapturing), .literal("/"), .literal("a"), .literal("."), .literal("b"), .alternation,
            .literal("A"), .literal("\u{E9}"), .groupClose, .characterClass(items: [.range("a", "c"), .shorthand(.digit), .character("-")], negated: true),
            .quantifier, .shorthand(.space, negated: true), .wordBoundary, .any, .quantifier, .end,
        ])
        #expect(parsed.tokens.map(\.text) == ["^", "(?:", "/", "a", #"\."#, "b", "|", #"\x41"#, #"\u00E9"#, ")", #"[^a-c\d-]"#, "+?", #"\S"#,
                                              #"\b"#, ".", "{2,}", #"\z"#])
    }

    @Test("inside the subset", arguments: [
        "", "a", "é😀", #"\t\n\r\f"#, #"\x7E\u00FF"#, #"\!\/\-\]\}\{\[\\\^\$\~"#, #"\d\w\s\D\W\S"#, #"\A\z\Z\b\B"#,
        "(a)(?:a)(?>a)(?=a)(?!a)(?<=a)(?<!a)", "a*a+a?a{2}a{2,}a{2,5}a*?a++a{2}?", "(a)*[a]+.?", "a{123456}", "(?<=a{2}b?)c(?=d+)", "(?<=a)(?:b)*", "[^:/]+", "[:/]", "[:a:b]",
        "[-a]", "[a-]", "[^-a]", #"[\--/]"#, #"[!-\-]"#, "[-&]", "[a-c-]", "[&]", "[a&b]", #"[a\&&b]"#, #"[\&-&&]"#, "[!-&&b]", "[\\d-]",
        #"[\d\w\s\t\x41\u00E9\.\]\[\^\-]"#, "[é-ü]", "[a^]", "[$.|()*+?{}]", "[a-a]",
    ])
    func accepted(_ pattern: String) {
        #expect(throws: Never.self) { try PortablePattern.parse(pattern) }
    }

    @Test("outside the subset, naming the construct at its first character", arguments: [
        // Escapes beyond those both engines read alike.
        (#"a\ "#, #"the escape \ "#, 1), (#"\y"#, #"not a valid Java pattern: unknown escape \y"#, 0), (#"\G"#, #"the escape \G"#, 0), (#"\1"#, #"the escape \1"#, 0),
        (#"\p{L}"#, #"the escape \p"#, 0), (#"é\é"#, #"the escape \é"#, 1), (#"\x4"#, #"not a valid Java pattern: \x needs two hex digits"#, 0),
        (#"\x{41}"#, #"the escape \x{...}"#, 0), (#"\U00000041"#, #"not a valid Java pattern: unknown escape \U"#, 0), (#"\uD800"#, "a surrogate escape", 0),
        // Groups other than plain, non-capturing, atomic and lookaround; flags, comments.
        ("(?<n>a)", "a named group (?<name>...)", 0), ("(?P<n>a)", "not a valid ICU pattern: unknown flag in (?...)", 2),
        ("(?|a)", "not a valid ICU pattern: unknown flag in (?...)", 2),
        ("(?i)/edit", "inline flags or an option group (?...)", 0), ("a(?i:b)", "inline flags or an option group (?...)", 1),
        ("a(?#c)", "not a valid Java pattern: unknown flag in (?...)", 3),
        // A quantifier after an anchor or a boundary; an unescaped ] outside a class, or a } ICU refuses.
        ("^*", "a quantifier * with nothing to repeat", 1), ("a$+", "a quantifier + with nothing to repeat", 2),
        (#"\A?"#, "a quantifier ? with nothing to repeat", 2), (#"\b{2}"#, "a quantifier { with nothing to repeat", 2),
        ("a(?=b)*", "a quantifier on a lookaround", 6), ("(?<!a)?", "a quantifier on a lookaround", 6),
        ("(?<=a+)b", "an unbounded repeat in a lookbehind", 5), ("(?<!(?:a|b{2,})c)", "an unbounded repeat in a lookbehind", 10),
        ("a]", "an unescaped ] (ICU and Java read it differently)", 1), ("a}", "not a valid ICU pattern: unescaped }", 1),
        // Classes: a ] first, nesting, &&, a - inside, ranges, escapes.
        ("[]a]", "an empty class or a ] first in a class", 1), ("é[^]a]", "an empty class or a ] first in a class", 3),
        ("a[b[c]]", "a nested class [...[...]]", 1), ("[a&&b]", "a class intersection &&", 0), ("[&&-z]", "not a valid ICU pattern: a class cannot start with -- or &&", 2),
        ("[--/]", "not a valid ICU pattern: a class cannot start with -- or &&", 2), ("[!--]", "not a valid ICU pattern: set operator with nothing after it", 4),
        ("[--]", "not a valid ICU pattern: a class cannot start with -- or &&", 2),
        ("[[a]--[b]]", "a class ICU and Java read differently: ICU reads a difference where Java reads \"-\"", 0),
        ("[:alpha:]", "a class ICU and Java read differently: ICU reads a property where Java reads \":\"", 0),
        ("x[:a][b:]", "a construct ICU and Java read differently", 1),
        ("[a&-z]", "a class ICU and Java read differently: ICU reads \"&\" where Java reads the range \"&\" to \"z\"", 0),
        ("é[&-&&]", "not a valid ICU pattern: range out of order in character class", 4),
        ("[a-b-c]", "a - inside a class that is not a range", 0), (#"[a\d--/]"#, "a class ICU and Java read differently: ICU reads a difference where Java reads the range \"-\" to \"/\"", 0),
        (#"[a-\d]"#, "not a valid ICU pattern: a range cannot end in \\d", 4), ("[z-a]", "not a valid ICU pattern: range out of order in character class", 3),
        (#"[\D]"#, #"the escape \D inside a class"#, 0), (#"[\b]"#, #"not a valid Java pattern: unknown escape \b"#, 1),
        (#"[\ ]"#, #"the escape \  inside a class"#, 0), (#"[\x{41}]"#, #"the escape \x{...} inside a class"#, 0),
        (#"[a-\U00000041]"#, "not a valid ICU pattern: range out of order in character class", 3), (#"[\uD800-\uDBFF]"#, "a surrogate escape", 0),
        (#"[\x4]"#, #"not a valid Java pattern: \x needs two hex digits"#, 1), (#"[\é]"#, #"the escape \é inside a class"#, 0),
        // Quoting, at the first character it quotes.
        (#"é\Qa\E"#, #"quoting \Q...\E"#, 3),
        // What PatternSyntax does not read: its own words, its offset in scalars.
        ("(?x)a", "inline flags or an option group (?...)", 0),
        ("éa{x}", "not a valid ICU pattern: { does not start a repeat count {n,m}", 2),
        ("a{3,2}", "not a valid ICU pattern: repeat count {3,2} out of order", 1),
        ("(a", "a group without its )", 2), ("a)", "an unmatched )", 1), ("[a", "missing terminating ] for character class", 2), ("a**", "a quantifier after a quantifier", 2),
    ])
    func refused(_ pattern: String, _ construct: String, _ offset: Int) {
        #expect(throws: PortablePattern.Unsupported(construct: construct, offset: offset)) { try PortablePattern.parse(pattern) }
    }
}
