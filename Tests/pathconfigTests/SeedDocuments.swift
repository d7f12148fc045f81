import Foundation

/// The seed documents of Tests/Fixtures/seeds (the Turbo iOS, Hotwire Native and
/// Jumpstart Pro pages on path configurations), and the JSON they show,
/// taken out as written: trailing commas and all.
enum SeedDocuments {
    /// The text of the seed whose file name starts with `prefix` (`000_`).
    static func text(_ prefix: String) -> String {
        let directory = CLI.root + "/Tests/Fixtures/seeds"
        guard let name = try? FileManager.default.contentsOfDirectory(atPath: directory).sorted().first(where: { $0.hasPrefix(prefix) }),
              let data = FileManager.default.contents(atPath: directory + "/" + name) else {
            fatalError("no seed \(prefix)* in \(directory); the repository's Tests/Fixtures is missing")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The fenced code blocks marked `json`, or unmarked, that hold a JSON
    /// object or array, in document order.
    static func jsonBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var inBlock = false
        var keep = false
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("```") else {
                if inBlock && keep { lines.append(line) }
                continue
            }
            if inBlock {
                let block = lines.joined(separator: "\n")
                let first = block.trimmingCharacters(in: .whitespacesAndNewlines).first
                if keep, first == "{" || first == "[" { blocks.append(block) }
                inBlock = false
            } else {
                let info = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
                inBlock = true
                keep = info.isEmpty || info == "json"
                lines = []
            }
        }
        return blocks
    }

    /// The text between `start` and `end` (both excluded), for a seed whose
    /// JSON is not fenced (a page saved as plain text).
    static func between(_ text: String, _ start: String, _ end: String) -> String {
        guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            fatalError("the seed no longer holds \(start.debugDescription) ... \(end.debugDescription)")
        }
        return String(text[a.upperBound..<b.lowerBound])
    }
}
