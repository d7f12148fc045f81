@testable import PathConfigCore
import PrefilterFuzzing
import Testing

/// Pins `CaseFolding.multiCharacter`, part of which is written as loops over
/// the Greek blocks' layout rather than row by row, and holds
/// `CaseFolding.closure` to ICU's.
@Suite("Dialect: case folding table")
struct CaseFoldingTableTests {
    @Test("Each multi-character folding is the lower case of the full upper case (but ẞ's: ß folds further)")
    func multiCharacterFoldings() {
        #expect(CaseFolding.multiCharacter.count == 104)
        #expect(CaseFolding.multiCharacter[0x1E9E] == [0x73, 0x73])
        for (value, folding) in CaseFolding.multiCharacter where value != 0x1E9E {
            let character = String(Character(Unicode.Scalar(value)!))
            #expect(character.uppercased().lowercased().unicodeScalars.map(\.value) == folding, "U+\(String(value, radix: 16))")
        }
    }

    @Test("A set's case closure is ICU's: (?i)[set] in NSRegularExpression matches exactly its code points, for random halves of the cased")
    func closureIsICUs() throws {
        #expect(CaseFolding.partners.count > 2_000 && CaseFolding.partners.count <= CaseFolding.mostPartners)
        func closure(_ values: [UInt32]) -> Set<UInt32> {
            Set(CaseFolding.closure(of: CharSet.merged(values.map { $0...$0 })).joined())
        }
        #expect(closure([0x6B]) == [0x4B, 0x6B, 0x212A])
        #expect(closure([0x3D1]) == [0x398, 0x3B8, 0x3D1, 0x3F4])
        #expect(closure([0x130]) == [0x130] && closure([0x131]) == [0x131] && closure([0x49]) == [0x49, 0x69])
        #expect(closure([0xDF]) == [0xDF, 0x1E9E] && closure([0x345]) == [0x345, 0x399, 0x3B9, 0x1FBE])

        // Every code point of Unicode 13.0 (the tables' version) that
        // changes when case mapped, with and without partners (İ, ı, ŉ): a
        // random half of them, four times, and what ICU's closure of each
        // half matches among all of them.
        let compared = DialectHarness.universe.filter { v in
            let properties = Unicode.Scalar(v)!.properties
            return properties.changesWhenCaseMapped && properties.age.map { $0.major < 13 || ($0.major == 13 && $0.minor == 0) } ?? false
        }
        #expect(compared.count > 2_500)
        var choices = SeededChoices(seed: 0xC105_E0F1)
        for _ in 0..<4 {
            let half = compared.filter { _ in choices.oneIn(2) }
            let pattern = "[" + half.map { "\\x{" + String($0, radix: 16) + "}" }.joined() + "]"
            let icu = try #require(DialectHarness.icuMembers(pattern, caseInsensitive: true)).intersection(compared)
            let ours = closure(half).intersection(compared)
            #expect(ours.subtracting(icu).sorted() == [], "closed over here, not by ICU")
            #expect(icu.subtracting(ours).sorted() == [], "closed over by ICU, not here")
        }
    }
}
