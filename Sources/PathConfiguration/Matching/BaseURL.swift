/// The URL a service's relative globs and relative inputs resolve against
/// (the `base_url` option; Siesta's `Service.baseURL`).
///
/// Kept in the form Siesta matches against: the scheme and host lower-cased
/// (they compare case-insensitively), the path percent-encoded as Foundation
/// does, and always a trailing `/` (`https://api.example.com/v1` becomes
/// `https://api.example.com/v1/`).
public struct BaseURL: Sendable, Hashable, CustomStringConvertible {
    /// The normalised URL, ending in `/`.
    public let string: String

    /// Validates and normalises `text`: an absolute URL with a host
    /// (`scheme://host[:port][/path]`), without user information, query,
    /// fragment or `*` (which a glob would read as a wildcard).
    public init(_ text: String) throws(ConfigurationError) {
        func invalid(_ why: String) -> ConfigurationError {
            ConfigurationError(code: .invalidOption, message: "option \"base_url\" \(JSONWriter.quoted(text)) \(why)")
        }
        guard let url = URLParts(text), let authority = url.authority else {
            throw invalid("is not an absolute URL with a host (scheme://host/path)")
        }
        let host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard !host.isEmpty else { throw invalid("has no host") }
        guard !authority.contains("@") else { throw invalid("has user information; put credentials in a rule's properties") }
        guard url.query == nil, url.fragment == nil else { throw invalid("has a query or fragment") }
        guard !text.contains("*") else { throw invalid("contains \"*\", which globs would read as a wildcard") }
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw invalid("contains a space or control character") }
        var s = url.scheme + "://" + URLParts.lowercasingHost(authority)
        s += URLParts.foundationEncoded(url.path, as: .path)
        if !s.hasSuffix("/") { s += "/" }
        string = s
    }

    public var description: String { string }

    /// `input` resolved as Siesta's `resource(path)` does: the base, then
    /// `input` without one leading `/` (`/users/1` under
    /// `https://api.example.com/v1/` is `https://api.example.com/v1/users/1`).
    /// Only for inputs without a scheme; the result always stays on this
    /// base's scheme, host and port.
    func resolve(relative input: String) -> String {
        string + (input.hasPrefix("/") ? input.dropFirst() : Substring(input))
    }
}
