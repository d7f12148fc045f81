/// How `java.net.URL` reads a string, for the Android profiles: OpenJDK
/// 17's `URL(String)` constructor and its handlers' `parseURL`, with the
/// protocols Android registers handlers for (`http`, `https`, `ftp`, `file`,
/// `jar`; OpenJDK's `mailto`, `jrt` and `jmod` are not among them).
///
/// hotwire-native-android matches `getPath()`, plus `?` and `getQuery()`
/// when the query is not null (`PathConfigurationData.kt`, `path`), and
/// `""` when the constructor throws `MalformedURLException`; turbo-android
/// has no `try` there (`TurboPathConfiguration.kt`, `path`), so the lookup
/// throws and the app crashes.
///
/// Read from OpenJDK 17's sources, step for step (`java/net/URL.java`,
/// `java/net/URLStreamHandler.java`, `sun/net/www/protocol/jar/Handler.java`,
/// `sun/net/util/IPAddressUtil.java`), and checked against the JVM itself
/// (`JavaURLDifferentialTests`):
/// - characters up to U+0020 are trimmed at both ends, then a leading `url:`
///   (any case) is skipped;
/// - the protocol is what comes before the first `:`, when no `/` comes
///   first and it is a letter followed by letters, digits, `.`, `+` or `-`
///   (Unicode's, as `Character.isLetter`); otherwise there is none ("no
///   protocol", which this library takes for a path: `noProtocol`);
/// - the ref starts at the first `#`, the query at the first `?` before it;
///   after `//` (not `////`) the authority runs to the next `/`, and its
///   host and port are checked: a port must be an `int` (`Integer.parseInt`:
///   a sign, then decimal digits of any script) of -1 or more, a host in
///   `[...]` an IPv6 literal `IPAddressUtil` accepts, and a host must not
///   hold control characters or a few look-alikes of `:` `/` `?` `#` `@`;
///   the path is the rest, as written (never decoded or normalised);
/// - a `jar:` URL must start the text, hold a `!/`, and wrap a URL that
///   reads; its query follows the last `?`.
enum JavaURL {
    /// What `new URL(text)` does.
    enum Reading: Equatable {
        /// It throws "no protocol": the text is not a URL.
        case noProtocol
        /// It throws `MalformedURLException`, for the reason given.
        case rejected(String)
        /// It returns a URL whose `getPath()` is null (a `jar:` URL whose
        /// `#` follows `jar:` directly, after white space or `url:`).
        case nullPath
        /// It returns a URL with this `getPath()` and `getQuery()`.
        case accepted(path: Substring, query: Substring?)
    }

    static func read(_ text: String) -> Reading {
        var copy = text
        switch copy.withUTF8({ read($0) }) {
        case .noProtocol: return .noProtocol
        case .rejected(let reason): return .rejected(reason)
        case .nullPath: return .nullPath
        case .accepted(let path, let query):
            // Every offset is at an ASCII byte (or an end), so on a scalar boundary.
            let utf8 = text.utf8
            func at(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
            func part(_ r: Range<Int>) -> Substring { text[at(r.lowerBound)..<at(r.upperBound)] }
            return .accepted(path: part(path), query: query.map(part))
        }
    }

    /// A reading with byte ranges for the path and query.
    private enum ByteReading {
        case noProtocol, rejected(String), nullPath, accepted(path: Range<Int>, query: Range<Int>?)
    }

    /// The protocols with a handler on Android.
    private static let protocols: [[UInt8]] = ["http", "https", "ftp", "file", "jar"].map { Array($0.utf8) }

    /// `new URL(spec)` on the UTF-8 bytes of `spec` (`URL(URL, String,
    /// URLStreamHandler)` with no context and no handler).
    private static func read(_ b: UnsafeBufferPointer<UInt8>) -> ByteReading {
        let n = b.count
        var limit = n
        while limit > 0 && b[limit - 1] <= 0x20 { limit -= 1 }
        var start = 0
        while start < limit && b[start] <= 0x20 { start += 1 }
        if startsCaseInsensitively(b, at: start, with: "url:") { start += 4 }
        if start < n && b[start] == UInt8(ascii: "#") { return .noProtocol }
        // The protocol: before the first ':', when no '/' comes first.
        var i = start
        while i < limit, b[i] != UInt8(ascii: "/"), b[i] != UInt8(ascii: ":") { i += 1 }
        let scheme = UnsafeBufferPointer(rebasing: b[start..<i])
        guard i < limit, b[i] == UInt8(ascii: ":"), isValidProtocol(scheme) else { return .noProtocol }
        guard let handler = protocols.firstIndex(where: { p in
            p.count == scheme.count && zip(scheme, p).allSatisfy { URLParts.asciiLowercased($0) == $1 }
        }) else {
            return .rejected("unknown protocol: " + String(decoding: scheme, as: UTF8.self).lowercased())
        }
        start = i + 1
        if let hash = firstIndex(of: "#", in: b, from: start, to: n) { limit = hash }
        return handler == 4 ? jar(b, start: start, limit: limit) : hierarchical(b, start: start, limit: limit)
    }

    /// `URLStreamHandler.parseURL` with no context (http, https, ftp, and
    /// file, whose handler only turns `File.separatorChar`, `/` on Android,
    /// into `/`), then `setURL`'s check of the host.
    private static func hierarchical(_ b: UnsafeBufferPointer<UInt8>, start: Int, limit: Int) -> ByteReading {
        var start = start, limit = limit
        var query: Range<Int>?
        if start < limit, let q = firstIndex(of: "?", in: b, from: 0, to: b.count), q < limit {
            query = (q + 1)..<limit
            limit = q
        }
        var path: Range<Int>?
        var host: Range<Int>?
        let unc = start + 4 <= limit && (start..<(start + 4)).allSatisfy { b[$0] == UInt8(ascii: "/") }
        if !unc && start + 2 <= limit && b[start] == UInt8(ascii: "/") && b[start + 1] == UInt8(ascii: "/") {
            start += 2
            let end = firstIndex(of: "/", in: b, from: start, to: limit) ?? limit
            let authority = start..<end
            do { host = try checkAuthority(b, authority) } catch { return .rejected(error.text) }
            start = end
            if !authority.isEmpty { path = end..<end }
        }
        // After an authority, `start` is at a '/' or at `limit`.
        if start < limit { path = start..<limit }
        if let host, let reason = checkHostString(UnsafeBufferPointer(rebasing: b[host])) { return .rejected(reason) }
        return .accepted(path: path ?? start..<start, query: query)
    }

    /// Why an authority is refused.
    private struct Refusal: Error { let text: String }

    /// The host part of `authority` as `parseURL` splits it (nil: none, which
    /// `setURL` does not check), or why `parseURL` throws.
    private static func checkAuthority(_ b: UnsafeBufferPointer<UInt8>, _ authority: Range<Int>) throws(Refusal) -> Range<Int>? {
        var host = authority
        if let at = firstIndex(of: "@", in: b, from: authority.lowerBound, to: authority.upperBound) {
            // More than one '@': "not server based", no host and no port.
            if firstIndex(of: "@", in: b, from: at + 1, to: authority.upperBound) != nil { return nil }
            host = (at + 1)..<authority.upperBound
        }
        func refusal(_ what: String, _ why: String = "") -> Refusal {
            Refusal(text: "invalid \(what) \(JSONWriter.quoted(String(decoding: UnsafeBufferPointer(rebasing: b[authority]), as: UTF8.self)))\(why)")
        }
        // The port from `start` on, if any: an int `parseURL` takes.
        func checkPort(from start: Int) throws(Refusal) {
            if start < host.upperBound, !isPort(UnsafeBufferPointer(rebasing: b[start..<host.upperBound])) { throw refusal("port in") }
        }
        guard !host.isEmpty, b[host.lowerBound] == UInt8(ascii: "[") else {
            guard let colon = firstIndex(of: ":", in: b, from: host.lowerBound, to: host.upperBound) else { return host }
            try checkPort(from: colon + 1)
            return host.lowerBound..<colon
        }
        // "[" IPv6 "]" and an optional ":port".
        guard let close = firstIndex(of: "]", in: b, from: host.lowerBound, to: host.upperBound),
              String(decoding: UnsafeBufferPointer(rebasing: b[host.lowerBound..<close]), as: UTF8.self).utf16.count > 2 else {
            throw refusal("authority", ": a [ without a ] after an IPv6 address")
        }
        let literal = Array(String(decoding: UnsafeBufferPointer(rebasing: b[(host.lowerBound + 1)..<close]), as: UTF8.self).utf16)
        guard isIPv6LiteralAddress(literal) else { throw refusal("IPv6 address in") }
        if close + 1 < host.upperBound {
            guard b[close + 1] == UInt8(ascii: ":") else { throw refusal("authority", ": only :port may follow ]") }
            try checkPort(from: close + 2)
        }
        return host.lowerBound..<(close + 1)
    }

    /// Whether `Integer.parseInt(text, 10)` reads `text` as -1 or more (the
    /// port `parseURL` accepts): an optional sign, then at least one decimal
    /// digit of any script (`Character.digit`), within an `int`.
    static func isPort(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
        let negative = scalars.first == "-"
        let digits = negative || scalars.first == "+" ? scalars.dropFirst() : scalars[...]
        guard !digits.isEmpty else { return false }
        var value: Int64 = 0
        for c in digits {
            guard let digit = javaDigit(c) else { return false }
            value = value * 10 + Int64(digit)
            if value > Int64(Int32.max) + 1 { return false }
        }
        return negative ? value <= 1 : value <= Int64(Int32.max)
    }

    /// `Character.digit(ch, 10)` for a UTF-16 code unit (a character
    /// outside the BMP is two surrogates, neither a digit): a decimal digit
    /// (Nd) of Unicode 13.0, Java 17's version.
    static func javaDigit(_ c: Unicode.Scalar) -> Int? {
        guard c.value <= 0xFFFF, isJava17(c), c.properties.generalCategory == .decimalNumber,
              let value = c.properties.numericValue else { return nil }
        return Int(value)
    }

    /// `Character.isLetter` for a UTF-16 code unit: a letter of Unicode 13.0.
    static func javaIsLetter(_ c: Unicode.Scalar) -> Bool {
        guard c.value <= 0xFFFF, isJava17(c) else { return false }
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return true
        default: return false
        }
    }

    /// Whether `c` was assigned by Unicode 13.0 (Java 17's version); later
    /// characters are unassigned to the JDK.
    private static func isJava17(_ c: Unicode.Scalar) -> Bool {
        guard let age = c.properties.age else { return false }
        return age.major < 13 || (age.major == 13 && age.minor == 0)
    }

    /// `URL.isValidProtocol` of the protocol lower-cased: a letter, then
    /// letters, digits, `.`, `+`, `-`. (Lower-casing keeps every letter a
    /// letter but `İ`, which becomes `i` and a combining dot, a mark.)
    private static func isValidProtocol(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars.makeIterator()
        guard let first = scalars.next(), javaIsLetter(first), first != "\u{130}" else { return false }
        while let c = scalars.next() {
            guard (javaIsLetter(c) && c != "\u{130}") || javaDigit(c) != nil || c == "." || c == "+" || c == "-" else { return false }
        }
        return true
    }

    /// `IPAddressUtil.checkHostString`, which `setURL` runs on the host: no
    /// control character, DEL or `/`, and none of a few characters that
    /// look like URL delimiters (`⁇` `℀` `：` `／` `？` `＠` ...). nil when
    /// the host passes.
    private static func checkHostString(_ host: UnsafeBufferPointer<UInt8>) -> String? {
        for c in String(decoding: host, as: UTF8.self).unicodeScalars
        where c.value < 0x20 || c.value == 0x7F || c == "/" || hostLookAlikes.contains(c.value) {
            return "illegal character U+\(String(c.value, radix: 16, uppercase: true)) in host"
        }
        return nil
    }

    /// `IPAddressUtil.OTHERS`.
    private static let hostLookAlikes: Set<UInt32> = [
        0x2047, 0x2048, 0x2049, 0x2100, 0x2101, 0x2105, 0x2106, 0x2A74,
        0xFE55, 0xFE56, 0xFE5F, 0xFE6B, 0xFF03, 0xFF0F, 0xFF1A, 0xFF1F, 0xFF20,
    ]

    /// The jar handler's `parseURL` (`start` after `jar:`, `limit` at the
    /// `#` or the trimmed end), then the query split `setURL` makes of its
    /// `file` (at the last `?`).
    /// (The wrapped URL never leads here again: a `jar:` at its start is
    /// refused as nested, and one after white space or `url:` is refused or,
    /// for a bare ref, cannot occur, the wrapped URL ending before any `#`.)
    private static func jar(_ b: UnsafeBufferPointer<UInt8>, start: Int, limit: Int) -> ByteReading {
        let refOnly = firstIndex(of: "#", in: b, from: limit, to: b.count) == start
        // Read at the start of the text, before any trimming.
        let absolute = startsCaseInsensitively(b, at: 0, with: "jar:")
        let spec = UnsafeBufferPointer(rebasing: b[start..<limit])
        if startsCaseInsensitively(spec, at: 0, with: "jar:") { return .rejected("a jar: URL inside a jar: URL") }
        guard absolute else {
            // parseContextSpec needs a context URL: a NullPointerException,
            // but for a bare ref, which leaves the file null.
            return refOnly ? .nullPath : .rejected("a jar: URL after white space or url:")
        }
        // The last "!/": the URL before the '!' must read.
        var bang = limit - 2
        while bang >= start, !(b[bang] == UInt8(ascii: "!") && b[bang + 1] == UInt8(ascii: "/")) { bang -= 1 }
        guard bang >= start else { return .rejected("a jar: URL without !/") }
        switch read(UnsafeBufferPointer(rebasing: b[start..<bang])) {
        case .noProtocol: return .rejected("the URL inside the jar: URL has no protocol")
        case .rejected(let reason): return .rejected("the URL inside the jar: URL: " + reason)
        case .nullPath, .accepted: break
        }
        guard let q = b[start..<limit].lastIndex(of: UInt8(ascii: "?")) else { return .accepted(path: start..<limit, query: nil) }
        return .accepted(path: start..<q, query: (q + 1)..<limit)
    }

    // MARK: - IPv6

    /// `IPAddressUtil.isIPv6LiteralAddress` (`textToNumericFormatV6` not
    /// null), on UTF-16 code units; ASCII digits only, as
    /// `jdk.net.allowAmbiguousIPAddressLiterals` is false by default.
    static func isIPv6LiteralAddress(_ src: [UInt16]) -> Bool {
        guard src.count >= 2 else { return false }
        var length = src.count
        if let percent = src.firstIndex(of: 0x25) {
            if percent == src.count - 1 { return false }
            length = percent
        }
        var i = 0, j = 0
        var colonp = -1
        if src[i] == 0x3A {
            i += 1
            if src[i] != 0x3A { return false }
        }
        var curtok = i
        var sawXDigit = false
        var val = 0
        while i < length {
            let ch = src[i]
            i += 1
            if let digit = ch.hexDigitValue.map(Int.init) {
                val = val << 4 | digit
                if val > 0xFFFF { return false }
                sawXDigit = true
                continue
            }
            if ch == 0x3A {
                curtok = i
                if !sawXDigit {
                    if colonp != -1 { return false }
                    colonp = j
                    continue
                } else if i == length {
                    return false
                }
                if j + 2 > 16 { return false }
                j += 2
                sawXDigit = false
                val = 0
                continue
            }
            if ch == 0x2E && j + 4 <= 16 {
                let v4 = Array(src[curtok..<length])
                guard v4.filter({ $0 == 0x2E }).count == 3, isIPv4LiteralAddress(v4) else { return false }
                j += 4
                sawXDigit = false
                break
            }
            return false
        }
        if sawXDigit {
            if j + 2 > 16 { return false }
            j += 2
        }
        if colonp != -1 {
            if j == 16 { return false }
            j = 16
        }
        return j == 16
    }

    /// `IPAddressUtil.textToNumericFormatV4` not null.
    private static func isIPv4LiteralAddress(_ src: [UInt16]) -> Bool {
        guard !src.isEmpty, src.count <= 15 else { return false }
        var value: Int64 = 0
        var octets = 0
        var newOctet = true
        for c in src {
            if c == 0x2E {
                if newOctet || value > 0xFF || octets == 3 { return false }
                octets += 1
                value = 0
                newOctet = true
            } else {
                guard c >= 0x30, c <= 0x39 else { return false }
                value = value * 10 + Int64(c - 0x30)
                newOctet = false
            }
        }
        return !newOctet && value < Int64(1) << ((4 - octets) * 8)
    }

    // MARK: - Bytes

    /// (Every caller's `from` is at most its `to`.)
    private static func firstIndex(of c: Unicode.Scalar, in b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        b[from..<to].firstIndex(of: UInt8(c.value))
    }

    /// `String.regionMatches(true, at, prefix, 0, prefix.length())` for an
    /// ASCII prefix (no other character's case maps onto `url:` or `jar:`).
    private static func startsCaseInsensitively(_ b: UnsafeBufferPointer<UInt8>, at offset: Int, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard offset + count <= b.count else { return false }
        for k in 0..<count where URLParts.asciiLowercased(b[offset + k]) != prefix.utf8Start[k] { return false }
        return true
    }
}
