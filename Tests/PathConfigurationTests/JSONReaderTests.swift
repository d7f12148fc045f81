import PathConfiguration
import Testing

@Suite("JSON reader")
struct JSONReaderTests {
    func error(_ text: String) -> ConfigurationError? {
        do { _ = try JSONValue(parsing: text); return nil } catch { return error }
    }

    @Test("syntax errors name line and column", arguments: [
        ("{\"a\": 1,\n  \"b\" 2}", 2, 7, "expected ':'"),
        ("[1, 2", 1, 6, "unexpected end of input"),
        ("{\"a\": tru}", 1, 7, "invalid literal"),
        ("\n\n   @", 3, 4, "expected a value"),
        ("{\"a\": 01}", 1, 7, "leading zeros"),
        ("{\"a\": \"x\ty\"}", 1, 9, "control character"),
        ("{\"a\": \"\\q\"}", 1, 8, "invalid escape"),
        ("{\"a\": \"\\ud800\"}", 1, 8, "lone high surrogate"),
        ("[1] [2]", 1, 5, "after the end of the document"),
        ("{\"é\": x}", 1, 7, "expected a value"),
    ])
    func syntaxErrors(_ text: String, line: Int, column: Int, message: String) throws {
        let e = try #require(error(text))
        #expect(e.code == .invalidJSON)
        #expect(e.location?.line == line)
        #expect(e.location?.column == column)
        #expect(e.message.contains(message), "\(e.message)")
    }

    @Test("invalid UTF-8 is an error, not a repair")
    func invalidUTF8() throws {
        let bytes: [UInt8] = Array("{\"a\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        do {
            _ = try JSONValue(parsing: bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.message.contains("UTF-8"))
            #expect(error.location?.column == 8)
        }
    }

    @Test("trailing commas are accepted, as the reference apps accept them")
    func trailingCommas() throws {
        let v = try JSONValue(parsing: "{\"a\": [1, 2,], \"b\": {\"c\": true,},}")
        #expect(JSONWriter.compact(v) == "{\"a\":[1,2],\"b\":{\"c\":true}}")
    }

    @Test("a lone comma is still an error")
    func loneComma() {
        #expect(error("[,]") != nil)
        #expect(error("{,}") != nil)
        #expect(error("[1,,]") != nil)
    }

    @Test("values round-trip losslessly: numbers keep their text, keys their order")
    func lossless() throws {
        let text = "{\"z\":1,\"a\":1.50,\"m\":-0,\"big\":123456789012345678901234567890,\"e\":1E+3,\"s\":\"caf\\u00e9 \\\"q\\\" \\\\ /\",\"n\":null,\"t\":[true,false,{}],\"o\":{}}"
        let v = try JSONValue(parsing: text)
        #expect(JSONWriter.compact(v) == "{\"z\":1,\"a\":1.50,\"m\":-0,\"big\":123456789012345678901234567890,\"e\":1E+3,\"s\":\"café \\\"q\\\" \\\\ /\",\"n\":null,\"t\":[true,false,{}],\"o\":{}}")
        let o = try #require(v.objectValue)
        #expect(o.keys == ["z", "a", "m", "big", "e", "s", "n", "t", "o"])
        #expect(o["z"]?.int64Value == 1)
        #expect(o["a"]?.int64Value == nil)
        #expect(o["a"]?.doubleValue == 1.5)
        #expect(o["big"]?.int64Value == nil)
    }

    @Test("values compare and hash as written: strings and keys by code points, not Swift's canonical equivalence")
    func equalityAsWritten() throws {
        let nfc = try JSONValue(parsing: #"{"caf\u00e9": ["caf\u00e9", "\u212a"]}"#)
        let nfd = try JSONValue(parsing: #"{"cafe\u0301": ["cafe\u0301", "K"]}"#)
        let values = try JSONValue(parsing: #"{"caf\u00e9": ["cafe\u0301", "K"]}"#)
        #expect(nfc != nfd && nfc != values && values != nfd)
        #expect(JSONValue.string("caf\u{E9}") != .string("cafe\u{301}") && JSONValue.string("\u{212A}") != .string("K"))
        #expect(Set([nfc, nfd, values, nfc]).count == 3)
        #expect(nfc == (try JSONValue(parsing: #"{"café": ["café", "\u212A"]}"#)))
    }

    @Test("surrogate pairs decode to one scalar; control characters are escaped on output")
    func unicode() throws {
        let v = try JSONValue(parsing: "[\"\\ud83d\\ude00\", \"a\\u0001b\\n\"]")
        #expect(v.arrayValue?[0].stringValue == "😀")
        #expect(JSONWriter.compact(v) == "[\"😀\",\"a\\u0001b\\n\"]")
    }

    @Test("a byte-order mark is skipped")
    func bom() throws {
        let v = try JSONValue(parsing: [0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8))
        #expect(v.objectValue?["a"]?.int64Value == 1)
    }

    @Test("nesting deeper than the limit is refused, not a stack overflow")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(error(deep)?.message.contains("nesting deeper") == true)
        // A limit error, whichever entry point parsed it; a syntax error stays invalid JSON.
        #expect(error(deep)?.code == .limit)
        let decoderError = #expect(throws: ConfigurationError.self) { try ConfigurationDecoder().decode(deep) }
        #expect(decoderError?.code == .limit)
        #expect(error("[1,,]")?.code == .invalidJSON)
    }

    @Test("pretty output is indented and parses back to the same value")
    func pretty() throws {
        let v = try JSONValue(parsing: "{\"a\":[1,{\"b\":null}],\"c\":{}}")
        let text = JSONWriter.pretty(v)
        #expect(text == "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {}\n}")
        #expect(try JSONValue(parsing: text) == v)
    }
}
