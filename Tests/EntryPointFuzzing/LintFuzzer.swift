import PathConfiguration

/// `pathconfig-fuzz-lint`: a document linted for profiles picked by the
/// input, and lint's answers checked against what loading the document says.
///
/// Input: two selector bytes, then the document. The first byte's low five
/// bits pick the profiles (`Profile.allCases` by bit; none set: the default),
/// bit 5 picks `merge: deep`; the second byte % 3 sets query matching
/// (default, on, off).
///
/// Checks:
/// - Lint throws exactly when the document does not decode (with the
///   decoder's message), and gives the same findings twice.
/// - Every finding has a message, a location inside the document whose line
///   and column agree with a plain count over the bytes, a rule and pattern
///   index in range (its rule's description with it), profiles among those
///   selected; findings come sorted by position.
/// - Each trailing comma reported is a comma; with them all removed the
///   document decodes to the same rules and settings and has none left.
/// - Lint against loading, for each selected profile: a strict load fails on
///   a pattern exactly when lint reports an invalid pattern for that profile
///   (or for a glob), and on anything else exactly when lint reports that the
///   profile's app rejects the file.
/// - `overridden-rule` is never a false positive: without the rule, every
///   profile resolves the same properties for a set of URLs (lenient loads,
///   as the apps skip what they cannot compile; keys may come in another
///   order, which no app sees).
public enum LintFuzzer {
    /// The URLs resolved with and without a rule lint says never applies.
    static let urls = ["/", "/new", "/a", "/a/b", "/messages/new?x=1", "/file.pdf", "/edit", "https://example.com/x/edit?y=2",
                       "/recede_historical_location", "/api/v1/users", "/b$", ""]

    /// Builds an input.
    public static func input(profiles: [Profile], deep: Bool = false, queryStrings: Bool? = nil, document: [UInt8]) -> [UInt8] {
        var a: UInt8 = deep ? 0x20 : 0
        for p in profiles { a |= 1 << UInt8(Profile.allCases.firstIndex(of: p)!) }
        let b: UInt8 = queryStrings.map { $0 ? 1 : 2 } ?? 0
        return [a, b] + document
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        var reader = FuzzReader(bytes)
        let a = reader.byte(), b = reader.byte()
        let document = reader.rest()
        var load = LoadOptions()
        load.merge = a & 0x20 != 0 ? .deep : .shallow
        load.matchQueryStrings = [nil, true, false][Int(b % 3)]
        let profiles = Profile.allCases.enumerated().filter { a & (1 << UInt8($0.offset)) != 0 }.map(\.element)
        // Every kind denied, so that a "lint" marker in the input hides no finding from the checks.
        let options = LintOptions(profiles: profiles, load: load, deny: Set(LintFinding.Kind.allCases))
        do throws(Violation) {
            try check(document, options: options, load: load)
            return nil
        } catch {
            return error
        }
    }

    static func check(_ document: [UInt8], options: LintOptions, load: LoadOptions) throws(Violation) {
        let linter = Linter(options: options)
        let decoding = Result { () throws(ConfigurationError) in
            try ConfigurationDecoder(profile: .siesta, limits: options.limits).decode(document)
        }
        let linting = Result { () throws(ConfigurationError) in try linter.lint(document) }
        let decoded: ConfigurationDocument
        switch (decoding, linting) {
        case (.failure(let error), .failure(let lintError)):
            if lintError.message != error.message { throw Violation("lint's error \"\(lintError.message)\" is not the decoder's \"\(error.message)\"") }
            return
        case (.failure(let error), .success):
            // Lint reads a file only Gson reads as the Android app that loads it does.
            let android = options.selectedProfiles.filter { $0.platform == .android }
            guard android.contains(where: { (try? ConfigurationDecoder(profile: $0, limits: options.limits).decode(document)) != nil }) else {
                throw Violation("lint read a document the decoder rejects (\(error.message))")
            }
            return
        case (.success, .failure(let error)):
            throw Violation("lint failed on a document that decodes: \(error.message)")
        case (.success(let document), .success):
            decoded = document
        }
        let findings = (try? linting.get()) ?? []
        guard (try? linter.lint(document)) == findings else { throw Violation("lint gave other findings the second time") }
        try checkFindings(findings, document, decoded, options)
        try checkTrailingCommas(findings, document, decoded, options)
        try checkAgainstLoads(findings, document, options, load)
        try checkOverridden(findings, decoded, options, load)
    }

    static func checkFindings(_ findings: [LintFinding], _ document: [UInt8], _ decoded: ConfigurationDocument, _ options: LintOptions) throws(Violation) {
        var previous = -1
        for f in findings {
            if f.message.isEmpty { throw Violation("a \(f.kind.rawValue) finding has no message") }
            guard let location = f.location else { throw Violation("a \(f.kind.rawValue) finding has no location") }
            guard location.offset >= previous else { throw Violation("findings are not sorted by position") }
            previous = location.offset
            // Lint's offsets are in the document as UTF-8: a UTF-16 or UTF-32 one is converted first.
            let converted = document.count >= 2 && (document[0] == 0 || document[1] == 0 || [[0xFF, 0xFE], [0xFE, 0xFF]].contains(Array(document.prefix(2))))
            guard converted || (0...document.count).contains(location.offset) else { throw Violation("\(f.kind.rawValue) at offset \(location.offset) is outside the document") }
            let plain = document.withUnsafeBufferPointer { SourceLocation(offset: location.offset, in: $0) }
            guard converted || plain == location else { throw Violation("\(f.kind.rawValue) at \(location) but a plain count says \(plain)") }
            if let rule = f.ruleIndex {
                guard decoded.rules.indices.contains(rule) else { throw Violation("\(f.kind.rawValue) names rule \(rule) of \(decoded.rules.count)") }
                guard f.ruleDescription == decoded.rules[rule].description else { throw Violation("\(f.kind.rawValue): rule \(rule)'s description is wrong") }
                if let pattern = f.patternIndex, pattern >= max(decoded.rules[rule].patterns.count, decoded.rules[rule].globs.count) {
                    throw Violation("\(f.kind.rawValue) names pattern \(pattern) of rule \(rule)")
                }
            } else if f.patternIndex != nil {
                throw Violation("\(f.kind.rawValue) names a pattern but no rule")
            }
            guard f.profiles.allSatisfy(options.selectedProfiles.contains) else { throw Violation("\(f.kind.rawValue) names a profile not selected") }
        }
    }

    static func checkTrailingCommas(_ findings: [LintFinding], _ document: [UInt8], _ decoded: ConfigurationDocument, _ options: LintOptions) throws(Violation) {
        let commas = findings.filter { $0.kind == .trailingComma }.compactMap(\.location?.offset)
        guard !commas.isEmpty else { return }
        guard commas.allSatisfy({ document.indices.contains($0) && document[$0] == UInt8(ascii: ",") }) else {
            throw Violation("a trailing comma reported where there is no comma")
        }
        var cleaned = document
        for offset in commas.reversed() { cleaned.remove(at: offset) }
        guard let again = try? ConfigurationDecoder(profile: .siesta, limits: options.limits).decode(cleaned) else {
            throw Violation("the document no longer decodes without its trailing commas")
        }
        guard again.rules.map(\.patterns) == decoded.rules.map(\.patterns), again.rules.map(\.properties) == decoded.rules.map(\.properties),
              again.settings == decoded.settings else {
            throw Violation("removing the trailing commas changed the document")
        }
        if let left = try? Linter(options: options).lint(cleaned), left.contains(where: { $0.kind == .trailingComma }) {
            throw Violation("trailing commas left after removing every one reported")
        }
    }

    static func checkAgainstLoads(_ findings: [LintFinding], _ document: [UInt8], _ options: LintOptions, _ load: LoadOptions) throws(Violation) {
        for profile in options.selectedProfiles {
            var strict = load
            strict.profile = profile
            strict.lenient = false
            let reportedPattern = findings.contains { $0.kind == .invalidPattern && ($0.profiles.contains(profile) || $0.profiles.isEmpty) }
            // A rejection is said as not-portable for that profile alone, or by the
            // trailing comma or repeated key it comes from, naming the profile.
            let reportedRejection = findings.contains {
                ($0.kind == .notPortable && $0.profiles == [profile] && $0.message.hasPrefix("the \(profile.rawValue) app rejects"))
                    || ([.trailingComma, .duplicateKey].contains($0.kind) && $0.profiles.contains(profile))
            }
            let loading = Result { () throws(ConfigurationError) in try PathConfiguration(json: document, options: strict) }
            switch loading {
            case .success:
                if reportedPattern || reportedRejection { throw Violation("lint says \(profile.rawValue) rejects the file, but it loads there") }
            case .failure(let error) where error.code == .invalidPattern:
                if !reportedPattern { throw Violation("\(profile.rawValue) rejects a pattern lint did not report: \(error.message)") }
            case .failure(let error):
                if !reportedRejection { throw Violation("\(profile.rawValue) rejects the file and lint did not say: \(error.message)") }
            }
        }
    }

    /// `value` with every object's keys sorted, to compare values whose
    /// objects may list the same keys in another order.
    static func unordered(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var sorted = JSONObject()
            for key in object.keys.sorted() { sorted[key] = unordered(object[key] ?? .null) }
            return .object(sorted)
        case .array(let items): return .array(items.map(unordered))
        default: return value
        }
    }

    /// What the overridden-rule check says of a finding that rule `rule` of
    /// `document` never applies, whether lint gave it or not: tests feed it
    /// a fabricated one to show the check is not vacuous.
    public static func overriddenViolation(_ document: String, rule: Int, profiles: [Profile]) -> Violation? {
        let options = LintOptions(profiles: profiles)
        guard let decoded = try? ConfigurationDecoder(profile: .siesta).decode(document) else { return Violation("not a configuration") }
        let finding = LintFinding(kind: .overriddenRule, message: "fabricated", location: nil, ruleIndex: rule)
        do throws(Violation) {
            try checkOverridden([finding], decoded, options, LoadOptions())
            return nil
        } catch {
            return error
        }
    }

    static func checkOverridden(_ findings: [LintFinding], _ decoded: ConfigurationDocument, _ options: LintOptions, _ load: LoadOptions) throws(Violation) {
        let overridden = Set(findings.filter { $0.kind == .overriddenRule }.compactMap(\.ruleIndex))
        guard !overridden.isEmpty else { return }
        for profile in options.selectedProfiles {
            var lenient = load
            lenient.profile = profile
            lenient.lenient = true
            guard let whole = try? PathConfiguration(document: decoded, options: lenient) else { continue }
            for rule in overridden {
                var without = decoded
                without.rules = decoded.rules.enumerated().filter { $0.offset != rule }.enumerated().map { index, entry in
                    let r = entry.element
                    return Rule(index: index, patterns: r.patterns, globs: r.globs, methods: r.methods, properties: r.properties,
                                extras: r.extras, patternOffsets: r.patternOffsets, globOffsets: r.globOffsets)
                }
                guard let smaller = try? PathConfiguration(document: without, options: lenient) else {
                    throw Violation("the configuration without rule \(rule) does not load under \(profile.rawValue)")
                }
                for url in urls {
                    for method in ["GET", "POST"] {
                        let a = try? whole.resolve(url, method: method), b = try? smaller.resolve(url, method: method)
                        // The same properties; the order of keys may differ (an earlier rule
                        // places a key first), which no app can see.
                        if a.map({ Self.unordered(.object($0.object)) }) != b.map({ Self.unordered(.object($0.object)) }) {
                            throw Violation("rule \(rule) is reported as never applying, but without it \(method) \(url) under \(profile.rawValue) gives \(b?.json ?? "nil"), not \(a?.json ?? "nil")")
                        }
                    }
                }
            }
        }
    }
}
