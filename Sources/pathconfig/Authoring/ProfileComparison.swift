import PathConfiguration

/// How one URL resolves under several profiles, where they disagree.
struct ProfileDifference: Sendable {
    /// The URL or path, as given.
    let url: String
    /// The properties under each profile, in the comparison's order.
    let properties: [JSONObject]
    /// Where they disagree (one value per profile), sorted by path.
    let differences: [ValueDifference]
}

/// Resolves URLs under every profile of a list and keeps those whose
/// properties differ between profiles.
struct ProfileComparison {
    /// The profiles, each with the configuration loaded under it, in column order.
    let configurations: [(profile: Profile, configuration: PathConfiguration)]
    /// The method of every lookup.
    let method: String

    /// How `url` differs between the profiles; nil when it resolves alike
    /// under all of them.
    func compare(_ url: String) throws(ResolveError) -> ProfileDifference? {
        var properties: [JSONObject] = []
        for (_, configuration) in configurations {
            properties.append(try configuration.resolve(url, method: method).object)
        }
        let differences = JSONComparison.differences(properties.map(JSONValue.object))
        return differences.isEmpty ? nil : ProfileDifference(url: url, properties: properties, differences: differences)
    }
}
