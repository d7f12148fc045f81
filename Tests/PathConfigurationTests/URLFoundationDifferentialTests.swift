import FoundationEssentials
import PathConfiguration
@testable import PathConfigCore
import Testing

/// The iOS profiles read a URL as Foundation's `URL(string:)` does. This runs
/// both over generated URLs, so the profile's own parser cannot drift from
/// the one iOS (and swift-foundation, here) uses.
@Suite("iOS profiles read URLs as Foundation does")
struct URLFoundationDifferentialTests {
    /// Path and query pieces chosen for the cases that differ between
    /// readers: escapes valid and malformed, encoded slashes, spaces, bytes
    /// that are not UTF-8, characters a URL may not hold, non-ASCII text.
    static let pieces = ["a", "/", "//", "%2F", "%2f", "%00", "%252F", "%20", " ", "%C3%A9", "é", "%zz", "%", "%ff", "%e2%82", "%F0%9F%98", "%F0%9F%98%80", "[", "]",
                         "|", "{", "\\", "\"", ":", "@", "!$&'()*+,;=", "~", "-._", "?", "%3F", "€", "日本", "\t", "^", "\u{301}", "#", "#\u{301}", "?\u{301}", "/\u{301}"]

    /// Schemes in the cases Foundation keeps as written (`HTTPS` stays
    /// `HTTPS` in `absoluteString`), and `file`, whose `URL.path` keeps an
    /// escaped `/` or NUL.
    static let schemes = ["https", "https", "HTTPS", "Https", "hTtP", "mailto", "MAILTO", "x-app", "tel", "file", "FILE"]
    /// First path segments of a URL without `//`, which Foundation encodes
    /// with `:` when it encodes the path (`mailto:a:b c` as `mailto:a%3Ab%20c`).
    static let firstSegments = ["a", "a:b", ":", "a:", ":b", "user:x@y", "+1:555", "%3A", "a%zz:", "é:"]

    /// URLs with and without an authority: `scheme://example.com/path`, or
    /// `scheme:segment` and more path.
    static func urls(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix(state: seed)
        func piece() -> String { pieces[Int(rng.next() % UInt64(pieces.count))] }
        return (0..<count).map { _ in
            let scheme = schemes[Int(rng.next() % UInt64(schemes.count))]
            var url: String
            if rng.next() % 3 != 0 {
                url = scheme + "://example.com/"
            } else {
                url = scheme + ":" + firstSegments[Int(rng.next() % UInt64(firstSegments.count))]
            }
            for _ in 0..<Int(rng.next() % 5) { url += piece() }
            if rng.next() % 2 == 0 {
                url += "?"
                for _ in 0..<Int(rng.next() % 4) { url += piece() }
            }
            if rng.next() % 4 == 0 { url += "#f" }
            return url
        }
    }

    @Test("hotwire-ios@main: URL.path() and URL.query(), still percent-encoded (pathPreservingSlash on iOS 16 and later)")
    func hotwireIOSMain() throws {
        let main = try Profile(name: "hotwire-ios@main")
        var compared = 0, encodedColon = 0
        for input in Self.urls(count: 4000, seed: 7) {
            guard let url = URL(string: input) else { continue }
            var expected = url.path()
            if let query = url.query() { expected += "?" + query }
            #expect(main.matchedString(for: input, matchQueryStrings: true) == expected, "\(input)")
            compared += 1
            if !input.contains("%3A"), url.path().contains("%3A") { encodedColon += 1 }
        }
        #expect(compared > 3000)
        #expect(encodedColon > 200)
    }

    @Test("hotwire-ios, every release: \"\\(url.path)?\\(query)\" with url.query, the path decoded")
    func hotwireIOSReleases() {
        var compared = 0
        for input in Self.urls(count: 4000, seed: 13) {
            guard let url = URL(string: input) else { continue }
            var expected = url.path
            if let query = url.query { expected = "\(url.path)?\(query)" }
            #expect(Profile.hotwireIOS.matchedString(for: input, matchQueryStrings: true) == expected, "\(input)")
            compared += 1
        }
        #expect(compared > 3000)
    }

    @Test("turbo-ios: URL.path, decoded")
    func turboIOS() {
        var compared = 0
        for input in Self.urls(count: 4000, seed: 11) {
            guard let url = URL(string: input) else { continue }
            #expect(Profile.turboIOS.matchedString(for: input, matchQueryStrings: false) == url.path, "\(input)")
            compared += 1
        }
        #expect(compared > 3000)
    }

    @Test("siesta: URL.absoluteString (of the URL without its query, where query strings do not count), the scheme's case kept, or :")
    func siesta() {
        var compared = 0, upperCase = 0, encodedColon = 0
        for input in Self.urls(count: 4000, seed: 13) {
            let expected = URL(string: input)?.absoluteString ?? ":"
            #expect(Profile.siesta.matchedString(for: input, matchQueryStrings: true) == expected, "\(input)")
            #expect(Profile.siesta.matchedString(for: input, matchQueryStrings: false) == Self.foundationFormWithoutQuery(input), "\(input)")
            compared += 1
            if expected.utf8.first.map({ $0 >= 0x41 && $0 <= 0x5A }) ?? false { upperCase += 1 }
            if !input.contains("%3A"), expected.contains("%3A") { encodedColon += 1 }
        }
        // The generator reaches both classes.
        #expect(compared == 4000)
        #expect(upperCase > 500)
        #expect(encodedColon > 200)
    }

    /// What siesta's patterns see without query strings: `absoluteString`
    /// of the URL with its query (from the first `?` before any `#` up to it) left
    /// out, or `:`.
    static func foundationFormWithoutQuery(_ input: String) -> String {
        var bytes = Array(input.utf8)  // bytes: `?` and U+0301 are one Character
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        if let q = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) { bytes.removeSubrange(q..<end) }
        return URL(string: String(decoding: bytes, as: UTF8.self))?.absoluteString ?? ":"
    }

    /// Authorities whose scheme, user, host and port Foundation reads
    /// differently: upper-case letters where they are lower-cased and where
    /// they are not, IP literals, hosts IDNA- or percent-encoded (`tel`),
    /// empty and leading-zero ports.
    static let authorities = ["x.dev", "X.Dev", "USER@X.DEV", "User:PW@x.dev:8080", "u:@X.dev", "@X.dev", "X.dev:0080", "X.dev:", "[::A]",
                              "[FE80::1%25EN0]:80", "É.Dev", "Bücher.Example", "Ä", "ä.x", "", "X y", "X.dev:8A"]

    @Test("globs: URL.absoluteString with the scheme and the host (as Foundation places it) lower-cased, or :")
    func globSubject() throws {
        var random = SplitMix(state: 17)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var lowered = 0, kept = 0
        for n in 0..<4000 {
            var input = pick(["https", "HTTPS", "Https", "tel", "TEL", "x-App", "addressbook"]) + ":"
            input += n % 4 == 0 ? pick(["", "User@X.dev", "A:b"]) : "//" + pick(Self.authorities)
            for _ in 0..<Int(random.next() % 3) { input += pick(["/", "/A", " ", "|", "%zz", "%41", "é"]) }
            if n % 3 == 0 { input += "?Q=1" }
            if n % 5 == 0 { input += "#F" }
            let expected = try Self.foundationGlobSubject(input)
            #expect(Profile.siesta.matchedString(for: input, matchQueryStrings: false) == Self.foundationFormWithoutQuery(input), "\(input)")
            for query in [true, false] {
                let lookup = try Lookup(input, profile: .siesta, matchQueryStrings: query, base: nil)
                #expect(lookup.globSubject == expected, "\(input)")
            }
            if expected == URL(string: input)?.absoluteString { kept += 1 } else { lowered += 1 }
        }
        // Both ways are taken.
        #expect(lowered > 2500 && kept > 500, "lowered \(lowered), kept \(kept)")
    }

    /// `URL(string:)`'s `absoluteString`, the scheme and the host lower-cased,
    /// the host placed by Foundation's own components: after `//`, the user
    /// and `@`, the password and `:`; up to its `]`, or else the first `:`,
    /// `/`, `?` or `#`. ":" where `URL(string:)` is nil.
    static func foundationGlobSubject(_ input: String) throws -> String {
        guard let url = URL(string: input) else { return ":" }
        var text = Array(url.absoluteString.utf8)
        func lower(_ range: Range<Int>) { for i in range where text[i] >= 0x41 && text[i] <= 0x5A { text[i] |= 0x20 } }
        let scheme = try #require(url.scheme).utf8.count
        lower(0..<scheme)
        if let host = url.host(percentEncoded: true) {
            var start = scheme + 3
            if let user = url.user(percentEncoded: true) { start += user.utf8.count + 1 }
            if let password = url.password(percentEncoded: true) { start += password.utf8.count + 1 }
            let ends: Set<UInt8> = text[start...].first == UInt8(ascii: "[") ? [UInt8(ascii: "]")] : Set(":/?#".utf8)
            let end = text[start...].firstIndex(where: ends.contains).map { ends.count == 1 ? $0 + 1 : $0 } ?? text.count
            // Foundation's host is the text written there, but for a name
            // IDNA converted (its host is then the Unicode name, encoded).
            let written = String(decoding: text[start..<end], as: UTF8.self)
            #expect(written.contains(host) || written.contains("xn--"), "\(input): \(url.absoluteString), host \(host)")
            lower(start..<end)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
