import Foundation
import Testing
import PathConfigurationFoundation
import PathConfiguration
@testable import PathConfigCore

/// ICU's `\p{InX}` and `\p{Block=X}` on the pcre2 backend: every block of
/// `UnicodeBlocks` under every name it lists, against ICU itself.
@Suite("Dialect: Unicode blocks, PCRE2 against ICU")
struct UnicodeBlockTests {
    /// The code points ICU's one-character `pattern` matches among `values`.
    static func icuMembers(_ pattern: String, _ values: [UInt32]) throws -> [UInt32] {
        let regex = try NSRegularExpression(pattern: pattern)
        var text = ""
        var starts: [Int: UInt32] = [:]
        var u16 = 0
        for v in values {
            let scalar = Unicode.Scalar(v)!
            starts[u16] = v
            text.unicodeScalars.append(scalar)
            u16 += scalar.utf16.count
        }
        return regex.matches(in: text, range: NSRange(location: 0, length: u16)).compactMap { starts[$0.range.location] }
    }

    /// The code points around a block: a few on each side, and all of it,
    /// or its first and last 2,048 when it is larger.
    static func window(_ low: UInt32, _ high: UInt32) -> [UInt32] {
        let below = low >= 4 ? low - 4 : 0
        let above = min(high + 4, 0x10FFFF)
        let span: [ClosedRange<UInt32>] = high - low < 4_096 ? [below...above] : [below...(low + 2_047), (high - 2_047)...above]
        return span.flatMap { $0.compactMap { Unicode.Scalar($0)?.value } }
    }

    @Test("every block, under each of its names, as \\p{In...} and \\p{Block=...}: ICU accepts the name, and matches exactly the range")
    func everyBlock() throws {
        // Unicode 14.0's 320, less the one whose range 15.0 changed.
        #expect(UnicodeBlocks.table.count == 319)
        for (low, high, names) in UnicodeBlocks.table {
            let values = Self.window(low, high)
            let expected = values.filter { $0 >= low && $0 <= high }
            for name in names.split(separator: " ") {
                for pattern in ["\\p{In\(name)}", "\\p{Block=\(name)}"] {
                    let icu = try Self.icuMembers(pattern, values)
                    #expect(icu == expected, "\(pattern): ICU matches \(icu.count) of the window, the table's range \(expected.count)")
                }
            }
        }
    }

    @Test("the pcre2 backend: a block is its range, whatever the case flag outside a class, and names it does not know are refused")
    func engine() throws {
        let options = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
        for (pattern, subject, expected) in [("^\\p{InGreek}+$", "αβγ\u{3FF}", true), ("^\\p{InGreek}$", "\u{400}", false),
                                             ("(?i)^\\p{InGreek}$", "µ", false), ("(?i)^\\p{InBasicLatin}$", "ſ", false),
                                             ("^\\P{In_Basic_Latin}$", "é", true),
                                             ("^\\p{Block=CJK Unified Ideographs Extension B}$", "\u{20000}", true)] {
            let compiled = try PCRE2Engine().compile(pattern, options: options, limits: Limits())
            let icu = try FoundationEngine().compile(pattern, options: options, limits: Limits())
            #expect(compiled.search(MatchSubject(subject)) == (expected ? .match : .noMatch), "\(pattern) on \(subject)")
            #expect(icu.search(MatchSubject(subject)) == (expected ? .match : .noMatch), "ICU: \(pattern) on \(subject)")
        }
        // No_Block shrinks as Unicode adds blocks; Kawi is Unicode 15's, after PCRE2 10.42's table.
        for pattern in ["\\p{InNoBlock}", "\\p{Block=No_Block}", "\\p{InKawi}", "\\p{InNoSuchBlock}"] {
            #expect(throws: Never.self) { try FoundationEngine().compile(pattern.contains("Such") ? "a" : pattern, options: options, limits: Limits()) }
            do {
                _ = try PCRE2Engine().compile(pattern, options: options, limits: Limits())
                Issue.record("\(pattern) compiled")
            } catch {
                #expect(error.isUnsupported)
                #expect(error.message.contains("is not a name libpathconfig's pcre2 backend translates (ICU may reject it too"), "\(error.message)")
            }
        }
    }
}
