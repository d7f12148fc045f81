/// How a configuration is loaded: which app to reproduce, which engine runs
/// the patterns, how strict to be, and the limits.
public struct LoadOptions: Sendable {
    /// The reference app to reproduce (default `hotwire-ios`).
    public var profile: Profile
    /// Append `?query` to URL paths before matching; nil takes the profile's
    /// default (on for all but `turbo-ios`).
    public var matchQueryStrings: Bool?
    /// The regex engine (default PCRE2).
    public var engine: any RegexEngine
    /// Skip patterns the engine rejects, with a warning, as the apps do;
    /// false (the default) makes such a pattern fail the load.
    public var lenient: Bool
    /// Size, depth and time bounds.
    public var limits: Limits
    /// Skip patterns whose required literal is absent from the subject, and
    /// decide plain patterns on printable ASCII subjects by an automaton
    /// (`SmallPattern`, or one for all of them: `PlanAutomaton`) rather
    /// than the engine (default true). Off, every
    /// pattern runs through the engine on every lookup, as in the reference
    /// apps; results are the same either way, except that the engine may run
    /// out of its match limit where the automaton needs none.
    public var usePrefilter: Bool = true
    /// With the prefilter, combine a plan's plain patterns into one
    /// automaton (`PlanAutomaton`; default true). Off only in tests that
    /// compare the automaton with the prefilter's candidates.
    var combinesPatterns: Bool = true
    /// The service's base URL (Siesta's `Service.baseURL`): relative globs
    /// and inputs without a scheme resolve against it (an input as Siesta's
    /// `resource(_:)` appends a path: `BaseURL.resourceURL(path:)`). nil (the
    /// default): globs and inputs are taken as written.
    public var baseURL: BaseURL?
    /// How matching rules' properties combine (default `.shallow`, as the apps do).
    public var merge: MergeMode = .shallow
    /// Keep the document's bytes in `PathConfiguration.source`, for a tool
    /// that points back into it (`pathconfig validate` lints them). Off by
    /// default: a configuration holds its compiled rules, not its text.
    public var keepsSource: Bool = false

    /// Creates options; every argument has the default described above.
    public init(profile: Profile = .hotwireIOS, matchQueryStrings: Bool? = nil, engine: any RegexEngine = PCRE2Engine(),
                lenient: Bool = false, limits: Limits = Limits()) {
        self.profile = profile
        self.matchQueryStrings = matchQueryStrings
        self.engine = engine
        self.lenient = lenient
        self.limits = limits
    }

    /// The decoder of the profile and limits.
    var decoder: ConfigurationDecoder { ConfigurationDecoder(profile: profile, limits: limits) }

    /// Whether query strings are matched, after applying the profile default.
    public var effectiveMatchQueryStrings: Bool { matchQueryStrings ?? profile.matchesQueryStringsByDefault }

    /// The option names `init(json:engines:)` accepts.
    public static let jsonKeys = ["profile", "match_query_strings", "backend", "lenient", "base_url", "merge", "result_cache_size", "max_url_bytes"]

    /// The options in effect as a JSON object with every key of `jsonKeys`,
    /// defaults written out (the profile's `match_query_strings` default
    /// among them): what `init(json:)` reads back into the same options.
    public var jsonObject: JSONObject {
        ["profile": .string(profile.rawValue),
         "match_query_strings": .bool(effectiveMatchQueryStrings),
         "backend": .string(engine.name),
         "lenient": .bool(lenient),
         "base_url": baseURL.map { .string($0.string) } ?? .null,
         "merge": .string(merge.rawValue),
         "result_cache_size": .integer(limits.resultCacheCapacity),
         "max_url_bytes": .integer(limits.maxURLBytes)]
    }

    /// Parses options from a JSON object, as the C ABI and bindings pass them.
    ///
    /// Keys: `profile` (a `Profile` name: `APP` or `APP@VERSION`), `match_query_strings` (bool or
    /// null), `backend` (a key of `engines`), `lenient` (bool), `base_url`
    /// (a URL, or null), `merge` (a `MergeMode` name), `result_cache_size`
    /// (entries, 0 for none: `Limits.resultCacheCapacity`), `max_url_bytes`
    /// (bytes, at least 1: `Limits.maxURLBytes`). Nil or empty
    /// text means defaults. Unknown keys and bad values are errors, never ignored.
    /// - Parameter engines: the backends this build offers, by name.
    public init(json: String?, engines: [String: any RegexEngine] = Backend.builtIn) throws(ConfigurationError) {
        self.init()
        guard let members = try OptionsJSON.object(json) else { return }
        try apply(members, engines: engines)
    }

    /// Sets the options named by `members` (the keys of `jsonKeys`), leaving
    /// the others as they are; an unknown key or a bad value throws.
    /// `LoaderOptions(json:)` passes its load keys here, and the command
    /// line's cases files each case's `options`.
    public mutating func apply(_ members: [JSONNode.Member], engines: [String: any RegexEngine]) throws(ConfigurationError) {
        for m in members {
            let value = m.value.value
            func bad(_ expected: String) -> ConfigurationError { OptionsJSON.wrongValue(m, expected) }
            switch m.key {
            case "profile":
                guard let name = value.stringValue else { throw bad("a string") }
                do { profile = try Profile(name: name) } catch { throw ConfigurationError(code: .invalidOption, message: error.message) }
            case "match_query_strings":
                guard value == .null || value.boolValue != nil else { throw bad("true, false or null") }
                matchQueryStrings = value.boolValue
            case "lenient":
                guard let b = value.boolValue else { throw bad("true or false") }
                lenient = b
            case "backend":
                guard let name = value.stringValue else { throw bad("a string") }
                guard let e = engines[name] else {
                    let known = Backend.allCases.map(\.rawValue)
                    if known.contains(name) {
                        throw ConfigurationError(code: .backendUnavailable, message: "the \(JSONWriter.quoted(name)) backend is not built into this library (available: \(engines.keys.sorted().joined(separator: ", ")))")
                    }
                    throw ConfigurationError(code: .invalidOption, message: "unknown backend \(JSONWriter.quoted(name)); expected one of \(known.joined(separator: ", "))")
                }
                engine = e
            case "base_url":
                if value == .null { baseURL = nil; continue }
                guard let text = value.stringValue else { throw bad("a URL string or null") }
                baseURL = try BaseURL(text)
            case "merge":
                guard let name = value.stringValue else { throw bad("a string") }
                guard let mode = MergeMode(rawValue: name) else {
                    let modes = MergeMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw OptionsJSON.invalid("unknown merge mode \(JSONWriter.quoted(name)); expected one of \(modes)")
                }
                merge = mode
            case "result_cache_size":
                guard let n = value.int64Value, n >= 0, n <= 1 << 24 else { throw bad("a whole number of entries from 0 (no cache) to 16777216") }
                limits.resultCacheCapacity = Int(n)
            case "max_url_bytes":
                guard let n = value.int64Value, n >= 1, n <= Int64(Int32.max) else { throw bad("a whole number of bytes from 1 to 2147483647") }
                limits.maxURLBytes = Int(n)
            default:
                throw ConfigurationError(code: .invalidOption, message: "unknown option \(JSONWriter.quoted(m.key)); known options: \(Self.jsonKeys.joined(separator: ", "))")
            }
        }
    }
}
