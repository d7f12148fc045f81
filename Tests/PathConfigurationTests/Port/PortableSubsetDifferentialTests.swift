import Foundation
import PathConfigCore
@testable import PathConfigPort
import Testing

/// Port's promise, judged by the engines themselves: every pattern the
/// portable subset takes, ICU (Foundation's NSRegularExpression) and
/// `java.util.regex` (the JDK, Tests/JVM/RegexProbe.java) both compile, and
/// find in the same printable ASCII text, matching case as an iOS app does
/// and as an Android app does.
@Suite("port: the subset against ICU and the JDK")
struct PortableSubsetDifferentialTests {
    /// The pieces whose order decides how ICU and Java read a class: `-`
    /// and `&` (operators in ICU, ranges and intersections in Java), `:`
    /// (`[:name:]` in ICU), `^`, `]`, escapes of them, shorthands, and
    /// characters to range between.
    static let pieces = ["a", "z", "K", "0", "!", "/", ":", "-", "&", "^", "]", #"\d"#, #"\w"#, #"\-"#, #"\&"#]

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
    func classes() throws {
        try Self.expectAgreement(Self.classes.filter { (try? PortablePattern.parse($0)) != nil }, subjects: Self.subjects)
    }

    /// Pieces of patterns outside classes: anchors, boundaries, groups and
    /// lookarounds, quantifiers and their modes, escapes and shorthands.
    static let patternPieces = ["a", "A", "k", "/", "-", "_", "1", ".", #"\."#, #"\/"#, #"\-"#, #"\x41"#, #"\u006B"#, #"\t"#,
                                "^", "$", #"\b"#, #"\B"#, #"\A"#, #"\z"#, #"\Z"#, #"\d"#, #"\w"#, #"\s"#, #"\W"#, "[a-z]", "[^/]", "[:a]", ":]",
                                "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?>", "|", "*", "+", "?", "{2}", "{0,1}", "{1,}", "*?", "+?",
                                "?+", "{2}?"]

    /// Those the subset takes of 6,000 patterns of one to seven pieces.
    static let patterns: [String] = {
        var generator = SplitMix(state: 41)
        return (0..<6_000).map { _ in
            (0..<Int.random(in: 1...7, using: &generator)).map { _ in patternPieces.randomElement(using: &generator)! }.joined()
        }.filter { (try? PortablePattern.parse($0)) != nil }
    }()

    /// Printable ASCII text a URL's path may hold: every string of up to
    /// two of these characters, and 200 of three to eight.
    static let texts: [String] = {
        let alphabet = ["a", "A", "k", "K", "/", "-", "_", "1", ".", "x", " ", "?"]
        var out = [""] + alphabet + alphabet.flatMap { a in alphabet.map { a + $0 } }
        var generator = SplitMix(state: 43)
        for _ in 0..<200 {
            out.append((0..<Int.random(in: 3...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined())
        }
        return out
    }()

    @Test("each pattern the subset takes compiles in both engines and finds the same, with and without case folding")
    func patternsAgainstICUAndTheJDK() throws {
        try Self.expectAgreement(Self.patterns, subjects: Self.texts)
    }

    /// Repeats of groups of every kind, where the JDK goes back into an
    /// iteration otherwise than ICU (a possessive repeat, a count of a
    /// group that can match the empty string): those the subset takes.
    static let groupRepeats: [String] = {
        var generator = SplitMix(state: 47)
        let atoms = ["a", "k", "ak", "^", "$", "(?=a)", "\\b", "a?", "k*", "a+", "/", "."]
        let opens = ["(", "(?:", "(?>"]
        let repeats = ["{2}", "{2}+", "{1,2}", "{0,2}", "{2,}", "*+", "++", "{2}?", "{1,2}+", "?+", "*", "+", "?"]
        func pick(_ list: [String]) -> String { list.randomElement(using: &generator)! }
        func body(_ depth: Int) -> String {
            (0..<Int.random(in: 1...2, using: &generator)).map { _ in depth < 1 && Bool.random(using: &generator) ? group(depth + 1) : pick(atoms) }.joined()
        }
        func group(_ depth: Int) -> String {
            let open = pick(opens), first = body(depth)
            return open + first + (Bool.random(using: &generator) ? "|" + body(depth) : "") + ")" + pick(repeats)
        }
        return (0..<3_000).map { _ in group(0) + (Bool.random(using: &generator) ? pick(atoms) : "") }
            .filter { (try? PortablePattern.parse($0)) != nil }
    }()

    @Test("each repeat of a group the subset takes finds the same in both engines; those the engines repeat apart are refused")
    func groupRepeatsAgainstICUAndTheJDK() throws {
        for apart in ["(a|ak){2}+", "(?:a|ak){2}+k", "(^|a){2}k", "(?:(?=a)|a){1,2}k", "(?:a?|k){0,2}", "((?:a|)k){2}+", "(?:$|a){2,}",
                      "(?:^)*+", "(\\b)*?a", "((?=a))++", "(a?)*+k"] {
            #expect(throws: PortablePattern.Unsupported.self, "\(apart)") { try PortablePattern.parse(apart) }
        }
        for alike in ["(a|k){2}", "(?:ak)++", "(a?k){2}", "(?:a|k)*", "(?:a|k?)+", "(?:a|)?+", "(?:a?)*", "(?:ak)*?"] {
            #expect(throws: Never.self, "\(alike)") { try PortablePattern.parse(alike) }
        }
        try Self.expectAgreement(Self.groupRepeats, subjects: Self.texts)
    }

    @Test("each of 300 patterns ported from each mobile app to each other finds, in the app's engine and string, what it finds in the reference's")
    func portedAgainstICUAndTheJDK() throws {
        let apps = Profile.allCases.filter(\.isMobileApp)
        let taken = Self.patterns.prefix(300)
        let covered = CoveredURLs(profiles: apps)
        let urls = Self.texts.map { "https://example.com/" + $0.filter { $0 != " " } }.filter(covered.contains)
        // What each app matches patterns against; the Android apps see the same strings.
        let strings = Dictionary(uniqueKeysWithValues: apps.map { app in
            (app, urls.map { app.matchedString(for: $0, matchQueryStrings: app.matchesQueryStringsByDefault) })
        })
        let android = apps.filter { $0.regexOptions.dialect == .java }
        try #require(android.allSatisfy { strings[$0]! == strings[android[0]]! && $0.regexOptions.caseInsensitive })

        // Every pattern each app would run: the originals under each app, and each port.
        var runs: [(reference: Profile, original: String, target: Profile, ported: String)] = []
        for reference in apps {
            for target in apps where target != reference {
                let spans = target.platform != reference.platform
                let caseFlag = spans ? (reference.regexOptions.caseInsensitive ? "(?i)" : "(?-i)") : nil
                let port = PatternPort(reference: reference, target: target, caseFlag: caseFlag, spellsOutShorthands: spans)
                for pattern in taken {
                    for expanding in caseFlag == "(?i)" ? [false, true] : [false] {
                        if case .ported(let text) = port.port(pattern, expandingCase: expanding) { runs.append((reference, pattern, target, text)) }
                    }
                }
            }
        }
        let javaPatterns = Array(Set(runs.flatMap { run in
            [(run.reference, run.original), (run.target, run.ported)].filter { $0.0.regexOptions.dialect == .java }.map(\.1)
        }))
        let lines = try JVM.run("RegexProbe.java", lines: strings[android[0]]!.map(JVM.hex) + ["-"] + javaPatterns.map(JVM.hex))
        try #require(lines.count == javaPatterns.count + 1)
        let javaRows = Dictionary(uniqueKeysWithValues: zip(javaPatterns, lines.dropFirst().map(String.init)))
        var icuRows: [String: String] = [:]
        func finds(_ pattern: String, _ app: Profile) -> String {
            if app.regexOptions.dialect == .java { return javaRows[pattern]! }
            let key = "\(app.rawValue) \(pattern)"
            if let row = icuRows[key] { return row }
            let row = Self.icuFinds(pattern, caseless: app.regexOptions.caseInsensitive, in: strings[app]!) ?? "E"
            icuRows[key] = row
            return row
        }
        var wrong: [String] = []
        for run in runs {
            let want = finds(run.original, run.reference), got = finds(run.ported, run.target)
            guard want != got else { continue }
            let differ = zip(urls, zip(want, got)).filter { $1.0 != $1.1 }.map(\.0)
            wrong.append("\(run.original) from \(run.reference.rawValue) as \(run.ported) for \(run.target.rawValue): differs on \(differ.prefix(3))")
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(runs.count) ports: \(wrong.prefix(10).joined(separator: "; "))")
        #expect(runs.count > 2_000)
        #expect(urls.count > 100)
    }

    /// Where ICU finds `pattern` in `subjects`, a "1" or "0" for each (as
    /// RegexProbe writes the JDK's); nil when ICU rejects the pattern.
    static func icuFinds(_ pattern: String, caseless: Bool, in subjects: [String]) -> String? {
        guard let icu = try? NSRegularExpression(pattern: pattern, options: caseless ? [.caseInsensitive] : []) else { return nil }
        return subjects.map { icu.firstMatch(in: $0, range: NSRange(location: 0, length: $0.utf16.count)) != nil ? "1" : "0" }.joined()
    }

    /// Expects ICU and the JDK to agree on every pattern of `taken` (more
    /// than 1,000 of them, so that the agreement proves something): each
    /// compiles in both, and finds the same in `subjects`, read with and
    /// without case folding.
    static func expectAgreement(_ taken: [String], subjects: [String]) throws {
        // RegexProbe compiles as the Android apps do (CASE_INSENSITIVE |
        // UNICODE_CASE); `(?-i)` turns that off for the case-sensitive row.
        let questions = taken.flatMap { [$0, "(?-i)" + $0] }
        let lines = try JVM.run("RegexProbe.java", lines: subjects.map(JVM.hex) + ["-"] + questions.map(JVM.hex))
        try #require(lines.count == questions.count + 1)
        var wrong: [String] = []
        for (k, pattern) in taken.enumerated() {
            for (caseless, row) in [(true, lines[1 + 2 * k]), (false, lines[2 + 2 * k])] {
                let label = "\(pattern)\(caseless ? " (case-insensitive)" : "")"
                guard let icuRow = icuFinds(pattern, caseless: caseless, in: subjects) else {
                    wrong.append("\(label): ICU rejects it")
                    continue
                }
                guard !row.hasPrefix("E") else {
                    wrong.append("\(label): the JDK rejects it (\(row))")
                    continue
                }
                if icuRow != String(row) {
                    let differ = zip(subjects, zip(icuRow, row)).filter { $1.0 != $1.1 }.map(\.0)
                    wrong.append("\(label): ICU and the JDK differ on \(differ.prefix(4))")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(taken.count * 2) readings: \(wrong.prefix(12).joined(separator: "; "))")
        #expect(taken.count > 1_000)
    }
}
