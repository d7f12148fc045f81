import PathConfiguration

/// One column of `diff` across profiles: a configuration (a `--config`
/// chain) read under a profile, and the name the reports give it.
struct DiffColumn: Sendable, Equatable {
    /// The profile it is read under.
    let profile: Profile
    /// The configuration's name: its `--config` values joined with `,`.
    let config: String
    /// The column's name in the table and the JSON report's keys: the
    /// profile's name where every column has its own profile, else
    /// `CONFIG:PROFILE`.
    let label: String

    /// The pair form's columns (`ConfigPairs`): each group's configuration
    /// under each of its profiles, in order; labelled by profile where the
    /// profiles are all different, else by configuration and profile.
    static func columns(pairs: [ConfigPairs.Group]) -> [DiffColumn] {
        let all = pairs.flatMap { group in group.profiles.map { (group.configs.joined(separator: ","), $0) } }
        let distinct = Set(all.map(\.1)).count == all.count
        return all.map { config, profile in
            DiffColumn(profile: profile, config: config, label: distinct ? profile.rawValue : "\(config):\(profile.rawValue)")
        }
    }
}
