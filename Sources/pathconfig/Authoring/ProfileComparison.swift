import PathConfiguration

/// How one URL resolves under several profiles, where they disagree.
struct ProfileDifference: Sendable {
    /// The URL or path, as given.
    let url: String
    /// The properties under each profile, in the comparison's order; nil
    /// where the profile's app crashes on the URL.
    let properties: [JSONObject?]
    /// Typed comparisons only: the typed value of every key of the catalog
    /// under each profile (`PropertyComparison.typedValues`), nil where the
    /// app crashes. nil when comparing as written.
    let typed: [JSONObject?]?
    /// Why the app crashes, under each profile whose app does; nil elsewhere.
    let crashes: [String?]
    /// Where they disagree (one value per profile; nil for a key a profile
    /// lacks, and under a profile whose app crashes), sorted by path.
    let differences: [ValueDifference]
    /// For each of `differences`, the rule that set the value under each
    /// profile (`RuleAttribution`); nil where no rule did (absent, a
    /// default) or the app crashes.
    let rules: [[Explanation.MatchedRule?]]
}

/// Resolves URLs under every profile of a list and keeps those whose
/// properties differ between profiles.
struct ProfileComparison {
    /// The profiles, each with the configuration loaded under it, in column order.
    let configurations: [(profile: Profile, configuration: PathConfiguration)]
    let method: String
    let mode: CompareMode
    let ignored: IgnoredKeys
    /// Typed, the keys of the catalog compared: those every profile's app
    /// reads (`Profile.reads`). The others are left out: an app that never
    /// reads a key behaves alike whatever it holds.
    let typedKeys: [TypedKey]

    init(configurations: [(profile: Profile, configuration: PathConfiguration)], method: String, mode: CompareMode, ignored: IgnoredKeys) {
        (self.configurations, self.method, self.mode, self.ignored) = (configurations, method, mode, ignored)
        typedKeys = TypedKey.allCases.filter { key in configurations.allSatisfy { $0.profile.reads(key) } }
    }

    /// Typed, the keys of the catalog left out because one profile's app
    /// never reads them while another's does: each such profile (once, in
    /// column order) with those keys. Empty as written, and where the apps
    /// read the same keys (a key no app compared reads differs nowhere).
    var unreadKeys: [(profile: Profile, keys: [TypedKey])] {
        guard mode == .typed else { return [] }
        let profiles = configurations.map(\.profile)
        return profiles.uniqued().compactMap { profile in
            let keys = profile.unreadTypedKeys.filter { key in profiles.contains { $0.reads(key) } }
            return keys.isEmpty ? nil : (profile, keys)
        }
    }

    /// How `url` differs between the profiles; nil when it resolves alike
    /// under all of them. A profile whose app crashes on the URL (a lookup
    /// error `unreadableURL`: turbo-android on a URL `java.net.URL` rejects)
    /// differs from every profile that answers; throws when no profile
    /// answers.
    func compare(_ url: String) throws(ResolveError) -> ProfileDifference? {
        var answers: [PathProperties?] = [], crashes: [String?] = []
        var lastCrash: ResolveError?
        for (_, configuration) in configurations {
            do throws(ResolveError) {
                answers.append(try configuration.resolve(PathInput.url(for: url, in: configuration), method: method))
                crashes.append(nil)
            } catch where error.code == .unreadableURL {
                answers.append(nil)
                crashes.append(error.message)
                lastCrash = error
            }
        }
        if let lastCrash, !answers.contains(where: { $0 != nil }) { throw lastCrash }
        let properties = answers.map { $0?.object }
        // As written, an app that crashes has no keys: every key an app that
        // answers has differs from it. Typed, every app that answers has
        // every key of the catalog, so only where those apps disagree is shown.
        let compared = mode == .json ? Array(answers.indices) : answers.indices.filter { answers[$0] != nil }
        let sides = compared.map { answers[$0] ?? PathProperties(JSONObject(), typedReading: configurations[$0].profile.typedReading) }
        var differences = ignored.filter(PropertyComparison.differences(sides, mode: mode, typedKeys: typedKeys)).map { d in
            ValueDifference(path: d.path, values: Self.spread(d.values, over: compared, answers),
                            written: d.written.map { Self.spread($0, over: compared, answers) })
        }
        if differences.isEmpty && lastCrash != nil {
            // The apps that answer agree (on nothing, perhaps): the whole
            // answer differs from the crash.
            differences = [ValueDifference(path: KeyPath([]), values: properties.map { $0.map(JSONValue.object) })]
        }
        guard !differences.isEmpty else { return nil }
        let typed = mode == .typed ? answers.map { $0.map { PropertyComparison.typedValues($0) } } : nil
        return ProfileDifference(url: url, properties: properties, typed: typed, crashes: crashes, differences: differences,
                                 rules: try rules(setting: differences, for: url, answered: answers.map { $0 != nil }))
    }

    /// For each of `differences` of `url`, the rule that set the value under
    /// each profile whose app answered (`RuleAttribution`).
    private func rules(setting differences: [ValueDifference], for url: String, answered: [Bool]) throws(ResolveError)
        -> [[Explanation.MatchedRule?]] {
        let explanations = try zip(configurations, answered).map { side, answers throws(ResolveError) -> Explanation? in
            answers ? try side.configuration.explain(PathInput.url(for: url, in: side.configuration), method: method) : nil
        }
        return differences.map { d in
            zip(explanations, configurations).enumerated().map { i, column in
                // A key the answer lacks no rule set (on iOS, a rule's key may be another's spelling of it).
                d.values[i] == nil ? nil : column.0.flatMap { RuleAttribution.rule(setting: d.path, in: $0, of: column.1.configuration) }
            }
        }
    }

    /// `values`, one for each of the profiles at the positions `compared`,
    /// spread to one per profile: nil where the app crashed.
    private static func spread(_ values: [JSONValue?], over compared: [Int], _ answers: [PathProperties?]) -> [JSONValue?] {
        var out = [JSONValue?](repeating: nil, count: answers.count)
        for (value, i) in zip(values, compared) where answers[i] != nil { out[i] = value }
        return out
    }
}
