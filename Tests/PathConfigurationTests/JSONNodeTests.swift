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

    @Test("repeated keys of a large object: found the same before and after its keys are indexed", arguments: [5, 15, 16, 17, 40])
    func duplicatesInLargeObject(size: Int) throws {
        // Keys k0 ... k{size-1}, then each of k0, k{size/2} and k{size-1} again.
        var members = (0..<size).map { #""k\#($0)": \#($0)"# }
        let repeated = [0, size / 2, size - 1]
        members += repeated.map { #""k\#($0)": -1"# }
        let text = "{" + members.joined(separator: ",") + "}"
        let (root, duplicates) = try JSONNode.parse(Array(text.utf8))
        #expect(duplicates.map(\.key) == repeated.map { "k\($0)" })
        for d in duplicates {
            let bytes = Array(text.utf8)
            let quoted = Array("\"\(d.key)\"".utf8)
            #expect(Array(bytes[d.offset..<d.offset + quoted.count]) == quoted)
            #expect(Array(bytes[d.firstOffset..<d.firstOffset + quoted.count]) == quoted)
            #expect(d.firstOffset < d.offset)
            // The first occurrence is the first place the key is written.
            #expect(text.utf8.firstRange(of: quoted.map { $0 })?.lowerBound == text.utf8.index(text.utf8.startIndex, offsetBy: d.firstOffset))
        }
        guard case .object(let object) = root.value else { Issue.record("not an object"); return }
        #expect(object.keys == (0..<size).map { "k\($0)" })
        #expect(object["k0"] == .number(JSONNumber(Int64(0))))
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
