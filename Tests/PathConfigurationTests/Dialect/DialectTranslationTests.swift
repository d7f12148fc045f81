import PathConfiguration
@testable import PathConfigCore
import PathConfigurationFoundation
import Testing

/// The translation table, row by row: what PCRE2 is given for each
/// construct, and where errors point.
@Suite("Dialect: translation table")
struct DialectTranslationTests {
    static func pcre2(_ pattern: String, _ dialect: RegexDialect = .icu, caseless: Bool = false) throws -> String {
        try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: caseless).pattern
    }

    static let icuWord = "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\x{200C}-\\x{200D}]"

    @Test("ICU rows", arguments: [
        ("\\u00e9", "\\x{E9}"),
        ("\\U0001F600", "\\x{1F600}"),
        ("\\x{41}\\x4\\x41", "A\\x{4}A"),
        ("\\uD83D\\uDE00", "\\x{1F600}"),
        ("\\0101\\0400", "A\\x{20}0"),
        ("\\cA\\c1\\cé", "\\x{1}\\x{11}\\x{9}"),
        ("\\a\\e\\f\\t", "\\x{7}\\x{1B}\\x{C}\\x{9}"),
        ("\\N{LATIN SMALL LETTER E WITH ACUTE}\\N{cjk unified ideograph-65e5}", "\\x{E9}\\x{65E5}"),
        ("\\y\\K\\E\\-", "yKE\\-"),
        ("\\Qa.b\\E", "a\\.b"),
        ("\\d\\D", "\\p{Nd}[^\\p{Nd}]"),
        ("\\w", icuWord),
        ("\\s\\h\\v", "\\p{White_Space}[\\x{9}\\p{Zs}]\\v"),
        ("[\\w&&[^\\d]]", "(?:(?=\(icuWord))[^\\p{Nd}])"),
        ("[a-z--[aeiou]]", "(?:(?![aeiou])[a-z])"),
        ("[a-c[x-z]]", "[a-cx-z]"),
        ("[a[^bz]]", "(?>[a]|[^bz])"),
        ("[^a[b]]", "[^ab]"),
        ("[]a-]", "[\\x{5D}a\\x{2D}]"),
        ("[[:alpha:]]", "\\p{Alphabetic}"),
        ("[:^digit:]", "[^\\p{Nd}]"),
        ("\\p{Greek}\\p{sc=Latn}\\p{IsCyrillic}", "\\p{sc:Greek}\\p{sc:Latn}\\p{sc:Cyrillic}"),
        ("\\p{Letter}\\P{gc=Lu}\\p{IsL}", "\\p{L}[^\\p{Lu}]\\p{L}"),
        ("\\p{Lower}\\p{space}\\p{Hex}", "\\p{Lowercase}\\p{White_Space}\\p{Hex_Digit}"),
        ("\\p{javaLowerCase}\\p{javaWhitespace}", "\\p{Ll}(?>[\\x{9}-\\x{D}\\x{1C}-\\x{1F}]|(?:(?![\\x{A0}\\x{2007}\\x{202F}])\\p{Z}))"),
        (".", "\\V"),
        ("....", "\\V{3}\\V"),
        ("x[ab][ab][ab][ab][ab]+", "x[ab]{4}[ab]+"),
        ("(?s).", "(?>\\r\\n|\\p{Any})"),
        ("(?d).", "[^\\x{A}]"),
        ("a$", "(*ANY)a$(?!(?<=\\r)\\n)"),
        ("(?m)a$\\Z", "(*ANY)a(?m:$)(?!(?<=\\r)\\n)$(?!(?<=\\r)\\n)"),
        ("(?m)(?d)^", "(?:^|(?<=[\\x{A}]))"),
        ("(?d)a$", "a(?=\\n?\\z)"),
        ("^a", "^a"),
        ("\\Aa\\z\\G", "\\Aa\\z\\G"),
        ("\\R", "(?>\\r\\n|\\v)"),
        ("(?i)a(?-i)b(?i:c)", "(?i)a(?-i)b(?i:c)"),
        ("(?m:a)(?s)(?x)b c", "(?:a)bc"),
        ("(?x)a # comment\n b\\ c[ d]", "ab\\x{20}c[d]"),
        // Named groups and references by number: PCRE2 takes names of at
        // most 32 code units, ICU any length.
        ("(?#note)a(?<name>b)\\k<name>", "a(b)\\g{1}"),
        ("(a)\\1(a)(b)(c)(d)(e)(f)(g)(h)(i)\\10\\11", "(a)\\g{1}(a)(b)(c)(d)(e)(f)(g)(h)(i)\\g{10}\\g{11}"),
        ("a{2,3}?b{2}+c{1,}", "a{2,3}?b{2}+c{1,}"),
        ("/caf\u{E9}", "\\/caf\\x{E9}"),
    ])
    func icu(_ pattern: String, _ expected: String) throws {
        #expect(try Self.pcre2(pattern) == expected)
    }

    @Test("Java rows (java.util.regex without UNICODE_CHARACTER_CLASS)", arguments: [
        ("\\u00e9\\x41\\x{1F600}", false, "\\x{E9}A\\x{1F600}"),
        ("\\0101\\c1\\cA", false, "Aq\\x{1}"),
        ("\\d\\s", false, "[0-9][\\x{9}-\\x{D}\\x{20}]"),
        ("\\w", false, "[0-9A-Z\\x{5F}a-z]"),
        ("\\w", true, "[0-9A-Z\\x{5F}a-z]"),
        ("\\p{Lower}", false, "[a-z]"),
        ("\\p{Lower}", true, "[A-Za-z]"),
        // Case-insensitive: OpenJDK's rules written out (JavaCaseFolding),
        // PCRE2 compiling without its own folding.
        ("i", true, "[Ii\\x{130}-\\x{131}]"),
        ("\u{DF}", true, "\\x{DF}"),
        ("/\u{DF}", true, "\\/[\\x{DF}\\x{1E9E}]"),
        ("[\u{DF}]", true, "[\\x{DF}]"),
        ("ab+", true, "[Aa][Bb]+"),
        ("abc+", true, "[Aa][Bb][Cc]+"),
        ("[A-Z]", true, "[A-Za-z\\x{131}\\x{17F}]"),
        ("[a-z]", true, "[A-Za-z\\x{130}-\\x{131}\\x{17F}\\x{212A}]"),
        ("[k]", true, "[Kk\\x{212A}]"),
        ("[e]", true, "[Ee]"),
        // k and s take what PCRE2's own (?i) takes; runs of one item count.
        ("kkkk/ee", true, "(?i)k{4}(?-i)\\/[Ee][Ee]"),
        ("sk+", true, "(?i)s(?-i)(?i:k)+"),
        ("iiiii", true, "[Ii\\x{130}-\\x{131}]{5}"),
        ("....", false, "[^\\x{A}\\x{D}\\x{85}\\x{2028}-\\x{2029}]{3}[^\\x{A}\\x{D}\\x{85}\\x{2028}-\\x{2029}]"),
        ("(?-i)i(?i)i", true, "i[Ii\\x{130}-\\x{131}]"),
        ("(\\d)\\1", true, "([0-9])(?i:\\g{1})"),
        ("(?-i)(i)\\1", true, "(i)\\g{1}"),
        // A back reference to a group the pattern lacks never matches.
        ("(a)\\2", false, "(a)(?!)"),
        ("(a)\\12", false, "(a)\\g{1}2"),
        ("\\p{Alpha}\\p{Punct}", false, "[A-Za-z][\\x{21}-\\x{2F}\\x{3A}-\\x{40}\\x{5B}-\\x{60}\\x{7B}-\\x{7E}]"),
        ("\\p{javaLowerCase}", false, "\\p{Lowercase}"),
        ("\\p{javaLowerCase}", true, "[\\p{Lowercase}\\p{Uppercase}\\p{Lt}]"),
        ("\\p{Lu}", true, "\\p{LC}"),
        ("\\p{IsAlphabetic}\\p{IsLatin}\\pL\\p{L}", false, "\\p{Alphabetic}\\p{sc:LATN}\\p{L}\\p{L}"),
        ("\\p{IsLowercase}", false, "\\p{Lowercase}"),
        ("[a-z&&[^aeiou]]", false, "(?:(?=[a-z])[^aeiou])"),
        ("[a-d[m-p]]", false, "[a-dm-p]"),
        (".", false, "[^\\x{A}\\x{D}\\x{85}\\x{2028}-\\x{2029}]"),
        ("a$", false, "(*ANY)a$(?![\\x{B}\\x{C}]\\z)(?!(?<=\\r)\\n)"),
        ("(?m)a$", false, "(*ANY)a(?m:$)(?![\\x{B}\\x{C}])(?!(?<=\\r)\\n)"),
        ("(?m)^", false, "(?!\\z)(?:^|(?<=[\\x{A}\\x{D}\\x{85}\\x{2028}-\\x{2029}])(?!\\z)(?!(?<=\\r)\\n))"),
        ("\\R", false, "(?:\\r\\n|\\v)"),
        // Iterations the JDK never backtracks into are atomic.
        ("\\R{2}", false, "(?>(?:\\r\\n|\\v)){2}"),
        ("(?:a\\R)+b", false, "(?>(?:a(?:\\r\\n|\\v)))+b"),
        ("(?:a\\R|b)+", false, "(?:a(?:\\r\\n|\\v)|b)+"),
        ("(a|ab){2}+", false, "(?>(a|ab)){2}+"),
        ("(?=a)*", false, "(?:(?=a))*"),
        ("^*a", false, "(?:^)*a"),
    ])
    func java(_ pattern: String, _ caseless: Bool, _ expected: String) throws {
        #expect(try Self.pcre2(pattern, .java, caseless: caseless) == expected)
    }

    /// The refusal of an item in a lookbehind the JDK tries by UTF-16 unit.
    static let byUnit = "the Java construct lookbehind holding an item that may match a character above U+FFFF (with no such character"
        + " written from the lookbehind on, the JDK measures and tries it by UTF-16 unit, and may start it inside a surrogate pair)"

    /// The refusal of a negative lookaround the JDK's search tries inside a surrogate pair.
    static let searchStart = "the Java construct negative lookaround where a match may start (the JDK's search also starts inside a"
        + " surrogate pair where nothing in the pattern is a character above U+FFFF or a set it keeps wider than the BMP"

    @Test("refusals name the construct and its offset, say the limit is the library's, and give advice the dialect allows", arguments: [
        (RegexDialect.icu, "ab\\X", 2, "the ICU construct \\X"),
        (.java, "/x(^|a){2}", 7, "the Java construct {2} on a group that can match the empty string"),
        (.icu, "x(?w)\\bword", 5, "the ICU construct \\b under (?w)"),
        (.icu, "/\\p{scx=Grek}", 1, "the ICU construct \\p{scx=Grek} (Script_Extensions"),
        (.icu, "/(?i)straße", 5, "the ICU construct case-insensitive literal \"straße\""),
        (.icu, "[a-z--[b]]|(?i)\\p{Ll}", 15, "the ICU construct \\p{Ll} under (?i)"),
        (.icu, "(?i)[a-z--b]", 4, "the ICU construct set operation on cased characters under (?i)"),
        (.icu, "/(?i)[\\p{Lm}&&ʼ]n", 5, "the ICU construct property negated or in a set operation under (?i)"),
        (.icu, "x{65536}", 1, "the ICU construct repeat count above 65535"),
        (.icu, "a$*?", 2, "the ICU construct lazy *? on something that can match the empty string"),
        (.icu, "(?:a?)++", 6, "the ICU construct possessive ++ on something that can match the empty string"),
        (.icu, "x(?:|b)*?", 7, "the ICU construct lazy *? on something that can match the empty string"),
        (.java, "\\p{InGreek}", 0, "the Java construct \\p{InGreek}"),
        (.java, "a(?U)", 3, "the Java construct flag (?U)"),
        (.java, "a\\b{g}", 1, "the Java construct \\b{g}"),
        (.java, "\\p{javaUnicodeIdentifierStart}", 0, "the Java construct \\p{javaUnicodeIdentifierStart}"),
        (.java, "a(?c)", 3, "the Java construct flag (?c) (CANON_EQ"),
        (.java, "(?iu)(\\w+)/\\1", 11, "the Java construct back reference under (?i) to a group that may capture I, i"),
        (.java, "(?iu)((i)|k)\\1", 12, "the Java construct back reference under (?i)"),
        (.java, "^(?:(.)-)*\\1", 10, "the Java construct back reference to a group inside a repeated group"),
        (.java, "((a)b){2}|\\2", 10, "the Java construct back reference to a group inside a repeated group"),
        (.java, "(?:(?<n>a)b)+\\k<n>", 13, "the Java construct back reference to a group inside a repeated group"),
        (.java, "(?>(a))b|\\1", 9, "the Java construct back reference to a group inside a repeated group, an atomic group"),
        (.java, "(?=(a))b|\\1", 9, "the Java construct back reference to a group inside"),
        (.java, "(?<=(a))b|\\1", 10, "the Java construct back reference to a group inside"),
        (.java, "(a)++b|\\1", 7, "the Java construct back reference to a group inside"),
        (.java, "(?!(a)b)x|\\1", 10, "the Java construct back reference to a group inside"),
        (.java, "(a){0,1}+b|\\1", 11, "the Java construct back reference to a group inside"),
        (.java, "(^){0,2}\\1", 8, "the Java construct back reference to a group repeated from zero (* or {0,n})"),
        (.java, "a((?=a))*?\\1", 10, "the Java construct back reference to a group repeated from zero (* or {0,n})"),
        // The JDK measures and tries a lookbehind by UTF-16 unit where no
        // character above U+FFFF is written from it to the pattern's end.
        (.java, "(?<=.)z", 4, byUnit), (.java, "(?<=a\\p{L})z", 5, byUnit), (.java, "\u{1D400}(?<=a\\P{L})z", 6, byUnit),
        (.java, "(?<=\\x{1D400})", 4, byUnit), (.java, "(?<![\\u0000-\\uFFFF])", 4, byUnit), (.java, "(?iu)(?<=a\\x{10400})", 10, byUnit),
        (.java, "(?<=(?:a|[^/]))z", 9, byUnit), (.java, "(?<=a\u{1D400}(?<=\\W))", 10, byUnit),
        // The JDK's search starts inside a surrogate pair where nothing in
        // the pattern makes it step by code point.
        (.java, "(?<!/).$", 0, searchStart), (.java, "/|-?(?!^).$", 4, searchStart), (.java, "(?=.)(?!(?<=/)).", 5, searchStart),
        (.java, "x(?<!x)|(?<!/)(?!a)", 8, searchStart),
    ])
    func refusals(_ dialect: RegexDialect, _ pattern: String, _ offset: Int, _ prefix: String) {
        do {
            _ = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false)
            Issue.record("\(pattern) translated")
        } catch {
            #expect(error.offset == offset)
            #expect(error.isRefusal)
            #expect(error.message.hasPrefix(prefix), "\(error.message)")
            // The foundation backend is ICU: advice for ICU patterns only, and
            // only where a host has it (Swift, the pathconfig command).
            switch dialect {
            case .icu:
                #expect(error.message.hasSuffix(" is valid ICU (iOS accepts it), but libpathconfig's pcre2 backend cannot match it exactly;"
                    + " rewrite the pattern without it, or, from Swift or the pathconfig command (not C, Python or Rust),"
                    + " use the foundation backend, which is ICU"), "\(error.message)")
            case .java:
                #expect(error.message.hasSuffix(" is valid Java (Android accepts it), but libpathconfig's pcre2 backend cannot match it exactly;"
                    + " rewrite the pattern without it (no backend here runs java.util.regex: the foundation backend is ICU)"), "\(error.message)")
            }
        }
    }

    @Test("ICU's (?m)^ runs where no match can start with LF, between CR and LF, where ICU's search may not try", arguments: [
        ("/(?m)^a", true), ("(?m)^/admin", true), ("(?m)\\r^\\n", true), ("(?m)a\\n^b", true), ("(?m)^\\n", false), ("(?m)^[\\n]abc", false),
        ("x|(?m)^\\n", false), ("(?m)(?<=\\r)^", false), ("(?m)^", false), ("(?m)^\\r?\\n", false), ("(?m)^\\W", false), ("(?m)^$", false),
    ])
    func multilineCaret(_ pattern: String, _ runs: Bool) throws {
        let options = RegexOptions()
        do {
            let pcre2 = try PCRE2Engine().compile(pattern, options: options, limits: Limits())
            #expect(runs, "\(pattern) compiled")
            let icu = try FoundationEngine().compile(pattern, options: options, limits: Limits())
            for subject in ["", "a", "/admin", "x\r\na", "\r\na", "\r\n", "\n\r\nb", "a\nb", "\r\n/admin", "a\r\n", "\u{2028}a", "a\n\nb"] {
                DialectHarness.expectAgreement(pattern, options: options, icu: icu, pcre2: pcre2, subject: subject)
            }
        } catch {
            #expect(!runs, "\(pattern): \(error.message)")
            #expect(error.isUnsupported)
            #expect(error.message.hasPrefix("the ICU construct ^ under (?m), where a match could start with a line feed"), "\(error.message)")
            #expect(error.offset == pattern.unicodeScalars.firstIndex(of: "^").map { pattern.unicodeScalars.distance(from: pattern.unicodeScalars.startIndex, to: $0) })
        }
    }

    @Test("hostile nesting is refused at a limit, not by the stack", arguments: [
        String(repeating: "[", count: 16_000) + "a" + String(repeating: "]", count: 16_000),
        "[" + Array(repeating: "a", count: 5_000).joined(separator: "&&") + "]",
        String(repeating: "(", count: 5_000) + "a" + String(repeating: ")", count: 5_000),
    ])
    func hostileNesting(_ pattern: String) {
        for dialect in RegexDialect.allCases {
            #expect(throws: RegexCompileError.self) {
                _ = try PCRE2Engine().compile(pattern, options: RegexOptions(dialect: dialect), limits: Limits())
            }
        }
    }

    @Test("what the dialect itself rejects is an error, not a refusal", arguments: [
        (RegexDialect.icu, "a{,3}"), (.icu, "(?<=a+)b"), (.icu, "(a)(?<=\\1)"), (.java, "(a)(?<=\\1)"),
        (.icu, "a}"), (.icu, "a**"), (.icu, "\\b*"), (.icu, "[a&&]"), (.icu, "(?U)a"), (.icu, "\\x"),
        (.icu, "\\N{LINE FEED}"), (.java, "\\y"), (.java, "\\E"), (.java, "(?#c)a"), (.java, "\\x4"), (.icu, "[a-\\d]"),
        (.icu, "(?<n>a)(?<n>b)"), (.java, "(?<n>a)(?<n>b)"), (.icu, "\\k<n>(?<n>a)"), (.java, "\\k<n>(?<n>a)"),
        // ICU's parser holds 99 levels: groups, a class's levels, a comment.
        (.icu, nested("(", 100, "a")), (.icu, nested("(?:", 98, "[[a]]")), (.icu, nested("(?i:", 99, "(?#c)a")),
        // The JDK cannot measure a group repeated by a Loop in a lookbehind.
        (.java, "(?<=(?:a|b){2})b"), (.java, "(?<=(?:a?){2})b"),
    ])
    func invalid(_ dialect: RegexDialect, _ pattern: String) {
        do {
            _ = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: false)
            Issue.record("\(pattern) translated")
        } catch {
            #expect(!error.isRefusal, "\(pattern): \(error.message)")
        }
    }

    /// The JDK compiles some unbounded repeats in a lookbehind (`(?<=a*)`,
    /// `(?<=\d+b+)`) and rejects others (`(?<=(?:ab)+)`), by an overflowing
    /// length sum the translation does not model; PCRE2 10.42 runs none.
    @Test("Java's unbounded repeats in a lookbehind are refused, neither called valid nor invalid", arguments: [
        ("(?<=a*)b", 5), ("(?<=\\d+b+)", 6), ("(?<=(?:ab)+)", 10), ("(?<=x(?:ab){2,})", 11), ("(?<=/\u{1}(a)/.+)\\b", 11),
    ])
    func javaUnboundedLookbehind(_ pattern: String, _ offset: Int) {
        do {
            _ = try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: false)
            Issue.record("\(pattern) translated")
        } catch {
            #expect(error.isRefusal)
            #expect(error.offset == offset, "\(error.message)")
            #expect(error.message.hasPrefix("the Java construct "), "\(error.message)")
            #expect(error.message.contains(" in a lookbehind (PCRE2 10.42's lookbehinds have a bounded length;"
                + " the JDK compiles some unbounded ones) is beyond libpathconfig's pcre2 backend, valid Java or not;"), "\(error.message)")
        }
    }

    /// Each element of a Java class level joins one flat union: as a chain
    /// of unions as deep as the class, the emitter read the chain again at
    /// every level (the dialect fuzzer's class of 1,500 characters took
    /// 12 s), and a deep chain risks the stack.
    @Test("a Java class of many elements is one alternation, its plain items one class")
    func flatJavaClass() throws {
        let pattern = "[" + String(repeating: "k", count: 300) + "[^/]" + String(repeating: "\u{212A}", count: 300) + "]"
        let pcre2 = try Self.pcre2(pattern, .java, caseless: true)
        let text = pcre2.prefix(20) + "..." + pcre2.suffix(20)
        #expect(pcre2.components(separatedBy: "(?>").count == 2, "\(text)")
        #expect(pcre2.hasPrefix("(?>[Kk\\x{212A}Kk"), "\(text)")
        #expect(pcre2.hasSuffix("Kk\\x{212A}]|[^\\x{2F}])"), "\(text)")
    }

    /// JDK 17 intersects with null for an `&&` with nothing after it after
    /// a bit-set character; the search throws where it evaluates the null.
    @Test("Java's && with null: invalid where the search can throw, the set where it cannot, refused past the limit")
    func javaNullIntersection() throws {
        for pattern in ["[[b]a&&]", "[a&&\u{100}a&&]"] {
            do {
                _ = try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: true)
                Issue.record("\(pattern) translated")
            } catch {
                #expect(!error.isRefusal)
                #expect(error.message.contains("its search throws a NullPointerException"), "\(error.message)")
            }
        }
        // The null is behind an x, which [Āa] lacks: the class matches nothing.
        #expect(try Self.pcre2("[x&&\u{100}a&&]", .java, caseless: true) == "(?:(?=[Xx])(?!))")
        // Past the limit, and with a property (the set is then not found
        // from its code points and ranges alone): refused, unjudged.
        let many = "[\u{100}a" + String(repeating: "&&", count: JavaClassBuilder.maximumNullIntersections + 1) + "]"
        for (pattern, message) in [(many, "class with more than 8 && that intersect with null"),
                                   ("[\\p{Lu}a&&]", "only for sets of code points and ranges")] {
            do {
                _ = try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: true)
                Issue.record("\(pattern) translated")
            } catch {
                #expect(error.isRefusal)
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }

    /// `body` inside `count` groups opened by `open`.
    static func nested(_ open: String, _ count: Int, _ body: String) -> String {
        String(repeating: open, count: count) + body + String(repeating: ")", count: count)
    }

    /// The refused ones are valid in the dialect, and beyond PCRE2 10.42: a
    /// bounded lookbehind, (Java) groups nested deeper than PCRE2's 250,
    /// which the JDK compiles as deep as its stack lets it, and a
    /// lookbehind longer than PCRE2's 65,535 (ICU and the JDK take it).
    @Test("PCRE2's own error offsets point into the pattern as written", arguments: [
        (RegexDialect.icu, "\\u00e9(", 7, "missing closing parenthesis", false),
        (.icu, "\\N{LATIN SMALL LETTER A}(?<=a{1,2})b", 24, "a lookbehind whose alternatives have different lengths", true),
        (.icu, "[\\w&&[^\\d]](?<=a{1,2})b", 11, "a lookbehind whose alternatives have different lengths", true),
        (.java, "[a&&b]" + nested("(", 251, "a"), 257, "groups nested more than 250 deep", true),
        (.icu, "x(?<=(?:a{60000}){2})b", 1, "a lookbehind longer than 65,535 characters", true),
        (.java, "x(?<=(?:a{60000}){2})b", 1, "a lookbehind longer than 65,535 characters", true),
    ])
    func mappedOffsets(_ dialect: RegexDialect, _ pattern: String, _ offset: Int, _ message: String, _ refused: Bool) {
        do {
            _ = try PCRE2Engine().compile(pattern, options: RegexOptions(dialect: dialect), limits: Limits())
            Issue.record("compiled")
        } catch {
            #expect(error.offset == offset, "\(error.message)")
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.isUnsupported == refused)
        }
    }

    @Test("ICU (?i): a literal run needs full folding exactly where a multi-character folding occurs in its folded text")
    func fullFolding() {
        // The definition, as CaseFolding.txt gives it: every character
        // folded through the tables or its lower case, every folding
        // searched for at every position.
        func fold(_ v: UInt32) -> [UInt32] {
            if let many = CaseFolding.multiCharacter[v] { return many }
            if let one = CaseFolding.single[v] { return [one] }
            let lower = Unicode.Scalar(v).map { Array($0.properties.lowercaseMapping.unicodeScalars) } ?? []
            return lower.count == 1 ? [lower[0].value] : [v]
        }
        let foldings = Set(CaseFolding.multiCharacter.values)
        func needsFullFolding(_ run: [UInt32]) -> Bool {
            let folded = run.flatMap(fold)
            return foldings.contains { target in
                folded.count >= target.count && (0...(folded.count - target.count)).contains { folded[$0..<($0 + target.count)].elementsEqual(target) }
            }
        }
        for v in UInt32(0)..<0x80 { #expect(CaseFolding.fold(v) == fold(v), "\(v)") }
        // Runs of the characters that start, end or fold to a folding, and ASCII.
        var alphabet = Set(CaseFolding.multiCharacter.keys).union(foldings.flatMap { $0 })
        alphabet.formUnion((UInt32(0x20)..<0x7F))
        let letters = alphabet.sorted()
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<5_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var run: [UInt32] = []
            for k in 0..<Int(seed >> 60) { run.append(letters[Int((seed >> UInt64(4 * (k % 12))) % UInt64(letters.count))]) }
            #expect(CaseFolding.needsFullFolding(run) == needsFullFolding(run), "\(run.map { String($0, radix: 16) })")
        }
        #expect(CaseFolding.needsFullFolding([0x53, 0x73]) && CaseFolding.needsFullFolding([0x61, 0xDF]))
        #expect(!CaseFolding.needsFullFolding(Array(repeating: 0x61, count: 16_000)))
    }
}
