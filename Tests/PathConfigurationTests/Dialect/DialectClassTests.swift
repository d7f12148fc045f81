import PathConfiguration
import PathConfigurationFoundation
@testable import PathConfigCore
import Testing

/// Every class the ICU dialect translates, compared code point by code
/// point with ICU itself over all of Unicode 14.0.
@Suite("Dialect: ICU classes, exhaustively")
struct DialectClassTests {
    /// What the dialect layer must do with a one-character ICU pattern.
    enum Expectation: Sendable {
        /// Translate it to exactly ICU's set.
        case same
        /// Refuse it: ICU accepts it, PCRE2 cannot match it the same way.
        case refused
    }

    static let shorthands: [(String, Expectation)] = [
        ("\\d", .same), ("\\D", .same), ("\\w", .same), ("\\W", .same), ("\\s", .same), ("\\S", .same),
        ("\\h", .same), ("\\H", .same), ("\\v", .same), ("\\V", .same), (".", .same), ("(?s).", .same),
        ("(?d).", .same), ("(?s)(?d).", .same), ("\\R", .same), ("[\\w]", .same), ("[^\\w]", .same), ("[\\W\\d]", .same),
    ]

    static let generalCategories: [(String, Expectation)] = [
        "L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc", "Pd", "Ps", "Pe",
        "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "C", "Cc", "Cf", "Co", "Cn",
        "Letter", "Uppercase_Letter", "lowercase letter", "Cased-Letter", "Mark", "Combining_Mark", "Decimal_Number", "digit",
        "Punctuation", "punct", "Symbol", "Separator", "Other", "Control", "cntrl", "Format", "Unassigned", "Private_Use",
        "gc=Lu", "General_Category=Nd", "gc = Letter",
    ].flatMap { [("\\p{\($0)}", Expectation.same), ("\\P{\($0)}", .same)] }

    static let binaryProperties: [(String, Expectation)] = [
        "Alphabetic", "Alpha", "ASCII_Hex_Digit", "AHex", "Bidi_Control", "Bidi_Mirrored", "Bidi_M", "Case_Ignorable", "Cased",
        "Changes_When_Casefolded", "CWCM", "Changes_When_Lowercased", "CWT", "CWU", "Dash",
        "Default_Ignorable_Code_Point", "Deprecated", "Diacritic", "Extender", "Grapheme_Base", "Grapheme_Extend", "Hex_Digit",
        "IDS_Binary_Operator", "IDS_Trinary_Operator", "ID_Continue", "ID_Start", "Ideographic", "Join_Control",
        "Logical_Order_Exception", "Lowercase", "Lower", "Math", "Noncharacter_Code_Point", "Pattern_Syntax",
        "Pattern_White_Space", "Quotation_Mark", "Radical", "Regional_Indicator", "Sentence_Terminal", "Soft_Dotted",
        "Terminal_Punctuation", "Unified_Ideograph", "Uppercase", "Upper", "Variation_Selector", "White_Space", "space",
        "XID_Continue", "XID_Start", "WHITE SPACE", "whitespace",
    ].map { ("\\p{\($0)}", Expectation.same) }

    static let scripts: [(String, Expectation)] = [
        "Latin", "Greek", "Cyrillic", "Han", "Arabic", "Hebrew", "Devanagari", "Hiragana", "Katakana", "Thai", "Hangul",
        "Common", "Inherited", "Zyyy", "Latn", "Grek", "Old_Italic", "sc=Grek", "Script=Devanagari", "script = latin",
        "IsGreek", "IsLatin",
    ].map { ("\\p{\($0)}", Expectation.same) } + ["scx=Grek", "Script_Extensions=Arab"].map { ("\\p{\($0)}", Expectation.refused) }

    static let special: [(String, Expectation)] = [
        ("\\p{Any}", .same), ("\\p{Assigned}", .same), ("\\P{Assigned}", .same), ("\\p{ASCII}", .same), ("\\p{alnum}", .same),
        ("\\p{blank}", .same), ("\\p{graph}", .same), ("\\p{print}", .same), ("\\p{xdigit}", .same), ("\\p{word}", .same),
        ("\\p{Word}", .same), ("\\p{all}", .same), ("\\p{IsL}", .same), ("\\p{IsLu}", .same), ("\\p{Is_L}", .same),
        ("\\p{IsAlphabetic}", .same), ("\\p{IsAssigned}", .same), ("\\p{IsTitleCase}", .same), ("\\p{IsWhite_Space}", .same),
        ("\\p{InBasicLatin}", .same), ("\\p{InGreek}", .same), ("\\P{InGreek}", .same), ("\\p{Block=Cyrillic}", .same),
        ("\\p{blk=ASCII}", .same), ("\\p{In Basic Latin}", .same), ("\\p{InLatin-1_Supplement}", .same),
        ("\\p{Block=Greek_And_Coptic}", .same), ("\\p{InCJK_Ext_B}", .same), ("[\\p{InGreek}&&\\p{Lu}]", .same),
        ("[:InCyrillic:]", .same), ("[[:^InBasicLatin:]a]", .same), ("\\p{InNoBlock}", .refused), ("\\p{Block=No_Block}", .refused),
        ("\\p{Numeric_Value=9}", .refused), ("\\p{Age=3.0}", .refused),
        ("\\p{Name=LATIN SMALL LETTER A}", .refused), ("\\p{Emoji}", .refused), ("\\p{Alphabetic=Yes}", .refused),
        ("\\p{CWKCF}", .refused), ("\\p{Changes_When_NFKC_Casefolded}", .refused),
    ]

    static let java: [(String, Expectation)] = [
        "javaDefined", "javaDigit", "javaIdentifierIgnorable", "javaISOControl", "javaJavaIdentifierPart",
        "javaJavaIdentifierStart", "javaLetter", "javaLetterOrDigit", "javaLowerCase", "javaMirrored", "javaSpaceChar",
        "javaSupplementaryCodePoint", "javaTitleCase", "javaUnicodeIdentifierStart", "javaUnicodeIdentifierPart",
        "javaUpperCase", "javaValidCodePoint", "javaWhitespace",
    ].map { ("\\p{\($0)}", Expectation.same) }

    static let posixAndSets: [(String, Expectation)] = [
        ("[[:alpha:]]", .same), ("[:Lu:]", .same), ("[[:^digit:]]", .same), ("[:script=Greek:]", .same), ("[[:punct:]x]", .same),
        ("[\\w&&[^\\d]]", .same), ("[\\w&&\\D]", .same), ("[\\p{L}--[a-z]]", .same), ("[a-z&&[^aeiou]]", .same),
        ("[a-z--aeiou]", .same), ("[[:alpha:]&&\\p{Greek}]", .same), ("[^\\p{L}\\p{N}]", .same), ("[^[a-z][0-9]]", .same),
        ("[\\p{Letter}&&\\p{script=cyrillic}]", .same), ("[\\p{Letter}--\\p{script=latin}]", .same), ("[\\s--[\\n]]", .same),
        ("[a-z&&[^b]&&[^c]]", .same), ("[a-z&&[^b]--c]", .same), ("[[a-c][b-d]&&[c-e]]", .same), ("[^a[b]]", .same),
        ("[\\d-z]", .same), ("[a-b-c]", .same), ("[a&b]", .same), ("[a&&&b]", .same), ("[\\u0100-\\u017F--\\p{Lu}]", .same),
        ("[\\x{1F600}-\\x{1F64F}]", .same), ("[^\\x{0}-\\x{7F}]", .same), ("[\\N{GREEK SMALL LETTER ALPHA}-ω]", .same),
        ("[\\Q]-[\\E]", .same), ("[\\p{Lu}&&[\\p{Greek}\\p{Latin}]]", .same), ("[\\h\\v]", .same), ("[^\\s\\S]", .same),
    ]

    /// ICU's class grammar where it surprises (regexcst.txt's set states):
    /// single `-` and `&` between sets are operators, elsewhere characters;
    /// a range starts at the last character added as itself; an escape
    /// after `[a-` ends the range at its letter; what a pending right
    /// operand takes.
    static let grammar: [(String, Expectation)] = [
        ("[a&-z]", .same), ("[!-&&b]", .same), ("[!-&&]", .same), ("[=--&&/]", .same), ("[[x]-[é]]", .same),
        ("[[a-z]&[k]]", .same), ("[\\p{L}-[a-z]]", .same), ("[\\p{L}&[a-z]]", .same), ("[[a]-[b]\\p{Lu}]", .same),
        ("[[a]-[b]&c]", .same), ("[[a]-[b]&-z]", .same), ("[[a-z]-k]", .same), ("[a-z-[k]]", .same), ("[a-\\p{Lu}]", .same),
        ("[a-\\h]", .same), ("[a-\\N{LATIN SMALL LETTER Z}]", .same), ("[a\\Q-\\Ez]", .same), ("[a-\\Qz\\E]", .same),
        ("[\\Qab\\E-z]", .same), ("[\\w-a]", .same), ("[a--[b]c]", .same), ("[a-z&&[^b]c]", .same), ("[[:Lu:]-[A-Z]]", .same),
        ("[:a]", .same), ("[::]", .same), ("[:]", .same), ("[]a]", .same), ("[^]a]", .same), ("[-a]", .same), ("[a-]", .same),
        ("[&a]", .same), ("[a&]", .same), ("[a--&]", .same), ("[a&&-]", .same), ("[\\x41-\\x5A]", .same), ("[\\0141-z]", .same),
        ("(?x)[a - z]", .same), ("(?x)[a # comment\n b]", .same), ("[\\]-a]", .same), ("[\\--a]", .same),
    ]

    static let caseInsensitive: [(String, Expectation)] = [
        ("(?i)[a-z]", .same), ("(?i)k", .same), ("(?i)[^k]", .same), ("(?i)\\u212A", .same), ("(?i)[\\u212A]", .same),
        ("(?i)\\w", .same), ("(?i)\\d", .same), ("(?i)\\s", .same), ("(?i)[\\w--\\d]", .same), ("(?i)\\p{Greek}", .refused),
        ("(?i)\\p{Nd}", .same), ("(?i)[[:alpha:]]", .same), ("(?i)\\p{ASCII}", .same), ("(?i)[^\\p{ASCII}]", .same),
        ("(?i)\\p{Lu}", .refused), ("(?i)\\p{Ll}", .refused), ("(?i)\\p{Lowercase}", .refused), ("(?i)\\p{L}", .refused),
        ("(?i)[a-z--[aeiou]]", .refused), ("(?i)[[a-z]--[aeiou]]", .same), ("(?i)[a-z&&[^b]]", .refused), ("(?i)σ", .same),
        ("(?i)ς", .same), ("(?i)[ſ]", .same), ("(?i)µ", .same), ("(?i)\\p{javaLowerCase}", .refused), ("(?i)[^aB--b]", .refused),
        ("(?i)\\p{Hex_Digit}", .same), ("(?i)\\p{Cased}", .same),
        // ICU case-closes a class, and \p{Block=...}, but not \p{In...} on its own.
        ("(?i)\\p{InGreek}", .same), ("(?i)\\P{InBasicLatin}", .same), ("(?i)[\\p{InBasicLatin}]", .refused),
        ("(?i)[\\p{InGreek}x]", .refused), ("(?i)[^\\p{InGreek}]", .refused), ("(?i)\\p{Block=Greek}", .refused),
        ("(?i)\\p{blk=ASCII}", .refused), ("(?i)[[:InGreek:]]", .refused), ("\\p{InEgyptian_Hieroglyph_Format_Controls}", .refused),
    ]

    /// Properties whose members have case partners outside them in ICU's
    /// data (measured: ICU's `(?i)\p{X}` against `\p{X}`), so PCRE2 cannot
    /// give ICU's `(?i)` answer.
    static let caseOpen: Set<String> = [
        "Lu", "Ll", "Lt", "LC", "L", "Lowercase", "Uppercase", "Changes_When_Casefolded", "Changes_When_Lowercased", "CWT", "CWU",
        "ID_Start", "XID_Start", "Soft_Dotted", "Greek", "Common", "Inherited", "javaLowerCase", "javaUpperCase", "javaTitleCase",
        "M", "Mn", "Case_Ignorable", "Diacritic", "Grapheme_Extend", "Grapheme_Base", "Math", "javaLetter", "javaLetterOrDigit",
    ]

    static let underCaseInsensitive: [(String, Expectation)] = (
        ["L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "N", "Nd", "Nl", "No", "P", "S", "Sk", "So", "Z", "C", "Cn"]
        + ["Alphabetic", "Cased", "Case_Ignorable", "Changes_When_Casefolded", "CWCM", "Changes_When_Lowercased", "CWT", "CWU",
           "Diacritic", "Extender", "Grapheme_Base", "Grapheme_Extend", "Hex_Digit", "ID_Continue", "ID_Start", "Ideographic",
           "Lowercase", "Math", "Soft_Dotted", "Uppercase", "White_Space", "XID_Continue", "XID_Start"]
        + ["Latin", "Greek", "Cyrillic", "Armenian", "Georgian", "Cherokee", "Glagolitic", "Coptic", "Deseret", "Osage",
           "Old_Hungarian", "Warang_Citi", "Medefaidrin", "Adlam", "Vithkuqi", "Common", "Inherited", "Han"]
        + ["javaLowerCase", "javaUpperCase", "javaTitleCase", "javaLetter", "javaLetterOrDigit", "javaWhitespace", "alnum", "graph",
           "javaJavaIdentifierPart", "javaUnicodeIdentifierPart", "javaDigit", "word", "xdigit", "print", "blank"]
    ).map { ("(?i)\\p{\($0)}", caseOpen.contains($0) ? Expectation.refused : .same) }

    static let all = shorthands + generalCategories + binaryProperties + scripts + special + java + posixAndSets + grammar
        + caseInsensitive + underCaseInsensitive

    @Test("each translated class matches exactly ICU's code points; the rest are refused", arguments: all)
    func exhaustive(_ pattern: String, _ expectation: Expectation) throws {
        let caseless = false
        let icu = DialectHarness.icuMembers(pattern, caseInsensitive: caseless)
        try #require(icu != nil, "ICU rejects \(pattern)")
        switch (DialectHarness.pcre2Members(pattern), expectation) {
        case (.success(let pcre2), .same):
            let missing = icu!.subtracting(pcre2).sorted().prefix(8).map { String($0, radix: 16) }
            let extra = pcre2.subtracting(icu!).sorted().prefix(8).map { String($0, radix: 16) }
            #expect(missing.isEmpty && extra.isEmpty,
                    "\(pattern): ICU only \(missing) (of \(icu!.subtracting(pcre2).count)), PCRE2 only \(extra) (of \(pcre2.subtracting(icu!).count))")
        case (.failure(let error), .refused):
            #expect(error.message.contains("libpathconfig's pcre2 backend"), "\(error.message)")
        case (.success, .refused):
            Issue.record("\(pattern) translated, but the table says it is refused")
        case (.failure(let error), .same):
            Issue.record("\(pattern) refused: \(error.message)")
        }
    }

    @Test("classes ICU rejects are rejected as invalid", arguments: [
        "[&-z]", "[a-&&b]", "[a-\\d]", "[a-\\w]", "[:a]b:]", "[--a]", "[&&a]", "[a--]", "[a&&]", "[a-\\x{20}]", "[[a]--]",
        "[:Lu:\\Q]\\E]",
    ])
    func rejected(_ pattern: String) throws {
        #expect(DialectHarness.icuMembers(pattern, caseInsensitive: false) == nil, "ICU compiles \(pattern)")
        switch DialectHarness.pcre2Members(pattern) {
        case .success: Issue.record("\(pattern) translated, but ICU rejects it")
        case .failure(let error):
            // Invalid, or (`[:a]b:]`, whose name runs to the `:]`) a name the table lacks.
            #expect(!error.message.contains("libpathconfig's pcre2 backend") || error.message.contains("not in the dialect table"),
                    "\(pattern): \(error.message)")
        }
    }

    @Test("a range starts at the last character a class added as itself, in an earlier class too")
    func rangeAcrossClasses() throws {
        for pattern in ["[b][&-z]", "[b-c][&-z]", "[\\x{62}][&-z]", "[b]x[&-z]"] {
            let icu = try FoundationEngine().compile(pattern, options: Profile.hotwireIOS.regexOptions, limits: Limits())
            let pcre2 = try PCRE2Engine().compile(pattern, options: Profile.hotwireIOS.regexOptions, limits: Limits())
            for subject in ["b&", "ba", "bb", "bz", "b-", "c&", "cb", "bx&", "bxz"] {
                #expect(pcre2.search(MatchSubject(subject)) == icu.search(MatchSubject(subject)), "\(pattern) on \(subject)")
            }
        }
        #expect(throws: RegexCompileError.self) { try PCRE2Engine().compile("[&-z]", options: Profile.hotwireIOS.regexOptions, limits: Limits()) }
    }
}
