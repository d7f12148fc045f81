/// The URLs a command compares: its arguments, or standard input's lines
/// when it has none; blank lines and lines starting with `#` skipped, a
/// trailing CR dropped, and each URL kept once, at its first place.
enum URLList {
    /// `arguments`, or the lines of standard input when there are none.
    static func read(_ arguments: [String]) -> [String] {
        var lines: [String] = []
        if arguments.isEmpty {
            while let line = readLine(strippingNewline: true) {
                lines.append(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
        } else {
            lines = arguments
        }
        var seen: Set<String> = []
        return lines.filter { line in
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            return !trimmed.isEmpty && !trimmed.hasPrefix("#") && seen.insert(line).inserted
        }
    }
}
