/// What `\p{NAME}` means in each dialect, as a `CharSet` PCRE2 can test.
///
/// Only names listed here are translated; any other name is refused, so a
/// property PCRE2 spells the same but defines differently (its bare script
/// names are Script_Extensions, ICU's are Script; its `Xan`, `Xwd` do not
/// exist in ICU) can never slip through.
enum PropertyNames {
    enum Resolution {
        /// The set, and whether PCRE2's case-insensitive matching of it gives
        /// ICU's (false for a property whose members have case partners
        /// outside it: ICU's `(?i)` adds them, PCRE2 never folds `\p{...}`).
        case set(CharSet, caseClosed: Bool)
        /// ICU's `In` + block name: the block's code points, which ICU never
        /// case-closes outside a class (`createSetForProperty` takes the
        /// block by `applyPropertyAlias`, without the pattern's `(?i)`);
        /// inside one, the whole class is closed, as for any range.
        case block(ClosedRange<UInt32>)
        /// No PCRE2 equivalent; the text says what the name is.
        case refused(String)
        /// Not a property name in this dialect.
        case unknown
    }

    // MARK: - ICU

    /// ICU's meaning of `\p{name}` (the text between the braces).
    ///
    /// ICU first reads the name with UnicodeSet's loose matching (case,
    /// spaces, `_` and `-` ignored): a binary property, a general category,
    /// a script, `prop=value`; then `word`, `all`, `In` + block, `Is` +
    /// name, and `java` + a `java.lang.Character` method. A name that is not
    /// ASCII is none: ICU converts it to invariant characters first, and
    /// fails (Swift's `==` would take U+212A KELVIN SIGN for `K`).
    static func icu(_ name: String) -> Resolution {
        guard name.isASCII else { return .unknown }
        let direct = icuDirect(name)
        if case .unknown = direct {} else { return direct }
        // `word` and `IsTitleCase` are compared whole, in any case, not loosely.
        if name.lowercased() == "word" { return .set(StandardClasses.icuWord, caseClosed: true) }
        if name == "all" { return .set(.all, caseClosed: true) }
        if name.hasPrefix("In"), name.unicodeScalars.count >= 3 {
            return block(String(name.dropFirst(2)), Resolution.block)
        }
        if name.hasPrefix("Is"), name.unicodeScalars.count >= 3 {
            let rest = String(name.dropFirst(2))
            if rest.contains("=") { return .unknown }
            if rest.lowercased() == "titlecase" { return icuDirect("Lt") }
            return icuDirect(rest)
        }
        if name.hasPrefix("java") { return icuJava(name) }
        return .unknown
    }

    /// The block ICU names `name` (loosely, as UnicodeSet reads a property
    /// value), from `UnicodeBlocks`, as `found` makes it of the range. The
    /// table lists only blocks whose range later versions kept (all but
    /// one, measured up to Unicode 16.0), so its answer is ICU's whatever
    /// ICU's version; `No_Block`, which shrinks as blocks are added, and the
    /// blocks of later versions are not listed.
    private static func block(_ name: String, _ found: (ClosedRange<UInt32>) -> Resolution) -> Resolution {
        let key = loose(name)
        if let why = UnicodeBlocks.changed[key] {
            return .refused("a block whose range Unicode changed after \(UnicodeBlocks.unicodeVersion), \(why), so that ICU's depends on its version")
        }
        return UnicodeBlocks.range(named: key).map(found) ?? .unknown
    }

    /// UnicodeSet's reading: `prop=value` or a bare name.
    private static func icuDirect(_ name: String) -> Resolution {
        if let eq = name.firstIndex(where: { $0 == "=" || $0 == ":" }) {
            let property = loose(String(name[..<eq]))
            let value = String(name[name.index(after: eq)...])
            guard name[eq] == "=" else { return .unknown }
            switch property {
            case "gc", "generalcategory":
                return generalCategory(value).map { .set(.property($0), caseClosed: !caseVarying.contains($0)) } ?? .unknown
            case "sc", "script":
                return script(value)
            case "scx", "scriptextensions":
                return .refused("Script_Extensions lists change with every Unicode version; PCRE2 10.42 has 14.0's")
            case "blk", "block":
                // UnicodeSet's property, which the pattern's (?i) case-closes.
                return block(value) { .set(.range($0.lowerBound, $0.upperBound), caseClosed: false) }
            default:
                return .refused("PCRE2 tests only general categories, scripts and binary properties")
            }
        }
        let key = loose(name)
        if let binary = binaryByKey[key] {
            guard PCRE2Probe.acceptsProperty(binary) else { return .refused("this PCRE2 does not have the property") }
            return .set(.property(binary), caseClosed: !caseVarying.contains(binary))
        }
        if let gc = generalCategory(name) { return .set(.property(gc), caseClosed: !caseVarying.contains(gc)) }
        switch key {
        case "any": return .set(.all, caseClosed: true)
        case "assigned": return .set(.property("Cn", negated: true), caseClosed: true)
        case "ascii": return .set(.range(0, 0x7F), caseClosed: true)
        case "alnum": return .set(.items([.property("Alphabetic", negated: false), .property("Nd", negated: false)]), caseClosed: true)
        case "blank": return .set(.items([.scalar(0x09), .property("Zs", negated: false)]), caseClosed: true)
        case "graph": return .set(graph, caseClosed: true)
        case "print": return .set(.union(of: [graph, .property("Zs")]), caseClosed: true)
        case "xdigit": return .set(.items([.property("Nd", negated: false), .property("Hex_Digit", negated: false)]), caseClosed: true)
        default: break
        }
        return script(name)
    }

    /// ICU's POSIX `graph`: not a control, surrogate, unassigned or separator.
    private static var graph: CharSet { .complement(.items(["Cc", "Cs", "Cn", "Z"].map { .property($0, negated: false) })) }

    /// ICU's `java...` names, as ICU defines them (from general categories,
    /// not from the JDK's tables).
    private static func icuJava(_ name: String) -> Resolution {
        let ignorable: [CharSet.Item] = [.range(0x00, 0x08), .range(0x0E, 0x1B), .range(0x7F, 0x9F), .property("Cf", negated: false)]
        func gcs(_ names: [String], plus extra: [CharSet.Item] = []) -> CharSet {
            .items(names.map { .property($0, negated: false) } + extra)
        }
        switch name {
        case "javaDefined": return .set(.property("Cn", negated: true), caseClosed: true)
        case "javaDigit": return .set(.property("Nd"), caseClosed: true)
        case "javaIdentifierIgnorable": return .set(.items(ignorable), caseClosed: true)
        case "javaISOControl": return .set(.ranges([(0x00, 0x1F), (0x7F, 0x9F)]), caseClosed: true)
        case "javaJavaIdentifierPart": return .set(gcs(["L", "Sc", "Pc", "Nd", "Nl", "Mc", "Mn"], plus: ignorable), caseClosed: true)
        case "javaJavaIdentifierStart": return .set(gcs(["L", "Nl", "Sc", "Pc"]), caseClosed: false)
        case "javaLetter": return .set(.property("L"), caseClosed: false)
        case "javaLetterOrDigit": return .set(gcs(["L", "Nd"]), caseClosed: false)
        case "javaLowerCase": return .set(.property("Ll"), caseClosed: false)
        case "javaMirrored": return .set(.property("Bidi_Mirrored"), caseClosed: true)
        case "javaSpaceChar": return .set(.property("Z"), caseClosed: true)
        case "javaSupplementaryCodePoint": return .set(.range(0x10000, 0x10FFFF), caseClosed: true)
        case "javaTitleCase": return .set(.property("Lt"), caseClosed: false)
        case "javaUnicodeIdentifierStart": return .set(gcs(["L", "Nl"]), caseClosed: false)
        case "javaUnicodeIdentifierPart": return .set(gcs(["L", "Pc", "Nd", "Nl", "Mc", "Mn"], plus: ignorable), caseClosed: true)
        case "javaUpperCase": return .set(.property("Lu"), caseClosed: false)
        case "javaValidCodePoint": return .set(.all, caseClosed: true)
        case "javaWhitespace":
            let separators = CharSet.difference(.property("Z"), .ranges([(0xA0, 0xA0), (0x2007, 0x2007), (0x202F, 0x202F)]))
            return .set(.union([separators, .ranges([(0x09, 0x0D), (0x1C, 0x1F)])]), caseClosed: true)
        default: return .unknown
        }
    }

    // MARK: - Java

    /// `java.util.regex`'s meaning of `\p{name}` (OpenJDK's `Pattern` and
    /// `CharPredicates`), without UNICODE_CHARACTER_CLASS. Under
    /// `caseInsensitive` the JDK widens the case properties (`Lu` matches
    /// any cased letter, `Lower` any ASCII letter); names are case-sensitive
    /// except where the JDK upper-cases them (`Is` + a Unicode property). The
    /// JDK's names are ASCII and it compares them by UTF-16 unit, so a name
    /// that is not ASCII once upper-cased where the JDK upper-cases it is none.
    static func java(_ name: String, caseInsensitive: Bool) -> Resolution {
        if let eq = name.firstIndex(of: "=") {
            let property = name[..<eq].lowercased()
            let value = String(name[name.index(after: eq)...])
            switch property {
            case "sc", "script": return javaScript(value)
            case "blk", "block": return .refused("a Unicode block, by the JDK's own names; not translated")
            case "gc", "general_category": return javaProperty(value, caseInsensitive: caseInsensitive)
            default: return .unknown
            }
        }
        if name.hasPrefix("In") { return .refused("a Unicode block, by the JDK's own names; not translated") }
        if name.hasPrefix("Is") {
            let rest = String(name.dropFirst(2))
            if let set = javaUnicodeProperty(rest.uppercased(), caseInsensitive: caseInsensitive) { return .set(set, caseClosed: true) }
            let property = javaProperty(rest, caseInsensitive: caseInsensitive)
            if case .unknown = property { return javaScript(rest) }
            return property
        }
        return javaProperty(name, caseInsensitive: caseInsensitive)
    }

    /// The JDK's `Is` + Unicode property names (upper-cased), with its POSIX
    /// names as the fallback it also accepts there (not `GRAPH`, `PRINT`).
    private static func javaUnicodeProperty(_ upper: String, caseInsensitive: Bool) -> CharSet? {
        guard upper.isASCII else { return nil }
        let anyCase = CharSet.items([.property("Lowercase", negated: false), .property("Uppercase", negated: false), .property("Lt", negated: false)])
        switch upper {
        case "ALPHABETIC", "ALPHA": return .property("Alphabetic")
        case "ASSIGNED": return .property("Cn", negated: true)
        case "CONTROL", "CNTRL": return .property("Cc")
        case "HEXDIGIT", "HEX_DIGIT", "XDIGIT": return .items([.property("Nd", negated: false), .property("Hex_Digit", negated: false)])
        case "IDEOGRAPHIC": return .property("Ideographic")
        case "JOINCONTROL", "JOIN_CONTROL": return .range(0x200C, 0x200D)
        case "LETTER": return .property("L")
        case "LOWERCASE", "LOWER": return caseInsensitive ? anyCase : .property("Lowercase")
        case "NONCHARACTERCODEPOINT", "NONCHARACTER_CODE_POINT": return .property("Noncharacter_Code_Point")
        case "TITLECASE": return caseInsensitive ? anyCase : .property("Lt")
        case "PUNCTUATION", "PUNCT": return .property("P")
        case "UPPERCASE", "UPPER": return caseInsensitive ? anyCase : .property("Uppercase")
        case "WHITESPACE", "WHITE_SPACE", "SPACE": return .property("White_Space")
        case "WORD": return StandardClasses.icuWord
        case "DIGIT": return .property("Nd")
        case "ALNUM": return .items([.property("Alphabetic", negated: false), .property("Nd", negated: false)])
        case "BLANK": return .items([.property("Zs", negated: false), .scalar(0x09)])
        default: return nil
        }
    }

    /// `Character.UnicodeScript.forName` in JDK 17: the name upper-cased in
    /// full, then exactly one of its scripts' names (`OLD_ITALIC`, not
    /// `OldItalic` or `Old Italic`) or codes (`ITAL`); the scripts of Unicode
    /// 14.0 on (`Toto`), which PCRE2 10.42 knows, are not among them.
    private static func javaScript(_ name: String) -> Resolution {
        let upper = name.uppercased()
        guard upper.isASCII, let code = javaScripts[upper] else { return .unknown }
        return .set(.property("sc:" + code), caseClosed: true)
    }

    /// JDK 17's scripts (Unicode 13.0), each name and code to the code.
    static let javaScripts: [String: String] = {
        let words = """
        ADLM ADLAM AGHB CAUCASIAN_ALBANIAN AHOM AHOM ARAB ARABIC ARMI IMPERIAL_ARAMAIC ARMN ARMENIAN AVST AVESTAN BALI
        BALINESE BAMU BAMUM BASS BASSA_VAH BATK BATAK BENG BENGALI BHKS BHAIKSUKI BOPO BOPOMOFO BRAH BRAHMI BRAI
        BRAILLE BUGI BUGINESE BUHD BUHID CAKM CHAKMA CANS CANADIAN_ABORIGINAL CARI CARIAN CHAM CHAM CHER CHEROKEE CHRS
        CHORASMIAN COPT COPTIC CPRT CYPRIOT CYRL CYRILLIC DEVA DEVANAGARI DIAK DIVES_AKURU DOGR DOGRA DSRT DESERET DUPL
        DUPLOYAN EGYP EGYPTIAN_HIEROGLYPHS ELBA ELBASAN ELYM ELYMAIC ETHI ETHIOPIC GEOR GEORGIAN GLAG GLAGOLITIC GONG
        GUNJALA_GONDI GONM MASARAM_GONDI GOTH GOTHIC GRAN GRANTHA GREK GREEK GUJR GUJARATI GURU GURMUKHI HANG HANGUL
        HANI HAN HANO HANUNOO HATR HATRAN HEBR HEBREW HIRA HIRAGANA HLUW ANATOLIAN_HIEROGLYPHS HMNG PAHAWH_HMONG HMNP
        NYIAKENG_PUACHUE_HMONG HUNG OLD_HUNGARIAN ITAL OLD_ITALIC JAVA JAVANESE KALI KAYAH_LI KANA KATAKANA KHAR
        KHAROSHTHI KHMR KHMER KHOJ KHOJKI KITS KHITAN_SMALL_SCRIPT KNDA KANNADA KTHI KAITHI LANA TAI_THAM LAOO LAO LATN
        LATIN LEPC LEPCHA LIMB LIMBU LINA LINEAR_A LINB LINEAR_B LISU LISU LYCI LYCIAN LYDI LYDIAN MAHJ MAHAJANI MAKA
        MAKASAR MAND MANDAIC MANI MANICHAEAN MARC MARCHEN MEDF MEDEFAIDRIN MEND MENDE_KIKAKUI MERC MEROITIC_CURSIVE
        MERO MEROITIC_HIEROGLYPHS MLYM MALAYALAM MODI MODI MONG MONGOLIAN MROO MRO MTEI MEETEI_MAYEK MULT MULTANI MYMR
        MYANMAR NAND NANDINAGARI NARB OLD_NORTH_ARABIAN NBAT NABATAEAN NEWA NEWA NKOO NKO NSHU NUSHU OGAM OGHAM OLCK
        OL_CHIKI ORKH OLD_TURKIC ORYA ORIYA OSGE OSAGE OSMA OSMANYA PALM PALMYRENE PAUC PAU_CIN_HAU PERM OLD_PERMIC
        PHAG PHAGS_PA PHLI INSCRIPTIONAL_PAHLAVI PHLP PSALTER_PAHLAVI PHNX PHOENICIAN PLRD MIAO PRTI
        INSCRIPTIONAL_PARTHIAN RJNG REJANG ROHG HANIFI_ROHINGYA RUNR RUNIC SAMR SAMARITAN SARB OLD_SOUTH_ARABIAN SAUR
        SAURASHTRA SGNW SIGNWRITING SHAW SHAVIAN SHRD SHARADA SIDD SIDDHAM SIND KHUDAWADI SINH SINHALA SOGD SOGDIAN
        SOGO OLD_SOGDIAN SORA SORA_SOMPENG SOYO SOYOMBO SUND SUNDANESE SYLO SYLOTI_NAGRI SYRC SYRIAC TAGB TAGBANWA TAKR
        TAKRI TALE TAI_LE TALU NEW_TAI_LUE TAML TAMIL TANG TANGUT TAVT TAI_VIET TELU TELUGU TFNG TIFINAGH TGLG TAGALOG
        THAA THAANA THAI THAI TIBT TIBETAN TIRH TIRHUTA UGAR UGARITIC VAII VAI WARA WARANG_CITI WCHO WANCHO XPEO
        OLD_PERSIAN XSUX CUNEIFORM YEZI YEZIDI YIII YI ZANB ZANABAZAR_SQUARE ZINH INHERITED ZYYY COMMON ZZZZ UNKNOWN
        """.split(whereSeparator: \.isWhitespace).map(String.init)
        return Dictionary(stride(from: 0, to: words.count, by: 2).flatMap { [(words[$0], words[$0]), (words[$0 + 1], words[$0])] },
                          uniquingKeysWith: { first, _ in first })
    }()

    /// `CharPredicates.forProperty`: general categories, POSIX (ASCII) and
    /// `java...` names.
    private static func javaProperty(_ name: String, caseInsensitive: Bool) -> Resolution {
        guard name.isASCII else { return .unknown }
        let cased = CharSet.property("LC")
        if ["Lu", "Ll", "Lt"].contains(name) { return .set(caseInsensitive ? cased : .property(name), caseClosed: true) }
        if javaGeneralCategories.contains(name) { return .set(.property(name), caseClosed: true) }
        func ascii(_ set: CharSet) -> Resolution { .set(.caseExact(set), caseClosed: true) }
        let alpha = CharSet.ranges([(0x41, 0x5A), (0x61, 0x7A)])
        let digit = CharSet.range(0x30, 0x39)
        let punct = CharSet.ranges([(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)])
        switch name {
        case "LD": return .set(.items([.property("L", negated: false), .property("Nd", negated: false)]), caseClosed: true)
        case "L1": return ascii(.range(0, 0xFF))
        case "all": return .set(.all, caseClosed: true)
        case "ASCII": return ascii(.range(0, 0x7F))
        case "Alnum": return ascii(.union(of: [alpha, digit]))
        case "Alpha": return ascii(alpha)
        case "Blank": return ascii(.ranges([(0x09, 0x09), (0x20, 0x20)]))
        case "Cntrl": return ascii(.ranges([(0x00, 0x1F), (0x7F, 0x7F)]))
        case "Digit": return ascii(digit)
        case "Graph": return ascii(.union(of: [alpha, digit, punct]))
        case "Lower": return ascii(caseInsensitive ? alpha : .range(0x61, 0x7A))
        case "Print": return ascii(.range(0x20, 0x7E))
        case "Punct": return ascii(punct)
        case "Space": return ascii(.ranges([(0x09, 0x0D), (0x20, 0x20)]))
        case "Upper": return ascii(caseInsensitive ? alpha : .range(0x41, 0x5A))
        case "XDigit": return ascii(.ranges([(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)]))
        case "javaLowerCase", "javaUpperCase", "javaTitleCase": // the same `Character` methods as `IsLowerCase`...
            return .set(javaUnicodeProperty(name.dropFirst(4).uppercased(), caseInsensitive: caseInsensitive)!, caseClosed: true)
        case "javaAlphabetic": return .set(.property("Alphabetic"), caseClosed: true)
        case "javaIdeographic": return .set(.property("Ideographic"), caseClosed: true)
        case "javaDigit", "javaDefined", "javaLetter", "javaLetterOrDigit", "javaSpaceChar", "javaWhitespace", "javaISOControl", "javaMirrored",
             "javaIdentifierIgnorable":
            // The same sets as ICU's (`caseClosed` is read for ICU alone).
            return icuJava(name)
        case "javaJavaIdentifierStart", "javaJavaIdentifierPart", "javaUnicodeIdentifierStart", "javaUnicodeIdentifierPart":
            return .refused("the JDK's identifier tables")
        default: return .unknown
        }
    }

    /// The JDK's general category names (`CharPredicates.forProperty`), other
    /// than the case-sensitive letter categories.
    private static let javaGeneralCategories: Set<String> = [
        "Cn", "Lm", "Lo", "Mn", "Me", "Mc", "Nd", "Nl", "No", "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cs",
        "Pd", "Ps", "Pe", "Pc", "Po", "Sm", "Sc", "Sk", "So", "Pi", "Pf", "L", "M", "N", "Z", "C", "P", "S", "LC",
    ]

    // MARK: - Shared tables

    /// ICU's script name or code (read loosely) that PCRE2 knows, as `sc:`
    /// (Script): PCRE2's own bare `\p{Greek}` means Script_Extensions, ICU's
    /// means Script.
    private static func script(_ name: String) -> Resolution {
        let key = name.unicodeScalars.filter { !looseIgnored.contains($0) }
        guard !key.isEmpty, key.allSatisfy({ ($0.value >= 0x41 && $0.value <= 0x5A) || ($0.value >= 0x61 && $0.value <= 0x7A) }) else {
            return .unknown
        }
        let text = "sc:" + String(String.UnicodeScalarView(key))
        guard PCRE2Probe.acceptsProperty(text) else { return .unknown }
        // Greek, Common and Inherited have members whose case partners are in
        // another of them (µ is Common, μ Greek; U+0345 is Inherited, ι
        // Greek), which ICU's (?i) adds; every other script is closed.
        let open: Set<String> = ["greek", "grek", "common", "zyyy", "inherited", "zinh", "qaai"]
        return .set(.property(text), caseClosed: !open.contains(loose(name)))
    }

    /// A general category's PCRE2 name, from any of its Unicode aliases.
    static func generalCategory(_ name: String) -> String? { generalCategoryByKey[loose(name)] }

    /// Unicode's loose matching of property names, as ICU's regex reads
    /// them: case, `_`, `-` and white space do not count, but for a line
    /// feed, which makes the name unknown there (measured on ICU 76).
    static func loose(_ name: String) -> String {
        String(String.UnicodeScalarView(name.lowercased().unicodeScalars.filter { !looseIgnored.contains($0) }))
    }

    /// What `loose` leaves out.
    private static let looseIgnored = " _-\t\u{B}\u{C}\r".unicodeScalars

    /// Each name of `table`, and each of its aliases, loosely, to the name.
    private static func byLooseName(_ table: [(String, [String])]) -> [String: String] {
        Dictionary(table.flatMap { name, aliases in ([name] + aliases).map { (loose($0), name) } }, uniquingKeysWith: { _, last in last })
    }

    private static let generalCategoryByKey = byLooseName([
        ("C", ["Other"]), ("Cc", ["Control", "cntrl"]), ("Cf", ["Format"]), ("Cn", ["Unassigned"]), ("Co", ["Private_Use"]),
        ("Cs", ["Surrogate"]), ("L", ["Letter"]), ("LC", ["Cased_Letter"]), ("Ll", ["Lowercase_Letter"]),
        ("Lm", ["Modifier_Letter"]), ("Lo", ["Other_Letter"]), ("Lt", ["Titlecase_Letter"]), ("Lu", ["Uppercase_Letter"]),
        ("M", ["Mark", "Combining_Mark"]), ("Mc", ["Spacing_Mark"]), ("Me", ["Enclosing_Mark"]), ("Mn", ["Nonspacing_Mark"]),
        ("N", ["Number"]), ("Nd", ["Decimal_Number", "digit"]), ("Nl", ["Letter_Number"]), ("No", ["Other_Number"]),
        ("P", ["Punctuation", "punct"]), ("Pc", ["Connector_Punctuation"]), ("Pd", ["Dash_Punctuation"]),
        ("Pe", ["Close_Punctuation"]), ("Pf", ["Final_Punctuation"]), ("Pi", ["Initial_Punctuation"]),
        ("Po", ["Other_Punctuation"]), ("Ps", ["Open_Punctuation"]), ("S", ["Symbol"]), ("Sc", ["Currency_Symbol"]),
        ("Sk", ["Modifier_Symbol"]), ("Sm", ["Math_Symbol"]), ("So", ["Other_Symbol"]), ("Z", ["Separator"]),
        ("Zl", ["Line_Separator"]), ("Zp", ["Paragraph_Separator"]), ("Zs", ["Space_Separator"]),
    ])

    /// Binary properties both ICU and PCRE2 10.42 know, by any alias, to
    /// the name PCRE2 is given.
    private static let binaryByKey = byLooseName([
        ("ASCII_Hex_Digit", ["AHex"]), ("Alphabetic", ["Alpha"]), ("Bidi_Control", ["Bidi_C"]),
        ("Bidi_Mirrored", ["Bidi_M"]), ("Case_Ignorable", ["CI"]), ("Cased", []),
        ("Changes_When_Casefolded", ["CWCF"]), ("Changes_When_Casemapped", ["CWCM"]),
        ("Changes_When_Lowercased", ["CWL"]), ("Changes_When_NFKC_Casefolded", ["CWKCF"]),
        ("Changes_When_Titlecased", ["CWT"]), ("Changes_When_Uppercased", ["CWU"]), ("Dash", []),
        ("Default_Ignorable_Code_Point", ["DI"]), ("Deprecated", ["Dep"]), ("Diacritic", ["Dia"]),
        ("Extender", ["Ext"]), ("Grapheme_Base", ["Gr_Base"]), ("Grapheme_Extend", ["Gr_Ext"]),
        ("Hex_Digit", ["Hex"]), ("IDS_Binary_Operator", ["IDSB"]), ("IDS_Trinary_Operator", ["IDST"]),
        ("ID_Continue", ["IDC"]), ("ID_Start", ["IDS"]), ("Ideographic", ["Ideo"]), ("Join_Control", ["Join_C"]),
        ("Logical_Order_Exception", ["LOE"]), ("Lowercase", ["Lower"]), ("Math", []),
        ("Noncharacter_Code_Point", ["NChar"]), ("Pattern_Syntax", ["Pat_Syn"]), ("Pattern_White_Space", ["Pat_WS"]),
        ("Quotation_Mark", ["QMark"]), ("Radical", []), ("Regional_Indicator", ["RI"]), ("Sentence_Terminal", ["STerm"]),
        ("Soft_Dotted", ["SD"]), ("Terminal_Punctuation", ["Term"]), ("Unified_Ideograph", ["UIdeo"]),
        ("Uppercase", ["Upper"]), ("Variation_Selector", ["VS"]), ("White_Space", ["WSpace", "space"]),
        ("XID_Continue", ["XIDC"]), ("XID_Start", ["XIDS"]),
    ])

    /// Properties (PCRE2 names) whose members have case partners outside
    /// them: ICU's `(?i)` adds the partners, PCRE2's does not.
    /// Measured on ICU's data: `L` gains U+0345, whose upper case Ι is a
    /// letter; `Mn` gains Ι, whose lower case U+0345 is a mark; `Math`
    /// gains Greek capitals whose small forms are mathematical symbols.
    private static let caseVarying: Set<String> = [
        "Lu", "Ll", "Lt", "LC", "L", "Lowercase", "Uppercase", "Changes_When_Casefolded", "Changes_When_Lowercased",
        "Changes_When_Titlecased", "Changes_When_Uppercased", "Changes_When_NFKC_Casefolded", "ID_Start", "XID_Start",
        "Soft_Dotted", "M", "Mn", "Case_Ignorable", "Diacritic", "Grapheme_Extend", "Grapheme_Base", "Math",
    ]
}
