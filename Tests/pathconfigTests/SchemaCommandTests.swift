import Foundation
import Testing

@Suite("pathconfig schema")
struct SchemaCommandTests {
    static let committed = CLI.root + "/docs/path-configuration.schema.json"

    @Test("prints the JSON Schema that docs/path-configuration.schema.json holds, byte for byte")
    func matchesCommittedFile() throws {
        let r = try CLI.run(["schema"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let file = try String(contentsOfFile: Self.committed, encoding: .utf8)
        // Where they part, rather than both texts whole.
        let printed = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let committed = file.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (zip(printed, committed).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(printed.count, committed.count)) + 1
        let same = r.stdout == file
        #expect(same, """
            docs/path-configuration.schema.json differs from what `pathconfig schema` prints, from line \(line): \
            run `make schema` to write it again, and commit it
            """)
    }

    @Test("the output is one indented JSON object, ending in a newline, naming draft 2020-12 and its place in the repository")
    func output() throws {
        let r = try CLI.run(["schema"])
        #expect(r.stdout.hasPrefix("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n"))
        #expect(r.stdout.hasSuffix("\n}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["$id"] as? String == "https://raw.githubusercontent.com/libpathconfig/libpathconfig/main/docs/path-configuration.schema.json")
        #expect(object["required"] as? [String] == ["rules"])
    }

    @Test("takes no arguments")
    func noArguments() throws {
        let r = try CLI.run(["schema", "extra"])
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("Unexpected argument 'extra'"))
    }

    @Test("help says what it prints, in plain text")
    func help() throws {
        let r = try CLI.run(["schema", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            OVERVIEW: Print the JSON Schema of a path configuration.

            Prints the JSON Schema (draft 2020-12) that editors and validators check a path
            configuration against, made from the library's own tables. The repository keeps
            the same text in docs/path-configuration.schema.json; a document names it with
            a top-level "$schema" key.

            USAGE: pathconfig schema

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.


            """)
    }
}
