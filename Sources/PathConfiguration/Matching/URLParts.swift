/// An RFC 3986 split of a URL into the parts profiles care about.
///
/// Deliberately small and exact: no normalisation, no IDNA, nothing encoded
/// or decoded unless a profile asks. Parsing never fails; a string without a scheme is
/// not a URL and is matched as given.
struct URLParts: Equatable {
    /// The scheme, lower-cased.
    var scheme: String
    /// The authority (`user@host:port`), when the URL has `//`.
    var authority: String?
    /// The path, as written (still percent-encoded).
    var path: Substring
    /// The query without `?`, when the URL has a `?` (possibly empty).
    var query: Substring?
    /// The fragment without `#`, when the URL has a `#` (possibly empty).
    var fragment: Substring?

    /// Splits `input`, or returns nil when it does not start with a scheme.
    init?(_ input: String) {
        let utf8 = input.utf8
        guard let first = utf8.first, Self.isAlpha(first) else { return nil }
        var i = utf8.index(after: utf8.startIndex)
        while i < utf8.endIndex, Self.isSchemeChar(utf8[i]) { i = utf8.index(after: i) }
        guard i < utf8.endIndex, utf8[i] == UInt8(ascii: ":") else { return nil }
        scheme = String(input[input.startIndex..<i]).lowercased()
        // Delimiters are found by byte, never by Character: "#" followed by a
        // combining mark is one Character but still ends the path.
        var start = utf8.index(after: i)
        let end = utf8[start...].firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        if utf8[start..<end].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            let afterSlashes = utf8.index(start, offsetBy: 2)
            let authorityEnd = utf8[afterSlashes..<end].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? end
            authority = String(input[afterSlashes..<authorityEnd])
            start = authorityEnd
        } else {
            authority = nil
        }
        fragment = end < utf8.endIndex ? input[utf8.index(after: end)...] : nil
        if let q = utf8[start..<end].firstIndex(of: UInt8(ascii: "?")) {
            path = input[start..<q]
            query = input[utf8.index(after: q)..<end]
        } else {
            path = input[start..<end]
            query = nil
        }
    }

    private static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    private static func isSchemeChar(_ b: UInt8) -> Bool {
        isAlpha(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// A URL component as Foundation's `URL(string:)` keeps it (the RFC 3986
    /// parser of iOS 17 and later, and of swift-foundation).
    ///
    /// A component that is already valid (every byte allowed in it, every `%`
    /// followed by two hex digits) is kept exactly as written. One that is not
    /// is percent-encoded whole: every byte outside the allowed set becomes
    /// `%XX` (upper-case), `%` included, so `/caf%C3%A9/é` becomes
    /// `/caf%25C3%25A9/%C3%A9`. This is what `URL.path()` and `URL.query()`
    /// return on iOS; it was measured against swift-foundation.
    static func foundationEncoded(_ s: Substring, as component: Component) -> Substring {
        if isValid(s, as: component) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 3)
        for b in s.utf8 {
            if component.allows(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            }
        }
        return Substring(String(decoding: out, as: UTF8.self))
    }

    /// The URL components whose allowed characters differ.
    enum Component {
        /// The path: RFC 3986 `pchar` and `/`.
        case path
        /// The query: `pchar`, `/` and `?`.
        case query
        /// The fragment: as the query.
        case fragment

        /// Whether byte `b` may appear unencoded (`%` is never allowed
        /// bare; valid escapes are checked apart).
        func allows(_ b: UInt8) -> Bool {
            switch b {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: return true
            // unreserved - . _ ~, sub-delims ! $ & ' ( ) * + , ; =, and : @ /
            case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"),
                 UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                 UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: ":"),
                 UInt8(ascii: "@"), UInt8(ascii: "/"):
                return true
            case UInt8(ascii: "?"): return self != .path
            default: return false
            }
        }
    }

    /// The URL as Foundation's `URL(string:)` writes it back
    /// (`absoluteString`): scheme and authority as given, then the path,
    /// query and fragment each kept or percent-encoded by `foundationEncoded`.
    var foundationString: String {
        var out = scheme
        out += ":"
        if let authority { out += "//" + authority }
        out += URLParts.foundationEncoded(path, as: .path)
        if let query { out += "?" + URLParts.foundationEncoded(query, as: .query) }
        if let fragment { out += "#" + URLParts.foundationEncoded(fragment, as: .fragment) }
        return out
    }

    /// `authority` with its host (and port) lower-cased, user information
    /// kept: hosts compare case-insensitively, user names need not.
    static func lowercasingHost(_ authority: Substring) -> String {
        guard let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) else { return asciiLowercased(authority) }
        return String(authority[..<at]) + asciiLowercased(authority[at...])
    }

    /// `s` with ASCII letters lower-cased and every other byte kept.
    static func asciiLowercased(_ s: Substring) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// `s` with ASCII letters upper-cased and every other byte kept.
    static func asciiUppercased(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 & ~0x20 : $0 }, as: UTF8.self)
    }

    private static func isValid(_ s: Substring, as component: Component) -> Bool {
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if component.allows(b) { continue }
            guard b == UInt8(ascii: "%"), let h = it.next(), let l = it.next(),
                  hexValue(h) != nil, hexValue(l) != nil else { return false }
        }
        return true
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `s` with `%XX` escapes decoded, or nil when an escape is malformed or
    /// the result is not UTF-8 (Foundation's `URL.path` gives up the same way).
    static func percentDecoded(_ s: Substring) -> String? {
        guard s.utf8.contains(UInt8(ascii: "%")) else { return String(s) }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        while let b = it.next() {
            if b != UInt8(ascii: "%") { out.append(b); continue }
            guard let h = it.next(), let l = it.next(), let hv = hexValue(h), let lv = hexValue(l) else { return nil }
            out.append(hv << 4 | lv)
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
