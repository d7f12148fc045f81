import EntryPointFuzzing
import PathConfiguration
import PathConfigurationFoundation

/// `pathconfig-fuzz-dialect`: the pcre2 backend's reading of a pattern
/// against the dialect's own engine, for patterns from the grammar both
/// dialects accept (`DialectGrammar`) or raw text (`DialectInput`).
///
/// - ICU (`check`): the pattern compiled by `PCRE2Engine` and by
///   `FoundationEngine` (NSRegularExpression, which is ICU) under the iOS
///   profile's `RegexOptions`. Both compile it, or both reject it, or pcre2
///   refuses it as unsupported (`RegexCompileError.isUnsupported`: a
///   documented refusal, docs/format-and-profiles.md, "Dialects": a
///   construct PCRE2 cannot match exactly as the app's engine does is
///   refused, never approximated) while ICU compiles it; a pattern pcre2
///   rejects as invalid is invalid in ICU too. Where both compile, every
///   subject is found by both or by neither (`CompiledPattern.search`, the
///   search the library runs). A search pcre2 stops at its match budget
///   (`.limitExceeded`, which a lookup counts as no match) disagrees with
///   either answer: a tame input keeps a backtracking engine's work small
///   (`DialectInput.isTame`), so running out of budget means the
///   translation made the work out of proportion to ICU's.
/// - Java (`javaCase`, then `compare` with the JDK's answers from
///   `JDKOracle`, a batch of many inputs per JVM start): the same under the
///   Android profile's options (case-insensitive, as Kotlin's
///   `Regex(pattern, IGNORE_CASE)` compiles it) against `java.util.regex`.
/// - A long shape that compiles at the limit in both dialects
///   (`DialectInput.mustCompile`) is never refused.
public enum DialectFuzzer {
    static let icuOptions = Profile.hotwireIOS.regexOptions
    static let javaOptions = Profile.hotwireAndroid.regexOptions

    /// What pcre2 made of a pattern under one dialect.
    public enum PCRE2Outcome: Sendable {
        /// Compiled; whether it found each subject (nil: it ran out of
        /// budget), or nothing when the input is not tame.
        case compiled([Bool?])
        /// Rejected as invalid, with the message.
        case invalid(String)
        /// Refused as unsupported, with the message.
        case unsupported(String)
    }

    /// The ICU side of one input: the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        guard let input = DialectInput(bytes) else { return nil }
        let pcre2 = outcome(input, options: icuOptions)
        if let violation = sizeViolation(input, pcre2, dialect: "ICU") { return violation }
        let icu: (any CompiledPattern)?
        var icuError = ""
        do {
            icu = try FoundationEngine().compile(input.pattern, options: icuOptions, limits: Limits())
        } catch {
            icu = nil
            icuError = error.message
        }
        switch (pcre2, icu) {
        case (.unsupported, _), (.invalid, nil):
            return nil
        case (.invalid(let message), .some):
            return Violation("ICU: \(show(input.pattern)) is rejected as invalid by pcre2 (\(message)), ICU compiles it")
        case (.compiled, nil):
            return Violation("ICU: \(show(input.pattern)) compiles in pcre2, ICU rejects it (\(icuError))")
        case (.compiled(let found), .some(let icu)):
            guard input.isTame else { return nil }
            for (subject, pcre2Found) in zip(input.subjects, found) {
                let icuFound = icu.search(MatchSubject(subject)) == .match
                if pcre2Found != icuFound {
                    return Violation("ICU: \(show(input.pattern)) on \(show(subject)): pcre2 \(word(pcre2Found)), ICU \(word(icuFound))")
                }
            }
            return nil
        }
    }

    // MARK: Java

    /// One input's Java side, to be compared with the JDK's answers.
    public struct JavaCase: Sendable {
        /// The input it came from (to store when the JDK disagrees).
        public let bytes: [UInt8]
        /// Its pattern and subjects (none when it is not tame).
        public let pattern: String
        public let subjects: [String]
        /// pcre2's outcome under the Android profile.
        public let pcre2: PCRE2Outcome
    }

    /// A case as one line of text (the input in hex, and pcre2's outcome:
    /// `C` and a mark a subject, `1`, `0`, or `b` for the budget; `I`
    /// invalid; `U` unsupported), so that waiting cases are kept in a file,
    /// not in memory: memory an input leaves allocated makes libFuzzer run
    /// every input again under LeakSanitizer.
    public static func encode(_ item: JavaCase) -> String {
        let outcome: String
        switch item.pcre2 {
        case .compiled(let found): outcome = "C" + String(found.map { $0.map { $0 ? "1" : "0" } ?? "b" }.joined())
        case .invalid: outcome = "I"
        case .unsupported: outcome = "U"
        }
        return DialectFuzzTarget.hex(item.bytes) + " " + outcome
    }

    /// The case a line of `encode` holds (pcre2's messages left out), or nil.
    public static func decode(_ line: Substring) -> JavaCase? {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let input = DialectInput(unhex(parts[0])), let code = parts[1].first else { return nil }
        let pcre2: PCRE2Outcome
        switch code {
        case "C": pcre2 = .compiled(parts[1].dropFirst().map { $0 == "b" ? nil : $0 == "1" })
        case "I": pcre2 = .invalid("")
        default: pcre2 = .unsupported("")
        }
        return JavaCase(bytes: unhex(parts[0]), pattern: input.pattern, subjects: input.isTame ? input.subjects : [], pcre2: pcre2)
    }

    static func unhex(_ hex: Substring) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var digits = hex.utf8.makeIterator()
        func value(_ c: UInt8) -> UInt8 { c <= 0x39 ? c &- 0x30 : (c | 0x20) &- 0x61 &+ 10 }
        while let high = digits.next(), let low = digits.next() { bytes.append(value(high) << 4 | value(low)) }
        return bytes
    }

    /// The Java side of one input: pcre2's outcome, to compare with the JDK's
    /// later (`compare`); a size violation at once.
    public static func javaCase(_ bytes: [UInt8]) -> (JavaCase?, Violation?) {
        guard let input = DialectInput(bytes) else { return (nil, nil) }
        let pcre2 = outcome(input, options: javaOptions)
        let subjects = input.isTame ? input.subjects : []
        return (JavaCase(bytes: bytes, pattern: input.pattern, subjects: subjects, pcre2: pcre2), sizeViolation(input, pcre2, dialect: "Java"))
    }

    /// The JDK's answers to `cases` against pcre2's: each violation with the
    /// input it came from, or why the JDK could not answer.
    public static func compare(_ cases: [JavaCase]) -> Result<[(Violation, [UInt8])], JDKOracle.Unavailable> {
        let answers: [JDKOracle.Answer]
        switch JDKOracle.ask(cases.map { ($0.pattern, $0.subjects) }) {
        case .success(let a): answers = a
        case .failure(let error): return .failure(error)
        }
        var violations: [(Violation, [UInt8])] = []
        for (item, answer) in zip(cases, answers) where compare(item, answer) != nil {
            // Again from the input, for pcre2's message.
            let full = javaCase(item.bytes).0 ?? item
            violations.append((compare(full, answer) ?? compare(item, answer)!, item.bytes))
        }
        return .success(violations)
    }

    /// pcre2 against the JDK on one pattern. A pattern the JDK rejects may
    /// be refused as unsupported (the translation may reach the construct
    /// it refuses before the one that makes the pattern invalid).
    static func compare(_ item: JavaCase, _ answer: JDKOracle.Answer) -> Violation? {
        switch (item.pcre2, answer) {
        case (_, .failed), (.unsupported, _), (.invalid, .rejected):
            return nil
        case (.invalid(let message), .compiled):
            return Violation("Java: \(show(item.pattern)) is rejected as invalid by pcre2 (\(message)), the JDK compiles it")
        case (.compiled, .rejected(let description)):
            return Violation("Java: \(show(item.pattern)) compiles in pcre2, the JDK rejects it (\(description))")
        case (.compiled(let found), .compiled(let jdk)):
            for (subject, (pcre2Found, jdkFound)) in zip(item.subjects, zip(found, jdk)) {
                guard let jdkFound else { continue }
                if pcre2Found != jdkFound {
                    return Violation("Java: \(show(item.pattern)) on \(show(subject)): pcre2 \(word(pcre2Found)), JDK \(word(jdkFound))")
                }
            }
            return nil
        }
    }

    // MARK: Shared

    /// Compiles `input` with pcre2 under `options`, and searches its
    /// subjects when it is tame (the only answers compared: a wild input's
    /// subject may be 9 KB, where a search of `.{36}.*.{1197}` takes
    /// seconds, which is the resolve target's business, not this one's).
    static func outcome(_ input: DialectInput, options: RegexOptions) -> PCRE2Outcome {
        do {
            let compiled = try PCRE2Engine().compile(input.pattern, options: options, limits: Limits())
            return .compiled(!input.isTame ? [] : input.subjects.map { subject in
                switch compiled.search(MatchSubject(subject)) {
                case .match: return true
                case .noMatch: return false
                case .limitExceeded: return nil
                }
            })
        } catch {
            return error.isUnsupported ? .unsupported(error.message) : .invalid(error.message)
        }
    }

    /// A long shape that must compile and did not.
    static func sizeViolation(_ input: DialectInput, _ pcre2: PCRE2Outcome, dialect: String) -> Violation? {
        guard input.mustCompile else { return nil }
        switch pcre2 {
        case .compiled: return nil
        case .invalid(let message), .unsupported(let message):
            return Violation("\(dialect): \(show(input.pattern)) (\(input.pattern.utf8.count) bytes, within the limit) does not compile: \(message)")
        }
    }

    /// `s` quoted for a message; a long one cut, with its length.
    static func show(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard scalars.count > 120 else { return JSONWriter.quoted(s) }
        let head = String(String.UnicodeScalarView(scalars.prefix(60)))
        let tail = String(String.UnicodeScalarView(scalars.suffix(20)))
        return JSONWriter.quoted(head) + "…" + JSONWriter.quoted(tail) + " (\(scalars.count) characters)"
    }

    /// What a search found, for a message; nil: pcre2 stopped at its budget.
    static func word(_ found: Bool?) -> String {
        found.map { $0 ? "match" : "no match" } ?? "ran out of its match budget (\(Limits().matchLimit) steps)"
    }
}

extension DialectFuzzer {
    /// Every engine's answer on one input, for a person reproducing a
    /// report (`PATHCONFIG_FUZZ_EXPLAIN=1 pathconfig-fuzz-dialect FILE`): the
    /// pattern, and per subject pcre2 (ICU dialect), ICU, pcre2 (Java
    /// dialect) and the JDK (one JVM run).
    public static func explain(_ bytes: [UInt8]) -> String {
        guard let input = DialectInput(bytes) else { return "empty input" }
        var lines = ["pattern \(show(input.pattern)) (\(input.pattern.utf8.count) bytes)\(input.isTame ? "" : ", not tame: compile only")"]
        let icuPCRE2 = outcome(input, options: icuOptions)
        let javaPCRE2 = outcome(input, options: javaOptions)
        var icu: (any CompiledPattern)?
        var icuText = "compiled"
        do { icu = try FoundationEngine().compile(input.pattern, options: icuOptions, limits: Limits()) } catch { icuText = "rejected: \(error.message)" }
        // Subjects are searched only where the check searches them (a wild
        // input's may take ICU or the JDK without limit).
        let subjects = input.isTame ? input.subjects : []
        let jdk = JDKOracle.ask([(input.pattern, subjects)])
        func describe(_ o: PCRE2Outcome) -> String {
            switch o {
            case .compiled: return "compiled"
            case .invalid(let m): return "invalid: \(m)"
            case .unsupported(let m): return "unsupported: \(m)"
            }
        }
        lines.append("pcre2 (ICU dialect): \(describe(icuPCRE2))")
        lines.append("ICU: \(icuText)")
        lines.append("pcre2 (Java dialect): \(describe(javaPCRE2))")
        switch jdk {
        case .success(let answers):
            switch answers[0] {
            case .compiled: lines.append("JDK: compiled")
            case .rejected(let m): lines.append("JDK: rejected: \(m)")
            case .failed(let m): lines.append("JDK: failed: \(m)")
            }
        case .failure(let why): lines.append("JDK: no answer: \(why)")
        }
        func mark(_ o: PCRE2Outcome, _ i: Int) -> String {
            guard case .compiled(let found) = o else { return "-" }
            return found[i].map { $0 ? "1" : "0" } ?? "budget"
        }
        for (i, subject) in subjects.enumerated() {
            let icuFound = icu.map { $0.search(MatchSubject(subject)) == .match ? "1" : "0" } ?? "-"
            var jdkFound = "-"
            if case .success(let answers) = jdk, case .compiled(let found) = answers[0], i < found.count { jdkFound = found[i].map { $0 ? "1" : "0" } ?? "threw" }
            lines.append("  \(show(subject)): pcre2/ICU \(mark(icuPCRE2, i)) ICU \(icuFound) | pcre2/Java \(mark(javaPCRE2, i)) JDK \(jdkFound)")
        }
        return lines.joined(separator: "\n")
    }
}
