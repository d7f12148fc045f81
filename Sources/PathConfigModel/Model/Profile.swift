/// The reference app whose behaviour a configuration reproduces.
///
/// The apps read the same file differently; a profile is the one place that
/// decides what string the patterns see, how they match, what built-in rules
/// are appended and how values are stored. See the profiles table in README.
public enum Profile: String, Sendable, Hashable, CaseIterable {
    /// Hotwire Native iOS: percent-encoded path (`URL.path()`) with its
    /// trailing slash, `?query` when query matching is on (the default),
    /// case-sensitive, built-in historical-location rules.
    case hotwireIOS = "hotwire-ios"
    /// Turbo iOS 7: decoded path with trailing slashes dropped, query
    /// matching off by default, no built-ins.
    case turboIOS = "turbo-ios"
    /// Hotwire Native Android: the path and `?query` as `java.net.URL`
    /// reads them (`""` for a URL it rejects), case-insensitive, built-ins
    /// with upper-case values.
    case hotwireAndroid = "hotwire-android"
    /// Turbo Android: as Hotwire Native Android, but a URL `java.net.URL`
    /// rejects crashes the app (the lookup throws), every value is stored as
    /// a string, and there are no built-ins.
    case turboAndroid = "turbo-android"
    /// Siesta (an iOS API client): regular expressions searched in the whole
    /// URL as `URL.absoluteString` writes it (query and fragment included;
    /// the query left out when query matching is off), case-sensitive, ICU,
    /// no built-ins. Meant for request rules with globs and methods.
    case siesta

    /// The platform whose typed accessors and defaults the profile uses.
    public enum Platform: String, Sendable { case ios, android }

    /// iOS or Android.
    public var platform: Platform {
        switch self {
        case .hotwireIOS, .turboIOS, .siesta: return .ios
        case .hotwireAndroid, .turboAndroid: return .android
        }
    }

    /// True for the four mobile apps' profiles, false for siesta (an API
    /// client). A configuration for the apps is linted against these by
    /// default, and they read neither `globs` nor `methods`.
    public var isMobileApp: Bool { self != .siesta }

    /// Whether `?query` is appended to URL paths unless options say otherwise.
    public var matchesQueryStringsByDefault: Bool { self != .turboIOS }

    /// True when every property and setting value is stored as a string (turbo-android).
    public var storesValuesAsStrings: Bool { self == .turboAndroid }

    /// The rules the app appends after the file's rules (numbered from `firstIndex`).
    public func builtInRules(firstIndex: Int) -> [Rule] {
        let upper = self == .hotwireAndroid
        guard self == .hotwireIOS || upper else { return [] }
        let entries: [(String, String, String)] = [
            ("/recede_historical_location", "pop", "recede"),
            ("/resume_historical_location", "none", "resume"),
            ("/refresh_historical_location", "refresh", "refresh"),
        ]
        return entries.enumerated().map { offset, entry in
            var properties = JSONObject()
            properties["presentation"] = .string(upper ? entry.1.uppercased() : entry.1)
            properties["context"] = .string(upper ? "DEFAULT" : "default")
            properties["historical_location"] = .bool(true)
            return Rule(index: firstIndex + offset, patterns: [entry.0], properties: properties,
                        extras: ["description": .string("built-in: \(entry.2) historical location (\(rawValue))")],
                        isBuiltIn: true)
        }
    }
}
