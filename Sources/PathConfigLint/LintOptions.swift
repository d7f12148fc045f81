import PathConfigCore

/// What lint checks a configuration against: the apps (profiles) it is meant
/// for, the load options that change what a pattern means, and the kinds of
/// finding a team allows or denies.
public struct LintOptions: Sendable {
    /// The profiles whose apps read the file. Patterns are compiled in each
    /// one's engine, the file is decoded under each, and the query-string and
    /// typed-value checks ask each. Empty means `defaultProfiles`.
    public var profiles: [Profile]
    /// The regex engine patterns are compiled with (the CLI's `--backend`).
    public var engine: any RegexEngine
    /// Whether `?query` is appended before matching; nil: each profile's default.
    public var matchQueryStrings: Bool?
    /// How matching rules' properties combine (decides when a later rule
    /// overrides an earlier one).
    public var merge: MergeMode
    /// Size and depth bounds (the same as a load's).
    public var limits: Limits
    /// The base URL relative globs are translated under.
    public var baseURL: BaseURL?
    /// Kinds whose findings are not reported, in any document (`pathconfig
    /// validate --allow`). A document allows kinds itself with a `lint`
    /// marker (`LintReport.allowedByMarkers`).
    public var allow: Set<LintFinding.Kind> = []
    /// Kinds whose findings are always reported: a document's `lint` marker
    /// does not allow them, and `allow` does not either (`pathconfig validate
    /// --deny`, which also fails on them). A team's CI decides over its files.
    public var deny: Set<LintFinding.Kind> = []

    /// The profiles a configuration is checked against when none are named:
    /// the four mobile apps' (`Profile.isMobileApp`), since one file usually
    /// serves an iOS and an Android app.
    public static let defaultProfiles: [Profile] = Profile.allCases.filter(\.isMobileApp)

    /// Options for `profiles` (empty: `defaultProfiles`), taking the engine,
    /// query-string matching, merge mode, limits and base URL from `load` (its
    /// `profile` is not used), with the kinds allowed and denied.
    public init(profiles: [Profile] = [], load: LoadOptions = LoadOptions(), allow: Set<LintFinding.Kind> = [],
                deny: Set<LintFinding.Kind> = []) {
        self.profiles = profiles
        self.allow = allow
        self.deny = deny
        self.engine = load.engine
        self.matchQueryStrings = load.matchQueryStrings
        self.merge = load.merge
        self.limits = load.limits
        self.baseURL = load.baseURL
    }

    /// The profiles checked: `profiles` without repeats, or `defaultProfiles`.
    public var selectedProfiles: [Profile] {
        profiles.isEmpty ? Self.defaultProfiles : profiles.uniqued()
    }

    /// Whether `profile` appends `?query` before matching under these options.
    public func matchesQueryStrings(_ profile: Profile) -> Bool {
        matchQueryStrings ?? profile.matchesQueryStringsByDefault
    }
}
