import PathConfiguration

/// The outcome of one case under one profile.
struct CheckResult: Sendable {
    let testCase: TestCase
    let profile: Profile
    let method: String
    /// What resolved; nil when the lookup failed.
    let actual: JSONObject?
    /// The typed value of every key of the catalog, as the profile's app
    /// reads `actual` (`PropertyComparison.typedValues`); nil when the
    /// lookup failed, or when neither the mode nor the case asks for typed values.
    let actualTyped: JSONObject?
    /// Where the expected properties and what resolved disagree (`values`:
    /// expected, then actual), sorted; typed reads where the mode is typed.
    let differences: [ValueDifference]
    /// Where the case's `typed` values and the app's typed reads disagree
    /// (`values`: expected, then read; `written`: expected, then what the
    /// properties hold), in the case's order.
    let typedDifferences: [ValueDifference]
    /// The rules that matched, for a failure (empty for a pass).
    let rules: [Explanation.MatchedRule]
    /// Why the lookup failed (a method or URL the library refuses).
    let error: String?
    /// Whether the case's URL is a path the app read on the default base
    /// URL (`PathInput.usesDefaultBase`).
    let usesDefaultBase: Bool

    /// True when the properties and typed values are as expected.
    var passed: Bool { error == nil && differences.isEmpty && typedDifferences.isEmpty }
}

/// Checks the cases of a file against a configuration: each case against
/// its own file (`config`, else the command's `--config`), under each of
/// its profiles (the command's `--profile`s for a case that names none), in
/// file order. A path is read as a page on the configuration's base URL
/// (`PathInput`).
struct CaseRunner {
    /// The command's flags, which each configuration loads with (`ConfigurationSet`).
    let flags: ConfigOptions
    /// Whether a load that fails is reported as a JSON document (`--format json`).
    let errorsAsJSON: Bool
    /// The profiles of a case that names none.
    let defaultProfiles: [Profile]
    /// The method of a case that names none.
    let defaultMethod: String
    var mode: CompareMode = .json
    var ignored = IgnoredKeys()

    /// Every check of `file`, in order: case by case, profile by profile;
    /// each chain (a case's `config` alone, else `--config`'s) made once.
    func run(_ file: CaseFile) throws -> [CheckResult] {
        var results: [CheckResult] = []
        var sets: [[UInt8]: ConfigurationSet] = [:]  // by the files' paths, byte for byte, as the file system names files
        for testCase in file.cases {
            let configs = testCase.config.map { [$0] } ?? flags.config
            let key = Array(configs.joined(separator: "\n").utf8)
            let set = try sets[key] ?? ConfigurationSet(flags: flags, sources: flags.sources(configs), errorsAsJSON: errorsAsJSON)
            sets[key] = set
            for profile in testCase.profiles.isEmpty ? defaultProfiles : testCase.profiles {
                let configuration = try set.configuration(profile: profile, overrides: testCase.options)
                results.append(check(testCase, profile: profile, in: configuration))
            }
        }
        return results
    }

    private func check(_ testCase: TestCase, profile: Profile, in configuration: PathConfiguration) -> CheckResult {
        let method = testCase.method ?? defaultMethod
        let input = PathInput.url(for: testCase.url, in: configuration)
        let usesDefaultBase = PathInput.usesDefaultBase(testCase.url, in: configuration)
        do {
            let answer = try configuration.resolve(input, method: method)
            let differences = testCase.expected.map { expected in
                ignored.filter(PropertyComparison.differences([PathProperties(expected, typedReading: profile.typedReading), answer],
                                                              mode: mode, keysOf: testCase.match == .subset ? 0 : nil))
            } ?? []
            let typedDifferences = testCase.typed.compactMap { key, value -> ValueDifference? in
                if ignored.ignores(KeyPath([key.rawValue])) { return nil }
                let read = PropertyComparison.typedValue(answer, key)
                if JSONComparison.equal(value, read) { return nil }
                return ValueDifference(path: KeyPath([key.rawValue]), values: [value, read], written: [value, answer[key.rawValue]])
            }
            let failed = !differences.isEmpty || !typedDifferences.isEmpty
            let rules = failed ? try configuration.explain(input, method: method).rules : []
            let typed = mode == .typed || !testCase.typed.isEmpty ? PropertyComparison.typedValues(answer) : nil
            return CheckResult(testCase: testCase, profile: profile, method: method, actual: answer.object, actualTyped: typed,
                               differences: differences, typedDifferences: typedDifferences, rules: rules, error: nil,
                               usesDefaultBase: usesDefaultBase)
        } catch {
            return CheckResult(testCase: testCase, profile: profile, method: method, actual: nil, actualTyped: nil,
                               differences: [], typedDifferences: [], rules: [], error: error.message, usesDefaultBase: usesDefaultBase)
        }
    }
}
