import PathConfiguration

/// The URLs a command compares: its arguments, or standard input's lines
/// when it has none; blank lines and lines starting with `#` skipped, a
/// trailing CR dropped, and each URL kept once, at its first place.
enum URLList {
    /// `arguments`, or the lines of standard input when there are none.
    static func read(_ arguments: [String]) -> [Input] {
        var list = Kept()
        Inputs.each(arguments) { list.add($0) }
        return list.inputs
    }

    /// The lines of `files` (`-`: standard input), each at its place
    /// `FILE:LINE`; none when the files have none (never standard input
    /// in their stead).
    static func read(files: [String]) throws(ConfigurationError) -> [Input] {
        var list = Kept()
        for file in files {
            let text = String(decoding: try FileBytes.read(file), as: UTF8.self), name = FileBytes.name(file)
            for (i, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
                list.add(Input(text: String(line), place: "\(name):\(i + 1)"))
            }
        }
        return list.inputs
    }

    /// The inputs kept so far: not blank, not a comment, not seen before
    /// (byte for byte: `/café` spelt with U+00E9 and with `e` and U+0301 are
    /// two URLs, which Swift's `==` would make one).
    private struct Kept {
        var inputs: [Input] = []
        var seen: Set<[UInt8]> = []

        mutating func add(_ input: Input) {
            let trimmed = input.text.drop(while: { $0 == " " || $0 == "\t" })
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") && seen.insert(Array(input.text.utf8)).inserted { inputs.append(input) }
        }
    }
}
