@testable import PathConfigCore
import Testing

/// Pins `CaseFolding.multiCharacter`, part of which is written as loops over
/// the Greek blocks' layout rather than row by row.
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
}
