import ArgumentParser
import PathConfiguration

/// `--format` and `--color`, shared by the commands that print reports (test, diff).
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("text (for people) or json (one JSON document, for programs).", valueName: "format"))
    var format: OutputFormat = .text

    @Option(name: .customLong("color"), help: ArgumentHelp("Colour the text report and the diagnostics: auto (on a terminal, unless NO_COLOR is set or TERM is dumb; CLICOLOR_FORCE=1 on any output), always or never.", valueName: "when"))
    var color: Style.When = .auto

    var style: Style { Style(enabled: format == .text && color.enabled(fd: 1)) }

    /// Prints a report on standard output: its text's lines, or its JSON on one line.
    func write(text: @autoclosure () -> [String], json: @autoclosure () -> JSONValue) {
        var out = Output()
        switch format {
        case .text: for line in text() { out.line(line) }
        case .json: out.line(JSONWriter.compact(json()))
        }
        out.flush()
    }
}
