/// The shorthand classes (`\d`, `\w`, `\s`, `\h`, `\v`) and line terminators
/// of each dialect, written out so that PCRE2's own definitions (which change
/// with its UCP option and version) never decide them.
///
/// The sets are computed properties, not stored constants: `CharSet` is an
/// indirect enum, whose box pointer carries the case in its spare bits, so a
/// global holding one looks to a leak checker like memory nobody points to.
/// Only the emitted strings (plain `String`s) are kept.
enum StandardClasses {
    /// ICU `\w`: `[\p{Alphabetic}\p{Mark}\p{Decimal_Number}\p{Connector_Punctuation}\u200c\u200d]`; also
    /// Java's word characters under UNICODE_CHARACTER_CLASS (`\p{IsWord}`).
    static var icuWord: CharSet {
        CharSet.items([.property("Alphabetic"), .property("M"), .property("Nd"), .property("Pc"), .range(0x200C, 0x200D)])
    }
    /// ICU and Java `\v`, and ICU's line terminators.
    static var verticalSpace: CharSet { .items(CharSetEmitter.verticalSpaceItems) }

    /// The letters of the shorthand escapes: `d D s S w W h H v V`.
    static let shorthandLetters: Set<UInt32> = [0x64, 0x44, 0x73, 0x53, 0x77, 0x57, 0x68, 0x48, 0x76, 0x56]

    /// The set a shorthand escape stands for (lower case; upper case is its
    /// complement).
    static func set(for letter: UInt32, dialect: RegexDialect) -> CharSet {
        let base: CharSet
        // Java's `\d`, `\s` and `\w` are ASCII; its `\w` is never case-folded.
        switch (letter | 0x20, dialect) {
        case (0x64, .icu): base = .property("Nd")
        case (0x64, .java): base = .range(0x30, 0x39)
        case (0x73, .icu): base = .property("White_Space")
        case (0x73, .java): base = .ranges([(0x09, 0x0D), (0x20, 0x20)])
        case (0x77, .icu): base = icuWord
        case (0x77, .java): base = .caseExact(.ranges([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]))
        case (0x68, .icu): base = .items([.scalar(0x09), .property("Zs")])  // Space_Separator and tab
        case (0x68, .java): base = .ranges([
            (0x09, 0x09), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x180E, 0x180E), (0x2000, 0x200A),
            (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000),
        ])
        default: base = verticalSpace
        }
        return letter & 0x20 == 0 ? .complement(base) : base
    }

    /// A shorthand escape as PCRE2 text, written once per dialect and case
    /// mode (it is in most patterns).
    static func shorthand(_ letter: UInt32, dialect: RegexDialect, caseless: Bool) -> String {
        (caseless ? emittedCaseless : emitted)[dialect]![letter]!
    }

    private static func emitAll(caseless: Bool) -> [RegexDialect: [UInt32: String]] {
        func texts(_ dialect: RegexDialect) -> [UInt32: String] {
            Dictionary(uniqueKeysWithValues: shorthandLetters.map { ($0, CharSetEmitter.emit(set(for: $0, dialect: dialect), caseless: caseless)) })
        }
        return Dictionary(uniqueKeysWithValues: RegexDialect.allCases.map { ($0, texts($0)) })
    }

    private static let emitted = emitAll(caseless: false)
    private static let emittedCaseless = emitAll(caseless: true)

    /// The characters that end a line for `.`, `^` and `$`: ICU's
    /// (`\n \x0B \f \r \x85 \u2028 \u2029`), Java's (no `\x0B`, `\f`), or
    /// only `\n` with UNIX_LINES.
    static func lineTerminators(_ dialect: RegexDialect, unixLines: Bool) -> CharSet {
        if unixLines { return .scalar(0x0A) }
        return dialect == .icu ? verticalSpace : .ranges([(0x0A, 0x0A), (0x0D, 0x0D), (0x85, 0x85), (0x2028, 0x2029)])
    }
}
