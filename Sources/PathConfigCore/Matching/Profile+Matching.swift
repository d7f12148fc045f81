/// What a profile means to matching: how its patterns compile and what
/// string (or which bytes of a URL) they see.
extension Profile {
    /// How patterns compile under this profile: ICU on iOS, `java.util.regex`
    /// on Android.
    public var regexOptions: RegexOptions {
        platform == .ios
            ? RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)
            : RegexOptions(caseInsensitive: true, unicodeClasses: false, dialect: .java)
    }

    /// The string the patterns run against for `input`.
    ///
    /// A string without a URL scheme (`/new`, `foo`) is matched as given. For
    /// a URL, iOS profiles read it as Foundation's `URL(string:)` does
    /// (a component with characters a URL may not hold is percent-encoded):
    /// hotwire-ios's main branch takes the path still percent-encoded
    /// (`URL.path()`), every release of hotwire-ios and turbo-ios the decoded
    /// path without trailing slashes (`URL.path`): the release's `Subject`.
    /// The fragment never counts; `?query` (still percent-encoded) is
    /// appended when `matchQueryStrings` is true and the URL has a `?`.
    /// siesta takes the whole URL (`URLParts.foundationForm`: a host beyond
    /// ASCII IDNA-encoded), or `:` where `URL(string:)` is nil, the URL
    /// Siesta gives such a resource.
    ///
    /// Android profiles read the input as `java.net.URL` does (`JavaURL`):
    /// `getPath()`, and `?` and `getQuery()` when there is a query; a string
    /// in which it finds no protocol is matched as given; one it rejects
    /// (an unknown scheme, a port that is not a number, a bad IPv6 literal)
    /// gives `""`, as hotwire-android 1.3.1 matches. Where the app crashes instead
    /// (turbo-android and hotwire-android before 1.3.1 on a rejected URL, both apps on a `jar:` URL read with
    /// a null path), this still gives `""`, and a lookup throws
    /// (`patternSubject(for:matchQueryStrings:)`).
    public func matchedString(for input: String, matchQueryStrings: Bool) -> String {
        switch release.behaviour.subject {
        case .foundationAbsoluteString:
            return URLParts.foundationForm(of: input, query: matchQueryStrings)
        case .javaPath, .javaPathCrashingOnRejected:
            return (try? javaSubject(for: input, matchQueryStrings: matchQueryStrings).get()) ?? ""
        case .foundationDecodedPath, .foundationEncodedPath:
            return foundationPath(for: input, matchQueryStrings: matchQueryStrings)
        }
    }

    /// `matchedString` under an iOS app's profile: the path of
    /// Foundation's `URL(string:)`, and its query when it counts, read from
    /// the input's bytes and made as one string.
    private func foundationPath(for input: String, matchQueryStrings: Bool) -> String {
        var input = input
        let subject = input.withUTF8 { bytes -> [UInt8]? in
            guard let url = URLParts.Split(bytes) else { return nil }
            var out: [UInt8] = []
            // URL.pathPreservingSlash is URL.path() on iOS 16+: percent-encoded.
            URLParts.appendFoundationEncoded(UnsafeBufferPointer(rebasing: bytes[url.path]), as: .path, to: &out)
            if release.behaviour.subject != .foundationEncodedPath {
                // URL.path: decoded ("" when the bytes are not UTF-8; a file URL's
                // escaped `/` and NUL kept), trailing slashes dropped after decoding
                // (the root stays "/").
                let isFile = url.scheme.count == 4 && zip(bytes[url.scheme], "file".utf8).allSatisfy { URLParts.asciiLowercased($0) == $1 }
                if !URLParts.percentDecode(&out, keepingSlashAndNUL: isFile) { out.removeAll() }
                while out.count > 1, Self.endsWithSlash(out) { out.removeLast() }
            }
            if matchQueryStrings, let query = url.query {
                out.append(UInt8(ascii: "?"))
                URLParts.appendFoundationEncoded(UnsafeBufferPointer(rebasing: bytes[query]), as: .query, to: &out)
            }
            return out
        }
        return subject.map { String(decoding: $0, as: UTF8.self) } ?? input
    }

    /// `matchedString(for:matchQueryStrings:)`, or the error of a lookup of
    /// `input` where the app crashes rather than match anything: under
    /// turbo-android, a URL `java.net.URL` rejects (`MalformedURLException`
    /// escapes `TurboPathConfiguration.path`); under either Android profile,
    /// a URL it reads with a null path (a `NullPointerException` in the
    /// app's `path`).
    func patternSubject(for input: String, matchQueryStrings: Bool) throws(ResolveError) -> String {
        guard platform == .android else { return matchedString(for: input, matchQueryStrings: matchQueryStrings) }
        return try javaSubject(for: input, matchQueryStrings: matchQueryStrings).get()
    }

    /// What an Android app matches for `input`, or its crash.
    private func javaSubject(for input: String, matchQueryStrings: Bool) -> Result<String, ResolveError> {
        switch JavaURL.read(input) {
        case .noProtocol:
            return .success(input)
        case .rejected(let reason):
            guard release.behaviour.subject == .javaPathCrashingOnRejected else { return .success("") }
            return .failure(ResolveError(code: .unreadableURL, message: "\(rawValue) crashes on this URL: java.net.URL rejects it (\(reason)), "
                + "and the app does not catch the MalformedURLException"))
        case .nullPath:
            return .failure(ResolveError(code: .unreadableURL, message: "\(rawValue) crashes on this URL: java.net.URL reads it "
                + "with a null path, which the app's lookup does not allow (a NullPointerException)"))
        case .accepted(let path, let query):
            guard matchQueryStrings, let query else { return .success(String(path)) }
            return .success(Self.joined(path, query))
        }
    }

    /// Where in `bytes`, printable ASCII, lies the string
    /// `matchedString(for:matchQueryStrings:)` gives for them, when that
    /// string is exactly some of them (the whole input, for a path; see
    /// `matchedRange(of:in:matchQueryStrings:)` for a URL). nil otherwise,
    /// and for siesta unless Foundation keeps a path as written, query
    /// included (`URLParts.relativeKeptAsWritten`): the caller then makes
    /// the string.
    func matchedRange(inPrintable bytes: UnsafeBufferPointer<UInt8>, matchQueryStrings: Bool) -> Range<Int>? {
        if release.behaviour.subject == .foundationAbsoluteString {
            return matchQueryStrings && URLParts.relativeKeptAsWritten(bytes) ? 0..<bytes.count : nil
        }
        guard let first = bytes.first, Self.mayStartURL(first) else { return 0..<bytes.count }
        return matchedRange(ofPossibleURL: bytes, matchQueryStrings: matchQueryStrings)
    }

    /// Whether printable ASCII starting with `first` may be a URL to some
    /// profile: a scheme starts with a letter, and `java.net.URL` skips a
    /// leading space. Anything else is a path (most inputs), matched as given.
    @inline(__always)
    static func mayStartURL(_ first: UInt8) -> Bool { URLParts.isAlpha(first) || first == UInt8(ascii: " ") }

    /// `matchedRange(inPrintable:matchQueryStrings:)` of bytes whose first
    /// is one that `mayStartURL`.
    @inline(__always)
    func matchedRange(ofPossibleURL bytes: UnsafeBufferPointer<UInt8>, matchQueryStrings: Bool) -> Range<Int>? {
        if let url = URLParts.Split(bytes) { return matchedRange(of: url, in: bytes, matchQueryStrings: matchQueryStrings) }
        // java.net.URL trims a leading space before it looks for a scheme.
        if platform == .android, bytes.first == UInt8(ascii: " ") { return nil }
        return 0..<bytes.count
    }

    /// Where in `bytes`, an absolute URL of printable ASCII split as `url`,
    /// lies the string `matchedString(for:matchQueryStrings:)` gives for it,
    /// when that string is exactly those bytes: the path, and `?query` when
    /// it counts, each already as the app reads it (nothing to percent-encode
    /// or decode, trailing slashes to drop only where no query follows, for
    /// Android a URL `java.net.URL` reads as the split does: `javaReadsAsSplit`).
    /// nil otherwise, and always for siesta (the whole URL, written back):
    /// the caller then makes the string. The rules are `matchedString`'s,
    /// read backwards; a test checks the two agree on every URL of a
    /// generated corpus, and another the Android rules against the JVM.
    func matchedRange(of url: URLParts.Split, in bytes: UnsafeBufferPointer<UInt8>, matchQueryStrings: Bool) -> Range<Int>? {
        let path = UnsafeBufferPointer(rebasing: bytes[url.path])
        switch release.behaviour.subject {
        case .foundationAbsoluteString:
            return nil
        case .foundationEncodedPath:
            // foundationEncoded keeps a valid component as written.
            guard URLParts.isValid(path, as: .path) else { return nil }
        case .foundationDecodedPath:
            // Without a `%`, decoding changes nothing; trailing slashes go
            // (the root stays "/"), leaving a run of bytes unless a query follows.
            guard URLParts.isValid(path, as: .path), !path.contains(UInt8(ascii: "%")) else { return nil }
            if path.count > 1, path[path.count - 1] == UInt8(ascii: "/") {
                guard !matchQueryStrings || url.query == nil else { return nil }
                var end = path.count - 1
                while end > 1, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
                return url.path.lowerBound..<(url.path.lowerBound + end)
            }
        case .javaPath, .javaPathCrashingOnRejected:
            guard Self.javaReadsAsSplit(url, bytes) else { return nil }
        }
        guard matchQueryStrings, let query = url.query else { return url.path }
        if platform == .ios {
            guard URLParts.isValid(UnsafeBufferPointer(rebasing: bytes[query]), as: .query) else { return nil }
        }
        return url.path.lowerBound..<query.upperBound  // "?" sits between them
    }

    /// Whether `java.net.URL` accepts `bytes`, printable ASCII split as
    /// `url`, with the split's path and query as its `getPath()` and
    /// `getQuery()`: a scheme of http, https, ftp or file (`jar:` URLs are
    /// read otherwise); nothing to trim at the end; not `scheme:////`, which
    /// it reads as a path; and an authority whose host is not in brackets
    /// and whose port, if any, is at most nine digits. Everything else is
    /// left to `JavaURL`, which also covers what this does not prove.
    @inline(never)
    private static func javaReadsAsSplit(_ url: URLParts.Split, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes[bytes.count - 1] != UInt8(ascii: " "), isJavaHierarchicalScheme(bytes, url.scheme) else { return false }
        guard let authority = url.authority else { return true }
        if authority.isEmpty {
            // "scheme:////": no authority for java.net.URL, the slashes its path.
            return url.path.count < 2 || bytes[url.path.lowerBound + 1] != UInt8(ascii: "/")
        }
        // The host and port follow the only '@' (after two, java.net.URL reads neither).
        var host = authority.lowerBound
        var ats = 0
        for i in authority where bytes[i] == UInt8(ascii: "@") {
            ats += 1
            host = i + 1
        }
        if ats > 1 { return true }
        var i = host
        while i < authority.upperBound {
            let b = bytes[i]
            if b == UInt8(ascii: "[") { return false }
            if b == UInt8(ascii: ":") { break }
            i += 1
        }
        // An empty port, or up to nine digits: an int Integer.parseInt takes.
        let digits = authority.upperBound - i - 1
        guard digits > 0 else { return true }
        return digits <= 9 && bytes[(i + 1)..<authority.upperBound].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Whether `bytes[scheme]` is http, https, ftp or file, in any case.
    private static func isJavaHierarchicalScheme(_ bytes: UnsafeBufferPointer<UInt8>, _ scheme: Range<Int>) -> Bool {
        var word: UInt64 = 0
        guard scheme.count >= 3, scheme.count <= 5 else { return false }
        for i in scheme { word = word << 8 | UInt64(URLParts.asciiLowercased(bytes[i])) }
        return word == 0x68_74_74_70 || word == 0x68_74_74_70_73 || word == 0x66_74_70 || word == 0x66_69_6C_65
    }

    /// Whether the last Character of `path`, UTF-8, is a slash. Read from
    /// the last two bytes when they tell (a last byte other than `/`, or a
    /// slash after an ASCII byte, which no Character extends), else from
    /// Characters (a slash after a prepended mark is no slash).
    private static func endsWithSlash(_ path: [UInt8]) -> Bool {
        guard path.last == UInt8(ascii: "/") else { return false }
        return path.count < 2 || path[path.count - 2] < 0x80 || String(decoding: path, as: UTF8.self).hasSuffix("/")
    }

    /// `path + "?" + query`, made in one allocation.
    private static func joined(_ path: Substring, _ query: Substring) -> String {
        let pathCount = path.utf8.count, queryCount = query.utf8.count
        return String(unsafeUninitializedCapacity: pathCount + 1 + queryCount) { buffer in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[..<pathCount]).initialize(from: path.utf8)
            buffer[pathCount] = UInt8(ascii: "?")
            _ = UnsafeMutableBufferPointer(rebasing: buffer[(pathCount + 1)...]).initialize(from: query.utf8)
            return pathCount + 1 + queryCount
        }
    }
}
