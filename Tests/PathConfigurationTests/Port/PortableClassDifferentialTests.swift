import Foundation
@testable import PathConfigPort
import Testing

/// Port's promise about classes, judged by the engines themselves: every
/// class the portable subset takes, ICU (Foundation's NSRegularExpression)
/// and `java.util.regex` (the JDK, Tests/JVM/RegexProbe.java) both compile,
/// and find on the same printable ASCII characters, matching case as an iOS
/// app does and as an Android app does.
@Suite("port: classes in the subset, against ICU and the JDK")
struct PortableClassDifferentialTests {
    /// The pieces whose order decides how ICU and Java read a class: `-`
    /// and `&` (operators in ICU, ranges and intersections in Java), `^`,
    /// `]`, escapes of them, shorthands, and characters to range between.
    static let pieces = ["a", "z", "K", "0", "!", "/", "-", "&", "^", "]", #"\d"#, #"\w"#, #"\-"#, #"\&"#]

    /// Every class of one to three pieces, and 3,000 of four to six.
    static let classes: [String] = {
        var bodies = pieces, longest = pieces
        for _ in 2...3 {
            longest = longest.flatMap { body in pieces.map { body + $0 } }
            bodies += longest
        }
        var generator = SplitMix(state: 39)
        for _ in 0..<3_000 {
            bodies.append((0..<Int.random(in: 4...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        return Array(Set(bodies.flatMap { ["[" + $0 + "]", "[^" + $0 + "]"] })).sorted()
    }()

    /// Printable ASCII, one character each: what the covered URLs hold.
    static let subjects = (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }

    @Test("each class the subset takes compiles in both engines and finds the same characters, with and without case folding")
    func againstICUAndTheJDK() throws {
        let taken = Self.classes.filter { (try? PortablePattern.parse($0)) != nil }
        // RegexProbe compiles as the Android apps do (CASE_INSENSITIVE |
        // UNICODE_CASE); `(?-i)` turns that off for the case-sensitive row.
        let questions = taken.flatMap { [$0, "(?-i)" + $0] }
        let lines = try JVM.run("RegexProbe.java", lines: Self.subjects.map(JVM.hex) + ["-"] + questions.map(JVM.hex))
        try #require(lines.count == questions.count + 1)
        var wrong: [String] = []
        for (k, pattern) in taken.enumerated() {
            for (caseless, row) in [(true, lines[1 + 2 * k]), (false, lines[2 + 2 * k])] {
                let label = "\(pattern)\(caseless ? " (case-insensitive)" : "")"
                guard let icu = try? NSRegularExpression(pattern: pattern, options: caseless ? [.caseInsensitive] : []) else {
                    wrong.append("\(label): ICU rejects it")
                    continue
                }
                guard !row.hasPrefix("E") else {
                    wrong.append("\(label): the JDK rejects it (\(row))")
                    continue
                }
                let icuFinds = Self.subjects.map { icu.firstMatch(in: $0, range: NSRange(location: 0, length: 1)) != nil ? "1" : "0" }.joined()
                if icuFinds != String(row) {
                    let differ = zip(Self.subjects, zip(icuFinds, row)).filter { $1.0 != $1.1 }.map { "\($0.0)" }.joined()
                    wrong.append("\(label): ICU and the JDK differ on \(differ.debugDescription)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(taken.count * 2): \(wrong.prefix(12).joined(separator: "; "))")
        // The subset takes enough of the generated classes to prove something.
        #expect(taken.count > 1_000)
    }
}
