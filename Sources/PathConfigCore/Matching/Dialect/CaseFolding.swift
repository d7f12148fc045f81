/// Unicode full case folding where it differs from folding one character at
/// a time (CaseFolding.txt, status F, and the simple foldings that differ
/// from lower-casing), generated from Unicode 14.0.0.
///
/// ICU matches a literal case-insensitively by folding whole strings, so
/// `(?i)ss` also finds "ß" and `(?i)ß` finds "SS"; PCRE2 folds one character
/// at a time. `CaseFolding.needsFullFolding` finds the literals where that
/// changes the answer.
enum CaseFolding {
    /// Characters whose full folding is more than one character.
    static let multiCharacter: [UInt32: [UInt32]] = {
        var table: [UInt32: [UInt32]] = [
            0xDF: [0x73, 0x73],
            0x130: [0x69, 0x307],
            0x149: [0x2BC, 0x6E],
            0x1F0: [0x6A, 0x30C],
            0x390: [0x3B9, 0x308, 0x301],
            0x3B0: [0x3C5, 0x308, 0x301],
            0x587: [0x565, 0x582],
            0x1E96: [0x68, 0x331],
            0x1E97: [0x74, 0x308],
            0x1E98: [0x77, 0x30A],
            0x1E99: [0x79, 0x30A],
            0x1E9A: [0x61, 0x2BE],
            0x1E9E: [0x73, 0x73],
            0x1F50: [0x3C5, 0x313],
            0x1F52: [0x3C5, 0x313, 0x300],
            0x1F54: [0x3C5, 0x313, 0x301],
            0x1F56: [0x3C5, 0x313, 0x342],
            0x1FD2: [0x3B9, 0x308, 0x300],
            0x1FD3: [0x3B9, 0x308, 0x301],
            0x1FD6: [0x3B9, 0x342],
            0x1FD7: [0x3B9, 0x308, 0x342],
            0x1FE2: [0x3C5, 0x308, 0x300],
            0x1FE3: [0x3C5, 0x308, 0x301],
            0x1FE4: [0x3C1, 0x313],
            0x1FE6: [0x3C5, 0x342],
            0x1FE7: [0x3C5, 0x308, 0x342],
            0xFB00: [0x66, 0x66],
            0xFB01: [0x66, 0x69],
            0xFB02: [0x66, 0x6C],
            0xFB03: [0x66, 0x66, 0x69],
            0xFB04: [0x66, 0x66, 0x6C],
            0xFB05: [0x73, 0x74],
            0xFB06: [0x73, 0x74],
            0xFB13: [0x574, 0x576],
            0xFB14: [0x574, 0x565],
            0xFB15: [0x574, 0x56B],
            0xFB16: [0x57E, 0x576],
            0xFB17: [0x574, 0x56D],
        ]
        // U+1F80 to U+1FAF: Greek small letters with ypogegrammeni (U+1Fx0 to
        // U+1Fx7) and their capitals with prosgegrammeni (U+1Fx8 to U+1FxF)
        // fold to the small letter without it (from U+1F00, U+1F20, U+1F60) and ι.
        for v in UInt32(0x1F80)...0x1FAF {
            let small: UInt32 = [0x1F00, 0x1F20, 0x1F60][Int(v - 0x1F80) >> 4]
            table[v] = [small + (v & 7), 0x3B9]
        }
        // From U+1FB0, U+1FC0 and U+1FF0: α, η and ω with ypogegrammeni
        // (+3; +2 with varia, +4 with oxia, +7 with perispomeni), with
        // perispomeni alone (+6), and their capitals with prosgegrammeni (+C)
        // fold to the letter (with its varia or oxia), perispomeni, then ι.
        for (row, letter, varia, oxia) in [(UInt32(0x1FB0), UInt32(0x3B1), UInt32(0x1F70), UInt32(0x3AC)),
                                           (0x1FC0, 0x3B7, 0x1F74, 0x3AE), (0x1FF0, 0x3C9, 0x1F7C, 0x3CE)] {
            table[row + 0x2] = [varia, 0x3B9]
            table[row + 0x3] = [letter, 0x3B9]
            table[row + 0x4] = [oxia, 0x3B9]
            table[row + 0x6] = [letter, 0x342]
            table[row + 0x7] = [letter, 0x342, 0x3B9]
            table[row + 0xC] = [letter, 0x3B9]
        }
        return table
    }()

    /// Characters whose one-character folding is not their lower case.
    static let single: [UInt32: UInt32] = [
        0xB5: 0x3BC, 0x17F: 0x73, 0x345: 0x3B9, 0x3C2: 0x3C3, 0x3D0: 0x3B2, 0x3D1: 0x3B8,
        0x3D5: 0x3C6, 0x3D6: 0x3C0, 0x3F0: 0x3BA, 0x3F1: 0x3C1, 0x3F5: 0x3B5, 0x1C80: 0x432,
        0x1C81: 0x434, 0x1C82: 0x43E, 0x1C83: 0x441, 0x1C84: 0x442, 0x1C85: 0x442, 0x1C86: 0x44A,
        0x1C87: 0x463, 0x1C88: 0xA64B, 0x1E9B: 0x1E61, 0x1FBE: 0x3B9,
    ]

    /// The folded form of one character.
    static func fold(_ v: UInt32) -> [UInt32] {
        if v < 0x80 { return [v >= 0x41 && v <= 0x5A ? v | 0x20 : v] }
        if let many = multiCharacter[v] { return many }
        if let one = single[v] { return [one] }
        guard let scalar = Unicode.Scalar(v) else { return [v] }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? [lower.first!.value] : [v]
    }

    /// ICU's case closure of a set of code points, as sorted ranges
    /// (`UnicodeSet::closeOver(USET_CASE_INSENSITIVE)`, strings aside): with
    /// each code point, those that fold as it does (`k`: `K` and U+212A;
    /// `θ`: `Θ`, `ϑ` and `ϴ`; `İ` and `ı` alone).
    static func closure(of ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var added: [ClosedRange<UInt32>] = []
        for range in ranges {
            // The first partner at or after the range's start, then those in it.
            var i = JavaCaseFolding.firstIndex(partners.count) { partners[$0].value >= range.lowerBound }
            while i < partners.count, partners[i].value <= range.upperBound {
                added += partners[i].group.map { $0...$0 }
                i += 1
            }
        }
        return added.isEmpty ? ranges : CharSet.merged(ranges + added)
    }

    /// The foldings Unicode 15.1 added between characters that already
    /// folded to the same string (`ΐ` U+0390 and U+1FD3, `ΰ` U+03B0 and
    /// U+1FE3, `ﬅ` and `ﬆ`), each way: ICU 76 closes a set over them, and
    /// PCRE2 10.42's and JDK 17's tables have none.
    static let laterPartners: [(UInt32, UInt32)] = [
        (0x390, 0x1FD3), (0x1FD3, 0x390), (0x3B0, 0x1FE3), (0x1FE3, 0x3B0), (0xFB05, 0xFB06), (0xFB06, 0xFB05),
    ]

    /// At most how many code points fold as another does (`partners`, which
    /// a test holds to it): what a closure can add to a set.
    static let mostPartners = 4_096

    /// The code points that fold as another does, sorted, each with all of
    /// those that fold as it does. One-character folding groups code points
    /// as the simple case mappings do (`toLowerCase(toUpperCase(c))`, JDK
    /// 17's tables, Unicode 13.0, which the Java dialect reads), but for
    /// `İ` and `ı`, which ICU leaves alone, and with `laterPartners`. A code
    /// point a later Unicode gave case, which PCRE2 10.42's and ICU's tables
    /// read apart anyway, counts as without partners. CaseFoldingTableTests
    /// hold it to ICU's.
    static let partners: [(value: UInt32, group: [UInt32])] = {
        let groups = JavaCaseFolding.byFolded.map { folded, others in (others + [folded]).filter { $0 != 0x130 && $0 != 0x131 }.sorted() }
            + laterPartners.filter { $0.0 < $0.1 }.map { [$0.0, $0.1] }
        return groups.filter { $0.count > 1 }.flatMap { group in group.map { ($0, group) } }.sorted { $0.value < $1.value }
    }()

    /// Whether a case-insensitive literal run can match text of another
    /// length under full folding: its folding contains the folding of a
    /// character that folds to several (so "ss", "fi", "ß", "αι").
    static func needsFullFolding(_ run: [UInt32]) -> Bool {
        let folded = run.flatMap(fold)
        guard folded.count >= 2 else { return false }
        return folded.indices.contains { start in
            targets[folded[start]]?.contains { folded[start...].starts(with: $0) } ?? false
        }
    }

    /// The characters beyond ASCII that a case-insensitive match may take
    /// for ASCII text, each with the text the prefilter reads in its place:
    /// the JDK's folding where it is ASCII (`JavaCaseFolding.byFolded`: `ı`
    /// and `İ` are `i`, `ſ` is `s`, U+212A KELVIN SIGN `k`), else ICU's
    /// (`fold`: `ß` is "ss", `ŉ` "ʼn", `ﬁ` "fi"). Every other character
    /// folds, in both, to text beyond ASCII, so either engine matches ASCII
    /// text case-insensitively only where the subject so written holds it,
    /// ASCII letters folded (`foldedOntoASCII`).
    static let ontoASCII: [UInt32: [UInt8]] = {
        var table: [UInt32: [UInt8]] = [:]
        for v in Array(multiCharacter.keys) + Array(single.keys) where fold(v).contains(where: { $0 < 0x80 }) {
            table[v] = Array(String(decoding: fold(v), as: UTF32.self).utf8)
        }
        for letter in UInt32(0x61)...0x7A {
            for v in JavaCaseFolding.byFolded[letter] ?? [] where v >= 0x80 { table[v] = [UInt8(letter)] }
        }
        return table
    }()

    /// `bytes` (UTF-8) with each character of `ontoASCII` written as its
    /// text there, or nil when they hold none (a subject of ASCII is told
    /// by one scan, and nothing is copied before the first such character).
    /// Bytes that are not UTF-8 are kept.
    static func foldedOntoASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var parser = Unicode.UTF8.ForwardParser(), iterator = bytes.makeIterator()
        var out: [UInt8]?, at = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if let text = ontoASCII[Unicode.UTF8.decode(encoded).value] {
                    if out == nil { out = Array(bytes[..<at]) }
                    out!.append(contentsOf: text)
                } else {
                    out?.append(contentsOf: encoded)
                }
                at += encoded.count
            case .error(let length):
                out?.append(contentsOf: bytes[at..<at + length])
                at += length
            case .emptyInput:
                return out
            }
        }
    }

    /// The distinct multi-character foldings, by their first character (a
    /// run may be 16,000 characters long: one lookup for each).
    private static let targets: [UInt32: [[UInt32]]] = Dictionary(grouping: Set(multiCharacter.values), by: { $0[0] })
}
