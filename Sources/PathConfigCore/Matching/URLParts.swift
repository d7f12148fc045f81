#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An RFC 3986 split of a URL into the parts profiles care about.
///
/// Deliberately small and exact: no normalisation, nothing encoded or decoded
/// unless a profile asks (what Foundation makes of the whole URL, IDNA
/// included, is `foundationString`, in FoundationURL.swift). Parsing never fails; a string without a scheme is
/// not a URL and is matched as given.
package struct URLParts: Equatable {
    /// The scheme, lower-cased.
    var scheme: String
    /// The scheme as written (Foundation's `absoluteString` keeps its case).
    var writtenScheme: Substring
    /// The authority (`user@host:port`), when the URL has `//`.
    var authority: Substring?
    /// The path, as written (still percent-encoded).
    var path: Substring
    /// The query without `?`, when the URL has a `?` (possibly empty).
    var query: Substring?
    /// The fragment without `#`, when the URL has a `#` (possibly empty).
    var fragment: Substring?

    /// Splits `input`, or returns nil when it does not start with a scheme.
    package init?(_ input: String) {
        // Most inputs without a scheme are paths: told apart by their first byte.
        guard let first = input.utf8.first, Self.isAlpha(first) else { return nil }
        var input = input
        // In place for a native string.
        guard let (split, scheme) = input.withUTF8({ bytes in Split(bytes).map { ($0, $0.scheme(in: bytes)) } }) else { return nil }
        // Delimiters are found by byte, never by Character: "#" followed by a
        // combining mark is one Character but still ends the path. Every
        // offset is at an ASCII byte, so on a scalar boundary.
        let utf8 = input.utf8
        func at(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        self.scheme = scheme
        writtenScheme = input[..<at(split.scheme.upperBound)]
        authority = split.authority.map { input[at($0.lowerBound)..<at($0.upperBound)] }
        path = input[at(split.path.lowerBound)..<at(split.path.upperBound)]
        query = split.query.map { input[at($0.lowerBound)..<at($0.upperBound)] }
        fragment = split.fragment.map { input[at($0.lowerBound)..<at($0.upperBound)] }
    }

    /// Whether `input` starts with a scheme, as `init(_:)` would find it,
    /// told without making the parts.
    static func hasScheme(_ input: String) -> Bool {
        var input = input
        return input.withUTF8 { schemeEnd($0) != nil }  // in place for a native string
    }

    /// Where the parts of a URL are, as byte offsets: found in one pass over
    /// contiguous bytes, since a generic walk over `String.UTF8View` costs
    /// several times as much, and every lookup of an absolute URL makes one
    /// (or reads its matched string straight from them:
    /// `Profile.matchedRange(of:in:matchQueryStrings:)`).
    struct Split {
        /// The scheme's bytes, before the `:`.
        var scheme: Range<Int>
        var authority: Range<Int>?
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?

        /// nil when `bytes` does not start with a scheme.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            let n = bytes.count
            guard let i = URLParts.schemeEnd(bytes) else { return nil }
            scheme = 0..<i
            var start = i + 1
            let end = URLParts.index(of: UInt8(ascii: "#"), in: bytes, from: start, to: n)
            if end - start >= 2, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") {
                // The authority ends at the first `/` or `?`.
                let slash = URLParts.index(of: UInt8(ascii: "/"), in: bytes, from: start + 2, to: end)
                let authorityEnd = URLParts.index(of: UInt8(ascii: "?"), in: bytes, from: start + 2, to: slash)
                authority = (start + 2)..<authorityEnd
                start = authorityEnd
            }
            fragment = end < n ? (end + 1)..<n : nil
            let q = URLParts.index(of: UInt8(ascii: "?"), in: bytes, from: start, to: end)
            path = start..<q  // `end` when there is no `?`
            query = q < end ? (q + 1)..<end : nil
        }

        /// The scheme, lower-cased (made only when asked for).
        func scheme(in bytes: UnsafeBufferPointer<UInt8>) -> String {
            String(unsafeUninitializedCapacity: scheme.count) { out in
                for k in scheme { out[k] = URLParts.asciiLowercased(bytes[k]) }
                return scheme.count
            }
        }
    }

    /// The offset of the first `byte` in `bytes[from..<to]`, or `to`
    /// (`memchr`: a word or more at a time, where a loop takes a byte).
    static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let base = bytes.baseAddress, let hit = memchr(base + from, Int32(byte), to - from) else { return to }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    /// The offset of the `:` that ends the scheme `bytes` start with, or nil.
    private static func schemeEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n > 0, isAlpha(bytes[0]) else { return nil }
        var i = 1
        while i < n, isSchemeChar(bytes[i]) { i += 1 }
        return i < n && bytes[i] == UInt8(ascii: ":") ? i : nil
    }

    /// Whether `b` is an ASCII letter, as every scheme's first byte is: a
    /// path, which starts with `/`, is told apart before any split.
    static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
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
    /// `/caf%25C3%25A9/%C3%A9`. A path's first segment (before its first
    /// `/`: only in a path that does not start with one, as after
    /// `mailto:`) has `:` encoded too, so that the path cannot be read as a
    /// scheme: `mailto:a:b c` becomes `mailto:a%3Ab%20c` (swift-foundation's
    /// `RFC3986Parser.percentEncodePath`, with `URLComponentAllowedMask.pathFirstSegment`,
    /// the path's characters but `:`). This is what `URL.path()` and `URL.query()`
    /// return on iOS; it was measured against swift-foundation.
    static func foundationEncoded(_ s: Substring, as component: Component) -> Substring {
        guard !isValid(s, as: component) else { return s }
        var s = s, out: [UInt8] = []
        s.withUTF8 { appendFoundationEncoded($0, as: component, to: &out) }
        return Substring(String(decoding: out, as: UTF8.self))
    }

    /// `foundationEncoded` of `bytes`, appended to `out`.
    static func appendFoundationEncoded(_ bytes: UnsafeBufferPointer<UInt8>, as component: Component, to out: inout [UInt8]) {
        guard !isValid(bytes, as: component) else { return out.append(contentsOf: bytes) }
        var firstSegment = component == .path
        let mask = component.mask  // once, not a copy a byte
        appendPercentEncoded(bytes, to: &out) { b in
            if b == UInt8(ascii: "/") { firstSegment = false }
            return mask.contains(b) && !(firstSegment && b == UInt8(ascii: ":"))
        }
    }

    /// `bytes`, each that `keeps` refuses as `%XX` (upper-case), appended to
    /// `out`: `%` included, whatever escapes they already hold (Foundation's
    /// `addingPercentEncoding(forURLComponent:)`, which `URLComponents.path`'s
    /// setter and `URL.appendingPathComponent` use).
    static func appendPercentEncoded(_ bytes: some Collection<UInt8>, to out: inout [UInt8], keeping keeps: (UInt8) -> Bool) {
        out.reserveCapacity(out.count + bytes.count * 3)
        for b in bytes {
            if keeps(b) {
                out.append(b)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            }
        }
    }

    /// The URL components whose allowed characters differ.
    enum Component {
        /// The path: RFC 3986 `pchar` and `/`.
        case path
        /// The query (and the fragment, which allows the same): `pchar`, `/` and `?`.
        case query

        /// The bytes it allows unencoded (`%` is never allowed bare; valid
        /// escapes are checked apart): `userMask`'s (unreserved, sub-delims
        /// and `:`), `@` and `/`, and for the query `?`.
        var mask: CharacterMask { self == .path ? Self.pathMask : Self.queryMask }
        static let pathMask = CharacterMask("!$&'()*+,-./0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
        static let queryMask = CharacterMask("!$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    }

    /// `authority` with its host (and port) lower-cased, user information
    /// kept: hosts compare case-insensitively, user names need not.
    static func lowercasingHost(_ authority: Substring) -> String {
        guard let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) else { return asciiLowercased(authority) }
        return String(authority[..<at]) + asciiLowercased(authority[at...])
    }

    /// `s` with ASCII letters lower-cased and every other byte kept.
    static func asciiLowercased(_ s: Substring) -> String {
        String(decoding: s.utf8.map(asciiLowercased), as: UTF8.self)
    }

    /// `b` lower-cased when it is an ASCII upper-case letter.
    static func asciiLowercased(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b | 0x20 : b }

    /// `isValid` of a substring (in place for a native string).
    static func isValid(_ s: Substring, as component: Component) -> Bool {
        var s = s
        return s.withUTF8 { isValid($0, as: component) }
    }

    /// Whether `bytes` are a valid `component` as written (every byte
    /// allowed, every `%` followed by two hex digits): what
    /// `foundationEncoded` keeps unchanged. The mask is read in place:
    /// `component.mask` would copy it (a retain and a release: 61
    /// instructions more an iOS lookup of a URL).
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>, as component: Component) -> Bool {
        component == .path ? Component.pathMask.isValid(bytes) : Component.queryMask.isValid(bytes)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Decodes the `%XX` escapes in `bytes` in place; false when an escape
    /// is malformed or the result is not UTF-8 (Foundation's `URL.path` gives
    /// up the same way), `bytes` then left part decoded. With
    /// `keepingSlashAndNUL`, an escaped `/` or NUL stays as written, as
    /// Foundation's `URL.path` leaves them in a file URL's path (a file
    /// system path cannot hold them in a name).
    static func percentDecode(_ bytes: inout [UInt8], keepingSlashAndNUL: Bool = false) -> Bool {
        var ascii = true
        let count = bytes.withUnsafeMutableBufferPointer { bytes -> Int? in
            var read = 0, write = 0
            while read < bytes.count {
                var b = bytes[read]
                if b == UInt8(ascii: "%") {
                    guard read + 2 < bytes.count, let h = bytes[read + 1].hexDigitValue, let l = bytes[read + 2].hexDigitValue else { return nil }
                    if keepingSlashAndNUL, h << 4 | l == UInt8(ascii: "/") || h << 4 | l == 0 {
                        bytes[write] = b
                        bytes[write + 1] = bytes[read + 1]
                        bytes[write + 2] = bytes[read + 2]
                        read += 3
                        write += 3
                        continue
                    }
                    b = h << 4 | l
                    read += 2
                }
                ascii = ascii && b < 0x80
                bytes[write] = b
                read += 1
                write += 1
            }
            return write
        }
        guard let count else { return false }
        bytes.removeLast(bytes.count - count)
        return ascii || String(validating: bytes, as: UTF8.self) != nil
    }
}
