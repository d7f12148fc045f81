/// One release line of an app: the tagged releases that read a path
/// configuration alike, the upstream commit that made them differ from the
/// line before, and what they do (`Behaviour`).
///
/// `Profile.App.releases` lists every line of every app, oldest first; the
/// table in docs/app-versions.md is this one, and a test checks the two agree.
public struct AppRelease: Sendable, Hashable {
    /// The line's name: its first tag's major and minor (`1.2`), or `main`.
    public let name: String
    /// Every tag of the line, oldest first (empty for `main`).
    public let tags: [String]
    /// The upstream commit that made the line read files as it does (for
    /// `main`, the commit of the branch the profile models).
    public let commit: String
    /// What changed from the line before, in a sentence.
    public let change: String
    /// Whether the line is a stable release (not `main`, not only betas).
    public let isStable: Bool
    /// What the line does.
    public let behaviour: Behaviour

    /// How a release line reads a configuration and a URL.
    public struct Behaviour: Sendable, Hashable {
        /// The string the patterns see for a URL.
        public var subject: Subject
        /// Whether `?query` is appended unless options say otherwise.
        public var matchesQueryStringsByDefault: Bool
        /// The historical-location rules appended after the file's.
        public var builtIns: BuiltIns
        /// The Android app's classes as Gson fills them (nil on iOS, which
        /// reads with `JSONSerialization`); they decide, among other
        /// things, whether every value is kept as a string.
        package var gson: GsonApp?
        /// How the typed accessors read a value.
        public var typedReading: TypedReading
    }

    /// The string an app matches for a URL.
    public enum Subject: Sendable, Hashable {
        /// Foundation's `URL.path`: percent-decoded, trailing slashes
        /// dropped (the root stays `/`).
        case foundationDecodedPath
        /// Foundation's `URL.path()` (hotwire-ios's `pathPreservingSlash` on
        /// iOS 16+): percent-encoded, the trailing slash kept.
        case foundationEncodedPath
        /// `java.net.URL`'s `getPath()`, as written; a URL it rejects gives
        /// `""`.
        case javaPath
        /// As `javaPath`, but a URL `java.net.URL` rejects crashes the app.
        case javaPathCrashingOnRejected
        /// Foundation's `URL.absoluteString`, the whole URL (siesta).
        case foundationAbsoluteString
    }

    /// The built-in historical-location rules.
    public enum BuiltIns: Sendable, Hashable {
        case none
        /// `pop`, `none`, `refresh`, context `default` (hotwire-ios).
        case lowerCase
        /// `POP`, `NONE`, `REFRESH`, context `DEFAULT` (hotwire-android).
        case upperCase
    }
}

extension Profile.App {
    /// The app's release lines, oldest first, `main` last.
    public var releases: [AppRelease] { AppReleases.table[self] ?? [] }

    /// The newest stable line: what the bare name reads as.
    public var latestStable: AppRelease { releases.last(where: \.isStable)! }

    /// The line holding the tag `version`, or `main`'s for `main`.
    public func release(named version: String) -> AppRelease? {
        if version == "main" { return releases.last { $0.name == "main" } }
        return releases.first { $0.tags.contains(version) }
    }
}
