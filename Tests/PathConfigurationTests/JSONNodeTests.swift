import PathConfiguration
import Testing

/// `JSONNode.parse`: the reader configurations go through, for other JSON
/// files whose messages must point at a line and column.
@Suite("JSON node tree")
struct JSONNodeTests {
    @Test("every value and key keeps its byte offset; SourceText turns one into a line and column")
    func offsets() throws {
        let text = "{\n  \"cases\": [\n    {\"url\": \"/é\", \"n\": 1,},\n  ],\n}"
        let bytes = Array(text.utf8)
        let (root, duplicates) = try JSONNode.parse(bytes)
        #expect(duplicates.isEmpty)
        let cases = try #require(root.member("cases"))
        let source = SourceText(bytes)
        #expect(source.location(cases.keyOffset) == SourceLocation(line: 2, column: 3, offset: 4))
        guard case .array(let items) = cases.value.kind else { Issue.record("not an array"); return }
        #expect(items.count == 1)
        let first = items[0]
        #expect(source.location(first.offset).description == "3:5")
        let n = try #require(first.member("n"))
        // Columns count characters: "é" is two bytes and one column.
        #expect(source.location(n.keyOffset).description == "3:19")
        #expect(n.value.value == .number(JSONNumber(Int64(1))))
        #expect(first.value == .object(["url": .string("/é"), "n": .number(JSONNumber(Int64(1)))]))
    }

    @Test("repeated keys are listed, each with its first occurrence; the value keeps the first")
    func duplicates() throws {
        let bytes = Array(#"{"a": 1, "b": {"c": 2, "c": 3}, "a": 4}"#.utf8)
        let (root, duplicates) = try JSONNode.parse(bytes)
        #expect(duplicates.map(\.key) == ["c", "a"])
        #expect(duplicates.map(\.offset) == [23, 32])
        #expect(duplicates.map(\.firstOffset) == [15, 1])
        #expect(root.value == .object(["a": .number(JSONNumber(Int64(1))), "b": .object(["c": .number(JSONNumber(Int64(2)))])]))
    }

    @Test("a syntax error is a ConfigurationError located in the bytes given")
    func syntaxError() {
        do {
            _ = try JSONNode.parse(Array("{\n  \"a\": [1 2]\n}".utf8))
            Issue.record("accepted a missing comma")
        } catch {
            #expect(error.code == .invalidJSON)
            #expect(error.location?.description == "2:11")
            #expect(error.message == "unexpected character '2', expected ',' or ']'")
        }
    }
}
