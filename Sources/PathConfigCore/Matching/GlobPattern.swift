/// Siesta's configuration globs, translated to the regular expression Siesta
/// itself builds (`String.configurationPattern(for:)` in
/// `ConfigurationPatternConvertible.swift`), so that every glob matches
/// exactly the URLs it matches in Siesta, with one deliberate exception:
/// scheme and host compare case-insensitively (below). Siesta's expression is
/// case-sensitive over `absoluteString` as written, so there
/// `https://API.example.com/items` does not match the glob
/// `https://api.example.com/**`; here it does, as it names the same server.
///
/// - A glob that does not start with a lower-case scheme (`^[a-z]+:`) is
///   relative: with a base URL it becomes the base (ending in `/`) followed
///   by the glob without one leading `/`; without one it is taken as written.
/// - The result is escaped as `NSRegularExpression.escapedPattern(for:)`
///   escapes, then `**/` becomes `([^?]*/|)` (zero or more whole segments),
///   `**` becomes `[^?]*`, `*` becomes `[^/?]*` and `?` becomes `[^/?]`.
/// - It is anchored at the start and must end at the end of the URL or at
///   its `?`: the query string is ignored.
///
/// Scheme and host compare case-insensitively (the exception): the base
/// URL, an absolute glob's host and the URL matched (`Lookup.globSubject`)
/// all have them lower-cased. Paths stay case-sensitive, as in Siesta.
public enum GlobPattern {
    /// The regular expression (ICU syntax, which every backend reads) for `glob`.
    public static func regex(for glob: String, base: BaseURL?) -> String {
        body(of: glob, base: base) + #"($|\?)"#  // at the URL's end or its `?`
    }

    /// The expression without its ending: `^`, then the glob's text escaped,
    /// its wildcards as classes.
    private static func body(of glob: String, base: BaseURL?) -> String {
        let resolved = isAbsolute(glob) ? lowercasingHost(glob) : base?.prefixing(glob: glob) ?? glob
        var escaped: [UInt8] = []
        escaped.reserveCapacity(resolved.utf8.count * 2)
        for b in resolved.utf8 {
            if specials.contains(b) { escaped.append(UInt8(ascii: "\\")) }
            escaped.append(b)
        }
        return "^" + String(decoding: escaped, as: UTF8.self)
            .replacing(#"\*\*\/"#, with: "([^?]*/|)")
            .replacing(#"\*\*"#, with: "[^?]*")
            .replacing(#"\*"#, with: "[^/?]*")
            .replacing(#"\?"#, with: "[^/?]")
    }

    /// `regex(for:base:)` written for `SmallPattern` (its reader's
    /// whitelist), which decides printable ASCII subjects only: each class's
    /// `?` escaped, and the ending `($|\?)` as `(\?.*)?$`. On such a subject
    /// the two match the same URLs: `$` is the subject's end (no line
    /// terminator is printable), and `.*` takes whatever follows the `?`.
    /// The body matches no `?` in either (every class leaves it out, and
    /// every `?` of the glob became a class), so a match of it ends at the
    /// end of the URL or at its first `?`, which is what both endings
    /// accept. The classes are found by their opening `[^`: the glob's own
    /// `[` and `^` are escaped, so only a wildcard's class opens so.
    package static func automatonForm(for glob: String, base: BaseURL?) -> String {
        body(of: glob, base: base)
            .replacing("[^/?]", with: #"[^/\?]"#)
            .replacing("[^?]", with: #"[^\?]"#) + #"(\?.*)?$"#
    }

    /// True when `glob` starts with a lower-case scheme and `:`, as Siesta tests it.
    public static func isAbsolute(_ glob: String) -> Bool {
        let scheme = glob.utf8.prefix { $0 >= 0x61 && $0 <= 0x7A }
        return !scheme.isEmpty && glob.utf8[scheme.endIndex...].first == UInt8(ascii: ":")
    }

    /// The characters `NSRegularExpression.escapedPattern(for:)` escapes.
    private static let specials: Set<UInt8> = Set(#"$()*+./?[\^{|}"#.utf8)

    /// An absolute glob with its host lower-cased (`https://API.example.com/**`
    /// matches the same URLs as `https://api.example.com/**`).
    private static func lowercasingHost(_ glob: String) -> String {
        guard let colon = glob.utf8.firstIndex(of: UInt8(ascii: ":")) else { return glob }
        let rest = glob[glob.utf8.index(after: colon)...]
        guard rest.hasPrefix("//") else { return glob }
        let authorityStart = rest.utf8.index(rest.startIndex, offsetBy: 2)
        let authorityEnd = rest.utf8[authorityStart...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        return String(glob[..<authorityStart]) + URLParts.lowercasingHost(glob[authorityStart..<authorityEnd])
            + String(glob[authorityEnd...])
    }
}
