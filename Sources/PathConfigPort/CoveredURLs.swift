import PathConfigCore

/// The URLs on which a port promises that every app answers as the
/// reference: URLs as servers write them.
///
/// - `http` or `https` (lower case), `//`, a host of ASCII letters, digits,
///   `-` and `.`, and optionally `:` and a port of one to five digits;
/// - a path and an optional `?query` and `#fragment` of the characters RFC
///   3986 allows there, everything else percent-encoded (`%` and two hex
///   digits): letters, digits, `-._~!$&'()*+,;=:@/`, and `?` after the
///   path;
/// - when an app that decodes the path takes part (turbo-ios, and every
///   release of hotwire-ios) beside one that does not: a path without a
///   `%` escape and without a trailing slash (the root `/` aside), since
///   `url.path` decodes the path and drops trailing slashes before
///   matching, which no pattern of the other apps can undo or see.
///
/// - when an app appends historical-location rules that differ from the
///   reference's (hotwire-android's answer `POP` where hotwire-ios's answer
///   `pop`; turbo-ios has none): not a URL holding one of their paths
///   (`/recede_historical_location`, in any case), where an app's own rules
///   answer after the file's and no file can change them.
///
/// On those URLs the matched strings are printable ASCII, and hotwire-ios,
/// hotwire-android and turbo-android see the same one.
public struct CoveredURLs: Sendable, Hashable, CustomStringConvertible {
    /// Whether `url.path`'s reading narrows the paths covered.
    public let excludesEscapesAndTrailingSlashes: Bool
    /// The apps that decode the path, when that narrows the paths covered.
    private let decoding: [Profile]
    /// The built-in rules' paths a covered URL does not hold, lower-cased.
    public let excludedBuiltInPaths: [String]

    /// The URLs covered when `profiles` (the reference and the apps) take
    /// part, less those holding `excludedBuiltInPaths`.
    public init(profiles: [Profile], excludedBuiltInPaths: [String] = []) {
        let decoding = profiles.filter { $0.release.behaviour.subject == .foundationDecodedPath }
        excludesEscapesAndTrailingSlashes = !decoding.isEmpty && decoding.count < profiles.count
        self.decoding = excludesEscapesAndTrailingSlashes ? Array(Set(decoding)).sorted { $0.rawValue < $1.rawValue } : []
        self.excludedBuiltInPaths = excludedBuiltInPaths.map { $0.lowercased() }
    }

    /// A sentence for the report.
    public var description: String {
        var s = "http(s) URLs as servers write them: printable ASCII, anything RFC 3986 does not allow percent-encoded"
        if excludesEscapesAndTrailingSlashes {
            let names = decoding.map(\.rawValue).joined(separator: " and ")
            s += ", whose path has no %-escape and no trailing slash (\(names) \(decoding.count == 1 ? "decodes" : "decode") the path and "
                + "\(decoding.count == 1 ? "drops" : "drop") trailing slashes)"
        }
        if !excludedBuiltInPaths.isEmpty {
            s += ", and which hold none of " + excludedBuiltInPaths.joined(separator: ", ")
                + " in any case (the apps' own historical-location rules answer there, differently, after the file's)"
        }
        return s
    }

    /// Whether `url` is covered.
    public func contains(_ url: String) -> Bool {
        if !excludedBuiltInPaths.isEmpty {
            let lowered = url.lowercased()
            if excludedBuiltInPaths.contains(where: { lowered.contains($0) }) { return false }
        }
        let bytes = Array(url.utf8)
        guard let scheme = ["https://", "http://"].first(where: { bytes.starts(with: $0.utf8) }) else { return false }
        var i = scheme.utf8.count
        let hostStart = i
        while i < bytes.count, Self.isHostByte(bytes[i]) { i += 1 }
        guard i > hostStart else { return false }
        if i < bytes.count, bytes[i] == UInt8(ascii: ":") {
            i += 1
            let portStart = i
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }
            guard (1...5).contains(i - portStart) else { return false }
        }
        let pathStart = i
        var sawEscape = false
        while i < bytes.count, bytes[i] != UInt8(ascii: "?"), bytes[i] != UInt8(ascii: "#") {
            guard Self.isComponentByte(bytes, &i, escape: &sawEscape) else { return false }
        }
        let path = bytes[pathStart..<i]
        guard path.isEmpty || path.first == UInt8(ascii: "/") else { return false }
        if excludesEscapesAndTrailingSlashes {
            if sawEscape { return false }
            if path.count > 1, path.last == UInt8(ascii: "/") { return false }
        }
        // The query may hold `?`; the fragment `?` and `#` is not allowed twice.
        var inFragment = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "?") || (b == UInt8(ascii: "#") && !inFragment) {
                if b == UInt8(ascii: "#") { inFragment = true }
                i += 1
                continue
            }
            var ignored = false
            guard Self.isComponentByte(bytes, &i, escape: &ignored) else { return false }
        }
        return true
    }

    private static func isHostByte(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// Reads one RFC 3986 pchar (or `/`) at `i`, or a `%HH` escape.
    private static func isComponentByte(_ bytes: [UInt8], _ i: inout Int, escape: inout Bool) -> Bool {
        let b = bytes[i]
        if b == UInt8(ascii: "%") {
            guard i + 2 < bytes.count, bytes[(i + 1)...(i + 2)].allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else { return false }
            escape = true
            i += 3
            return true
        }
        let allowed = isHostByte(b) || "_~!$&'()*+,;=:@/".utf8.contains(b)
        if allowed { i += 1 }
        return allowed
    }
}
