/// What Foundation's `URL(string:)` makes of a URL, written back as
/// `absoluteString` (swift-foundation's `RFC3986Parser.parse(urlString:encodingInvalidCharacters:)`,
/// the parser of iOS 17 and later, and of Linux): the siesta profile
/// matches that whole string, and rules from code receive it.
///
/// A URL whose every component is valid is kept exactly as written. One
/// that is not is written again from its components: user, password, path,
/// query and fragment percent-encoded where invalid (`URLParts.foundationEncoded`),
/// the host converted (`foundationHost`: IDNA for a name beyond ASCII), and
/// the port written as the number it reads (`0080` as `80`; an empty one, or
/// one too large for an `Int`, left out with its `:`). `URL(string:)` is nil, and so is this, for a
/// port that is not digits, a host that cannot be converted, and text after
/// an IP literal's `]` other than a port.
extension URLParts {
    /// The URL Siesta gives a resource whose URL `URL(string:)` rejects
    /// (`Resource(service:invalidURLSource:)`: `URL(string: ":")`): what the
    /// siesta profile matches in its place. Its requests always fail.
    static let invalidURLString = ":"

    /// `input` as the siesta profile, globs and rules from code see it: as
    /// `URL(string:)` writes it back (`foundationString`; without its query
    /// unless `query`), a string without a scheme too (`relativeForm`), or
    /// `invalidURLString` where `URL(string:)` is nil.
    ///
    /// Most URLs Foundation keeps exactly as written: a scheme, an authority
    /// of plain characters (no escapes, brackets or bytes beyond ASCII) with
    /// a numeric port, and valid path, query and fragment.
    /// Those are told from their bytes in one pass and returned as they are,
    /// with no parse into substrings and no new string (`keptAsWritten`);
    /// without the query, the bytes before and after it.
    static func foundationForm(of input: String, query: Bool = true) -> String {
        var text = input
        // In place for a native string; nil: written again.
        var relative = false
        let kept: String? = text.withUTF8 { bytes in
            guard let first = bytes.first, isAlpha(first), let split = Split(bytes) else { relative = true; return nil }
            guard keptAsWritten(split, in: bytes, query: query) else { return nil }
            guard !query, let q = split.query else { return input }
            return String(unsafeUninitializedCapacity: bytes.count - q.count - 1) { out in
                let head = UnsafeBufferPointer(rebasing: bytes[..<(q.lowerBound - 1)])  // up to the `?`
                let tail = UnsafeBufferPointer(rebasing: bytes[q.upperBound...])
                _ = out.initialize(fromContentsOf: head)
                _ = out[head.count...].initialize(fromContentsOf: tail)
                return head.count + tail.count
            }
        }
        if let kept { return kept }
        if relative { return relativeForm(of: input, query: query) }
        guard var parts = URLParts(input) else { return input }
        if !query { parts.query = nil }
        return parts.foundationString() ?? invalidURLString
    }

    /// `foundationForm` of an input without a scheme (`/a b` is `/a%20b`):
    /// what `URL(string:)` makes of a relative reference, as Siesta's
    /// `resource(absoluteURL:)` does without a base URL. Foundation reads
    /// the text before a `:` that comes ahead of every other RFC 3986
    /// gen-delim (`/ ? # [ ] @`) as a scheme: an empty one (`:a b` is
    /// `:a%20b`), else one it rejects (`1a:b`, `a b:c`), as it rejects `""`.
    /// Any other text it writes as it writes the same text after a scheme
    /// (`@a:` kept, `a b@:` as `a%20b@%3A`), so it is worked out after one
    /// of ours, `x`, taken off again.
    private static func relativeForm(of input: String, query: Bool) -> String {
        var text = input
        if text.withUTF8(relativeKeptAsWritten) && (query || !input.utf8.contains(UInt8(ascii: "?"))) { return input }
        let colon = text.withUTF8 { schemeColon(in: $0) }
        guard !input.isEmpty, (colon ?? 0) == 0 else { return invalidURLString }
        let scheme = colon == nil ? "x:" : "x"
        let form = foundationForm(of: scheme + input, query: query)
        return form.utf8.count == 1 ? invalidURLString : String(form.dropFirst(scheme.count))
    }

    /// The offset of the `:` Foundation reads as a scheme's end in `bytes`,
    /// an input without a scheme: one ahead of every other gen-delim.
    private static func schemeColon(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.firstIndex { b in b == UInt8(ascii: ":") || b == UInt8(ascii: "/") || b == UInt8(ascii: "?") || b == UInt8(ascii: "#")
            || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") || b == UInt8(ascii: "@") }
            .flatMap { bytes[$0] == UInt8(ascii: ":") ? $0 : nil }
    }

    /// Whether `relativeForm` of `bytes`, an input without a scheme, is its
    /// bytes unchanged, query included: not empty, no `:` read as a
    /// scheme's, no authority, and a valid path, query and fragment. False
    /// where that is not certain, which `relativeForm` then works out.
    static func relativeKeptAsWritten(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = bytes.count
        guard n > 0 else { return false }
        if bytes[0] == UInt8(ascii: "/") {
            guard n < 2 || bytes[1] != UInt8(ascii: "/") else { return false }  // an authority
        } else {
            guard schemeColon(in: bytes) == nil else { return false }  // a path's `/` ends the scan at once
        }
        let end = index(of: UInt8(ascii: "#"), in: bytes, from: 0, to: n)
        let q = index(of: UInt8(ascii: "?"), in: bytes, from: 0, to: end)
        return isValid(UnsafeBufferPointer(rebasing: bytes[..<q]), as: .path)
            && (q == end || isValid(UnsafeBufferPointer(rebasing: bytes[(q + 1)..<end]), as: .query))
            && (end == n || isValid(UnsafeBufferPointer(rebasing: bytes[(end + 1)...]), as: .query))
    }

    /// `form`, an input's `foundationForm`, with its scheme and host
    /// lower-cased, as globs see it (they compare both case-insensitively);
    /// `form` itself when nothing changes. The authority written splits again
    /// as `FoundationAuthority` split it: its user information holds no `@`,
    /// `/`, `?` or `#`, its host no `:` (an IP literal's, within brackets).
    static func lowercasingOrigin(_ form: String) -> String {
        var text = form
        func isUpper(_ b: UInt8) -> Bool { b &- 0x41 < 26 }
        return text.withUTF8 { bytes in
            guard bytes.contains(where: isUpper), let split = Split(bytes) else { return form }
            var host = 0..<0
            if let authority = split.authority {
                // After the last `@`: an IP literal up to its `]`, or else up to the first `:`.
                var start = authority.lowerBound
                for i in authority where bytes[i] == UInt8(ascii: "@") { start = i + 1 }
                let end = authority.upperBound
                let close = start < end && bytes[start] == UInt8(ascii: "[") ? index(of: UInt8(ascii: "]"), in: bytes, from: start, to: end) : end
                host = start..<(close < end ? close + 1 : index(of: UInt8(ascii: ":"), in: bytes, from: start, to: end))
            }
            guard split.scheme.contains(where: { isUpper(bytes[$0]) }) || host.contains(where: { isUpper(bytes[$0]) }) else { return form }
            return String(unsafeUninitializedCapacity: bytes.count) { out in
                for i in bytes.indices { out[i] = split.scheme.contains(i) || host.contains(i) ? asciiLowercased(bytes[i]) : bytes[i] }
                return bytes.count
            }
        }
    }

    /// Whether `foundationForm` of the URL split as `url` is its bytes
    /// unchanged, but for a query left out (which then counts for nothing):
    /// true only where that is certain (anything unusual is left to
    /// `foundationString`).
    private static func keptAsWritten(_ url: Split, in bytes: UnsafeBufferPointer<UInt8>, query keepQuery: Bool) -> Bool {
        func valid(_ range: Range<Int>, _ component: Component) -> Bool {
            isValid(UnsafeBufferPointer(rebasing: bytes[range]), as: component)
        }
        guard valid(url.path, .path) else { return false }
        if keepQuery, let q = url.query { guard valid(q, .query) else { return false } }
        if let f = url.fragment { guard valid(f, .query) else { return false } }
        guard let authority = url.authority else { return true }
        // User information (at most one `@`), then the host up to the first
        // `:`, then digits: every part valid as written, so kept.
        var hostStart = authority.lowerBound
        let plain = plainAuthorityBytes  // read once: each read of a static runs swift_once
        for i in authority {
            let b = bytes[i]
            guard plain[Int(b)] else { return false }
            if b == UInt8(ascii: "@") {
                guard hostStart == authority.lowerBound else { return false }
                hostStart = i + 1
            }
        }
        var i = hostStart
        while i < authority.upperBound, bytes[i] != UInt8(ascii: ":") { i += 1 }
        return i == authority.upperBound || bytes[(i + 1)..<authority.upperBound].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The bytes `keptAsWritten` takes in an authority: user, password and
    /// host characters (RFC 3986 sub-delims and unreserved), `:` and `@`.
    private static let plainAuthorityBytes: [Bool] = (0...255).map { userMask.contains(UInt8($0)) || $0 == Int(UInt8(ascii: "@")) }

    /// The URL as `URL(string:)` writes it back, or nil where `URL(string:)`
    /// is nil. The scheme is as written (`HTTPS://x.dev/a b` is
    /// `HTTPS://x.dev/a%20b`: Foundation writes the scheme it parsed back
    /// unchanged).
    func foundationString() -> String? {
        var out = String(writtenScheme)
        out += ":"
        let pathValid = URLParts.isValid(path, as: .path)
        let queryValid = query.map { URLParts.isValid($0, as: .query) } ?? true
        let fragmentValid = fragment.map { URLParts.isValid($0, as: .query) } ?? true
        if let authority {
            guard let parsed = FoundationAuthority(authority, scheme: scheme) else { return nil }
            // Foundation writes the URL again only when a component was
            // invalid, and then leaves an empty port out.
            let rewritten = !parsed.valid || !pathValid || !queryValid || !fragmentValid
            out += "//"
            out += parsed.text(lowercasingHost: false, port: rewritten ? .rewrittenByURL : .asWritten)
        }
        out += pathValid ? path : URLParts.foundationEncoded(path, as: .path)
        if let query { out += "?" + (queryValid ? query : URLParts.foundationEncoded(query, as: .query)) }
        if let fragment { out += "#" + (fragmentValid ? fragment : URLParts.foundationEncoded(fragment, as: .query)) }
        return out
    }

    /// The host `URL(string:)` makes of `host` (as the authority holds it,
    /// an IP literal with its brackets), or nil where it fails:
    /// - a valid host (ASCII, RFC 3986 reg-name with valid escapes, or an IP
    ///   literal) is kept as written, its case included;
    /// - an IP literal, or a host under one of Foundation's schemes that
    ///   percent-encode hosts (`tel`, `imap`, …), is percent-encoded;
    /// - any other invalid host is converted by IDNA (`IDNA.toASCII`) and
    ///   must then be valid; an ASCII one never becomes valid (IDNA changes
    ///   only its case), so it fails without a conversion.
    static func foundationHost(_ host: Substring, isIPLiteral: Bool, scheme: String) -> Substring? {
        if isIPLiteral ? isValidIPLiteral(host) : hostMask.isValid(host) { return host }
        if isIPLiteral {
            // Only the zone ID after the `%` is encoded; the rest must be valid.
            guard let percent = host.utf8.firstIndex(of: UInt8(ascii: "%")) else { return nil }
            let zone = host[percent..<host.utf8.index(before: host.endIndex)]
            let encoded = Substring(String(host[..<percent]) + String(zoneMask.encoded(zone)) + "]")
            return isValidIPLiteral(encoded) ? encoded : nil
        }
        if percentEncodingSchemes.contains(scheme) { return hostMask.encoded(host) }
        guard host.utf8.contains(where: { $0 >= 0x80 }), let ascii = IDNA.toASCII(host), hostMask.isValid(Substring(ascii)) else { return nil }
        return Substring(ascii)
    }

    /// Foundation's `validateIPLiteralHost`: `[` address `]`, the address in
    /// IPvFuture's characters, and an optional zone ID after `%25`.
    private static func isValidIPLiteral(_ host: Substring) -> Bool {
        // By byte: a combining mark after `[` belongs to neither.
        let inner = host[host.utf8.index(after: host.startIndex)..<host.utf8.index(before: host.endIndex)]
        guard let percent = inner.utf8.firstIndex(of: UInt8(ascii: "%")) else { return userMask.isValid(inner, escapes: false) }
        guard inner[percent...].utf8.starts(with: "%25".utf8) else { return false }
        return userMask.isValid(inner[..<percent], escapes: false)
            && zoneMask.isValid(inner[inner.utf8.index(percent, offsetBy: 3)...])
    }

    /// The schemes whose invalid hosts Foundation percent-encodes rather
    /// than IDNA-encodes (`RFC3986Parser.schemesToPercentEncodeHost`).
    private static let percentEncodingSchemes: Set<String> = [
        "tel", "telemergencycall", "telprompt", "callto", "facetime", "facetime-prompt", "facetime-audio",
        "facetime-audio-prompt", "imap", "pop", "addressbook", "contact", "phasset", "http+unix", "https+unix",
        "ws+unix", "wss+unix",
    ]

    /// Foundation's allowed characters for a host (RFC 3986 reg-name).
    static let hostMask = CharacterMask("!$&'()*+,-.0123456789;=ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    /// For user, password and an IP literal's address (reg-name and `:`).
    static let userMask = CharacterMask("!$&'()*+,-.0123456789:;=ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
    /// For an IP literal's zone ID (unreserved).
    private static let zoneMask = CharacterMask("-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~")
}

/// The ASCII characters a URL component allows as they are: which strings
/// are valid in it, and how an invalid one is percent-encoded (Foundation's
/// `URLComponentAllowedMask`).
struct CharacterMask {
    private let allowed: [Bool]

    init(_ characters: String) {
        var allowed = [Bool](repeating: false, count: 256)
        for b in characters.utf8 { allowed[Int(b)] = true }
        self.allowed = allowed
    }

    /// Whether byte `b` is allowed as it is.
    func contains(_ b: UInt8) -> Bool { allowed[Int(b)] }

    /// Every byte allowed, or (with `escapes`) a `%` followed by two hex
    /// digits; read in place for a native string.
    func isValid(_ s: Substring, escapes: Bool = true) -> Bool {
        var s = s
        return s.withUTF8 { isValid($0, escapes: escapes) }
    }

    /// `isValid` of bytes.
    func isValid(_ bytes: UnsafeBufferPointer<UInt8>, escapes: Bool = true) -> Bool {
        allowed.withUnsafeBufferPointer { allowed in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                i += 1
                if allowed[Int(b)] { continue }
                guard escapes, b == UInt8(ascii: "%"), i + 1 < bytes.count, bytes[i].hexDigitValue != nil, bytes[i + 1].hexDigitValue != nil else { return false }
                i += 2
            }
            return true
        }
    }

    /// `s` with every byte outside the mask, `%` included, as `%XX`.
    func encoded(_ s: Substring) -> Substring {
        var out: [UInt8] = []
        URLParts.appendPercentEncoded(s.utf8, to: &out, keeping: contains)
        return Substring(String(decoding: out, as: UTF8.self))
    }
}

/// A URL's authority as Foundation's parser splits and checks it
/// (`RFC3986Parser.parseAuthority`): user information up to the last `@`
/// (user and password at its first `:`), the host (an IP literal in
/// brackets, or up to the first `:`), the port.
struct FoundationAuthority {
    /// User and password, each as written or percent-encoded.
    var user: Substring?
    var password: Substring?
    /// The host as Foundation writes it (`URLParts.foundationHost`).
    var host: Substring
    /// The port as written (digits, unless the scheme is `addressbook`);
    /// nil when there is none, or nothing after a host name's `:`.
    var port: Substring?
    /// A host name's `:` with nothing after it: kept only when the URL is
    /// kept as written.
    var emptyPortColon: Bool
    /// Whether every part was valid as written.
    var valid: Bool

    /// nil where `URL(string:)` is nil: a port that is not digits, text
    /// after an IP literal other than a port, a host that cannot be converted.
    init?(_ authority: Substring, scheme: String) {
        var rest = authority
        var valid = true
        var user: Substring?, password: Substring?
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) {
            // By byte: a combining mark after `@` or `:` is not part of either.
            let info = authority[..<at]
            rest = authority[authority.utf8.index(after: at)...]
            let colon = info.utf8.firstIndex(of: UInt8(ascii: ":"))
            func written(_ part: Substring?) -> Substring? {
                guard let part, !URLParts.userMask.isValid(part) else { return part }
                valid = false
                return URLParts.userMask.encoded(part)
            }
            user = written(info[..<(colon ?? info.endIndex)])
            password = written(colon.map { info[info.utf8.index(after: $0)...] })
        }
        let hostText: Substring
        let isIPLiteral: Bool
        var port: Substring?
        if rest.utf8.first == UInt8(ascii: "["), let close = rest.utf8.firstIndex(of: UInt8(ascii: "]")) {
            isIPLiteral = true
            let afterClose = rest.utf8.index(after: close)
            hostText = rest[..<afterClose]
            if afterClose < rest.endIndex {
                guard rest.utf8[afterClose] == UInt8(ascii: ":") else { return nil }
                port = rest[rest.utf8.index(after: afterClose)...]
            }
        } else {
            isIPLiteral = false
            let colon = rest.utf8.firstIndex(of: UInt8(ascii: ":"))
            hostText = rest[..<(colon ?? rest.endIndex)]
            port = colon.map { rest[rest.utf8.index(after: $0)...] }
        }
        // Only after a host name is an empty port no port at all.
        if let p = port, p.isEmpty, !isIPLiteral { port = nil }
        if let port, scheme != "addressbook", !port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return nil }
        guard let host = URLParts.foundationHost(hostText, isIPLiteral: isIPLiteral, scheme: scheme) else { return nil }
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.emptyPortColon = port == nil && rest.utf8.last == UInt8(ascii: ":") && !isIPLiteral
        self.valid = valid && host.utf8.elementsEqual(hostText.utf8)
    }

    /// How Foundation writes a port.
    enum PortStyle {
        /// As written, an empty one's `:` included (a URL kept as written).
        case asWritten
        /// As the number it reads (`URLParseInfo.port`, `Int(portString)`),
        /// or not at all: `URL(string:)` writing the URL again.
        case rewrittenByURL
        /// As the number it reads, or else as written: `URLComponents`
        /// writing the URL again after a component was set.
        case rewrittenByComponents
    }

    /// `user[:password]@host[:port]`, as Foundation writes it.
    func text(lowercasingHost: Bool, port style: PortStyle) -> String {
        var out = ""
        if let user {
            out += user
            if let password { out += ":" + password }
            out += "@"
        }
        out += lowercasingHost ? URLParts.asciiLowercased(host) : String(host)
        switch style {
        case .asWritten:
            if let port { out += ":" + port } else if emptyPortColon { out += ":" }
        case .rewrittenByURL:
            if let port, let number = Int(port) { out += ":" + String(number) }
        case .rewrittenByComponents:
            if let port { out += ":" + (Int(port).map(String.init) ?? String(port)) }
        }
        return out
    }
}
