@testable import PathConfigCore
import Testing

/// A refused property is named in the message as it was written: ICU's
/// `[:name:]` and `[:^name:]` as themselves, not as `\p{name}`.
@Suite("Dialect: a refused property is named as written")
struct PropertyWordingTests {
    @Test("[:name:], [:^name:] and \\p{name} keep their spelling and offset in a refusal", arguments: [
        ("(?i)[[:Lu:]]", "[:Lu:] under (?i)", 6),
        ("(?i)[[:^Lu:]]", "[:^Lu:] under (?i)", 6),
        ("(?i)[\\p{Lu}]", "\\p{Lu} under (?i)", 5),
        ("(?i)[\\P{Lu}]", "\\P{Lu} under (?i)", 5),
        ("(?i)[[:InBasicLatin:]]", "[:InBasicLatin:] in a class under (?i)", 6),
    ])
    func wording(_ pattern: String, _ construct: String, _ offset: Int) {
        do {
            _ = try PatternTranslator.translate(pattern, dialect: .icu, caseInsensitive: false)
            Issue.record("\(pattern) translated")
        } catch {
            #expect(error.message.hasPrefix("the ICU construct " + construct + " ("), "\(error.message)")
            #expect(error.offset == offset)
            #expect(error.isRefusal)
        }
    }
}
