import PathConfiguration

/// One key of one URL that two versions of a configuration resolve differently.
struct KeyChange: Hashable, Sendable {
    /// What happened to the key.
    enum Kind: String, Sendable {
        /// Only the new version has it.
        case added
        /// Only the old version has it.
        case removed
        /// Both have it, with different values.
        case changed
    }

    /// Where the value sits.
    let path: KeyPath
    /// The old value (nil when absent).
    let old: JSONValue?
    /// The new value (nil when absent).
    let new: JSONValue?

    /// Added, removed or changed.
    var kind: Kind {
        switch (old, new) {
        case (nil, _): return .added
        case (_, nil): return .removed
        default: return .changed
        }
    }
}

/// What changes for one URL between two versions, under a group of profiles
/// that all see the same changes.
struct VersionChange: Sendable {
    /// The URL or path, as given.
    let url: String
    /// The profiles that see exactly these changes, in the comparison's order.
    let profiles: [Profile]
    /// The changes, sorted by path.
    let keys: [KeyChange]
}

/// Resolves URLs under two versions of a configuration, profile by profile,
/// and lists what changes.
struct VersionComparison {
    /// Each profile with the old and the new version loaded under it.
    let configurations: [(profile: Profile, old: PathConfiguration, new: PathConfiguration)]
    /// The method of every lookup.
    let method: String

    /// What changes for `url`, one entry per group of profiles that see the
    /// same changes (groups in the order of their first profile); empty when
    /// nothing changes under any profile. A profile whose app crashes on the
    /// URL (a lookup error `unreadableURL`) crashes under both versions, the
    /// URL alone decides it: nothing changes there.
    func compare(_ url: String) throws(ResolveError) -> [VersionChange] {
        var groups: [(profiles: [Profile], keys: [KeyChange])] = []
        for (profile, old, new) in configurations {
            let before: JSONObject, after: JSONObject
            do throws(ResolveError) {
                before = try old.resolve(url, method: method).object
                after = try new.resolve(url, method: method).object
            } catch where error.code == .unreadableURL {
                continue
            }
            let keys = JSONComparison.differences([.object(before), .object(after)])
                .map { KeyChange(path: $0.path, old: $0.values[0], new: $0.values[1]) }
            guard !keys.isEmpty else { continue }
            if let i = groups.firstIndex(where: { $0.keys == keys }) {
                groups[i].profiles.append(profile)
            } else {
                groups.append(([profile], keys))
            }
        }
        return groups.map { VersionChange(url: url, profiles: $0.profiles, keys: $0.keys) }
    }
}
