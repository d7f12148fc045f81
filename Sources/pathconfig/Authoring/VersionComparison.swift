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
    /// For a typed read (`PropertyComparison`): what the old and the new
    /// version wrote for the key (nil where nothing), from which the app
    /// read `old` and `new`. nil when the values are compared as written.
    let written: [JSONValue?]?

    /// The change of `path` from `old` to `new` (`written`: see there).
    init(path: KeyPath, old: JSONValue?, new: JSONValue?, written: [JSONValue?]? = nil) {
        self.path = path
        self.old = old
        self.new = new
        self.written = written
    }

    /// The difference this change is: values old, then new.
    var difference: ValueDifference { ValueDifference(path: path, values: [old, new], written: written) }

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
    /// Compare values as written or as typed reads (`PropertyComparison`).
    var mode: CompareMode = .json
    /// Whether a path is read as a page on the configurations' base URL
    /// (`PathInput`), as `diff` reads it; false: every input as given.
    var resolvesPaths = false
    /// The keys left out of the comparison (`--ignore-key`).
    var ignored = IgnoredKeys()

    /// What changes for `url`, one entry per group of profiles that see the
    /// same changes (groups in the order of their first profile); empty when
    /// nothing changes under any profile. A profile whose app crashes on the
    /// URL (a lookup error `unreadableURL`) crashes under both versions, the
    /// URL alone decides it: nothing changes there.
    func compare(_ url: String) throws(ResolveError) -> [VersionChange] {
        var groups: [(profiles: [Profile], keys: [KeyChange])] = []
        for (profile, old, new) in configurations {
            let before: PathProperties, after: PathProperties
            do throws(ResolveError) {
                before = try old.resolve(resolvesPaths ? PathInput.url(for: url, in: old) : url, method: method)
                after = try new.resolve(resolvesPaths ? PathInput.url(for: url, in: new) : url, method: method)
            } catch where error.code == .unreadableURL {
                continue
            }
            let keys = ignored.filter(PropertyComparison.differences([before, after], mode: mode))
                .map { KeyChange(path: $0.path, old: $0.values[0], new: $0.values[1], written: $0.written) }
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
