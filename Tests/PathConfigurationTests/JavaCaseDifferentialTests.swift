import CPCRE2
import Foundation
import PathConfiguration
@testable import PathConfigCore
import Testing

/// The Android profiles match case-insensitively as OpenJDK 17's
/// `java.util.regex` does under CASE_INSENSITIVE | UNICODE_CASE (Kotlin's
/// `IGNORE_CASE`). This runs the real thing (Tests/JVM/RegexProbe.java, on
/// a JDK 17) over crafted patterns (literals alone and in runs, quantified
/// literals, classes, negated classes, ranges, properties, back references)
/// and subjects built from the code points whose case the engines treat
/// differently, and compares what PCRE2 finds on the translation, then what
/// a whole configuration finds with the prefilter on and off.
@Suite("Android profiles fold case as java.util.regex does")
struct JavaCaseDifferentialTests {
    /// Code points whose case-insensitive matches differ between OpenJDK,
    /// PCRE2 and Unicode's own folding, with partners and a few controls.
    static let letters: [UInt32] = [
        0x69, 0x49, 0x131, 0x130, 0x73, 0x53, 0x17F, 0x6B, 0x4B, 0x212A, 0xDF, 0x1E9E, 0xB5, 0x39C, 0x3BC, 0xC5, 0xE5, 0x212B,
        0xFF, 0x178, 0x3C3, 0x3C2, 0x3A3, 0x1C5, 0x1C4, 0x1C6, 0x3B8, 0x3D1, 0x3F4, 0x398, 0x3B9, 0x345, 0x1FBE, 0x399, 0xFB01,
        0x1F0, 0x149, 0x1FB3, 0x1FBC, 0x3C9, 0x2126, 0x3A9, 0x250, 0x2C6F, 0x10400, 0x10428, 0x61, 0x41, 0x31, 0xE9, 0xC9,
        0x2C2F, 0x2C5F, 0x13A0, 0xAB70, 0x10D0, 0x1C90, 0x1E9B, 0x1E61, 0x1E60, 0x3F5, 0x3B5, 0x395, 0x2F, 0x5F, 0x10570,
        0x10597, 0xA7C0, 0xA7C1, 0x1E9A, 0x1F80, 0x1F88, 0xDE, 0xFE, 0xC0, 0xE0,
    ]
    /// The ones paired with each other as two-character subjects.
    static let core: [UInt32] = [0x69, 0x49, 0x131, 0x130, 0x73, 0x53, 0x17F, 0x6B, 0x4B, 0x212A, 0xDF, 0x1E9E, 0xB5, 0x3BC, 0x3C3, 0x3C2, 0x61, 0x31]

    static func text(_ values: UInt32...) -> String { String(String.UnicodeScalarView(values.compactMap(Unicode.Scalar.init))) }

    static let subjects: [String] = {
        var all = letters.map { text($0) } + letters.map { text(0x2F, $0) }
        for a in core { for b in core { all.append(text(a, b)) } }
        all += ["/edıt", "/EDİT", "/edit", "/edİt", "/EDIT", "STRASSE", "straße", "STRAẞE", "/kelvin", "/\u{212A}elvin", "/ſtyle", "/x/ı/y",
                "/messages/new", "/MESSAGES/NEW", "/ﬁle", "/file", "ǅ", "ǆǅǄ", "11", "12", "aA", ""]
        return all
    }()

    /// A pattern, and whether the translation must refuse it (the JVM
    /// compiles it) rather than match as the JVM does.
    struct Case {
        let pattern: String
        let refused: Bool
    }

    static let cases: [Case] = {
        var patterns: [String] = []
        for c in letters {
            let l = text(c), x = "\\x{" + String(c, radix: 16) + "}"
            patterns += ["^\(l)$", "^\(l)+$", "^(?:\(l))$", "^/\(l)$", "^/\(l)+$", "^/\(x)$", "^\(x)$", "^[\(l)]$", "^[^\(l)]$",
                         "^[\(l)-\(l)]$", "^[/\(l)]$", "^/[\(l)]$", "^[\(x)&&\\p{L}]$", "^\\Q/\(l)\\E$", "^(?-i)\(l)$", "^(?-i:/\(l))$",
                         "^\(l)\(l)$", "^\(l){2}$", "^\(l)/\(l)?$"]
        }
        patterns += [
            "^[a-z]$", "^[A-Z]$", "^[h-j]$", "^[H-J]$", "^[r-t]$", "^[R-T]$", "^[j-l]$", "^[J-L]$", "^[\\x{100}-\\x{17F}]$",
            "^[\\x{130}-\\x{131}]$", "^[\\x{3A3}]$", "^[\\x{3C2}-\\x{3C3}]$", "^[\\x{1E9E}-\\x{1E9F}]$", "^[\\x{DF}-\\x{DF}]$",
            "^[\\x{2126}]$", "^[\\x{2100}-\\x{212F}]$", "^[a-zA-Z]$", "^[^a-z]$", "^[^A-Z]$", "^[\\x{10400}-\\x{1044F}]$",
            "^[\\x{10400}-\\x{10427}]$", "^[a-z&&[^i]]$", "^[\\w&&[^k]]$", "^[\\p{Lu}]$", "^[\\p{Ll}&&[a-z]]$", "^\\p{Lower}$",
            "^\\p{IsLowercase}$", "^\\p{javaUpperCase}$", "^\\w$", "^\\W$", "^[\\w]$", "^/\\w$", "^[^\\w]$", "^\\p{Alpha}$",
            "^\\p{IsLatin}$", "^\\p{Lt}$", "^[\\p{Lt}a]$", "^(?-i)i$", "^(?-i:[a-z])$", "^(?i)ß$", "^(?-i)(?i)ı$", "^(?u)ſ$",
            "^[\\x{C0}-\\x{FF}]$", "^[\\x{B5}]$", "^[\\x{3BC}]$", "^[\\x{39C}]$", "^[\\x{FF}-\\x{FF}]$", "^[\\x{178}]$",
            "^[k-k]$", "^[K-K]$", "^[\\x{212A}-\\x{212A}]$", "^[\\x{212A}-\\x{212B}]$", "^[\\x{C5}]$", "^[s]$", "^[S]$",
            "/edit$", "/EDIT$", "edıt", "^/ed[i]t$", "^/ed[^i]t$", "straße", "STRASSE", "ß", "ẞ", "/ﬁle", "^/[a-z]+$",
            "^/i[a-z]+$", "^/\\w+/\\w+$", "^/messages/new$", "kelvin", "/style", "ǆ", "ǅ", "Ǆ", "ǅǅ",
            // What makes a run of literals: free spacing, escapes, groups, quantifiers.
            "(?x)^/ \u{DF} $", "(?x)^/ \u{DF} + $", "^/\u{DF}{1}$", "^/\\x{DF}$", "^(?:/)\u{DF}$", "^/\u{DF}|x$", "^/\\Q\u{DF}\\E$",
            "^\u{DF}/$", "^/\u{DF}\u{DF}?$", "^(?i)/\u{DF}$", "^/(?-i)\u{DF}(?i)$", "(?x)^/ \u{130} # c\n i $",
            // Back references: to groups that may capture I, i, İ, ı, a
            // Unicode 14 case pair or a supplementary character, refused
            // under case-insensitivity; to a group the pattern lacks, never
            // matching.
            "^(\\d)\\1$", "^(x)\\1$", "^(ß)\\1$", "^(k)\\1$", "^(s)\\1$", "^(\\x{3C3})\\1$", "^([a-h])\\1$", "^(?<n>k)\\k<n>$",
            "^(a)\\2$", "^(a)\\2?a?$", "^(a)\\12$", "^(?-i)(i)\\1$", "^(?-i:(\\w)\\1)$", "^((k)\\2)\\1$",
        ]
        var all = patterns.map { Case(pattern: $0, refused: false) }
        all += ["^(i)\\1$", "^(\\w)\\1$", "^(.)\\1$", "^([a-z])\\1$", "^(\\x{10400})\\1$", "^(\\x{2C2F})\\1$", "^(?<n>I)\\k<n>$",
                "^((i)|k)\\1$", "^(\\p{L})\\1$", "^(?-i:(\\w))\\1$", "^([^/])\\1$", "^(a)(\\1i)\\2$", "(?c)a", "(?ic)a"].map { Case(pattern: $0, refused: true) }
        return all
    }()

    /// The JVM's answers: its case mappings, and for each case a compile
    /// error or one bit per subject.
    static let probe: Result<(map: Substring, rows: [Substring]), JVM.Failure> = {
        do {
            let lines = try JVM.run("RegexProbe.java", lines: subjects.map(JVM.hex) + ["-"] + cases.map { JVM.hex($0.pattern) })
            guard lines.count == cases.count + 1 else { return .failure(JVM.Failure("RegexProbe wrote \(lines.count) lines")) }
            return .success((lines[0], Array(lines.dropFirst())))
        } catch let failure as JVM.Failure {
            return .failure(failure)
        } catch {
            return .failure(JVM.Failure("\(error)"))
        }
    }()

    /// Whether Unicode assigned `c` after 13.0, Java 17's version.
    static func isNewerThanJava(_ c: Unicode.Scalar) -> Bool {
        guard let age = c.properties.age else { return false }
        return age.major > 13 || (age.major == 13 && age.minor > 0)
    }

    static let android = RegexOptions(caseInsensitive: true, unicodeClasses: false, dialect: .java)

    @Test("Character.toUpperCase and toLowerCase: the generated table is the JDK's at every code point")
    func mappings() throws {
        let line = try Self.probe.get().map
        var expected: [UInt32: (UInt32, UInt32)] = [:]
        for entry in line.split(separator: " ").dropFirst() {
            let parts = entry.split(separator: ":").map { UInt32($0, radix: 16)! }
            expected[parts[0]] = (parts[1], parts[2])
        }
        #expect(expected.count > 2_700)
        var wrong: [String] = []
        for c in UInt32(0)...0x10FFFF {
            let (u, l) = expected[c] ?? (c, c)
            if JavaCaseFolding.upper(c) != u || JavaCaseFolding.lower(c) != l {
                wrong.append(String(c, radix: 16))
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(10))")
    }

    @Test("PCRE2 on the translation finds what java.util.regex finds, or the translation refuses what it must")
    func patterns() throws {
        let rows = try Self.probe.get().rows
        var wrong: [String] = []
        var compared = 0
        for (c, row) in zip(Self.cases, rows) {
            let compiled = Result { () throws(RegexCompileError) in try PCRE2Engine().compile(c.pattern, options: Self.android, limits: Limits()) }
            switch (compiled, row.hasPrefix("E")) {
            case (.failure(let error), true):
                if c.refused { wrong.append("\(c.pattern.debugDescription): the JVM rejects it (\(row)), expected a refusal") }
                _ = error
            case (.failure(let error), false):
                if !c.refused || !error.isUnsupported {
                    wrong.append("\(c.pattern.debugDescription): refused (\(error.message)), the JVM compiles it")
                }
            case (.success, true):
                wrong.append("\(c.pattern.debugDescription): compiled, the JVM rejects it: \(row)")
            case (.success(let pattern), false):
                if c.refused { wrong.append("\(c.pattern.debugDescription): compiled, expected a refusal") }
                for (subject, bit) in zip(Self.subjects, row) {
                    // Properties are PCRE2's, of Unicode 14.0: the code points
                    // it assigned are in none of Java 17's (Unicode 13.0).
                    if c.pattern.contains("\\p"), subject.unicodeScalars.contains(where: Self.isNewerThanJava) { continue }
                    let found = pattern.search(MatchSubject(subject)) == .match
                    compared += 1
                    if found != (bit == "1") { wrong.append("\(c.pattern.debugDescription) on \(subject.debugDescription): PCRE2 \(found), Java \(bit == "1")") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(12).joined(separator: "; "))")
        #expect(compared > 300_000)
    }

    @Test("a configuration of the patterns finds what the JVM finds, with the prefilter and without")
    func configuration() throws {
        let rows = try Self.probe.get().rows
        let usable = zip(Self.cases, rows).filter { !$0.0.refused && !$0.1.hasPrefix("E") }
        let json = "{\"rules\": [" + usable.map { "{\"patterns\": [\(JSONWriter.quoted($0.0.pattern))], \"properties\": {}}" }
            .joined(separator: ",") + "]}"
        let bits = usable.map { $0.1.map { $0 == "1" } }
        var wrong: [String] = []
        for prefilter in [true, false] {
            var options = LoadOptions(profile: .hotwireAndroid)
            options.usePrefilter = prefilter
            options.limits.resultCacheCapacity = 0
            let config = try PathConfiguration(json: json, options: options)
            for (s, subject) in Self.subjects.enumerated() {
                let matched = Set(try config.matchingRules(for: subject).map(\.ruleIndex).filter { $0 < usable.count })
                    .subtracting(subject.unicodeScalars.contains(where: Self.isNewerThanJava) ? usable.indices.filter { usable[$0].0.pattern.contains("\\p") } : [])
                let expected = Set(usable.indices.filter { bits[$0][s] })
                    .subtracting(subject.unicodeScalars.contains(where: Self.isNewerThanJava) ? usable.indices.filter { usable[$0].0.pattern.contains("\\p") } : [])
                if matched != expected {
                    let extra = matched.subtracting(expected).map { usable[$0].0.pattern }, missing = expected.subtracting(matched).map { usable[$0].0.pattern }
                    wrong.append("prefilter \(prefilter), \(subject.debugDescription): also \(extra.prefix(3)), not \(missing.prefix(3))")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(6).joined(separator: "; "))")
    }

    @Test("a class range's case closure (CIRangeU) is every code point outside it whose U or f is in it, by the definition checked at every code point")
    func rangeClosure() {
        // Only a code point that U or L moves can have a U or f other than itself.
        let moving = (UInt32(0)...0x10FFFF).filter { JavaCaseFolding.upper($0) != $0 || JavaCaseFolding.lower($0) != $0 }
        #expect(moving.count > 2_700)
        var ranges: [(UInt32, UInt32)] = [(0x61, 0x7A), (0x41, 0x5A), (0, 0x10FFFF), (0xC0, 0xFF), (0x370, 0x3FF), (0x1E00, 0x1EFF),
                                          (0x10400, 0x1044F), (0x4B, 0x4B), (0x6B, 0x6B), (0x212A, 0x212A), (0x130, 0x131), (0x60, 0x60)]
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt32) -> UInt32 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: seed >> 33) % bound
        }
        for _ in 0..<200 {
            let low = moving[Int(next(UInt32(moving.count)))] - next(3)
            ranges.append((low, low + next(next(2) == 0 ? 40 : 3_000)))
        }
        for (low, high) in ranges {
            let range = low...high
            let extra = moving.filter { !range.contains($0) && (range.contains(JavaCaseFolding.upper($0)) || range.contains(JavaCaseFolding.folded($0))) }
            #expect(JavaCaseFolding.range(low, high) == JavaCaseFolding.ranges(of: extra, adding: range),
                    "\(String(low, radix: 16))-\(String(high, radix: 16))")
        }
    }

    @Test("the issue's cases: /edit$ takes /edıt, ß alone and [ß] are exact (in a run not), [A-Z] does not take the Kelvin sign")
    func issue() throws {
        let config = try PathConfiguration(json: #"{"rules": [{"patterns": ["/edit$"], "properties": {"e": true}}, {"patterns": ["^/(ß)$", "^/[ß]$"], "properties": {"s": true}}, {"patterns": ["^/ß$"], "properties": {"run": true}}, {"patterns": ["^/[A-Z]$"], "properties": {"k": true}}, {"patterns": ["^/[a-z]$"], "properties": {"z": true}}]}"#,
                                           options: LoadOptions(profile: .hotwireAndroid))
        #expect(try config.resolve("https://x.dev/edıt").json == #"{"e":true}"#)
        #expect(try config.resolve("https://x.dev/EDİT").json == #"{"e":true}"#)
        // ß alone is exact; in a run of literals (/ß) it takes ẞ.
        #expect(try config.resolve("/\u{1E9E}").json == #"{"run":true}"#)
        #expect(try config.resolve("/ß").json == #"{"s":true,"run":true}"#)
        #expect(try config.resolve("/\u{212A}").json == #"{"z":true}"#)
        #expect(try config.resolve("/k").json == #"{"k":true,"z":true}"#)
    }

    @Test("the back references PCRE2 folds otherwise than the JDK are exactly those of JavaCaseFolding.isBackReferenceMismatch")
    func backReferenceMismatches() throws {
        // Every code point with a case in either: the JDK's table, or a
        // simple mapping in Unicode 14.0 (PCRE2 10.42's version).
        var candidates = Set<UInt32>()
        for c in UInt32(0)...0x10FFFF {
            let u = JavaCaseFolding.upper(c), l = JavaCaseFolding.lower(c)
            if u != c || l != c { candidates.formUnion([c, u, l]) }
            guard let scalar = Unicode.Scalar(c), let age = scalar.properties.age, age.major < 14 || (age.major == 14 && age.minor == 0)
            else { continue }
            for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping, scalar.properties.titlecaseMapping]
            where mapping.unicodeScalars.count == 1 && mapping.unicodeScalars.first!.value != c {
                candidates.formUnion([c, mapping.unicodeScalars.first!.value])
            }
        }
        let all = candidates.sorted()
        let byFolded = Dictionary(grouping: all, by: JavaCaseFolding.folded)
        var wrong: [String] = []
        for c in all {
            // The JDK's class: c and every x with the same f; PCRE2's: what (?i)c matches among them and c's Unicode partners.
            let java = Set(byFolded[JavaCaseFolding.folded(c)] ?? []).union([c])
            var near = java
            if let scalar = Unicode.Scalar(c) {
                for m in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping, scalar.properties.titlecaseMapping]
                where m.unicodeScalars.count == 1 { near.formUnion(byFolded[JavaCaseFolding.folded(m.unicodeScalars.first!.value)] ?? [m.unicodeScalars.first!.value]) }
            }
            let pcre2 = Set(near.filter { Self.pcre2BackReferenceMatches(c, $0) })
            if (java != pcre2) != JavaCaseFolding.isBackReferenceMismatch(c) && c < 0x10000 {
                wrong.append("\(String(c, radix: 16)): JDK \(java.map { String($0, radix: 16) }), PCRE2 \(pcre2.map { String($0, radix: 16) })")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(8))")
        #expect(all.count > 2_800)
    }

    /// Whether PCRE2's case-insensitive back reference to a group that
    /// captured `c` matches `x` (`^(c)(?i:\1)$` on the two).
    static func pcre2BackReferenceMatches(_ c: UInt32, _ x: UInt32) -> Bool {
        let pattern = Array("^(\\x{\(String(c, radix: 16))})(?i:\\1)$".utf8)
        var errorCode: Int32 = 0, errorOffset = 0
        guard let code = pcre2_compile_8(pattern, pattern.count, UInt32(PCRE2_UTF), &errorCode, &errorOffset, nil),
              let data = pcre2_match_data_create_8(2, nil) else { return false }
        defer { pcre2_code_free_8(code); pcre2_match_data_free_8(data) }
        let subject = Array(text(c, x).utf8)
        return pcre2_match_8(code, subject, subject.count, 0, 0, data, nil) >= 0
    }
}
