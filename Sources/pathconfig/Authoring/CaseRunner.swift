import PathConfiguration

/// The outcome of one case under one profile.
struct CheckResult: Sendable {
    /// The case.
    let testCase: TestCase
    /// The profile it was checked under.
    let profile: Profile
    /// The method of the lookup.
    let method: String
    /// What resolved; nil when the lookup failed.
    let actual: JSONObject?
    /// Where expected and actual disagree (`values`: expected, then actual), sorted.
    let differences: [ValueDifference]
    /// The rules that matched, for a failure (empty for a pass).
    let rules: [Explanation.MatchedRule]
    /// Why the lookup failed (a method or URL the library refuses).
    let error: String?

    /// True when the properties are as expected.
    var passed: Bool { error == nil && differences.isEmpty }
}

/// Checks the cases of a file against a configuration: each case under each
/// of its profiles (the command's `--profile`s for a case that names none),
/// in file order.
struct CaseRunner {
    /// The configuration, loaded as the checks need it.
    let configurations: ConfigurationSet
    /// The profiles of a case that names none.
    let defaultProfiles: [Profile]
    /// The method of a case that names none.
    let defaultMethod: String

    /// Every check of `file`, in order: case by case, profile by profile.
    func run(_ file: CaseFile) throws -> [CheckResult] {
        var results: [CheckResult] = []
        for testCase in file.cases {
            for profile in testCase.profiles.isEmpty ? defaultProfiles : testCase.profiles {
                let configuration = try configurations.configuration(profile: profile, overrides: testCase.options, key: testCase.optionsKey)
                results.append(check(testCase, profile: profile, in: configuration))
            }
        }
        return results
    }

    private func check(_ testCase: TestCase, profile: Profile, in configuration: PathConfiguration) -> CheckResult {
        let method = testCase.method ?? defaultMethod
        do {
            let actual = try configuration.resolve(testCase.url, method: method).object
            let differences = JSONComparison.differences([.object(testCase.expected), .object(actual)],
                                                         keysOf: testCase.match == .subset ? 0 : nil)
            let rules = differences.isEmpty ? [] : try configuration.explain(testCase.url, method: method).rules
            return CheckResult(testCase: testCase, profile: profile, method: method, actual: actual,
                               differences: differences, rules: rules, error: nil)
        } catch {
            return CheckResult(testCase: testCase, profile: profile, method: method, actual: nil,
                               differences: [], rules: [], error: error.message)
        }
    }
}
