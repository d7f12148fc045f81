import Foundation
import HTTPTestSupport
import PathConfiguration
@testable import PathConfigCore
@testable import PathConfigLint
import Testing

/// Documents in UTF-16 and UTF-32: the iOS apps read them with
/// JSONSerialization, which detects the encoding; the Android apps read a
/// bundled file as UTF-8 and a download as OkHttp decodes it.
@Suite("Documents in UTF-16 and UTF-32")
struct DocumentEncodingTests {
    static let text = "{\n  \"settings\": {\"title\": \"café ☕ 𝄞\"},\n  \"rules\": [{\"patterns\": [\"/new$\"], \"properties\": {\"context\": \"modal\"}}]\n}"

    static let encodings: [DocumentEncoding] = [.utf8, .utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian]

    /// `text` in `encoding`, after its byte-order mark when `bom`.
    static func encode(_ text: String, _ encoding: DocumentEncoding, bom: Bool) -> [UInt8] {
        func units(_ value: UInt32, _ size: Int, bigEndian: Bool) -> [UInt8] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            return bigEndian ? bytes.reversed() : bytes
        }
        switch encoding {
        case .utf8:
            return (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        case .utf16LittleEndian, .utf16BigEndian:
            let big = encoding == .utf16BigEndian
            return (bom ? units(0xFEFF, 2, bigEndian: big) : []) + text.utf16.flatMap { units(UInt32($0), 2, bigEndian: big) }
        case .utf32LittleEndian, .utf32BigEndian:
            let big = encoding == .utf32BigEndian
            return (bom ? units(0xFEFF, 4, bigEndian: big) : []) + text.unicodeScalars.flatMap { units($0.value, 4, bigEndian: big) }
        }
    }

    @Test("JSONSerialization's rule: a byte-order mark, else the zero bytes of the first four; each is read as Foundation reads it, under the iOS profiles and siesta",
          arguments: encodings, [true, false])
    func loads(_ encoding: DocumentEncoding, bom: Bool) throws {
        let bytes = Self.encode(Self.text, encoding, bom: bom)
        let detected = bytes.withUnsafeBufferPointer { DocumentEncoding.jsonSerialization($0) }
        #expect(detected.encoding == encoding && detected.bomLength == (bom ? encoding.unitSize == 1 ? 3 : encoding.unitSize : 0))
        // swift-corelibs-foundation's JSONSerialization, the apps' reader, agrees.
        let foundation = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((foundation["settings"] as? [String: Any])?["title"] as? String == "café ☕ 𝄞")
        for profile in [Profile.hotwireIOS, .turboIOS, .siesta] {
            let config = try PathConfiguration(json: bytes, options: LoadOptions(profile: profile))
            #expect(config.settings["title"] == .string("café ☕ 𝄞"))
            #expect(config.properties(for: "/posts/new").json == #"{"context":"modal"}"#)
        }
    }

    @Test("an error's line and column are the ones an editor shows for the original file", arguments: encodings.dropFirst(), [true, false])
    func positions(_ encoding: DocumentEncoding, bom: Bool) throws {
        let documents = [
            "{\n  \"rules\": [\n    {\"patterns\": [\"/café(\"], \"properties\": {}}\n  ]\n}",  // an invalid pattern
            "{\n  \"rules\": [\n    {\"patterns\": [\"/é\"] \"properties\": {}}\n  ]\n}",  // a syntax error
            "{\n  \"settings\": {\"é\": 1},\n  \"rules\": [\n    {\"properties\": {}}\n  ]\n}",  // a schema error
        ]
        for text in documents {
            let expected = try #require(Self.loadError(Array(text.utf8)))
            let error = try #require(Self.loadError(Self.encode(text, encoding, bom: bom)))
            #expect(error.message == expected.message)
            #expect(error.location?.line == expected.location?.line && error.location?.column == expected.location?.column)
        }
    }

    static func loadError(_ bytes: [UInt8], profile: Profile = .hotwireIOS) -> ConfigurationError? {
        do { _ = try PathConfiguration(json: bytes, options: LoadOptions(profile: profile)); return nil } catch { return error }
    }

    @Test("text that is not valid in its encoding is an error at the line and column of the bad unit", arguments: [
        // UTF-16LE, no byte-order mark: "{\n" then an unpaired high surrogate.
        ([0x7B, 0x00, 0x0A, 0x00, 0x20, 0x00, 0x3D, 0xD8, 0x7D, 0x00], "UTF-16LE", "an unpaired surrogate", 2, 2),
        // UTF-16BE with its mark: "{" then a lone low surrogate.
        ([0xFE, 0xFF, 0x00, 0x7B, 0xDC, 0x00], "UTF-16BE", "an unpaired surrogate", 1, 2),
        // UTF-32BE: "{" then a value past U+10FFFF.
        ([0x00, 0x00, 0x00, 0x7B, 0x00, 0x11, 0x00, 0x00], "UTF-32BE", "a value past U+10FFFF", 1, 2),
        // UTF-16LE, an odd byte at the end: swift-corelibs-foundation drops it; this library refuses it.
        ([0x7B, 0x00, 0x7D, 0x00, 0x20], "UTF-16LE", "a truncated code unit", 1, 3),
    ] as [([UInt8], String, String, Int, Int)])
    func invalid(_ bytes: [UInt8], encoding: String, what: String, line: Int, column: Int) throws {
        let error = try #require(Self.loadError(bytes))
        #expect(error.code == .invalidJSON)
        #expect(error.message.hasPrefix("the document is \(encoding) but byte "))
        #expect(error.message.hasSuffix("starts \(what), so JSONSerialization cannot convert it to text"))
        #expect(error.location?.line == line && error.location?.column == column)
        // Foundation refuses them too, but for the odd byte at the end.
        if what != "a truncated code unit" {
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(bytes)) }
        }
    }

    @Test("a file, lint and the rules' own lines: the same reading")
    func fileAndLint() throws {
        let text = "{\n  \"settings\": {},\n  \"rules\": [\n    {\"description\": \"é\", \"patterns\": [\"/new$\"], \"properties\": {\"presentation\": \"push\"}}\n  ]\n}"
        let bytes = Self.encode(text, .utf16BigEndian, bom: true)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utf16-\(getpid()).json").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let config = try PathConfiguration(contentsOfFile: path, options: LoadOptions(profile: .turboIOS))
        #expect(config.rules[0].description == "é")
        // Lint's findings sit where they do in the UTF-8 text (the byte-order mark is no column).
        let expected = try Linter(options: LintOptions(profiles: [.hotwireIOS, .turboIOS])).lint(Array(text.utf8))
        let findings = try Linter(options: LintOptions(profiles: [.hotwireIOS, .turboIOS])).lint(bytes)
        #expect(!findings.isEmpty)
        #expect(findings.map(\.description) == expected.map(\.description))
    }

    @Test("Android: a bundled file in UTF-16 or UTF-32 is refused, as Gson refuses what String(bytes) makes of it; a UTF-8 byte-order mark is skipped",
          arguments: encodings.dropFirst(), [true, false])
    func androidBundled(_ encoding: DocumentEncoding, bom: Bool) throws {
        for profile in [Profile.hotwireAndroid, .turboAndroid] {
            let error = try #require(Self.loadError(Self.encode(Self.text, encoding, bom: bom), profile: profile))
            #expect(error.message.hasSuffix("(the document is \(encoding.rawValue); \(profile.rawValue) reads a bundled file as UTF-8)"), "\(error.message)")
            #expect(throws: Never.self) { try PathConfiguration(json: Self.encode(Self.text, .utf8, bom: true), options: LoadOptions(profile: profile)) }
        }
    }

    @Test("Android: a download with a byte-order mark is read as OkHttp reads it, and so is its cached copy; iOS reads it as JSONSerialization does",
          arguments: [Profile.hotwireAndroid, .hotwireIOS])
    func androidDownload(_ profile: Profile) throws {
        let bed = try LoaderTestBed(serving: nil)
        try bed.nginx.put("config.json", Data(Self.encode(Self.text, .utf16LittleEndian, bom: true)))
        let loader = try bed.loader(sources: [.server(bed.url)]) { $0.load.profile = profile }
        let events = try loader.load()
        #expect(events.map(summary) == ["server:applied"])
        #expect(loader.current?.settings["title"] == .string("café ☕ 𝄞"))
        // A new loader, the server gone: the cached copy, read the same way.
        bed.nginx.stop()
        let again = try bed.loader(sources: [.server(bed.url)]) { $0.load.profile = profile }
        let reloaded = try again.load()
        #expect(reloaded.first.map(summary) == "cache:applied")
        #expect(again.current?.properties(for: "https://x.dev/posts/new").json == #"{"context":"modal"}"#)
    }
}
