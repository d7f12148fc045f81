/// The reference app whose behaviour a configuration reproduces, at one of
/// its releases: `hotwire-ios`, `hotwire-ios@1.2.2`, `hotwire-ios@main`.
///
/// The apps read the same file differently, and so do an app's releases; a
/// profile is the one place that decides what string the patterns see, how
/// they match, what built-in rules are appended and how values are stored
/// and read. The bare name (`hotwire-ios`) is the app's latest stable
/// release; `@main` is its main branch at the commit `AppRelease.commit`
/// records; any other version must be one of the app's tagged releases
/// (`Profile.App.releases`), and reads as the release line it belongs to.
/// See docs/app-versions.md.
public struct Profile: RawRepresentable, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The reference apps.
    public enum App: String, Sendable, Hashable, CaseIterable {
        /// Hotwire Native iOS.
        case hotwireIOS = "hotwire-ios"
        /// Turbo iOS 7.
        case turboIOS = "turbo-ios"
        /// Hotwire Native Android.
        case hotwireAndroid = "hotwire-android"
        /// Turbo Android 7.
        case turboAndroid = "turbo-android"
        /// Siesta (an iOS API client): regular expressions searched in the
        /// whole URL as `URL.absoluteString` writes it, ICU, no built-ins.
        /// Meant for request rules with globs and methods.
        case siesta

        /// iOS or Android.
        public var platform: Profile.Platform {
            switch self {
            case .hotwireIOS, .turboIOS, .siesta: return .ios
            case .hotwireAndroid, .turboAndroid: return .android
            }
        }
    }

    /// The platform whose typed accessors and defaults the profile uses.
    public enum Platform: String, Sendable { case ios, android }

    /// The app.
    public let app: App
    /// The version as named (`"1.2.2"`, `"main"`), or nil for the bare
    /// name: the latest stable release.
    public let version: String?
    /// The release line whose behaviour the profile has.
    public let release: AppRelease

    /// The app's latest stable release, under its bare name.
    public init(_ app: App) {
        self.app = app
        self.version = nil
        self.release = app.latestStable
    }

    /// `app` at `version`: a tagged release of the app, or `main`.
    /// - Throws: `ProfileError` naming the app's releases when the version
    ///   is not one of them.
    public init(_ app: App, version: String) throws(ProfileError) {
        guard let release = app.release(named: version) else {
            throw ProfileError(message: "\(app.rawValue) has no release \(JSONWriter.quoted(version)); its releases are "
                + app.releases.flatMap(\.tags).joined(separator: ", ") + ", and main")
        }
        self.app = app
        self.version = version
        self.release = release
    }

    /// Parses `APP` or `APP@VERSION`.
    /// - Throws: `ProfileError` naming the apps, or the app's releases.
    public init(name: String) throws(ProfileError) {
        let parts = name.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let app = App(rawValue: String(parts[0])) else {
            throw ProfileError(message: "unknown profile \(JSONWriter.quoted(name)); expected one of "
                + App.allCases.map(\.rawValue).joined(separator: ", ") + ", each optionally with @VERSION (hotwire-ios@1.2.2, hotwire-ios@main)")
        }
        if parts.count == 1 { self.init(app) } else { try self.init(app, version: String(parts[1])) }
    }

    /// `init(name:)`, nil where it throws.
    public init?(rawValue: String) {
        guard let profile = try? Profile(name: rawValue) else { return nil }
        self = profile
    }

    /// The name, as `init(name:)` reads it: `hotwire-ios`, `hotwire-ios@1.2.2`.
    public var rawValue: String { version.map { app.rawValue + "@" + $0 } ?? app.rawValue }

    public var description: String { rawValue }

    /// Two profiles are equal when they name the same app at the same
    /// version (the bare name is its own version).
    public static func == (a: Profile, b: Profile) -> Bool { a.app == b.app && a.version == b.version }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(app)
        hasher.combine(version)
    }

    /// The five apps under their bare names, `hotwire-ios` (the default) first.
    public static var allCases: [Profile] { App.allCases.map(Profile.init) }

    /// The apps under their bare names: their latest stable releases.
    public static let hotwireIOS = Profile(.hotwireIOS)
    public static let turboIOS = Profile(.turboIOS)
    public static let hotwireAndroid = Profile(.hotwireAndroid)
    public static let turboAndroid = Profile(.turboAndroid)
    public static let siesta = Profile(.siesta)

    /// iOS or Android.
    public var platform: Platform { app.platform }

    /// True for the four mobile apps' profiles, false for siesta (an API
    /// client). A configuration for the apps is linted against these by
    /// default, and they read neither `globs` nor `methods`.
    public var isMobileApp: Bool { app != .siesta }

    /// Whether `?query` is appended to URL paths unless options say otherwise.
    public var matchesQueryStringsByDefault: Bool { release.behaviour.matchesQueryStringsByDefault }

    /// True when every property and setting value is stored as a string
    /// (turbo-android, hotwire-android before 1.2).
    public var storesValuesAsStrings: Bool { release.behaviour.gson?.valuesAsStrings ?? false }

    /// How the app's typed accessors read a value.
    public var typedReading: TypedReading { release.behaviour.typedReading }

    /// The rules the app appends after the file's rules (numbered from `firstIndex`).
    public func builtInRules(firstIndex: Int) -> [Rule] {
        let builtIns = release.behaviour.builtIns
        guard builtIns != .none else { return [] }
        let upper = builtIns == .upperCase
        let entries: [(String, String, String)] = [
            ("/recede_historical_location", "pop", "recede"),
            ("/resume_historical_location", "none", "resume"),
            ("/refresh_historical_location", "refresh", "refresh"),
        ]
        return entries.enumerated().map { offset, entry in
            Rule(index: firstIndex + offset, patterns: [entry.0],
                 properties: ["presentation": .string(upper ? entry.1.uppercased() : entry.1),
                              "context": .string(upper ? "DEFAULT" : "default"),
                              "historical_location": .bool(true)],
                 extras: ["description": .string("built-in: \(entry.2) historical location (\(rawValue))")],
                 isBuiltIn: true)
        }
    }
}

/// A profile name that names no app, or a version that is not a release of
/// its app.
public struct ProfileError: Error, Sendable, CustomStringConvertible {
    /// A sentence naming what is known (the apps, or the app's releases).
    public let message: String
    public var description: String { message }
}
