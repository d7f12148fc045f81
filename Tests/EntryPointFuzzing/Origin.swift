/// The scheme, host and port of a URL, read on their own terms (RFC 3986,
/// written apart from the library's `URLParts` so that the glob check does
/// not trust what it checks): the scheme up to `:`, then after `//` the
/// authority up to the first `/`, `?` or `#`, user information dropped,
/// scheme, host and port compared without case (a port is digits; anything
/// else there compares as the host does).
struct Origin: Equatable, CustomStringConvertible {
    var scheme: String
    var host: String
    var port: String?

    /// The origin of `url`; nil without a scheme or without `//`.
    init?(_ url: String) {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let schemeBytes = bytes[..<colon]
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
        guard isLetter(schemeBytes.first!), schemeBytes.allSatisfy({ isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else { return nil }
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else { return nil }
        let start = rest.startIndex + 2
        let end = rest[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        var authority = rest[start..<end]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        var hostBytes = authority, portBytes: ArraySlice<UInt8>? = nil
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            hostBytes = authority[...close]
            let after = authority[(close + 1)...]
            if after.first == UInt8(ascii: ":") { portBytes = after.dropFirst() }
        } else if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            hostBytes = authority[..<portColon]
            portBytes = authority[(portColon + 1)...]
        }
        func lowered<C: Collection<UInt8>>(_ c: C) -> String {
            String(decoding: c.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
        }
        scheme = lowered(schemeBytes)
        host = lowered(hostBytes)
        port = portBytes.map { lowered($0) }
    }

    var description: String { scheme + "://" + host + (port.map { ":" + $0 } ?? "") }
}
