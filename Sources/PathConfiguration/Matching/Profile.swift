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
    /// Hotwire Native Android: raw path plus `?query` whenever there is one,
    /// case-insensitive, built-ins with upper-case values.
    case hotwireAndroid = "hotwire-android"
    /// Turbo Android: as Hotwire Native Android, but every value stored as a
    /// string and no built-ins.
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

    /// How patterns compile under this profile: ICU on iOS, `java.util.regex`
    /// on Android.
    public var regexOptions: RegexOptions {
        platform == .ios
            ? RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
            : RegexOptions(caseInsensitive: true, unicodeClasses: false, dialect: .java)
    }

    /// True when every property and setting value is stored as a string (turbo-android).
    public var storesValuesAsStrings: Bool { self == .turboAndroid }

    /// The string the patterns run against for `input`.
    ///
    /// A string without a URL scheme (`/new`, `foo`) is matched as given. For
    /// a URL, iOS profiles read it as Foundation's `URL(string:)` does
    /// (a component with characters a URL may not hold is percent-encoded):
    /// hotwire-ios takes the path still percent-encoded (`URL.path()`),
    /// turbo-ios the decoded path without trailing slashes (`URL.path`), and
    /// Android profiles the raw path (`java.net.URL`). The fragment never
    /// counts; `?query` (still percent-encoded) is appended when
    /// `matchQueryStrings` is true and the URL has a `?`. siesta takes the whole
    /// URL (`URLParts.foundationString`: a host beyond ASCII IDNA-encoded), or
    /// `:` where `URL(string:)` is nil, the URL Siesta gives such a resource. Android gives `""` for URLs java.net.URL rejects
    /// (schemes other than http, https, ftp, file and jar).
    public func matchedString(for input: String, matchQueryStrings: Bool) -> String {
        if self == .siesta { return URLParts.foundationForm(of: input, query: matchQueryStrings) }
        guard let url = URLParts(input) else { return input }
        // Substrings until the end, so that the result is the one string made.
        var path: Substring
        switch self {
        case .siesta:
            return input  // answered above
        case .hotwireIOS:
            // URL.pathPreservingSlash is URL.path() on iOS 16+: percent-encoded.
            path = URLParts.foundationEncoded(url.path, as: .path)
        case .turboIOS:
            // URL.path: decoded ("" when the bytes are not UTF-8), trailing slashes
            // dropped after decoding (the root stays "/").
            path = URLParts.percentDecoded(URLParts.foundationEncoded(url.path, as: .path)) ?? ""
            while path.utf8.count > 1, Self.endsWithSlash(path) { path.removeLast() }
        case .hotwireAndroid, .turboAndroid:
            guard Self.javaURLSchemes.contains(url.scheme) else { return "" }
            path = url.path
        }
        guard matchQueryStrings, let query = url.query else { return String(path) }
        return Self.joined(path, platform == .ios ? URLParts.foundationEncoded(query, as: .query) : query)
    }

    /// Where in `bytes`, an absolute URL of printable ASCII split as `url`,
    /// lies the string `matchedString(for:matchQueryStrings:)` gives for it,
    /// when that string is exactly those bytes: the path, and `?query` when
    /// it counts, each already as the app reads it (nothing to percent-encode
    /// or decode, no trailing slash to drop, a scheme java.net.URL takes).
    /// nil otherwise, and always for siesta (the whole URL, written back):
    /// the caller then makes the string. The rules are `matchedString`'s,
    /// read backwards; a test checks the two agree on every URL of a
    /// generated corpus.
    func matchedRange(of url: URLParts.Split, in bytes: UnsafeBufferPointer<UInt8>, matchQueryStrings: Bool) -> Range<Int>? {
        let path = UnsafeBufferPointer(rebasing: bytes[url.path])
        switch self {
        case .siesta:
            return nil
        case .hotwireIOS:
            // foundationEncoded keeps a valid component as written.
            guard URLParts.isValid(path, as: .path) else { return nil }
        case .turboIOS:
            // Without a `%`, decoding changes nothing; trailing slashes go.
            guard URLParts.isValid(path, as: .path), !path.contains(UInt8(ascii: "%")),
                  path.count <= 1 || path[path.count - 1] != UInt8(ascii: "/") else { return nil }
        case .hotwireAndroid, .turboAndroid:
            guard Self.javaURLSchemes.contains(url.scheme(in: bytes)) else { return nil }
        }
        guard matchQueryStrings, let query = url.query else { return url.path }
        if platform == .ios {
            guard URLParts.isValid(UnsafeBufferPointer(rebasing: bytes[query]), as: .query) else { return nil }
        }
        return url.path.lowerBound..<query.upperBound  // "?" sits between them
    }

    /// `s.hasSuffix("/")`: whether the last Character is a slash. Read from
    /// the last two bytes when they tell (a last byte other than `/`, or a
    /// slash after an ASCII byte, which no Character extends), else from
    /// Characters (a slash after a prepended mark is no slash).
    private static func endsWithSlash(_ s: Substring) -> Bool {
        let utf8 = s.utf8
        guard let last = utf8.last else { return false }
        guard last == UInt8(ascii: "/") else { return false }
        let before = utf8.index(before: utf8.endIndex)
        if before == utf8.startIndex || utf8[utf8.index(before: before)] < 0x80 { return true }
        return s.hasSuffix("/")
    }

    /// `path + "?" + query`, made in one allocation.
    private static func joined(_ path: Substring, _ query: Substring) -> String {
        let pathCount = path.utf8.count, queryCount = query.utf8.count
        return String(unsafeUninitializedCapacity: pathCount + 1 + queryCount) { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<pathCount]).initialize(from: path.utf8)
            buffer[pathCount] = UInt8(ascii: "?")
            _ = UnsafeMutableBufferPointer(rebasing: buffer[(pathCount + 1)...]).initialize(from: query.utf8)
            return pathCount + 1 + queryCount
        }
    }

    private static let javaURLSchemes: Set<String> = ["http", "https", "ftp", "file", "jar"]

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
