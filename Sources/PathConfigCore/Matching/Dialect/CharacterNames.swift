/// `\N{NAME}`: the code point a name stands for, as each dialect reads it.
/// Unicode's names come from the Swift runtime, whose Unicode is newer than
/// either engine's: a name is taken only for a character the engine's
/// version had assigned.
enum CharacterNames {
    /// ICU's `u_charFromName(U_UNICODE_CHAR_NAME)` as its regex reads
    /// `\N{...}`: a name of ASCII characters alone (ICU rejects any other
    /// before it looks, so `\N{ſpace}` is an error), compared without regard
    /// to ASCII case, names by rule (`CJK UNIFIED IDEOGRAPH-4E00`) included,
    /// of characters assigned by Unicode 16.0 (ICU 76's).
    static func icu(named name: String) -> UInt32? {
        guard name.isASCII else { return nil }
        return unicode(named: name.uppercased(), assignedBy: (16, 0))
    }

    /// JDK 17's `Character.codePointOf` (Unicode 13.0), on a name already
    /// trimmed: upper-cased in full (`ſpace` is SPACE), then its own table
    /// (`Character.getName`): Unicode's names of the characters assigned by
    /// 13.0, except those Unicode names by rule; the controls' names
    /// (`javaControlNames`); and for an assigned character without a name,
    /// its block's name and its code in hex (`javaUnnamed`).
    static func java(named name: String) -> UInt32? {
        // The JDK's names are ASCII, compared by UTF-16 unit (Swift's `==`
        // would take U+212A KELVIN SIGN for `K`).
        let wanted = name.uppercased()
        guard wanted.isASCII else { return nil }
        if let index = javaControlNames.firstIndex(of: wanted) { return javaControls[index] }
        if let value = unicode(named: wanted, assignedBy: (13, 0)) {
            return javaUnnamed.contains(where: { $0.range.contains(value) }) ? nil : value
        }
        // "CJK UNIFIED IDEOGRAPHS 4E00": the hex as `Integer.toHexString`
        // writes it (no sign, no leading zero), which the JDK compares.
        guard let space = wanted.lastIndex(of: " ") else { return nil }
        let hex = wanted[wanted.index(after: space)...]
        guard let value = UInt32(hex, radix: 16), String(value, radix: 16, uppercase: true) == hex,
              let block = javaUnnamed.first(where: { $0.range.contains(value) }), block.name == wanted[..<space] else { return nil }
        return value
    }

    /// The scalar whose Unicode name is `upper`, if Unicode `version` (major,
    /// minor) had assigned it.
    private static func unicode(named upper: String, assignedBy version: (Int, Int)) -> UInt32? {
        guard !upper.isEmpty, upper.utf8.count <= 128,
              let value = index[upper.hashValue]?.first(where: { Unicode.Scalar($0)?.properties.name == upper }),
              let age = Unicode.Scalar(value)?.properties.age, (age.major, age.minor) <= version else { return nil }
        return value
    }

    /// Every named scalar, by the hash of its name: built once, on the
    /// first `\N{...}` (about 155,000 names), so that each lookup is a hash
    /// probe and a hostile pattern cannot make a load scan the table again.
    private static let index: [Int: [UInt32]] = {
        var map: [Int: [UInt32]] = [:]
        map.reserveCapacity(160_000)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), let name = scalar.properties.name else { continue }
            map[name.hashValue, default: []].append(value)
        }
        return map
    }()

    /// The controls JDK 17 names (Unicode has none): U+0000 to U+001F,
    /// U+007F, U+0080 to U+009F but U+0084 (unnamed: `javaUnnamed`).
    private static let javaControls: [UInt32] = Array(0...0x1F) + [0x7F] + (0x80...0x9F).filter { $0 != 0x84 }

    /// Their names, in that order (Unicode 1.0's names, and its aliases where
    /// 1.0 has none), read from JDK 17's `Character.getName`.
    private static let javaControlNames = [
        "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE",
        "BEL", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED (LF)", "LINE TABULATION", "FORM FEED (FF)",
        "CARRIAGE RETURN (CR)", "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE", "DEVICE CONTROL ONE",
        "DEVICE CONTROL TWO", "DEVICE CONTROL THREE", "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE",
        "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
        "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE", "INFORMATION SEPARATOR TWO",
        "INFORMATION SEPARATOR ONE", "DELETE", "PADDING CHARACTER", "HIGH OCTET PRESET", "BREAK PERMITTED HERE",
        "NO BREAK HERE", "NEXT LINE (NEL)", "START OF SELECTED AREA", "END OF SELECTED AREA",
        "CHARACTER TABULATION SET", "CHARACTER TABULATION WITH JUSTIFICATION", "LINE TABULATION SET",
        "PARTIAL LINE FORWARD", "PARTIAL LINE BACKWARD", "REVERSE LINE FEED", "SINGLE SHIFT TWO", "SINGLE SHIFT THREE",
        "DEVICE CONTROL STRING", "PRIVATE USE ONE", "PRIVATE USE TWO", "SET TRANSMIT STATE", "CANCEL CHARACTER",
        "MESSAGE WAITING", "START OF GUARDED AREA", "END OF GUARDED AREA", "START OF STRING",
        "SINGLE GRAPHIC CHARACTER INTRODUCER", "SINGLE CHARACTER INTRODUCER", "CONTROL SEQUENCE INTRODUCER",
        "STRING TERMINATOR", "OPERATING SYSTEM COMMAND", "PRIVACY MESSAGE", "APPLICATION PROGRAM COMMAND",
    ]

    /// The assigned characters JDK 17 names by block and hex: those without
    /// a name in Unicode 13.0's UnicodeData, each range in one block (its
    /// name as `Character.UnicodeBlock` writes it, `_` as space).
    private static let javaUnnamed: [(name: String, range: ClosedRange<UInt32>)] = [
        ("LATIN 1 SUPPLEMENT", 0x84...0x84), ("CJK UNIFIED IDEOGRAPHS EXTENSION A", 0x3400...0x4DBF),
        ("CJK UNIFIED IDEOGRAPHS", 0x4E00...0x9FFC), ("HANGUL SYLLABLES", 0xAC00...0xD7A3), ("HIGH SURROGATES", 0xD800...0xDB7F),
        ("HIGH PRIVATE USE SURROGATES", 0xDB80...0xDBFF), ("LOW SURROGATES", 0xDC00...0xDFFF), ("PRIVATE USE AREA", 0xE000...0xF8FF),
        ("TANGUT", 0x17000...0x187F7), ("TANGUT SUPPLEMENT", 0x18D00...0x18D08), ("CJK UNIFIED IDEOGRAPHS EXTENSION B", 0x20000...0x2A6DD),
        ("CJK UNIFIED IDEOGRAPHS EXTENSION C", 0x2A700...0x2B734), ("CJK UNIFIED IDEOGRAPHS EXTENSION D", 0x2B740...0x2B81D),
        ("CJK UNIFIED IDEOGRAPHS EXTENSION E", 0x2B820...0x2CEA1), ("CJK UNIFIED IDEOGRAPHS EXTENSION F", 0x2CEB0...0x2EBE0),
        ("CJK UNIFIED IDEOGRAPHS EXTENSION G", 0x30000...0x3134A), ("SUPPLEMENTARY PRIVATE USE AREA A", 0xF0000...0xFFFFD),
        ("SUPPLEMENTARY PRIVATE USE AREA B", 0x100000...0x10FFFD),
    ]
}
