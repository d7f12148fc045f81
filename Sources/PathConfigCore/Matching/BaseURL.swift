/// The URL a service's relative globs and relative inputs resolve against
/// (the `base_url` option; Siesta's `Service.baseURL`).
///
/// Kept as Siesta's `Service.init` leaves it (`URL(string:)`, then
/// `URLComponents.path` with a `/` appended): the host as Foundation
/// writes it (IDNA for a name beyond ASCII: `https://bücher.de` becomes
/// `https://xn--bcher-kva.de/`), the path decoded and encoded again
/// (`%7E` becomes `~`, `%2F` becomes `/`, `%c3%a9` becomes `%C3%A9`), and
/// always a trailing `/` (`https://api.example.com/v1` becomes
/// `https://api.example.com/v1/`). Scheme and host are lower-cased: they
/// compare case-insensitively.
public struct BaseURL: Sendable, Hashable, CustomStringConvertible {
    /// The normalised URL, ending in `/`.
    public let string: String

    /// Validates and normalises `text`: an absolute URL with a host
    /// (`scheme://host[:port][/path]`) that Foundation's `URL(string:)`
    /// accepts, without user information, query, fragment or `*` (which a
    /// glob would read as a wildcard), whose port (if any) is at most 65535
    /// and whose path's escapes are UTF-8.
    public init(_ text: String) throws(ConfigurationError) {
        func invalid(_ why: String) -> ConfigurationError {
            ConfigurationError(code: .invalidOption, message: "option \"base_url\" \(JSONWriter.quoted(text)) \(why)")
        }
        guard let url = URLParts(text), let authority = url.authority else {
            throw invalid("is not an absolute URL with a host (scheme://host/path)")
        }
        // By byte, as globs and Foundation read them: a combining mark after
        // `@`, `:` or `*` does not hide it.
        let host = authority.utf8.split(separator: UInt8(ascii: ":"), maxSplits: 1, omittingEmptySubsequences: false).first ?? []
        guard !host.isEmpty else { throw invalid("has no host") }
        guard !authority.utf8.contains(UInt8(ascii: "@")) else { throw invalid("has user information; put credentials in a rule's properties") }
        guard url.query == nil, url.fragment == nil else { throw invalid("has a query or fragment") }
        guard !text.utf8.contains(UInt8(ascii: "*")) else { throw invalid("contains \"*\", which globs would read as a wildcard") }
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw invalid("contains a space or control character") }
        guard let written = FoundationAuthority(authority, scheme: url.scheme) else {
            throw invalid("is refused by Foundation's URL(string:) (a host IDNA cannot convert, or a port that is not a number), so Siesta's Service would have no base URL")
        }
        if let port = written.port, !port.isEmpty {
            guard let number = Int(port), number <= 65535 else { throw invalid("has a port that is not a number from 0 to 65535") }
        }
        // Service.init: URLComponents.path decodes the path as URL(string:)
        // keeps it, and gives "" when the bytes are not UTF-8.
        var decoded = Array(URLParts.foundationEncoded(url.path, as: .path).utf8)
        guard URLParts.percentDecode(&decoded) else {
            throw invalid("has a percent-escape in its path that is not UTF-8; Siesta's Service would drop the whole path")
        }
        var path = String(decoding: decoded, as: UTF8.self)
        if !path.hasSuffix("/") { path += "/" }
        // Setting the path makes URLComponents write the URL again, its port
        // as the number it reads; URL(string:) did so before (dropping a
        // port that is not a number) when the host or path was invalid.
        let rewrittenByURL = !written.valid || !URLParts.isValid(url.path, as: .path)
        string = url.scheme + "://" + written.text(lowercasingHost: true, port: rewrittenByURL ? .rewrittenByURL : .rewrittenByComponents)
            + URLParts.Component.pathMask.encoded(Substring(path))
    }

    public var description: String { string }

    /// A relative glob as Siesta's `configurationPattern(for:)` resolves it:
    /// this base, then the glob without one leading `/`, as written.
    func prefixing(glob: String) -> String {
        string + (glob.hasPrefix("/") ? glob.dropFirst() : Substring(glob))
    }

    /// `path` appended as Siesta's `resource(_:)` appends it
    /// (`resource(baseURL:path:)`): one leading `/` dropped, then
    /// `URL.appendingPathComponent`, which percent-encodes every character
    /// a path may not hold (`?`, `#` and `%` included: `/items?x=1` under
    /// `https://api.example.com/` is `https://api.example.com/items%3Fx=1`,
    /// `%3F` becomes `%253F`) and joins with one `/` (what remains of a
    /// path starting `//` replaces the base's final `/`). Only for inputs
    /// without a scheme; the result always stays on this base's scheme,
    /// host and port.
    func resourceURL(path: String) -> String {
        let rest = path.hasPrefix("/") ? path.dropFirst() : Substring(path)
        // Most paths hold nothing to encode (no `%` either): kept as they are.
        let encoded = URLParts.isValid(rest, as: .path) && !rest.utf8.contains(UInt8(ascii: "%"))
            ? rest : URLParts.Component.pathMask.encoded(rest)
        let base = encoded.utf8.first == UInt8(ascii: "/") ? string.dropLast() : Substring(string)
        return String(base + encoded)
    }
}
