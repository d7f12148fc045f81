/// What one lookup is about: the URL as a request would be made, and the
/// strings patterns and globs run against.
///
/// - `url`: an input with a scheme, as Foundation's `URL(string:)` writes it
///   back (scheme lower-cased, path, query and fragment percent-encoded only
///   where they hold characters a URL may not); an input without one is
///   resolved against the base URL when there is one (`/users/1` becomes
///   `https://api.example.com/v1/users/1`) and taken as given otherwise.
///   Host predicates receive this string.
/// - `patternSubject`: what the profile's patterns see (`Profile.matchedString`).
/// - `globSubject`: `url` with its host lower-cased, for globs.
struct RequestTarget {
    let url: String
    let patternSubject: String
    let globSubject: String

    init(_ input: String, profile: Profile, matchQueryStrings: Bool, base: BaseURL?) {
        var absolute = input
        if URLParts(input) == nil, let base { absolute = base.resolve(relative: input) }
        if let parts = URLParts(absolute) {
            url = parts.foundationString
            var lowered = parts
            lowered.authority = parts.authority.map { URLParts.lowercasingHost(Substring($0)) }
            globSubject = lowered.foundationString
        } else {
            url = absolute
            globSubject = absolute
        }
        patternSubject = profile.matchedString(for: absolute, matchQueryStrings: matchQueryStrings)
    }
}
