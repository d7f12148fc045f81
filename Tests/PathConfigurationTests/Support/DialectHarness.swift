import CPCRE2
import Foundation
import Testing
import PathConfigurationFoundation
import PathConfiguration
@testable import PathConfigCore

/// Runs one pattern through both sides of the dialect layer: ICU as
/// Foundation links it (what iOS runs) and PCRE2 on the translation.
enum DialectHarness {
    /// What happened to a pattern in one engine.
    enum Compiled: Equatable {
        case compiled
        case rejected(String)
    }

    // MARK: - Whole-pattern matching

    /// Compiles `pattern` with both engines for `options`; the outcome of
    /// each, and the compiled patterns when both compiled.
    static func compileBoth(_ pattern: String, options: RegexOptions)
        -> (icu: Compiled, pcre2: Compiled, patterns: (any CompiledPattern, any CompiledPattern)?) {
        var icu: (any CompiledPattern)?
        var pcre2: (any CompiledPattern)?
        var icuOutcome = Compiled.compiled
        var pcre2Outcome = Compiled.compiled
        do { icu = try FoundationEngine().compile(pattern, options: options, limits: Limits()) } catch {
            icuOutcome = .rejected(error.message)
        }
        do { pcre2 = try PCRE2Engine().compile(pattern, options: options, limits: Limits()) } catch {
            pcre2Outcome = .rejected(error.message)
        }
        if let icu, let pcre2 { return (icuOutcome, pcre2Outcome, (icu, pcre2)) }
        return (icuOutcome, pcre2Outcome, nil)
    }

    /// Checks that ICU and PCRE2 agree on `subject`.
    static func expectAgreement(_ pattern: String, options: RegexOptions, icu: any CompiledPattern, pcre2: any CompiledPattern,
                                subject: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let expected = icu.search(MatchSubject(subject))
        let actual = pcre2.search(MatchSubject(subject))
        #expect(actual == expected, "\(pattern.debugDescription) on \(subject.debugDescription): PCRE2 \(actual), ICU \(expected)",
                sourceLocation: sourceLocation)
    }

    /// Compiles `pattern` with both engines and expects what the generated
    /// differentials against ICU ask: both compile it and agree on every one
    /// of `subjects`, or both reject it, or ICU compiles it and PCRE2
    /// refuses it as the library's limit (with a message `refusal` accepts,
    /// when given). Whether both compiled it.
    @discardableResult
    static func expectAgreementOrRefusal(_ pattern: String, options: RegexOptions, subjects: [String],
                                         refusal: ((String) -> Bool)? = nil,
                                         sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
        let outcome = compileBoth(pattern, options: options)
        switch (outcome.icu, outcome.pcre2) {
        case (.compiled, .compiled):
            let (icu, pcre2) = outcome.patterns!
            for subject in subjects {
                expectAgreement(pattern, options: options, icu: icu, pcre2: pcre2, subject: subject, sourceLocation: sourceLocation)
            }
            return true
        case (.rejected, .rejected):
            return false
        case (.compiled, .rejected(let message)):
            #expect(message.contains("libpathconfig's pcre2 backend") && refusal?(message) != false,
                    "PCRE2 rejects \(pattern.debugDescription), ICU compiles it: \(message)", sourceLocation: sourceLocation)
            return false
        case (.rejected(let message), .compiled):
            Issue.record("ICU rejects \(pattern.debugDescription) (\(message)), PCRE2 compiles it", sourceLocation: sourceLocation)
            return false
        }
    }

    // MARK: - Generated free spacing

    /// `count` patterns under `(?x)`, each one of `constructs` with one or
    /// two gaps (white space, a comment, a vertical tab) put in at random
    /// places after its first character: the parts of escapes, names and
    /// counts that ICU and the JDK read apart in free-spacing mode.
    static func freeSpacingVariants(of constructs: [String], count: Int, seed: UInt64) -> [String] {
        var generator = SplitMix(state: seed)
        let gaps = [" ", "#c\n", "\u{B}", "  ", "#}\n", "#>\n"]
        return (0..<count).map { _ in
            var construct = Array(constructs.randomElement(using: &generator)!.unicodeScalars)
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                construct.insert(contentsOf: gaps.randomElement(using: &generator)!.unicodeScalars, at: Int.random(in: 1...construct.count, using: &generator))
            }
            return "(?x)" + String(String.UnicodeScalarView(construct))
        }
    }

    // MARK: - Class membership over many code points

    /// The code points compared exhaustively: every code point assigned in
    /// Unicode 14.0 (PCRE2 10.42's version) whose general category and
    /// binary properties are the same in Unicode 14.0 and in the platform's
    /// Unicode (ICU 76 and Swift 6.3 carry 16.0), plus a sample of
    /// unassigned and private-use ones. What Unicode changed between
    /// versions differs by version, not by dialect: `versionChanges` lists it.
    static let universe: [UInt32] = candidates.filter { !versionChanges.contains($0) }

    private static let candidates: [UInt32] = {
        var values: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            if let age = scalar.properties.age {
                if age.major < 14 || (age.major == 14 && age.minor == 0) { values.append(v) }
            } else if v % 4099 == 0 {
                values.append(v)
            }
        }
        return values
    }()

    /// Code points whose general category or a binary property differs
    /// between PCRE2's tables and Swift's (the platform's Unicode version).
    static let versionChanges: Set<UInt32> = {
        var changed = Set<UInt32>()
        let subject = String(String.UnicodeScalarView(candidates.map { Unicode.Scalar($0)! }))
        func compare(_ pcre2: String, _ swift: (Unicode.Scalar.Properties) -> Bool) {
            let members = scan("\\p{" + pcre2 + "}", in: subject, caseInsensitive: false)
            for v in candidates where members.contains(v) != swift(Unicode.Scalar(v)!.properties) { changed.insert(v) }
        }
        for (name, category) in generalCategories { compare(name) { $0.generalCategory == category } }
        for (name, keyPath) in binaryProperties { compare(name) { $0[keyPath: keyPath] } }
        return changed
    }()

    private static let generalCategories: [(String, Unicode.GeneralCategory)] = [
        ("Lu", .uppercaseLetter), ("Ll", .lowercaseLetter), ("Lt", .titlecaseLetter), ("Lm", .modifierLetter), ("Lo", .otherLetter),
        ("Mn", .nonspacingMark), ("Mc", .spacingMark), ("Me", .enclosingMark), ("Nd", .decimalNumber), ("Nl", .letterNumber),
        ("No", .otherNumber), ("Pc", .connectorPunctuation), ("Pd", .dashPunctuation), ("Ps", .openPunctuation),
        ("Pe", .closePunctuation), ("Pi", .initialPunctuation), ("Pf", .finalPunctuation), ("Po", .otherPunctuation),
        ("Sm", .mathSymbol), ("Sc", .currencySymbol), ("Sk", .modifierSymbol), ("So", .otherSymbol), ("Zs", .spaceSeparator),
        ("Zl", .lineSeparator), ("Zp", .paragraphSeparator), ("Cc", .control), ("Cf", .format), ("Co", .privateUse),
        ("Cn", .unassigned),
    ]

    nonisolated(unsafe) private static let binaryProperties: [(String, KeyPath<Unicode.Scalar.Properties, Bool>)] = [
        ("Alphabetic", \.isAlphabetic), ("ASCII_Hex_Digit", \.isASCIIHexDigit), ("Bidi_Control", \.isBidiControl),
        ("Bidi_Mirrored", \.isBidiMirrored), ("Cased", \.isCased), ("Case_Ignorable", \.isCaseIgnorable),
        ("Changes_When_Casefolded", \.changesWhenCaseFolded), ("Changes_When_Casemapped", \.changesWhenCaseMapped),
        ("Changes_When_Lowercased", \.changesWhenLowercased), ("Changes_When_Titlecased", \.changesWhenTitlecased),
        ("Changes_When_Uppercased", \.changesWhenUppercased), ("Dash", \.isDash),
        ("Default_Ignorable_Code_Point", \.isDefaultIgnorableCodePoint), ("Deprecated", \.isDeprecated),
        ("Diacritic", \.isDiacritic), ("Extender", \.isExtender), ("Grapheme_Base", \.isGraphemeBase),
        ("Grapheme_Extend", \.isGraphemeExtend), ("Hex_Digit", \.isHexDigit), ("IDS_Binary_Operator", \.isIDSBinaryOperator),
        ("IDS_Trinary_Operator", \.isIDSTrinaryOperator), ("ID_Continue", \.isIDContinue), ("ID_Start", \.isIDStart),
        ("Ideographic", \.isIdeographic), ("Join_Control", \.isJoinControl), ("Logical_Order_Exception", \.isLogicalOrderException),
        ("Lowercase", \.isLowercase), ("Math", \.isMath), ("Noncharacter_Code_Point", \.isNoncharacterCodePoint),
        ("Pattern_Syntax", \.isPatternSyntax), ("Pattern_White_Space", \.isPatternWhitespace), ("Quotation_Mark", \.isQuotationMark),
        ("Radical", \.isRadical), ("Sentence_Terminal", \.isSentenceTerminal), ("Soft_Dotted", \.isSoftDotted),
        ("Terminal_Punctuation", \.isTerminalPunctuation), ("Unified_Ideograph", \.isUnifiedIdeograph),
        ("Uppercase", \.isUppercase), ("Variation_Selector", \.isVariationSelector), ("White_Space", \.isWhitespace),
        ("XID_Continue", \.isXIDContinue), ("XID_Start", \.isXIDStart),
    ]

    /// The universe as one string, and where each code point starts in its
    /// UTF-16 form.
    private static let text: (string: String, utf16Starts: [Int: Int]) = {
        var string = ""
        var utf16: [Int: Int] = [:]
        var u16 = 0
        for (index, v) in universe.enumerated() {
            let scalar = Unicode.Scalar(v)!
            utf16[u16] = index
            string.unicodeScalars.append(scalar)
            u16 += scalar.utf16.count
        }
        return (string, utf16)
    }()

    /// The universe's code points that ICU's `pattern` (one character
    /// long) matches, or nil when ICU rejects it.
    static func icuMembers(_ pattern: String, caseInsensitive: Bool = false) -> Set<UInt32>? {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : []) else {
            return nil
        }
        var members = Set<UInt32>()
        let ns = text.string as NSString
        regex.enumerateMatches(in: text.string, options: [], range: NSRange(location: 0, length: ns.length)) { result, _, _ in
            if let result, let index = text.utf16Starts[result.range.location] { members.insert(universe[index]) }
        }
        return members
    }

    /// The same through the dialect layer and PCRE2, or the translation's
    /// refusal.
    static func pcre2Members(_ pattern: String, dialect: RegexDialect = .icu, caseInsensitive: Bool = false)
        -> Result<Set<UInt32>, TranslationError> {
        let translation: PatternTranslation
        do {
            translation = try PatternTranslator.translate(pattern, dialect: dialect, caseInsensitive: caseInsensitive)
        } catch {
            return .failure(error)
        }
        return .success(pcre2Scan(translation.pattern, caseInsensitive: caseInsensitive))
    }

    /// Every match start of a PCRE2 pattern in the universe.
    static func pcre2Scan(_ pattern: String, caseInsensitive: Bool) -> Set<UInt32> {
        scan(pattern, in: text.string, caseInsensitive: caseInsensitive)
    }

    /// The code points at which a PCRE2 pattern's successive matches start
    /// in `subject`.
    private static func scan(_ pattern: String, in subject: String, caseInsensitive: Bool) -> Set<UInt32> {
        var flags = UInt32(PCRE2_UTF) | UInt32(PCRE2_UCP)
        if caseInsensitive { flags |= UInt32(PCRE2_CASELESS) }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = Array(pattern.utf8)
        guard let code = pcre2_compile_8(bytes, bytes.count, flags, &errorCode, &errorOffset, nil) else {
            fatalError("PCRE2 rejected \(pattern) at \(errorOffset)")
        }
        defer { pcre2_code_free_8(code) }
        let data = pcre2_match_data_create_8(1, nil)!
        defer { pcre2_match_data_free_8(data) }
        let utf8 = Array(subject.utf8)
        var members = Set<UInt32>()
        var offset = 0
        utf8.withUnsafeBufferPointer { buf in
            while offset < buf.count {
                let rc = pcre2_match_8(code, buf.baseAddress!, buf.count, offset, UInt32(PCRE2_NO_UTF_CHECK), data, nil)
                guard rc >= 0 else { break }
                let ovector = pcre2_get_ovector_pointer_8(data)!
                let start = ovector[0]
                let end = ovector[1]
                members.insert(scalar(at: start, in: buf))
                offset = end > start ? end : start + 1
                while offset < buf.count && (buf[offset] & 0xC0) == 0x80 { offset += 1 }
            }
        }
        return members
    }

    /// The code point whose UTF-8 starts at `i`.
    private static func scalar(at i: Int, in buf: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let b0 = UInt32(buf[i])
        if b0 < 0x80 { return b0 }
        if b0 < 0xE0 { return (b0 & 0x1F) << 6 | UInt32(buf[i + 1] & 0x3F) }
        if b0 < 0xF0 { return (b0 & 0x0F) << 12 | UInt32(buf[i + 1] & 0x3F) << 6 | UInt32(buf[i + 2] & 0x3F) }
        return (b0 & 0x07) << 18 | UInt32(buf[i + 1] & 0x3F) << 12 | UInt32(buf[i + 2] & 0x3F) << 6 | UInt32(buf[i + 3] & 0x3F)
    }
}
