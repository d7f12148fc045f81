import Foundation
import Testing
@testable import PathConfigCore

/// How the Java dialect reads classes, quantifiers, flag groups and free spacing, judged by the JDK
/// itself (Tests/JVM/RegexProbe.java, under an Android profile's
/// CASE_INSENSITIVE | UNICODE_CASE): a pattern the JVM rejects is rejected
/// here (as invalid, not refused), one it compiles compiles and finds what
/// it finds, on every subject.
@Suite("Dialect: the Java reader against the JDK")
struct JavaSyntaxDifferentialTests {
    /// Class intersections and ranges, as `Pattern.clazz` reads them.
    static let classPatterns = [
        "[x&&]", "[&&x]", "[x&&&&y]", "[a&&&]", "[a&&[b]&c]", "[a&&[b]c]", "[&&]", "[a-&&b]", "[!-&&b]", "[0-&&[?z]]", "[[b]a&&]",
        "[^&&a]", "[a&&b&&c]", "[ab&&[bc]]", "[[a]&&]", "[&&[a]]", "[&]", "[&&&]", "[&a]", "[a&]", "[a&&&&]", "[]&&a]", "[a&&^b]",
        "[^a&&b]", "[a-c&&b-d]", "[a-c&&[b-d]x]", "[a&&[b]&&c]", "[^]", "[^]a]", "[a-]", "[a-[b]]", "[--a]", "[\\d-z]", "[a&&\\d]",
        "(?x)[a& &b]", "(?x)[a& b]", "(?x)[a & b]", "(?x)[ ^a]", "[a&&b]]", "[x&&[]]]", "[k&&&]", "[k&&]", "[&&k]", "[a-z&&[^aeiou]]",
        "[\\w&&[^\\d]]", "[a-z&&k-m&&[^l]]", "[^a-c&&b]", "[a&&[^b]]", "[[a-c]&&[b-d]&&[c-e]]", "[a[b]&&[bc]c]", "[&-a]", "[a&&-]",
        "[a-&]", "[!-&]", "[&&&&]", "[a&&[&]]", "[\\&&&&]", "[&\\&&a]", "[s&&[\\x{17F}]]", "[i&&[I]]", "[a&&[b]&&]",
        // Unions of characters, ranges and nested classes, one flat union each.
        "[k[^/]\u{212A}x]", "[ab[^b]c[d-e]f]", "[k[a]x&&[^/]\u{212A}]", "[[^a][^b]c]", "[^k[^x]&&[^a]K]",
        // JDK 17's && with null: an error only where the search reaches it
        // with the left side holding (the dialect fuzzer's find).
        "[\u{100}a&&]", "[x&&\u{100}a&&]", "[a&&\u{100}a&&]", "[x[\u{100}a&&]]", "[a[\u{100}a&&]]",
        "[\u{100}\u{101}a[\u{100}a&&]]", "[^x&&\u{100}a&&]", "[x&&\u{100}a&&&&&&b]", "[[x]&&[b]a&&]",
    ]

    /// A count after a quantifier, or where no atom is: the JDK reads it
    /// on an empty atom.
    static let quantifierPatterns = [
        "xa?{2}y", "xa*{2}y", "xa{2}{3}y", "x(?:ab)?{1,2}y", "xa+?{2}y", "xa?+{2}y", "a**", "a{2}*", "{2}", "x{2}{", "x?{,2}", "x?{2,1}",
        "x?{2", "(a){2}{3}", "a{2}{3}+", "a{2}{3}?", "a{2}+{3}", "^{2}a", "a|{2}", "({2})", "a?{0}b", "a?{2}?b", "a?{2}{3}b",
        "(?x)a? {2}b", "a?(?x) {2}", "x{1}{2}{3}y", "(?<=a{2}{2,})x", "(?<=a{1}{0}b)x", "(?<=a{2}{2,5})x", "(?i){2}a", "xk?{3}y", "x[a-c]*{1}y",
        // Flag groups: the JDK reads `(?)` as setting none (the dialect fuzzer's find).
        "a(?)b", "a(?-)b", "(?)", "a(?):b", "(?)*a",
        // A second `-` (ICU takes it, the dialect fuzzer's find).
        "(?-i-i)a", "(?i)k(?-i-i)k", "(?--)a", "(?i-i-)a",
        // Counts on groups that cannot match the empty string, a literal run
        // ending in a quantified letter inside (compiled, not refused).
        "(?:/new?|x){2}", "(?:@~?/posts*|edit){2,}", "(?:ab?){2}", "x(?:abc*){1,3}y",
    ]

    /// `\N{NAME}`: `Character.codePointOf` trims the name as `String.trim`
    /// does (up to U+0020, no other space; the dialect fuzzer's find).
    static let namePatterns = [
        "\\N{\u{1}LATIN SMALL LETTER A}", "\\N{ latin small letter a\t}", "\\N{\u{A0}LATIN SMALL LETTER A}",
        "\\N{\u{85}LATIN SMALL LETTER A}", "\\N{LATIN SMALL LETTER A\u{1F}}",
        // `Character.getName`'s own table (found by hand): the controls by
        // their old names, a character Unicode names by rule by its block and
        // hex, upper-casing in full, and nothing Unicode assigned after 13.0.
        "\\N{NULL}", "\\N{BEL}", "\\N{BELL}", "\\N{LINE FEED (LF)}", "\\N{LINE FEED}", "\\N{PADDING CHARACTER}", "\\N{NEXT LINE (NEL)}",
        "\\N{DELETE}", "\\N{CJK UNIFIED IDEOGRAPHS 6C49}", "\\N{CJK UNIFIED IDEOGRAPH-6C49}", "\\N{cjk unified ideographs 6c49}",
        "\\N{CJK UNIFIED IDEOGRAPHS 06C49}", "\\N{CJK UNIFIED IDEOGRAPHS +6C49}", "\\N{CJK UNIFIED IDEOGRAPHS 9FFD}",
        "\\N{CJK UNIFIED IDEOGRAPHS EXTENSION A 3400}", "\\N{HANGUL SYLLABLES AC00}", "\\N{HANGUL SYLLABLE GA}", "\\N{LATIN 1 SUPPLEMENT 84}",
        "\\N{LATIN 1 SUPPLEMENT 85}", "\\N{PRIVATE USE AREA E000}", "\\N{TANGUT 17000}", "\\N{TANGUT IDEOGRAPH-17000}",
        "\\N{SUPPLEMENTARY PRIVATE USE AREA A F0000}", "\\N{CJK COMPATIBILITY IDEOGRAPH-F900}", "\\N{\u{17F}pace}",
        "\\N{lat\u{131}n capital letter a}", "\\N{TOTO LETTER PA}", "\\N{GRINNING FACE}", "\\N{MELTING FACE}", "\\N{\u{212A}ELVIN SIGN}",
        // Group names: any length (PCRE2's are at most 32 code units), each
        // used once, referred to after the group opens (the fuzzer's find).
        "(?<" + String(repeating: "a", count: 40) + ">a)\\k<" + String(repeating: "a", count: 40) + ">",
        "(?<" + String(repeating: "a", count: 300) + ">a)", "(?<n>a)(?<n>b)", "\\k<n>(?<n>a)", "(?<n>a\\k<n>)", "(?<n>a)(?<m>b)\\k<m>\\k<n>",
    ]

    /// Script names, as `Character.UnicodeScript.forName` reads them: upper-cased,
    /// then exactly a JDK 17 script's name or code (found by hand). A name
    /// no table holds is refused, not called invalid (`PropertyNames`).
    static let scriptPatterns = [
        "\\p{IsGreek}", "\\p{IsGREEK}", "\\p{Isgreek}", "\\p{IsGrek}", "\\p{IsOld_Italic}", "\\p{IsOldItalic}", "\\p{IsOld Italic}",
        "\\p{IsOld-Italic}", "\\p{IsItal}", "\\p{sc=Old_Italic}", "\\p{script=OLD_ITALIC}", "\\p{sc=Toto}", "\\p{IsToto}", "\\p{IsVithkuqi}",
        "\\p{IsQaai}", "\\p{IsZinh}", "\\p{IsZzzz}", "\\p{IsUnknown}", "\\p{IsLatin }", "\\p{Script=Greek }", "\\p{Script= Greek}",
        "\\p{IsCyr\u{131}llic}", "\\p{IsHrkt}", "\\p{IsKatakana_Or_Hiragana}", "\\p{IsSignWriting}", "\\p{IsNko}", "\\p{IsPhagsPa}",
        "\\p{Greek}", "[\\p{IsGreek}a]", "\\P{IsCommon}",
        // Compared by UTF-16 unit: U+212A is not K.
        "\\p{Is\u{212A}atakana}", "\\p{sc=\u{212A}atakana}", "\\p{IsBLAN\u{212A}}", "\\p{Blan\u{212A}}", "\\p{IsBlank}",
    ]

    /// Flag groups in free-spacing mode: the JDK applies each letter as it
    /// reads it, so white space and comments after an `x` in the group are
    /// skipped and after a `-x` are not, and under `d` a comment ends at
    /// `\n` alone (the dialect fuzzer's find).
    static let flagGroupPatterns = [
        "(?x )a", "(?x\u{B})a", "(?x#c\n)a", "(?x#c)a", "(?x-x )a", "(?x- x)a", "(?x i)a", "(?i x)a", "(?x :a)", "(?x)(?-x )a",
        "(?xi#)a\n)a", "(?dx)a#c\rb", "(?x)a#c\rb", "(?xd#c\r)a", "(?x)(?d)a#c\rb", "(?x)(?d:a#c\rb)", "(?x)(?d:a#c\nb)c",
        "(?x)(?d:a)#c\rb", "(?x)[a #c\rb]", "(?xd)[a #c\rb]", "(?xd)[a #c\nb]", "(?x)(?d-d #c\r)a", "(?dx: #c\n)a",
        "(?x-d #c\r:a)", "(?x\u{85})a", "(?x\u{2028})a", "(?x #c\u{2028})a", "(?xd #c\u{2028}\n)a",
    ]

    /// Escapes, repeat counts and group names in free-spacing mode: the
    /// JDK reads their parts with `Pattern.read` and `peek`, which skip
    /// white space and comments there too (`\\x 41` is `A`, `\\0 101` too),
    /// but takes a count's first digit and an escape's letter as written.
    static let freeSpacingPartPatterns = [
        "(?x)\\Q a \\E", "(?x)[\\Q a\\E]", "(?x)a{ 2}", "(?x)a{2 }", "(?x)a{2, 3}", "(?x)a{2 ,3}", "(?x)a{2 3}", "(?x)a{2, }",
        "(?x)\\p{ L}", "(?x)\\p {L}", "(?x)\\P{ L}", "(?x)\\p L", "(?x)\\p#c\n{L}", "(?x)[\\p{ L}]", "(?x)[\\p L]",
        "(?x)(?< n>a)", "(?x)(?<n >a)", "(?x)(?<n m>a)", "(?x)\\ a", "(?x)\\x 41", "(?x)\\x4 1", "(?x)\\x{ 41}", "(?x)\\x{41 }",
        "(?x)\\x {41}", "(?x)[\\x 41]", "(?x)[a -\\x 63]", "(?x)\\u 0041", "(?x)\\u00 41", "(?x)\\uD835 \\uDC00", "(?x)\\uD835\\ uDC00",
        "(?x)\\0 101", "(?x)\\01 01", "(?x)\\01 8", "(?x)\\c a", "(?x)\\c #c\na", "(?x)\\c ", "(?x)a\\c",
        "(?x)\\N{ LATIN SMALL LETTER A}", "(?x)\\N {LATIN SMALL LETTER A}", "(?x)\\N{LATIN SMALL#c\n LETTER A}",
        "(?x)(?<n>a)\\k< n>", "(?x)(?<n>a)\\k <n>", "(?x)(?<n>a)\\k<n >", "(?x)(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\1 0",
        "(?x)a\\b {g", "(?x)a\\b{ g}", "(?x)(? i)a", "(?x)(? :a)", "(?x)(? <n>a)", "(?x)(? =a)", "(?x)(?#c\n:a)", "(?x)(?\u{B}>a)",
    ]

    /// Back references to groups the JDK restores when it backtracks: the
    /// repeated group itself (greedy or lazy), a group under `?` or `{0,1}`
    /// or in an alternation. (The dialect fuzzer's find was their opposite,
    /// a group inside a repeated group; those, and groups in atomic groups,
    /// lookarounds and possessive repeats, are refused:
    /// DialectTranslationTests.)
    static let backReferencePatterns = [
        "(a)\\1", "(a|b)\\1", "(a){2}\\1", "((a)b){2}|\\1", "(a){2}|\\1", "(a){2}?|\\1", "(a)*b|\\1", "(a)?b|\\1",
        "(?:(a)b)?c|\\1", "(?:(a)b){0,1}c|\\1", "(?:(a)b)??c|\\1", "(a)b|\\1", "(?:(a)|b)c|\\1", "^([a-h])*\\1",
        "(?<n>a)x|\\k<n>",
    ]

    /// Groups repeated in a lookbehind: the JDK measures one whose body
    /// `TreeInfo` finds deterministic (`GroupCurly`), and rejects the rest
    /// (a `Loop`: "does not have an obvious maximum length").
    static let lookbehindGroupPatterns = [
        "(?<=(?>a|b){2})b", "(?<=(?i:a|b){2})b", "(?<=(?<n>a|b){2})b", "(?<=x(?:a|b){2})b", "(?<=(?=a|b){2})b", "(?<=(?:[ab]){2})b",
        "(?<=(?:a{1,2}){2})b", "(?<=(?:a{2}){2})b", "(?<=(?:a?+){2})b", "(?<=(?:a|b){2}+)b", "(?<=(?:(?:a|b)){2})b",
        "(?<=(?:(?:a|b)){1})b", "(?<=(?:ab)?(?:c|d){2})b", "(?<=(?=(?:a|b){2})[a-z]{2})b", "(?<=(?:a|b){0})b", "(?<=(?:a{1,2}+){2})b",
        "(?<=(?:a??){2})b", "(?<=(a|b){2})b", "(?<=(?:ab){2})b", "(?:a|b){2}b", "(?<=(?:(?>a|b)){2})b", "(?<=(?:a(?:b|c)){2})x",
    ]

    /// Quotes where the JDK's pre-pass (`RemoveQEQuoting`) rewrites them
    /// into the text around them: a class range from or to a quoted
    /// character, an empty quote inside a count, flags, a name or before a
    /// class's `^`, `\c` before a quote, a digit first in a quote, a
    /// `\\` in one, and the find that showed it (`\c\Qx)...`).
    static let quotePatterns = [
        "[a-\\Qz\\E]", "[\\Qa\\E-z]", "[\\Qa-z\\E]", "[a\\Q\\E-z]", "x[\\Q\\E^a]", "\\c\\Qa", "\\c\\Qx\\E", "\\c\\Q*\\E",
        "\\c\\Q1\\E", "\\c\\Q\\Ex", "(?\\Qi\\E)A", "(?i\\Q\\E)A", "(?<\\Qg\\E>a)\\k<g>", "(?<g>a)\\k<\\Qg\\E>", "a{2\\Q\\E}",
        "a{\\Q2\\E}", "x{1\\Q\\E,2}", "\\x{\\Qa\\E}", "\\x\\Q41\\E", "\\x4\\Q1\\E", "\\xA\\QB\\E", "\\u00\\QE9\\E", "\\0\\Q141\\E",
        "\\p\\QL\\E", "\\p{\\QL\\E}", "\\N{\\QLATIN SMALL LETTER A\\E}", "\\Q1\\E", "[\\Q1\\E-9]", "\\Q\\\\E", "x\\Q\\\\Ea",
        "\\Q", "\\Q\\E", "x\\Qa", "(\\Q\\E?:a)", "a*\\Q\\E?", "\\\\Qa\\E", "\\Qa\\Qb\\E", "\\Q(a)\\E?", "[\\Q]\\E]",
        "(?x)\\Q a\\E", "(?x)\\Q#\\Ea", "2\\c\\Qx)\u{1}a?{?x)\u{FFFD}",
    ]

    /// Groups nested as deep as PCRE2 takes them (250; deeper is refused:
    /// DialectTranslationTests), far past ICU's 99.
    static let nestingPatterns = [("(", 249), ("(?:", 249), ("(?i:", 200)].map { open, count in
        String(repeating: open, count: count) + "a" + String(repeating: ")", count: count)
    }

    static let subjects: [String] = {
        var all = "abcdekxyzABK&!-?0^[]#\"$%' \u{212A}\u{17F}\u{130}\u{100}\u{101}".map(String.init)
        all += ["xaay", "xay", "xaaay", "xaaaaaay", "xababy", "xaby", "xy", "ab", "aa", "a", "x", "b", "xky", "xKy", "xaby", "aaaaab", ""]
        all += ["abx", "abcx", "a-b-a", "a-b-b", "abca", "abcb", "aaa", "abab", "aax", "ax", "xax", "ac", "xabb", "ababx", "acabx"]
        return all
    }()

    @Test("classes, quantifiers, flag groups, free spacing and back references: what the JDK rejects is rejected, what it compiles finds what it finds")
    func againstTheJDK() throws {
        let patterns = Self.classPatterns + Self.quantifierPatterns + Self.namePatterns + Self.flagGroupPatterns + Self.freeSpacingPartPatterns
            + Self.backReferencePatterns + Self.nestingPatterns + Self.lookbehindGroupPatterns + Self.quotePatterns
        let (wrong, compared) = try Self.compareWithTheJDK(patterns, on: Self.subjects)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 2_000)
    }

    /// Compiles each of `patterns` here (pcre2, an Android profile's
    /// options) and in the JDK, and searches every subject with both: what
    /// differs, and how many searches were compared. A pattern the JDK
    /// rejects must be rejected as invalid, not refused, and one it compiles
    /// must compile, unless `refusals` allows a documented refusal (a
    /// generated pattern may hold `\b{g}`, a lone surrogate, or a property
    /// name no table has) either way.
    static func compareWithTheJDK(_ patterns: [String], on subjects: [String], refusals: Bool = false) throws -> (wrong: [String], compared: Int) {
        let lines = try JVM.run("RegexProbe.java", lines: subjects.map(JVM.hex) + ["-"] + patterns.map(JVM.hex))
        try #require(lines.count == patterns.count + 1)
        let options = RegexOptions(caseInsensitive: true, unicodeClasses: false, dialect: .java)
        var wrong: [String] = []
        var compared = 0
        for (pattern, row) in zip(patterns, lines.dropFirst()) {
            let compiled = Result { () throws(RegexCompileError) in try PCRE2Engine().compile(pattern, options: options, limits: Limits()) }
            switch (compiled, row.hasPrefix("E")) {
            case (.failure(let error), _) where refusals && error.isUnsupported:
                break
            case (.failure(let error), true):
                if error.isUnsupported { wrong.append("\(pattern.debugDescription): refused (\(error.message)), the JVM rejects it: \(row)") }
            case (.failure(let error), false):
                wrong.append("\(pattern.debugDescription): rejected (\(error.message)), the JVM compiles it")
            case (.success, true):
                wrong.append("\(pattern.debugDescription): compiled, the JVM rejects it: \(row)")
            case (.success(let compiled), false):
                for (subject, bit) in zip(subjects, row) {
                    compared += 1
                    let found = compiled.search(MatchSubject(subject)) == .match
                    if found != (bit == "1") { wrong.append("\(pattern.debugDescription) on \(subject.debugDescription): PCRE2 \(found), JDK \(bit == "1")") }
                }
            }
        }
        return (wrong, compared)
    }

    /// Expects the pcre2 backend to find what the JDK finds in every subject:
    /// for each `fixed` pattern, all taken; for each `generated` one, unless
    /// refused, with at least `comparedAtLeast` of them taken.
    static func expectAsTheJDK(fixed: [String], generated: [String], on subjects: [String], comparedAtLeast minimum: Int,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (fixedWrong, fixedCompared) = try compareWithTheJDK(fixed, on: subjects)
        #expect(fixedWrong.isEmpty, "\(fixedWrong.count) differ: \(fixedWrong.prefix(16).joined(separator: "; "))", sourceLocation: sourceLocation)
        #expect(fixedCompared == fixed.count * subjects.count, sourceLocation: sourceLocation)
        let (wrong, compared) = try compareWithTheJDK(generated, on: subjects, refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))", sourceLocation: sourceLocation)
        #expect(compared > minimum * subjects.count, sourceLocation: sourceLocation)
    }

    /// Class expressions made of the pieces whose order decides how the
    /// JDK reads them.
    static let randomClasses: [String] = {
        var generator = SplitMix(state: 17)
        let pieces = ["a", "b", "k", "&", "&&", "-", "^", "[a]", "[^b]", "[b-d]", "\\d", "x", "]", "!", "[&]", "\\&"]
        var out: [String] = []
        for _ in 0..<1_500 {
            let count = Int.random(in: 1...6, using: &generator)
            out.append("[" + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined() + "]")
        }
        return out
    }()

    @Test("1,500 random class expressions of &, &&, -, ^, ] and nested classes, read as the JDK reads them")
    func randomClassesAgainstTheJDK() throws {
        let subjects = "abcdkx&-^]![1K\u{212A}".map(String.init) + [""]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.randomClasses, on: subjects)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 500 * subjects.count)
    }

    /// Flag groups of `x`, `d`, `i` and `-` with white space and comments
    /// in and after them, and a body of letters, spaces and comments.
    static let randomFlagGroups: [String] = {
        var generator = SplitMix(state: 29)
        let inGroup = ["x", "x", "d", "i", "-", " ", "\u{B}", "#c\r", "#c\n", "#)\n", "\u{85}"]
        let body = ["a", "b", " ", "#c\r", "#c\n", "\r", "\n", "(?-x)", "(?d)", "(?x: b)"]
        var out: [String] = []
        for _ in 0..<800 {
            let group = (0..<Int.random(in: 1...5, using: &generator)).map { _ in inGroup.randomElement(using: &generator)! }
            let rest = (0..<Int.random(in: 1...5, using: &generator)).map { _ in body.randomElement(using: &generator)! }
            let end = Bool.random(using: &generator) ? ")" : ":"
            out.append("(?" + group.joined() + end + rest.joined() + (end == ":" ? ")" : ""))
        }
        return out
    }()

    @Test("800 random flag groups with x, d, white space and comments, read as the JDK reads them")
    func randomFlagGroupsAgainstTheJDK() throws {
        let subjects = ["a", "ab", "b", "ba", "a b", "a\nb", "a\rb", "abb", ""]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.randomFlagGroups, on: subjects)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 200 * subjects.count)
    }

    /// Patterns cut by `\Q`, `\E` and `\\` at random places, among pieces
    /// of classes, counts, flags, names and escapes.
    static let randomQuotes: [String] = {
        var generator = SplitMix(state: 53)
        let pieces = ["\\Q", "\\E", "\\Q\\E", "\\Q", "\\E", "a", "1", "(", ")", "(?", "i", ":", "<g>", "\\k<g>", "{", "2", ",", "}", "[",
                      "]", "-", "^", "\\", "\\c", "\\x", "4", "\\p{", "L", "*", "?", "+", "|", ".", " ", "&&", "\\\\", "#", "$", "(?x)"]
        return (0..<1_500).map { _ in (0..<Int.random(in: 2...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
    }()

    @Test("1,500 patterns cut by quotes at random places, read as the JDK reads them after rewriting their quotes")
    func randomQuotesAgainstTheJDK() throws {
        let subjects = ["a", "A", "1", "aa", "a1", "x", "]", "-", "^", "\\", "?", "(a)", "\u{1C}", "!", "8", " ", ""]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.randomQuotes, on: subjects, refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 100 * subjects.count)
    }

    /// Capture groups inside every kind of group and repeat, then a back
    /// reference to one of them, after them or in another alternative:
    /// what is not refused finds what the JDK finds (its groups that keep
    /// a capture after the search backtracks out of them are refused).
    static let randomBackReferences: [String] = {
        var generator = SplitMix(state: 41)
        let atoms = ["a", "b", "x", "[ab]", ".", "ab"]
        let opens = ["(", "(", "(?:", "(?>", "(?=", "(?!", "(?<=", "(?<!"]
        let repeats = ["", "", "", "?", "*", "+", "{2}", "{0,1}", "{1,2}", "*?", "+?", "??", "?+", "*+", "++", "{2}+"]
        func item(_ depth: Int, _ groups: inout Int) -> String {
            let body: String
            if depth < 2, Int.random(in: 0..<3, using: &generator) > 0 {
                let open = opens.randomElement(using: &generator)!
                if open == "(" { groups += 1 }
                let inner = (0..<Int.random(in: 1...2, using: &generator)).map { _ in item(depth + 1, &groups) }.joined()
                body = open + inner + ")"
            } else {
                body = atoms.randomElement(using: &generator)!
            }
            return body + repeats.randomElement(using: &generator)!
        }
        var out: [String] = []
        while out.count < 2_000 {
            var groups = 0
            let head = (0..<Int.random(in: 1...3, using: &generator)).map { _ in item(0, &groups) }.joined()
            guard groups > 0 else { continue }
            let reference = "\\" + String(Int.random(in: 1...groups, using: &generator))
            out.append(head + (Bool.random(using: &generator) ? "|" : "") + reference)
        }
        return out
    }()

    @Test("2,000 random capture groups in groups and repeats of every kind, with back references, read as the JDK reads them")
    func randomBackReferencesAgainstTheJDK() throws {
        let subjects = ["a", "b", "x", "ab", "aab", "abx", "ba", "aba", "abab", "xab", "aaxb", "abba", "axa", "bab", ""]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.randomBackReferences, on: subjects, refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 300 * subjects.count)
    }

    /// Capture groups that can match the empty string, repeated by every
    /// kind of count, with a back reference after them. The JDK's
    /// `GroupCurly` (a group with no `|`, `?` or varying repeat inside)
    /// gives the group back what it held before an iteration past its
    /// minimum that matched the empty string, so `(^){0,2}\1` never
    /// matches there; `(^){1,2}\1`, `(^){0,2}+\1`, `(^)?\1` and the
    /// `Loop`'s `(a|^){0,2}\1` do (the last two refused here by older,
    /// wider rules).
    static let emptyIterationPatterns = [
        "(^){0,2}\\1", "(^)*\\1", "(^)+\\1", "(^){0,2}?\\1", "(^)*?\\1", "((^)){0,2}\\1", "((^)){0,2}\\2", "a((?=a)){0,2}\\1",
        "(^){1,2}\\1", "(^){2}\\1", "(^){0,2}+\\1", "(^)*+\\1", "(^)?\\1", "(^){0,1}\\1", "(^)??\\1", "(a|^){0,2}\\1",
        "(){0,2}\\1", "()*\\1", "(a{0})*\\1", "(\\b)*a\\1", "(a?)(\\1)*\\2", "(a?)(\\1){1,2}\\2", "x(${0,3})\\1", "(^){0}\\1",
    ]

    /// Nullable and other bodies, in capture groups under every count,
    /// with back references after them.
    static let randomEmptyIterations: [String] = {
        var generator = SplitMix(state: 47)
        let atoms = ["^", "$", "\\b", "\\B", "(?=a)", "(?!b)", "a{0}", "", "a", "b", "a?", "(?:a|)"]
        let repeats = ["*", "+", "{0,2}", "{1,2}", "{2}", "{0,}", "*?", "+?", "{0,2}?", "?", "{0,1}", "??", "{0,2}+", "*+", "{0}", ""]
        func item(_ depth: Int, _ groups: inout Int) -> String {
            if depth < 2, Int.random(in: 0..<3, using: &generator) > 0 {
                groups += 1
                let inner = (0..<Int.random(in: 1...2, using: &generator)).map { _ in item(depth + 1, &groups) }.joined()
                return "(" + inner + ")" + repeats.randomElement(using: &generator)!
            }
            return atoms.randomElement(using: &generator)!
        }
        var out: [String] = []
        while out.count < 1_500 {
            var groups = 0
            let head = (0..<Int.random(in: 1...2, using: &generator)).map { _ in item(0, &groups) }.joined()
            guard groups > 0 else { continue }
            let reference = "\\" + String(Int.random(in: 1...groups, using: &generator))
            out.append(head + reference + ["", "b", "$"].randomElement(using: &generator)!)
        }
        return out
    }()

    @Test("capture groups that can match the empty string under every count, with back references, read as the JDK reads them")
    func emptyIterationsAgainstTheJDK() throws {
        let subjects = ["", "a", "b", "aa", "ab", "ba", "aab", "x", "xa", "a b"]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.emptyIterationPatterns + Self.randomEmptyIterations, on: subjects,
                                                           refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 400 * subjects.count)
        // Those the JDK agrees on are translated, not refused with the rest.
        for pattern in ["(^){1,2}\\1", "(^)+\\1", "(^){2}\\1", "(^)?\\1", "(^){0,1}\\1"] {
            #expect(throws: Never.self, "\(pattern)") { try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: false) }
        }
    }

    /// Escapes, counts and group names with gaps, under `(?x)`.
    static let randomFreeSpacingParts = DialectHarness.freeSpacingVariants(of: [
        "\\x41", "\\x{41}", "\\u0041", "\\0101", "\\cA", "\\p{L}", "\\pL", "\\P{Lu}", "\\N{LATIN SMALL LETTER A}", "(?<n>a)\\k<n>",
        "a{2,3}", "a{2}", "a{2,}", "(a)\\1", "(?<=a)b", "[\\x41-\\x43]", "\\uD835\\uDC00", "a\\b{g}",
    ], count: 600, seed: 31)

    @Test("600 escapes, counts and group names with white space or comments inside, under (?x), read as the JDK reads them")
    func randomFreeSpacingPartsAgainstTheJDK() throws {
        let subjects = ["a", "A", "aa", "aaa", "ab", "b", "!", "@", "\u{1}", "\u{1D400}", "x"]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.randomFreeSpacingParts, on: subjects, refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 100 * subjects.count)
    }

    /// The repeats the JDK runs one iteration at a time, each iteration
    /// taking its item's first match (`Curly` and `Ques` on one atom,
    /// `GroupCurly`, any possessive repeat of a group), against those it
    /// backtracks into. `\R` gives CR LF back to CR alone when what
    /// follows fails (`LineEnding`), but not there (the dialect fuzzer's
    /// find: `\R{2,}` on "\r\n"); a possessive repeat of a group keeps
    /// each iteration's first match whatever its body (the random
    /// patterns' find: `(\n+){2}+`).
    static let lineBreakPatterns = [
        "\\R{2,}\\^", "\\R{2}", "\\R\\n", "\\R?\\n", "\\R??\\n", "\\R*\\n", "\\R+?\\n", "\\R{1}\\n", "\\R{2}+", "\\R?+\\n",
        "(?:\\R){2}", "(\\R){2}", "(?:\\R){1}\\n", "(?:\\R)+\\n", "(?:\\R)?\\n", "(?:\\R){0,1}\\n", "(?:\\R)??\\n", "(?:\\R){2}+",
        "(?:\\R){2}?", "(?:\\R|y)+\\n", "(?:\\R|y){2}", "(?:\\Rx){2}", "(?:\\R\\n){2}", "(?:a\\R){2}\\n", "(?:a\\R){1,2}\\n",
        "(?:a\\R)*\\n", "(?:a\\R)+\\n", "(?:a\\R){2}?\\n", "(?:\\R\\n?){2}", "(?:\\R{1}){2}", "(?:(?:\\R)+){1}\\n",
        "(?:(?:\\R)\\n){1}", "(?:(?:\\R|y)x){2}", "(?:(?>\\R)\\n){2}", "(?:(?=\\R)\\R){2}", "(?:\\R(?=\\n)){2}", "(?:a\\R){2}+\\n",
        "(?:\\R){0}\\n", "\\R{0}\\n", "\\R\\R\\R\\R", "x\\R{2}", "(?i)k\\R{2}", "(?:\\R(?:\\r|\\n)){2}",
        // The random patterns' find.
        "(?:\\n+){2}+", "(\\n+){2}+", "(?=(\\n+){2}+)", "\\n??(?=(\\n+){2}+){2}+\\n?+", "(?:\\n|\\r\\n){2}+", "(?:\\r?\\n?){2}+\\n",
        "(?:\\n+)?+\\n", "(?:\\n*){1,2}+\\n", "(?:\\r|\\r\\n)*+\\n",
        // A `Loop` stops at an empty iteration, below its count too: refused
        // where a count follows (`(?:a|\\R?+){2}`, the random patterns' find).
        "(?:a|\\R?+){2}\\r?+\\n", "(?:(?=a)|a){2}b", "(?:a|b?+){2}bc", "(?:a|(?>b?)){2}bc", "(?:a|(?:b?)){2}bc", "(?:a|b?+){2,3}bc",
        "(?:a|b?+)+bc", "(?:a|b?+)*bc", "(?:a|b?+)*?bc", "(?:(?=a)|a){1,2}b", "(?:(?=a)|a){0,2}b", "(?:(?=a)|a){2,}b", "(?:a|){2}b",
        "(^|a){2}b", "(\\r|\\r\\n){2}+", "(\\r|\\r\\n){2}", "(\\r|\\r\\n)*+\\r",
    ]

    /// Repeats of every kind around `\R`, repeats and what may follow them, nested.
    static let randomLineBreaks: [String] = {
        var generator = SplitMix(state: 43)
        let atoms = ["\\R", "\\R", "\\n", "\\r", "a", "[\\r\\n]", "\\R\\n", "\\n+", "\\r?"]
        let opens = ["(", "(?:", "(?:", "(?>", "(?=", "(?:a|", "(?<=", "(?<!"]
        let repeats = ["", "", "?", "*", "+", "{2}", "{1}", "{1,2}", "{0,1}", "*?", "+?", "??", "?+", "*+", "++", "{2}+", "{2}?"]
        func item(_ depth: Int) -> String {
            let body: String
            if depth < 2, Int.random(in: 0..<2, using: &generator) > 0 {
                body = opens.randomElement(using: &generator)! + (0..<Int.random(in: 1...2, using: &generator)).map { _ in item(depth + 1) }.joined() + ")"
            } else {
                body = atoms.randomElement(using: &generator)!
            }
            return body + repeats.randomElement(using: &generator)!
        }
        return (0..<1_500).map { _ in (0..<Int.random(in: 1...3, using: &generator)).map { _ in item(0) }.joined() }
    }()

    /// Lookbehinds before characters above U+FFFF. With none written from
    /// a lookbehind to the pattern's end, the JDK measures and tries it by
    /// UTF-16 unit (`Behind`), and one holding an item that may match such
    /// a character or a surrogate is refused; with one, the JDK steps by
    /// code point (`BehindS`), as PCRE2 does. These are not refused.
    static let surrogateLookbehindPatterns = [
        "(?<=[a-z])z", "(?<=\\w\\d)z", "(?<!a)z", "(?<=a|bc)z", "(?<=[\\x{0}-\\x{D7FF}\\x{E000}-\\x{FFFF}&&[^/]]{2})z", "(?<=(?=(?:a|b){2})..)b\u{1F600}?",
        "(?<=.)z\u{1D400}?", "(?<=\\p{L})z\u{1D400}?", "(?<=..)z|\u{1F600}", "(?<=\\x{1D400})z\u{1F600}?", "(?<=[^a]{2})z\u{1D400}?",
        "(?<=\u{1D400})z", "(?<!\\P{L}a)\u{10400}",
    ]

    /// Lookbehinds of items that may match a character above U+FFFF or a
    /// surrogate, or not, with such a character written before, in or
    /// after them, or nowhere.
    static let randomSurrogateLookbehinds: [String] = {
        var generator = SplitMix(state: 67)
        let items = ["a", "z", ".", "\\p{L}", "\\P{L}", "[^a]", "\\x{1D400}", "[\\x{10000}-\\x{10FFFF}]", "[\\u0000-\\uFFFF]", "\\W",
                     "[a-z]", "\\d", "(?:a|.)", "[\\p{L}&&[^a]]", "\\S", "\\x{10428}", "[a-z&&[^\\x{D800}-\\x{DFFF}]]"]
        let wide = ["", "", "", "\u{1D400}", "\u{1F600}?", "\u{10400}"]
        return (0..<600).map { _ in
            let body = (0..<Int.random(in: 1...3, using: &generator)).map { _ in items.randomElement(using: &generator)! }.joined()
            let open = Int.random(in: 0..<3, using: &generator) == 0 ? "(?<!" : "(?<="
            let inside = Int.random(in: 0..<6, using: &generator) == 0 ? wide.randomElement(using: &generator)! : ""
            return wide.randomElement(using: &generator)! + open + inside + body + ")z?" + wide.randomElement(using: &generator)!
        }
    }()

    @Test("600 random lookbehinds before characters above U+FFFF: refused where the JDK tries them by UTF-16 unit, else as the JDK finds")
    func surrogateLookbehindsAgainstTheJDK() throws {
        let subjects = ["z", "az", "\u{1D400}z", "a\u{1D400}z", "\u{1D400}\u{1D400}z", "\u{1F600}z", "a\u{1F600}", "\u{1D400}", "aa",
                        "ab\u{1D400}", "\u{1D400}az", "x\u{1D400}", "\u{1D400}a\u{1D400}z", "\u{10428}z", "a\u{10400}", "\u{1F600}\u{1D400}", ""]
        try Self.expectAsTheJDK(fixed: Self.surrogateLookbehindPatterns, generated: Self.randomSurrogateLookbehinds, on: subjects,
                                comparedAtLeast: 200)
    }

    /// Negative lookarounds where a match may start (`JavaSearchStart`).
    /// Where nothing in the pattern makes the JDK's search step by code
    /// point, it also starts inside a surrogate pair, where the lookaround
    /// reads half the pair: refused where an item that may match a
    /// surrogate alone, or the pattern's end, follows there. The first five
    /// find a match in the JDK that PCRE2 cannot ("/𝐀", "𝐀").
    static let searchStartRefused = [
        "(?<!/).$", "(?!^).$", "(?!\\b).$", "(?!(?<=/)).$", "-?(?<!/).$", "(?<!/).$|\\d", "(?:(?<!/)|-).$", "(?=(?<!/)).$",
        "(?<!/)(?:.|-)$", "(?<!/)", "(?<!/)(?=.)", "(?:-|(?!\\d)).$", "(?<!/)\\d?.$", "/|(?<!/).",
        // A lookaround after it is not followed into.
        "(?<!/)(?=-).$",
    ]

    /// The same lookarounds where the search steps by code point (a cased
    /// letter alone, a range, a negation, `\p{L}`, a character above U+FFFF),
    /// or where an anchor or an item that cannot match a surrogate alone
    /// follows them.
    static let searchStartTaken = [
        "(?<!/).$|a", "(?<!/).$|\u{E9}", "(?<!/).$|[a-c]", "(?<!/)[^/]$", "(?<!/)\\p{L}$", "(?<!/)\\W", "(?<!/).$|\\x{1D400}",
        "(?<!/).$\u{1D400}?", "(?<!/)\\P{Alpha}{0}.$", "(?<!/)[\\W]{0}.$", "(?<!/)[.]$", "(?<!/)$", "^(?<!/).$", "\\A(?<!/).",
        "(?!/admin)/.*", "(?<!/)\\b.$", "(?<!/)-.$", "(?<!/)\\R$", "a(?<!/).$", "-(?<!/).$", "(?<!/)-|.$", "(?!^)$",
    ]

    /// Anchors, items and lookarounds before, between and after a negative
    /// lookaround, at a match's start or not.
    static let randomSearchStarts: [String] = {
        var generator = SplitMix(state: 71)
        let before = ["", "", "-?", "/*", "(?:-|)", "^", "\\A", "-", "(?=.)", "(?=-)", "x", "[.]?"]
        let negative = ["(?<!/)", "(?!/)", "(?!^)", "(?!\\b)", "(?!(?<=/))", "(?<!-)", "(?!\\d)", "(?<![/a])", "(?<!/|x)"]
        let between = ["", "", "(?=.)", "\\b", "-?", "(?:|-)", "[.]?", "(?<!x)", "$"]
        let item = [".", ".", "[.]", "-", "[^/]", "\\W", "\\d", "[a-z]", "\\p{L}", "(?:.|-)", "", "\\R", "(.)", ".?"]
        let after = ["$", "$", "", "$|\\d", "|a", "\u{1D400}?", "$|-", "\\z", ".$"]
        return (0..<1_200).map { _ in
            [before, negative, between, item, after].map { $0.randomElement(using: &generator)! }.joined()
        }
    }()

    @Test("negative lookarounds where a match may start: refused where the JDK's search may start inside a surrogate pair, else as the JDK finds")
    func searchStartsAgainstTheJDK() throws {
        for pattern in Self.searchStartRefused {
            #expect(throws: TranslationError.self, "\(pattern)") { try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: true) }
        }
        let subjects = ["/\u{1D400}", "\u{1D400}", "/x/\u{1F600}", "-\u{1D400}", "a\u{1D400}", "\u{10400}", "\u{1D400}/", "\u{1D400}\u{1D400}", "/",
                        "", "ab", "1\u{1D400}", "x\u{1D400}", "/\u{1D400}1", "/a", "-", "\u{1D400}-", "\u{1D400}\n"]
        try Self.expectAsTheJDK(fixed: Self.searchStartTaken, generated: Self.randomSearchStarts, on: subjects, comparedAtLeast: 500)
    }

    /// Items of every kind, each read where it cannot match (`(?:X){0}`)
    /// before a negative lookaround that ends the pattern.
    static let searchStepItems = [
        "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\h", "\\H", "\\v", "\\V", "\\p{L}", "\\p{Lu}", "\\p{Alpha}", "\\p{Lower}",
        "\\p{ASCII}", "\\p{IsLatin}", "\\p{javaLowerCase}", "\\p{IsAlphabetic}", "\\p{Punct}", "\\P{Alpha}", "\\p{all}", "\\p{L1}",
        "\\p{XDigit}", "\\pL", "[ab]", "[^a]", "[a-z]", "[0-9]", "[!-/]", "[k]", "[\u{E9}]", "[\u{100}]", "[\u{1C5}]", "[\\d]", "[\\W]",
        "[a&&b]", "[[b]a&&]", "[\\p{L}]", "[\\p{Alpha}]", "[\\P{Alpha}]", "[a[b]]", "[a[^b]]", "[\\x{FF}]", "[\u{B5}]", "[\u{DF}]", "[z]",
        "[a-a]", "[\\Qk\\E]", "[\\Qab\\E]", "a", "ab", "1", "/", "k", "\u{E9}", "\u{1C5}", "\u{DF}", "\\x{1D400}", "\\x{1D400}a", ".",
        "\\R", "(?:a)", "\\Qab\\E", "(?-i)k", "(?-i)[a-z]", "(?-i)[\\x{E000}-\\x{FFFF}]", "(?-i)[\\x{D000}-\\x{D900}]", "(?-i)\\x{1D400}",
        "(?-i:[\\x{100}])", "(?-i)[^a]", "-/", "-a", "a-", "\\u0130",
    ]

    @Test("the JDK searches by code point exactly where the translation says so, for every kind of item and 1,500 random classes")
    func searchStepsAgainstTheJDK() throws {
        let patterns = (Self.searchStepItems + Self.randomClasses).map { "(?:" + $0 + "){0}(?<!/)" }
        let roots = try JVM.run("SearchProbe.java", lines: patterns.map(JVM.hex), options: ["--add-opens", "java.base/java.util.regex=ALL-UNNAMED"])
        try #require(roots.count == patterns.count)
        var wrong: [String] = []
        var overRefused: [String] = []
        var compared = 0
        for (pattern, root) in zip(patterns, roots) where root != "E" {
            let refused: Bool
            do {
                _ = try PatternTranslator.translate(pattern, dialect: .java, caseInsensitive: true)
                refused = false
            } catch {
                // Other refusals, and classes whose search throws, say nothing here.
                guard error.message.contains("where a match may start") else { continue }
                refused = true
            }
            compared += 1
            if !refused && root != "StartS" { wrong.append("\(pattern.debugDescription): taken, the JDK's search is \(root)") }
            if refused && root == "StartS" { overRefused.append(pattern) }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        // Not modelled: a character above U+FFFF escaped alone, case-sensitively (`SingleS`).
        #expect(overRefused == ["(?:(?-i)\\x{1D400}){0}(?<!/)"], "\(overRefused.count): \(overRefused.prefix(16).joined(separator: "; "))")
        #expect(compared > 1_000)
    }

    @Test("\\R and possessive groups under repeats: each iteration's first match where the JDK repeats an item alone")
    func lineBreaksAgainstTheJDK() throws {
        let subjects = ["\r\n", "\r\n\r\n", "\r\r\n", "\n\r", "\r\n\n", "\r", "\n", "a\r\n", "a\r\na\r\n", "\r\nx\rx", "\r\n^",
                        "x\r\n\r\n", "\r\na\r", "a\n\r\n", "\u{85}\r\n", ""]
        let (wrong, compared) = try Self.compareWithTheJDK(Self.lineBreakPatterns + Self.randomLineBreaks, on: subjects, refusals: true)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 800 * subjects.count)
    }

    /// Unicode's names of 400 random code points (and the controls), as
    /// written and in lower case, searched for in those characters; and
    /// every JDK 17 script's name and code, and Unicode 14.0's, spelt six ways.
    static let randomNames: (names: [String], scripts: [String], subjects: [String]) = {
        var generator = SplitMix(state: 53)
        let values = (0..<400).map { _ in UInt32.random(in: 0...0x10FFFF, using: &generator) } + Array(0...0x9F)
        let scalars = values.compactMap(Unicode.Scalar.init)
        let names = scalars.compactMap(\.properties.name).flatMap { ["\\N{\($0)}", "\\N{\($0.lowercased())}"] }
        let scripts = PropertyNames.javaScripts.keys.sorted() + ["Cypro_Minoan", "Cpmn", "Old_Uyghur", "Tangsa", "Toto", "Vithkuqi", "Vith"]
        let spellings = scripts.flatMap { name -> [String] in
            let title = name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            return [name, name.lowercased(), title.joined(separator: "_"), title.joined(), title.joined(separator: " "), title.joined(separator: "-")]
        }
        let properties = Set(spellings).sorted().flatMap { ["\\p{Is\($0)}", "\\p{sc=\($0)}"] }
        let subjects = scalars.filter { $0.value >= 0x20 }.map { String($0) } + ["a", "\u{3B1}", "\u{2C80}", "\u{10300}", "\u{7C0}", "\u{1400}"]
        return (names, properties, subjects)
    }()

    @Test("Unicode's names of 400 random code points and every script's name and code in six spellings, read as the JDK reads them")
    func randomNamesAgainstTheJDK() throws {
        let (names, scripts, subjects) = Self.randomNames
        let (wrong, compared) = try Self.compareWithTheJDK(names, on: subjects)
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(16).joined(separator: "; "))")
        #expect(compared > 200 * subjects.count)
        let (wrongScripts, comparedScripts) = try Self.compareWithTheJDK(Self.scriptPatterns + scripts, on: subjects, refusals: true)
        #expect(wrongScripts.isEmpty, "\(wrongScripts.count) differ: \(wrongScripts.prefix(16).joined(separator: "; "))")
        #expect(comparedScripts > 1_000 * subjects.count)
    }
}
