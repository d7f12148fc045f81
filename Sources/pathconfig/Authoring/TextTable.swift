/// Rows of cells printed in aligned columns, two spaces apart, without
/// trailing spaces. Widths count characters, so a cell with accented or
/// non-Latin text lines up on a terminal.
struct TextTable {
    /// One cell: its text, and the same text with colour escapes (which take no width).
    struct Cell {
        let text: String
        let painted: String

        init(_ text: String, painted: String? = nil) {
            self.text = text
            self.painted = painted ?? text
        }
    }

    var rows: [[Cell]]

    /// A table whose first row is `header`, in bold where `style` colours.
    init(header: [String], style: Style) { rows = [header.map { Cell($0, painted: style.bold($0)) }] }

    /// The lines of the table, each starting with `indent`.
    func lines(indent: String = "") -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (i, cell) in row.enumerated() {
                if i == widths.count { widths.append(0) }
                widths[i] = max(widths[i], cell.text.count)
            }
        }
        return rows.map { row in
            var line = indent
            for (i, cell) in row.enumerated() {
                line += cell.painted
                if i < row.count - 1 { line += String(repeating: " ", count: widths[i] - cell.text.count + 2) }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }
}
