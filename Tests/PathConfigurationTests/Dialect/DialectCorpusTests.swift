import PathConfiguration
@testable import PathConfigCore
import Testing

/// A corpus of ICU-syntax patterns, each compiled by ICU (the Foundation
/// engine, what iOS runs) and by PCRE2 through the dialect layer, and run on
/// the same subjects. For every pattern, either both engines compile it and
/// agree on every subject, or both reject it, or PCRE2 refuses it with a
/// dialect error and the refusal is listed in `refusals`: a new silent
/// difference fails here.
@Suite("Dialect: ICU corpus, PCRE2 against ICU")
struct DialectCorpusTests {
    static let subjects: [String] = [
        "", "/", "/a", "a", "aaa", "abab", "ab", "ac", "abc", "aEb", "aK", "/new", "/NEW", "/New", "/edit", "/messages/new",
        "/messages/42", "/messages/42/edit", "/Messages/42", "/posts/3", "/posts/٣/x", "/posts/３", "/a/b/c/d", "/10/20",
        "/v1.2.3", "/ab12", "/AB", "/x_y", "/x-y", "/x.y", "/abc?x=1", "/abc?q=%20&filter=new", "/café", "/cafe\u{301}",
        "/CAFÉ", "/caf%C3%A9", "/ß", "/SS", "/ss", "/Straße", "/STRASSE", "/strasse", "/ﬁle", "/file", "/K", "/k", "/\u{212A}",
        "/ſ", "/ŉ", "/ʼn", "/i\u{307}", "/i\u{307}i\u{307}", "/Ω", "/ω", "/Σίσυφος", "/ΣΊΣΥΦΟΣ", "/ς", "/σ", "/µ", "/日本語", "/😀", "/a😀b", "/\u{1F1EB}\u{1F1F7}", "/İ", "/i",
        "/ı", "/ǅ", "/Ⅻ", "/½", "/²", "/_", "/a b", "/a\tb", "/a\nb", "/a\r\nb", "a\r\n", "a\n", "a\r", "a\u{85}", "a\u{2028}",
        "/\u{FB05}", "/\u{FB06}", "/st", "/\u{390}", "/\u{1FD3}", "/\u{3B0}", "/\u{1FE3}",
        "a\u{2029}", "x\u{0B}y", "a\u{0C}", "\na", "\r\nb", "a\u{0B}", "/\u{00A0}", "/\u{3000}", "/x\u{200D}y", "/x\u{00AD}y",
        "/é\u{301}", "/\u{0}", "\u{7F}", "\u{1}", "\u{7}", "\u{1B}", "A", "AB", "a b c", "a#c", "ab12", "aa0", "a\u{8}", "abcdefghijj",
        "]", "/]", "/[", "/{}", "/\\", "/$", "/^", "/#frag", "x{2}", "xx", "xxx", "-", "a-z", "a]", "&", "'", ":", "y", "\u{4}1",
        "/recede_historical_location", "/sign_in", "/sign_up", "/users/alice", "/users/al1ce", "/users/", "1", "9", "e", "u",
    ]

    static let corpus: [String] = realWorld + escapes + classes + properties + lines + groupsAndFlags + quantifiers + literals + found

    static let realWorld = [
        "^/$", "/new$", "/edit$", "^/messages/\\d+$", "^/messages/\\d+/edit$", ".*", "^/posts/[0-9]+/comments$",
        "^/(sign_in|sign_up)$", "\\?.*filter=", "^/a/.*/c$", "^/users/\\w+$", "/recede_historical_location", "^/[^/]+$",
        "^/messages/(new|\\d+/edit)$", "\\.pdf$", "^/v\\d+(\\.\\d+)*$", "^/users/[a-z0-9_]+/?$", "/new/?$", ".*\\?.*",
        "^/[a-z]{2,}/", "^/(?:a|b)/c", "[?&]q=", "^/caf\\u00e9$", "^/\\p{L}+$", "^/\\w+/\\d+$",
    ]

    static let escapes = [
        "\\u00e9", "/caf\\u00e9$", "\\U0001F600", "\\x{1F600}", "\\x41", "\\x4", "\\x4 1", "\\0101", "\\0400", "\\07", "\\cA",
        "\\ca", "\\c1", "\\cé", "\\N{LATIN SMALL LETTER E WITH ACUTE}", "\\N{latin small letter sharp s}",
        "\\N{CJK UNIFIED IDEOGRAPH-65E5}", "\\N{NO SUCH NAME}", "\\N{LINE FEED}", "\\N{ LATIN SMALL LETTER A}", "\\a", "\\e",
        "\\t", "\\f", "\\y", "\\K", "\\i", "\\g", "\\o", "\\E", "a\\Eb", "\\Qa.b\\E", "\\Q$^\\E", "\\Qx{2}", "\\Q", "a\\Q", "\\-",
        "\\ ", "\\é", "\\/", "\\_", "\\u0041\\u0301", "\\uD83D\\uDE00", "\\uD83D", "\\x{110000}", "\\U00110000", "\\x", "\\u12",
        "\\0", "\\08", "\\c", "\\", "\\k", "\\N",
    ]

    static let classes = [
        "[\\w&&[^\\d]]", "^[\\w&&[^\\d]]+$", "[a-z&&[^aeiou]]+", "[\\p{L}--[a-z]]", "[[a-z][0-9]]", "[^[a-z][0-9]]", "[]a]", "[^]a]",
        "[a-]", "[-a]", "[a-b-c]", "[\\d-z]", "[a-z-[b]]", "[a--b]", "[--a]", "[a&&]", "[&&a]", "[a&b]", "[a&&&b]", "[{ab}]",
        "[:alpha:]", "[[:alpha:]]+", "[:abc]", "[[:^digit:]]", "[:Lu:]", "[\\Q]a\\E]", "[\\Qa]", "[a-\\d]", "[z-a]", "[\\b]",
        "[\\A\\z]", "[\\x41-\\x43]", "[\\u00e0-\\u00ff]", "[^\\p{ASCII}]", "[\\p{Greek}\\p{Latin}]+$", "[ab", "[", "]", "a]",
        "[\\N{GREEK SMALL LETTER ALPHA}-\\N{GREEK SMALL LETTER OMEGA}]", "[\\w--\\p{Latin}]", "[\\s\\S]", "[^\\s\\S]",
        "[a-c[x-z]]", "[\\p{Lu}&&[A-C]]", "[[a-z]--[aeiou]]+$", "[^\\w]", "[\\W]", "[\\c1]", "[\\t-\\r]", "[\\0101-\\0103]",
    ]

    static let properties = [
        "\\p{L}", "\\p{Lu}\\p{Ll}", "\\P{L}", "\\p{Letter}", "\\p{Greek}", "\\p{sc=Greek}", "\\p{scx=Grek}", "\\p{IsLatin}",
        "\\p{InGreek}", "\\p{Block=Basic Latin}", "\\p{Numeric_Value=9}", "\\p{Emoji}", "\\pL", "\\p{Xan}", "\\p{L&}",
        "\\p{javaLowerCase}", "\\p{Alphabetic}", "\\p{word}", "\\p{Any}", "\\p{foo}", "\\p{Nd}+", "\\P{ASCII}", "\\p{Punct}",
        "\\p{punct}", "\\p{Lower}", "\\p{Upper}", "\\p{Digit}", "\\p{XDigit}", "\\p{Space}", "\\p{Blank}", "\\p{Cntrl}",
        "\\p{Graph}", "\\p{Print}", "\\p{Alnum}", "\\p{Alpha}", "\\p{ASCII}", "\\p{IsAlphabetic}", "\\p{gc=Sm}", "\\p{ Lu }",
    ]

    static let lines = [
        "a$", "^a", "a\\Z", "a\\z", "\\Aa", "(?m)^b", "(?m)a$", "(?m)$", "(?m)^", "(?s)a.b", "a.b", "(?d)a$", "(?d).", "(?m)(?d)^b",
        "(?s)(?d).", "a\\R", "a\\Rb", "\\R\\n", "a\\v", "\\h", "^*a", "$?", "a$?", "\\Ga", "(?m)\\r^", "(?m)a\\n^", "(?s)a..b",
        "(?s)a.\\nb", "a\\Z\\n", "(?d)a\\Z", "^$", "(?m)^$", "a\\r$", "(?d)(?m)a$", ".$", "(?s).$", "^.{2}$",
        "(?m)(?d)\\n^", "(?m)(?d)\\n^$", "(?m)(?d)^\\B", "(?m)(?d)^$",
    ]

    static let groupsAndFlags = [
        "(?i)abc", "(?i)ABC", "(?i:a)b", "a(?i)b|c", "(a(?i)b|c)", "(?-i)a", "(?i)é", "(?i)É", "(?i)ß", "(?i)ss", "(?i)/messages",
        "(?i)straße", "(?i)ﬁ", "(?i)/new", "(?i)σ", "(?i)k", "(?i)ΣΊΣΥΦΟΣ", "(?x) a b c", "(?x)a#c\nb", "(?x)a\\ b", "(?x)[a b]",
        "(?x)a{2, 3}", "(?x)( ?:a)", "(?x)a\u{85}b", "(?x)a\u{3000}b", "(?x)a #c", "(?w)a", "(?u)a", "(?U)a", "(?q)a", "(?)a",
        "(?-)a", "(?i-)a", "(?-i-i)a", "(?i)k(?-i-i)k", "(?i-m-s)a", "(?--)a", "(?i-i-)a", "(?imsx)a", "(?#comment)a", "a(?#c)*", "(?<name>a)\\k<name>", "(?<n_1>a)", "(?P<n>a)", "(a)\\1",
        "(a)\\2", "\\1(a)", "(a)\\10", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\11", "(a)\\1\\1", "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "(?i)(a)\\1", "(?=a)a", "(?!b)a", "(?<=a)b",
        "(?<!a)b", "(?<=ab?)c", "(?<=a+)c", "(?<=a|bc)d", "(?>a|ab)c", "(?*a)", "(*FAIL)", "(?R)", "(?1)(a)", "(?|a)", "(?C1)a",
        "(?(1)a|b)", "a|", "|a", "()", "(?:)", "(", ")", "(?i)[a-z]+$", "(?i)\\p{Lu}", "(?i)[^a]", "(?i)[\\w--\\d]", "(?i:[K])",
        "(?x)\\p{ L }", "(?x)\\u00 e9",
    ]

    static let quantifiers = [
        "a*+", "a++b", "a?+", "a{2}", "a{2,}", "a{2,3}?", "a{2,3}+", "a{,3}", "a{2", "a{", "a}", "{", "}", "a**", "a{2}{3}", "\\b+",
        "(?=a)*", "a{70000}", "x{2}", "x{ 2}", "a{3,2}", "*a", "+", "?", "a|*", "\\Q\\E*", "a\\Q\\E*", "\\d*", "(a)\\1*", "\\A*",
    ]

    /// What the random patterns of `DialectFuzzTests` found.
    static let found = [
        "$*?é]\\x41|", "(?m)^\\W", "(?:|b)*?\\d", "(?:a?)++", "(?x)(?#x)a", "(?x)\\N{LATIN SMALL LETTER A}", "\\k<n>(?<n>a)",
        "\\W.", "x(?:|b)*?\\d", "(?:b|)*?\\d", "(?:a?)?+", "(?:a?){1,3}+",
        // Literal runs as ICU's compiler makes them: a comment or free
        // spacing inside one, and a one-code-point set, which becomes a
        // literal, do not end it (issue 27: these matched silently wrong).
        "(?i)s(?#c)s", "(?ix)s s", "(?ix)s#c\ns", "(?i)[ﬁ]", "(?i)[ʼ]n", "(?i)[İ]", "(?i)s[s]", "(?i)[ß]s", "(?i)[\\x{DF}]",
        // However the set is written: twice, nested, by an operation, or
        // (dialect fuzzer, `icu-one-code-point-set`) four times over.
        "(?i)[İİ]", "(?i)[İ[İ]]", "(?i)[İİİİ][İİİİ]", "(?i)[ʼʼ]n", "(?i)[ʼ-ʽ--ʽ]n", "(?i)[ʼ-ʽ&&ʼ]n", "(?i)[ﬁﬁ]",
        "(?i)[^\\x{0}-\\x{12F}\\x{131}-\\x{10FFFF}]", "(?i)[\\p{Lm}&&ʼ]n", "(?i)[\\p{N}--[0-9]]", "(?i)[^\\p{Lm}\\x{0}-\\x{306}\\x{308}-\\x{10FFFF}]", "(?i)[^\\p{P}]", "(?i)[//]x", "(?i)[/-1--0][/.&&/]x",
        // Each nested set closed over case at its end, before the operation
        // on it (dialect fuzzer, `icu-closure-before-negation`): no code
        // point, or more than one, however few the set holds case aside.
        "(?i)[^[k[^K]]]", "(?i)[[^K]--[^k]]", "(?i)[[kx]&&[Kx]]", "(?i)[^[^K/][^k/]]", "(?i)[^\\x{0}-\\x{6A}\\x{6C}-\\x{10FFFF}]",
        "(?i)[^[[kkkk][^\u{212A}\u{212A}]]A-Z][[[kk]-a-z]-a-z]", "(?i)[^[^İ]]", "(?i)[^[^ı]]x", "(?i)[[ϑ]&&[ϴ]]",
        // The foldings Unicode 15.1 added (ΐ, ΰ, ﬅ), which ICU 76 closes a set
        // over and PCRE2 10.42 does not (dialect fuzzer: `(?i)[xﬆ]` finds "ﬅ").
        "(?i)[xﬆ]", "(?i)[^xﬆ]", "(?i)[ﬀ-ﬅ]", "(?i)[ﬆ]", "(?i)[xΐ]", "(?i)[ΰ]", "(?i)[^[^ﬅ]]",
        // Quantified anchors, and (?m)^ where no match starts with LF.
        "$+a", "^{2}a", "a$*", "(?:^)?b", "$??", "(?m)^/a", "(?m)^[\\n]a", "(?m)x|^\\n", "(?m)^\\n",
        // Free spacing inside names, as ICU's scanner reads them (white
        // space and comments skipped in \\p{..}, \\N{..}, \\k<..> and group
        // names), and escapes it unescapes as written (\\x, \\u, \\0, \\c).
        "(?x)\\p {L}", "(?x)\\p{L u}", "(?x)\\p{L#c\n}", "(?x)\\P {Lu}", "(?x)[\\p {L}]", "(?x)(?<n >a)", "(?x)(?<n m>a)",
        "(?x)(?<n>a)\\k <n>", "(?x)(?<n>a)\\k< n >", "(?x)\\N {SPACE}", "(?x)\\N{SP#c\nACE}", "(?x)\\x 41", "(?x)\\u 0041",
        "(?x)\\0 101", "(?x)\\c a", "(?x)a{ 2}", "(?x)(? :a)", "(?x)(?< =a)b", "(?x)(?<n>a)(?<m>b)\\k<n >",
        // A (?#...) comment read through ICU's scanner: a ")" that \\Q
        // quotes or a free-spacing comment holds does not end it, an escape
        // is read (and may be an error), a "\\)" ends it.
        "a(?#\\Q)b\\E)c", "a(?#\\Q)b", "a(?#\\Q)", "(?x)a(?#b#c)\nd)c", "a(?#\\x)c", "a(?#\\0z)c", "a(?#\\u12)c",
        "a(?#\\x{110000})c", "a(?#\\x{zz})c", "a(?#\\c)c", "a(?#\\x29b)c", "a(?#\\E)c", "a(?#\\Q\\E)c", "a(?#\\))c", "(?x)a( ?#b)c",
        // ICU's scanner reads an empty quote as nothing, inside a construct
        // too, and a quote in the name of \N{...} and \p{...} as its
        // characters: refused. A quoted character in a count, flags or a
        // group name is no syntax, as here.
        "(?i\\Q\\E)a", "x{1\\Q\\E,2}", "(\\Q\\E?:a)", "a*\\Q\\E?", "\\x4\\Q\\E1", "\\N{\\QLATIN SMALL LETTER A\\E}", "\\p{\\QL\\E}",
        "x{\\Q2\\E}", "(?\\Qi\\E)a", "(?<\\Qg\\E>a)", "[\\Q\\E^a]", "[\\Qa\\E-z]", "\\Q(a)\\E?",
        // Group names of any length (PCRE2's are at most 32 code units),
        // each used once.
        "(?<" + String(repeating: "a", count: 40) + ">a)\\k<" + String(repeating: "a", count: 40) + ">",
        "(?<" + String(repeating: "a", count: 300) + ">a)", "(?<n>a)(?<n>b)", "(?<n>a\\k<n>)", "(?<n>a)(?<m>b)\\k<m>\\k<n>",
        // Blocks of surrogates, which UTF-8 text never holds, and names as
        // ICU reads them: ASCII alone, of characters ICU 76 has (found by hand).
        "\\p{InHighSurrogates}", "\\P{InLowSurrogates}", "[a\\p{InHighPrivateUseSurrogates}]", "\\p{blk=High_Surrogates}",
        "[^\\p{InLowSurrogates}a]", "\\N{\u{17F}pace}", "\\N{lat\u{131}n capital letter a}", "\\N{HANGUL SYLLABLE GA}",
        "\\N{TOLONG SIKI LETTER R}", "\\N{GRINNING FACE}", "\\N{\u{212A}ELVIN SIGN}",
        // Property names: ASCII alone (U+212A is not K), `word` and
        // `IsTitleCase` whole, white space but a line feed ignored.
        "\\p{In\u{212A}atakana}", "\\p{\u{212A}atakana}", "\\p{w_o_r_d}", "\\p{WORD}", "\\p{IsTitle_Case}", "\\p{IsTITLECASE}",
        "\\p{L\nu}", "\\p{L\u{B}u}", "\\p{L\ru}", "[[:Gre\u{C}ek:]]",
        // Longer than PCRE2's 65,535 (refused), and as long.
        "x(?<=(?:a{60000}){2})b", "(?<=(?:a{30000}){2})b",
    ] + nested

    /// ICU's parser holds 99 levels (regexcmp.h's `kStackSize`): each open
    /// group, each level of a class being read, a comment being read.
    static let nested = [("(", 99, "a"), ("(", 100, "a"), ("(?:", 98, "[a]"), ("(?:", 99, "[a]"), ("(?i:", 97, "[[a]]"),
                         ("(?=", 98, "[[:L:]]"), ("(?>", 98, "[\\p{L}]"), ("(", 98, "(?#c)a"),
                         ("(", 99, "(?#c)a"), ("(", 99, "(?i)a"), ("(", 99, "a*(?#c)")]
        .map { open, count, body in String(repeating: open, count: count) + body + String(repeating: ")", count: count) }

    static let literals = [
        "/café$", "/日本", "😀", "^/Σ", "/ω$", "\u{0301}", "e\u{301}", "\\bword\\b", "\\B", "\\X", "a b", "#", "a#c", "/-/", "&&",
    ]

    /// Patterns ICU accepts and the dialect layer refuses, with the words
    /// each refusal must contain.
    static let refusals: [String: String] = [
        "\\uD83D": "\\uD83D", "\\p{Numeric_Value=9}": "\\p{Numeric_Value=9}", "\\p{Emoji}": "\\p{Emoji}", "\\p{scx=Grek}": "Script_Extensions", "(?i)ß": "\"ß\"", "(?i)ss": "\"ss\"",
        "(?i)/messages": "\"/messages\"", "(?i)straße": "\"straße\"", "(?i)ﬁ": "\"ﬁ\"", "(?i)(a)\\1": "back reference",
        "(?<=ab?)c": "lookbehind", "(?i)\\p{Lu}": "\\p{Lu} under (?i)", "a{70000}": "repeat count", "\\X": "\\X", "(?m)^": "^ under (?m)", 
        
        "(?m)^$": "^ under (?m)", "$*?é]\\x41|": "lazy *?", "(?m)^\\W": "^ under (?m)", "(?:|b)*?\\d": "lazy *?",
        "(?:a?)++": "possessive ++", "x(?:|b)*?\\d": "lazy *?", "(?:b|)*?\\d": "lazy *?",
        "(?i)s(?#c)s": "\"ss\"", "(?ix)s s": "\"ss\"", "(?ix)s#c\ns": "\"ss\"", "(?i)[ﬁ]": "\"ﬁ\"", "(?i)[ʼ]n": "\"ʼn\"",
        "(?i)[İ]": "\"İ\"", "(?i)[\\x{DF}]": "\"ß\"", "(?m)^[\\n]a": "^ under (?m)", "(?m)x|^\\n": "^ under (?m)", "(?m)^\\n": "^ under (?m)",
        "(?i)[İİ]": "\"İ\"", "(?i)[İ[İ]]": "\"İ\"", "(?i)[İİİİ][İİİİ]": "\"İ\"", "(?i)[ʼʼ]n": "\"ʼn\"", "(?i)[ʼ-ʽ--ʽ]n": "\"ʼn\"",
        "(?i)[ʼ-ʽ&&ʼ]n": "\"ʼn\"", "(?i)[ﬁﬁ]": "\"ﬁ\"", "(?i)[^\\x{0}-\\x{12F}\\x{131}-\\x{10FFFF}]": "\"İ\"",
        "(?i)[^[^İ]]": "\"İ\"",
        "(?i)[\\p{Lm}&&ʼ]n": "property negated or in a set operation under (?i)",
        "(?i)[^\\p{Lm}\\x{0}-\\x{306}\\x{308}-\\x{10FFFF}]": "property negated or in a set operation under (?i)",
        // One-code-point sets with case partners start no literal run in
        // ICU, but the translation takes them as one: refused, not wrong.
        "(?i)[ß]s": "\"ßs\"",
        "x(?<=(?:a{60000}){2})b": "a lookbehind longer than 65,535 characters",
        "a\\Q\\E*": "empty quote", "a(?#\\Q\\E)c": "empty quote", "(?i\\Q\\E)a": "empty quote", "x{1\\Q\\E,2}": "empty quote",
        "(\\Q\\E?:a)": "empty quote", "a*\\Q\\E?": "empty quote", "\\x4\\Q\\E1": "empty quote", "[\\Q\\E^a]": "empty quote",
        "\\N{\\QLATIN SMALL LETTER A\\E}": "\\Q...\\E in the name", "\\p{\\QL\\E}": "\\Q...\\E in the name",
    ]

    @Test("each pattern: both engines agree on every subject, both reject it, or PCRE2 refuses it as listed", arguments: corpus)
    func agree(_ pattern: String) {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        let outcome = DialectHarness.compileBoth(pattern, options: options)
        switch (outcome.icu, outcome.pcre2) {
        case (.compiled, .compiled):
            #expect(Self.refusals[pattern] == nil, "\(pattern) is listed as refused but translates")
            let (icu, pcre2) = outcome.patterns!
            for subject in Self.subjects {
                DialectHarness.expectAgreement(pattern, options: options, icu: icu, pcre2: pcre2, subject: subject)
            }
        case (.rejected, .rejected):
            #expect(Self.refusals[pattern] == nil, "ICU rejects \(pattern), yet it is listed as a refusal")
        case (.compiled, .rejected(let message)):
            guard let words = Self.refusals[pattern] else {
                Issue.record("PCRE2 rejects \(pattern), ICU compiles it: \(message)")
                return
            }
            #expect(message.contains(words) && message.contains("libpathconfig's pcre2 backend"), "\(pattern): \(message)")
        case (.rejected(let message), .compiled):
            Issue.record("ICU rejects \(pattern) (\(message)), PCRE2 compiles it")
        }
    }

    @Test("the corpus is large and every listed refusal is in it")
    func corpusShape() {
        #expect(Self.corpus.count >= 150)
        #expect(Set(Self.corpus).count == Self.corpus.count)
        for pattern in Self.refusals.keys { #expect(Self.corpus.contains(pattern), "\(pattern)") }
    }

    /// Names, escapes and counts with gaps, under `(?x)`.
    static let randomFreeSpacing = DialectHarness.freeSpacingVariants(of: [
        "\\x41", "\\x{41}", "\\u0041", "\\0101", "\\cA", "\\p{L}", "\\P{Lu}", "\\p{Letter}", "[\\p{Nd}a]", "\\N{SPACE}", "(?<n>a)\\k<n>",
        "(?<nm>a)", "a{2,3}", "a{2}", "a{2,}", "(a)\\1", "(?<=a)b", "(?#c)a", "[\\x41-\\x43]",
    ], count: 300, seed: 37)

    @Test("300 names and escapes with white space or comments inside, under (?x): PCRE2 reads them as ICU does, or refuses them")
    func randomFreeSpacingAgainstICU() {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        let subjects = ["a", "A", "aa", "aaa", "ab", "b", " ", "1", "\u{1}", "x"]
        var compiledByBoth = 0
        for pattern in Self.randomFreeSpacing where DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: subjects) {
            compiledByBoth += 1
        }
        #expect(compiledByBoth > 100)
    }

    @Test("1,500 patterns cut by quotes at random places (JavaSyntaxDifferentialTests' pieces): PCRE2 reads them as ICU does, or refuses them")
    func randomQuotesAgainstICU() {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        let subjects = ["a", "A", "1", "aa", "a1", "x", "]", "-", "^", "\\", "?", "(a)", "\u{1C}", "!", "8", " ", ""]
        var compiledByBoth = 0
        for pattern in JavaSyntaxDifferentialTests.randomQuotes
        where DialectHarness.expectAgreementOrRefusal(pattern, options: options, subjects: subjects) {
            compiledByBoth += 1
        }
        #expect(compiledByBoth > 100)
    }
}
