import PathConfiguration

extension ValueDifference {
    /// What happened to a key from an old version (`values[0]`) to a new one (`values[1]`).
    enum Change: String, Sendable {
        /// Only the new version has it.
        case added
        /// Only the old version has it.
        case removed
        /// Both have it, with different values.
        case changed
    }

    var change: Change {
        switch (values[0], values[1]) {
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
    /// The changes (values old, then new), sorted by path.
    let keys: [ValueDifference]
}

/// Resolves URLs under two versions of a configuration, profile by profile,
/// and lists what changes.
struct VersionComparison {
    /// Each profile with the old and the new version loaded under it.
    let configurations: [(profile: Profile, old: PathConfiguration, new: PathConfiguration)]
    let method: String
    var mode: CompareMode = .json
    var ignored = IgnoredKeys()

    /// What changes for `url`, one entry per group of profiles that see the
    /// same changes (groups in the order of their first profile); empty when
    /// nothing changes under any profile. A profile whose app crashes on the
    /// URL (a lookup error `unreadableURL`) crashes under both versions, the
    /// URL alone decides it: nothing changes there.
    func compare(_ url: String) throws(ResolveError) -> [VersionChange] {
        var groups: [(profiles: [Profile], keys: [ValueDifference])] = []
        for (profile, old, new) in configurations {
            let before: PathProperties, after: PathProperties
            do throws(ResolveError) {
                before = try old.resolve(PathInput.url(for: url, in: old), method: method)
                after = try new.resolve(PathInput.url(for: url, in: new), method: method)
            } catch where error.code == .unreadableURL {
                continue
            }
            let keys = ignored.filter(PropertyComparison.differences([before, after], mode: mode))
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
