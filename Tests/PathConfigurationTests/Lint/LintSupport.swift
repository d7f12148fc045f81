import Foundation
import PathConfiguration
import Testing

/// Lint run on documents written out in the tests.
enum Lint {
    /// The findings for `json` under `profiles` (empty: the default, the four mobile apps).
    static func run(_ json: String, profiles: [Profile] = [], load: LoadOptions = LoadOptions()) throws -> [LintFinding] {
        try Linter(options: LintOptions(profiles: profiles, load: load)).lint(json)
    }

    /// The findings of one kind.
    static func run(_ json: String, kind: LintFinding.Kind, profiles: [Profile] = [], load: LoadOptions = LoadOptions()) throws -> [LintFinding] {
        try run(json, profiles: profiles, load: load).filter { $0.kind == kind }
    }

    /// A one-rule document: `patterns` and `properties` (JSON text).
    static func rule(_ patterns: [String], _ properties: String = #"{"context": "modal"}"#) -> String {
        #"{"rules": [{"patterns": \#(JSONWriter.compact(.array(patterns.map { .string($0) }))), "properties": \#(properties)}]}"#
    }

    /// The 1-based line and column of the `occurrence`th (0-based) `needle` in
    /// `text`, worked out apart from `SourceText`, to check locations against.
    static func position(of needle: String, in text: String, occurrence: Int = 0) -> [Int] {
        var from = text.startIndex
        var found = text.startIndex..<text.startIndex
        for _ in 0...occurrence {
            guard let r = text.range(of: needle, range: from..<text.endIndex) else { return [] }
            found = r
            from = r.upperBound
        }
        let lines = text[..<found.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
        return [lines.count, lines[lines.count - 1].unicodeScalars.count + 1]
    }

    /// The JSON blocks of the seed documents (Tests/Fixtures/seeds: the Turbo and
    /// Hotwire READMEs as published), each with its document's name.
    static let seedBlocks: [(name: String, json: String)] = {
        let directory = Conformance.repositoryRoot + "/Tests/Fixtures/seeds"
        var blocks: [(String, String)] = []
        for name in ["000_60f8878f60bcf8e0.txt", "001_c9f8284772d0b0de.txt", "002_aef3b0278a5ab875.txt",
                     "003_80894fcf96649ce2.txt", "004_01483b288d11e071.txt"] {
            guard let bytes = try? Conformance.readFile(directory + "/" + name) else { continue }
            let text = String(decoding: bytes, as: UTF8.self)
            var parts = text.components(separatedBy: "```json\n").dropFirst().makeIterator()
            var i = 0
            while let part = parts.next() {
                if let end = part.range(of: "```") { blocks.append(("\(name)#\(i)", String(part[..<end.lowerBound]))) }
                i += 1
            }
        }
        return blocks
    }()
}
