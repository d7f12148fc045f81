import ArgumentParser
import PathConfiguration

/// `--compare`, `--format`, `--color` and `--ignore-key`, shared by the commands that compare properties (test, diff).
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "json: compare values as written. typed: compare what each app reads through its typed accessors, defaults included, for the keys of the typed catalog (\(TypedKey.allCases.map(\.rawValue).joined(separator: ", "))); other keys, which app code reads raw, still as written.",
        valueName: "mode"))
    var compare: CompareMode = .json

    @Option(name: .long, help: ArgumentHelp("text (for people) or json (one JSON document, for programs).", valueName: "format"))
    var format: OutputFormat = .text

    @Option(name: .customLong("color"), help: ArgumentHelp("Colour the text report and the diagnostics: auto (on a terminal, unless NO_COLOR is set or TERM is dumb; CLICOLOR_FORCE=1 on any output), always or never.", valueName: "when"))
    var color: Style.When = .auto

    @Option(name: .customLong("ignore-key"), parsing: .singleValue, help: ArgumentHelp(
        "Leave this key out of every comparison (repeatable): a top-level key, with everything under it, or a nested one as the reports write it (headers.Accept).",
        valueName: "key"))
    var ignoreKeys: [String] = []

    func validate() throws {
        if ignoreKeys.contains(where: \.isEmpty) { throw ValidationError("--ignore-key needs a key name") }
    }

    var ignored: IgnoredKeys { IgnoredKeys(ignoreKeys) }

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
