import FoundationEssentials
import PathConfiguration
import Testing

/// The iOS profiles read a URL as Foundation's `URL(string:)` does. This runs
/// both over generated URLs, so the profile's own parser cannot drift from
/// the one iOS (and swift-foundation, here) uses.
@Suite("iOS profiles read URLs as Foundation does")
struct URLFoundationDifferentialTests {
    /// Path and query pieces chosen for the cases that differ between
    /// readers: escapes valid and malformed, encoded slashes, spaces, bytes
    /// that are not UTF-8, characters a URL may not hold, non-ASCII text.
    static let pieces = ["a", "/", "//", "%2F", "%20", " ", "%C3%A9", "é", "%zz", "%", "%ff", "%e2%82", "[", "]",
                         "|", "{", "\\", "\"", ":", "@", "!$&'()*+,;=", "~", "-._", "?", "%3F", "€", "日本", "\t", "^", "\u{301}", "#", "#\u{301}", "?\u{301}", "/\u{301}"]

    static func urls(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix(state: seed)
        return (0..<count).map { _ in
            var path = "/"
            for _ in 0..<Int(rng.next() % 5) { path += pieces[Int(rng.next() % UInt64(pieces.count))] }
            var url = "https://example.com" + path
            if rng.next() % 2 == 0 {
                url += "?"
                for _ in 0..<Int(rng.next() % 4) { url += pieces[Int(rng.next() % UInt64(pieces.count))] }
            }
            if rng.next() % 4 == 0 { url += "#f" }
            return url
        }
    }

    @Test("hotwire-ios: URL.path() and URL.query(), still percent-encoded")
    func hotwireIOS() {
        var compared = 0
        for input in Self.urls(count: 4000, seed: 7) {
            guard let url = URL(string: input) else { continue }
            var expected = url.path()
            if let query = url.query() { expected += "?" + query }
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
}
