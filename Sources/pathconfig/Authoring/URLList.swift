/// The URLs a command compares: its arguments, or standard input's lines
/// when it has none; blank lines and lines starting with `#` skipped, a
/// trailing CR dropped, and each URL kept once, at its first place.
enum URLList {
    /// `arguments`, or the lines of standard input when there are none.
    static func read(_ arguments: [String]) -> [Input] {
        var inputs: [Input] = []
        var seen: Set<String> = []
        Inputs.each(arguments) { input in
            let trimmed = input.text.drop(while: { $0 == " " || $0 == "\t" })
            if !trimmed.isEmpty && !trimmed.hasPrefix("#") && seen.insert(input.text).inserted { inputs.append(input) }
        }
        return inputs
    }
}
