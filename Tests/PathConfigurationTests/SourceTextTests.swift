import PathConfiguration
@testable import PathConfigCore
import Testing

/// Locations are worked out only for messages, and cost the same on one
/// long line (a minified document) as on many.
@Suite("Source locations")
struct SourceTextTests {
    @Test("every offset's line and column equals a scan from the start", arguments: [0, 1, 2, 3])
    func agreesWithScan(seed: UInt64) {
        var rng = SplitMix(state: 0x10C + seed)
        let pieces: [[UInt8]] = [[0x61], [0x0A], Array("é".utf8), Array("€".utf8), Array("😀".utf8), [0x20], Array(repeating: 0x78, count: 300)]
        var bytes: [UInt8] = []
        while bytes.count < 3_000 { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
        if seed == 3 { bytes = bytes.filter { $0 != 0x0A } }  // one long line
        let text = SourceText(bytes)
        bytes.withUnsafeBufferPointer { buf in
            for offset in 0...buf.count {
                #expect(text.location(offset) == SourceLocation(offset: offset, in: buf), "offset \(offset)")
            }
        }
        #expect(text.location(-5) == SourceLocation(line: 1, column: 1, offset: 0))
        #expect(text.location(bytes.count + 9).offset == bytes.count)
    }

    @Test("a clean load of a minified document works out no location")
    func cleanLoadLocatesNothing() throws {
        let json = #"{"rules":[{"patterns":["/new$"],"properties":{"context":"modal"}},{"patterns":["é$"],"properties":{}}]}"#
        let document = try ConfigurationDecoder().decode(json)
        #expect(document.source.isIndexed == false)
        _ = try PathConfiguration(document: document)
        #expect(document.source.isIndexed == false)
    }

    @Test("a load from a buffer borrows it, and keeps a copy only when asked to")
    func bufferLoadKeepsACopy() throws {
        let json = Array(#"{"rules":[{"patterns":["/new$","^/a(b"],"properties":{"context":"modal"}}]}"#.utf8)
        var options = LoadOptions(lenient: true)
        options.keepsSource = true
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: json.count)
        _ = buffer.initialize(from: json)
        let config = try PathConfiguration(json: UnsafeBufferPointer(buffer), options: options)
        let warning = try #require(config.warnings.first)
        buffer.update(repeating: 0x20)  // the caller's bytes change, then go
        buffer.deallocate()
        #expect(config.source?.bytes == json)
        #expect(config.source?.location(json.count).offset == json.count)
        #expect(warning.location?.column == 32)
        #expect(try PathConfiguration(json: json, options: LoadOptions(lenient: true)).source == nil)
    }

    @Test("an invalid pattern at the end of a long minified document is located exactly")
    func lateErrorOnOneLine() throws {
        let count = 20_000
        var json = #"{"rules":["#
        for i in 0..<count { json += #"{"patterns":["^/é\#(i)$"],"properties":{"i":\#(i)}},"# }
        let prefix = json + #"{"patterns":["ok","#
        json = prefix + #""/b(c"],"properties":{}}]}"#
        let error = #expect(throws: ConfigurationError.self) { try PathConfiguration(json: json) }
        #expect(error?.location == SourceLocation(line: 1, column: prefix.unicodeScalars.count + 1, offset: prefix.utf8.count))
        #expect(error?.ruleIndex == count && error?.patternIndex == 1)
    }
}
