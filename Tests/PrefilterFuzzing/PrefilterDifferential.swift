import PathConfiguration

/// Loads the same patterns with the prefilter on and off and compares which
/// rules match each subject: any difference is a required literal that is
/// wrong (the prefilter skipped a pattern that matches).
///
/// Each pattern becomes one rule; configurations are loaded leniently, so a
/// pattern an engine rejects is skipped the same way on both sides.
public struct PrefilterDifferential: Sendable {
    /// One subject on which the two configurations disagree.
    public struct Disagreement: CustomStringConvertible, Sendable {
        /// The pattern whose rule matched on one side only.
        public let pattern: String
        /// The string it was matched against.
        public let subject: String
        /// The profile and engine of the configurations.
        public let profile: Profile, engine: String
        /// Whether the rule matched with the prefilter on, and with it off.
        public let withPrefilter: Bool, withoutPrefilter: Bool

        public var description: String {
            "pattern \(Self.quoted(pattern)) on subject \(Self.quoted(subject)) (\(profile.rawValue), \(engine)): "
                + "prefilter on \(withPrefilter ? "matches" : "does not match"), off \(withoutPrefilter ? "matches" : "does not match")"
        }

        private static func quoted(_ s: String) -> String {
            "\"" + s.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined() + "\""
        }
    }

    /// What a run compared, so a caller can tell that it was not vacuous.
    public struct Tally: Sendable {
        /// Patterns compiled (summed over profiles and engines).
        public var compiled = 0
        /// Subjects matched against a configuration (summed likewise).
        public var lookups = 0
        /// Rule matches found (with the prefilter off).
        public var matches = 0
        /// Patterns that matched at least one subject (with the prefilter off).
        public var matchedPatterns: Set<String> = []

        /// An empty tally.
        public init() {}
    }

    /// The engines to compare under. ICU has no match budget: give the
    /// `foundation` engine only tame patterns (`PatternNode.isTame`) and
    /// short subjects.
    public let engines: [any RegexEngine]
    /// The profiles: one case-sensitive with Unicode classes (iOS), one
    /// case-insensitive with ASCII classes (Android).
    public let profiles: [Profile]

    /// Compares under `engines` and `profiles`.
    public init(engines: [any RegexEngine], profiles: [Profile] = [.hotwireIOS, .hotwireAndroid]) {
        self.engines = engines
        self.profiles = profiles
    }

    /// Loads `patterns` (one rule each) under every profile and engine, with
    /// and without the prefilter, and matches every subject.
    public func compare(patterns: [String], subjects: [String], tally: inout Tally) -> [Disagreement] {
        let json = Self.document(patterns)
        var found: [Disagreement] = []
        for engine in engines {
            for profile in profiles {
                var on = LoadOptions(profile: profile, engine: engine, lenient: true)
                on.limits.resultCacheCapacity = 0
                on.limits.matchLimit = 200_000
                var off = on
                off.usePrefilter = false
                guard let fast = try? PathConfiguration(json: json, options: on),
                      let slow = try? PathConfiguration(json: json, options: off)
                else { continue }
                tally.compiled += slow.rules.count - slow.warnings.count
                for subject in subjects {
                    // Match the string itself, not the path of a URL it may parse as.
                    let input = fast.matchedString(for: subject) == subject ? subject : "/" + subject
                    let a = Set(((try? fast.matchingRules(for: input)) ?? []).map(\.ruleIndex))  // no method, no rules from code: cannot throw
                    let b = Set(((try? slow.matchingRules(for: input)) ?? []).map(\.ruleIndex))
                    tally.lookups += 1
                    tally.matches += b.count
                    for rule in b { tally.matchedPatterns.formUnion(slow.rules[rule].patterns) }
                    // A search the engine gave up on (its match limit) counts as no
                    // match; the prefilter's automaton, linear in the subject,
                    // answers it exactly. Only a decided search can disagree.
                    let undecided = a == b ? [] : Set(((try? slow.explain(input))?.limitExceeded ?? []).map(\.ruleIndex))
                    for rule in a.symmetricDifference(b) where !undecided.contains(rule) {
                        found.append(Disagreement(pattern: slow.rules[rule].patterns.first ?? "", subject: input, profile: profile,
                                                  engine: engine.name, withPrefilter: a.contains(rule), withoutPrefilter: b.contains(rule)))
                    }
                }
            }
        }
        return found
    }

    /// A configuration document with one rule per pattern.
    public static func document(_ patterns: [String]) -> String {
        var json = "{\"rules\":["
        for (i, pattern) in patterns.enumerated() {
            if i > 0 { json += "," }
            json += "{\"patterns\":[" + quoted(pattern) + "],\"properties\":{\"rule\":\(i)}}"
        }
        return json + "]}"
    }

    /// `s` as a JSON string.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
