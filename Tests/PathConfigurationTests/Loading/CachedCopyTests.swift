@testable import PathConfigLoading
import Testing

/// The cache file's own format: what `encoded()` writes, `decode` reads back.
@Suite("Loader: the cache file format")
struct CachedCopyTests {
    /// Validators as servers may send them, including ones whose first
    /// character is a combining mark: after "etag " it forms one grapheme
    /// with the space (found by the exchange fuzzer: the copy was refused as
    /// a "bad header line" and ignored).
    static let validators = ["\"abc\"", "W/\"1-2\"", "\u{0749}\u{FFFD}\"", "\u{0301}x", "a b c", ""]

    @Test("a copy decodes to itself, whatever its validators hold", arguments: validators)
    func roundTrip(validator: String) throws {
        let copy = CachedCopy(url: "https://example.com/p.json", body: Array(#"{"rules": []}"#.utf8), etag: validator,
                              lastModified: validator)
        let decoded = try CachedCopy.decode(copy.encoded())
        #expect(decoded == copy)
    }

    @Test("a line without a space is still refused")
    func lineWithoutSpace() throws {
        var bytes = CachedCopy(url: "https://example.com/p.json", body: [], etag: nil, lastModified: nil).encoded()
        bytes.insert(contentsOf: Array("nospace\n".utf8), at: Array("pathconfig-cache 1\n".utf8).count)
        do {
            _ = try CachedCopy.decode(bytes)
            Issue.record("decoded a file with a header line without a space")
        } catch {
            #expect(error.reason == #"bad header line "nospace""#)
        }
    }
}
