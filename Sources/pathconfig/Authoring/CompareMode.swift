import ArgumentParser
import PathConfiguration

/// What `diff` and `test` compare: the JSON as written, or what each app
/// reads through its typed accessors.
enum CompareMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Values as written: numbers by value, object keys in any order, no
    /// conversion between types (`JSONComparison`).
    case json
    /// Every key of the typed catalog (`TypedKey`) as the profile's app reads
    /// it, its default included; other keys as written (`PropertyComparison`).
    case typed
}

/// `--compare`, shared by the commands that compare properties (test, diff).
struct CompareOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "json: compare values as written. typed: compare what each app reads through its typed accessors, defaults included, for the keys of the typed catalog (\(TypedKey.allCases.map(\.rawValue).joined(separator: ", "))); other keys, which app code reads raw, still as written.",
        valueName: "mode"))
    var compare: CompareMode = .json
}
