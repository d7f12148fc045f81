/// One lookup: what it is about, and the strings patterns and globs run
/// against, each worked out only when something needs it.
///
/// - `patternSubject`: what the profile's patterns see (`Profile.matchedString`),
///   always needed (it keys the result cache).
/// - `url`: the URL as a request would be made. An input with a scheme, as
///   Foundation's `URL(string:)` writes it back (`URLParts.foundationString`:
///   scheme as written; user, password, path, query and fragment
///   percent-encoded only where they hold characters a URL may not; a host
///   beyond ASCII IDNA-encoded), or `:` where `URL(string:)` is nil (the
///   URL Siesta gives such a resource); an input without one resolved
///   against the base URL as Siesta's `resource(_:)` does when there is one
///   (`BaseURL.resourceURL(path:)`: `/users/1` becomes
///   `https://api.example.com/v1/users/1`, `/items?x=1` becomes
///   `https://api.example.com/v1/items%3Fx=1`), and otherwise as
///   `URL(string:)` reads a relative reference (`/a b` is `/a%20b`).
///   Host predicates receive it.
/// - `globSubject`: `url` with its scheme and host lower-cased, for globs.
///
/// Used by one thread: a lookup's strings are its own.
final class Lookup {
    /// The input, resolved against the base URL when it has no scheme.
    let absolute: String
    let patternSubject: String
    /// Whether the patterns see `url` itself (Siesta with query strings:
    /// both are `URLParts.foundationForm(of: absolute)`), which is then not
    /// worked out again.
    private let subjectIsURL: Bool

    /// Throws where the profile's app crashes on the input
    /// (`Profile.patternSubject(for:matchQueryStrings:)`).
    init(_ input: String, profile: Profile, matchQueryStrings: Bool, base: BaseURL?) throws(ResolveError) {
        absolute = Self.absolute(input, base: base)
        patternSubject = try profile.patternSubject(for: absolute, matchQueryStrings: matchQueryStrings)
        subjectIsURL = matchQueryStrings && profile.release.behaviour.subject == .foundationAbsoluteString
    }

    /// `input` resolved against `base` when it has no scheme (`absolute`).
    static func absolute(_ input: String, base: BaseURL?) -> String {
        guard let base, !URLParts.hasScheme(input) else { return input }
        return base.resourceURL(path: input)
    }

    /// `patternSubject` of a lookup of `input`, without making the lookup:
    /// all that a lookup of file patterns alone needs.
    static func patternSubject(_ input: String, profile: Profile, matchQueryStrings: Bool, base: BaseURL?) throws(ResolveError) -> String {
        try profile.patternSubject(for: absolute(input, base: base), matchQueryStrings: matchQueryStrings)
    }

    lazy var url: String = subjectIsURL ? patternSubject : URLParts.foundationForm(of: absolute)

    lazy var globSubject: String = URLParts.lowercasingOrigin(url)

    /// `patternSubject`, prepared for the engines.
    lazy var forPatterns = MatchSubject(patternSubject)

    /// `globSubject`, prepared for the engines.
    lazy var forGlobs = MatchSubject(globSubject)
}
