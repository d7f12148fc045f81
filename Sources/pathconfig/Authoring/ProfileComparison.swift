import PathConfiguration

/// How one URL resolves under several profiles, where they disagree.
struct ProfileDifference: Sendable {
    /// The URL or path, as given.
    let url: String
    /// The properties under each profile, in the comparison's order; nil
    /// where the profile's app crashes on the URL.
    let properties: [JSONObject?]
    /// Why the app crashes, under each profile whose app does; nil elsewhere.
    let crashes: [String?]
    /// Where they disagree (one value per profile; nil for a key a profile
    /// lacks, and under a profile whose app crashes), sorted by path.
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
    /// under all of them. A profile whose app crashes on the URL (a lookup
    /// error `unreadableURL`: turbo-android on a URL `java.net.URL` rejects)
    /// differs from every profile that answers; throws when no profile
    /// answers.
    func compare(_ url: String) throws(ResolveError) -> ProfileDifference? {
        var properties: [JSONObject?] = [], crashes: [String?] = []
        var lastCrash: ResolveError?
        for (_, configuration) in configurations {
            do throws(ResolveError) {
                properties.append(try configuration.resolve(url, method: method).object)
                crashes.append(nil)
            } catch where error.code == .unreadableURL {
                properties.append(nil)
                crashes.append(error.message)
                lastCrash = error
            }
        }
        if let lastCrash, !properties.contains(where: { $0 != nil }) { throw lastCrash }
        var differences = JSONComparison.differences(properties.map { .object($0 ?? [:]) })
            .map { ValueDifference(path: $0.path, values: zip($0.values, properties).map { $1 == nil ? nil : $0 }) }
        if differences.isEmpty && lastCrash != nil {
            // The apps that answer agree (on nothing, perhaps): the whole
            // answer differs from the crash.
            differences = [ValueDifference(path: KeyPath([]), values: properties.map { $0.map(JSONValue.object) })]
        }
        return differences.isEmpty ? nil : ProfileDifference(url: url, properties: properties, crashes: crashes, differences: differences)
    }
}
