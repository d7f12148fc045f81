import ArgumentParser
import PathConfiguration

/// What `diff` and `test` compare: the JSON as written, or what each app
/// reads through its typed accessors.
enum CompareMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Values as written: numbers by value, object keys in any order,
    /// strings by code points, no conversion between types (`JSONComparison`).
    case json
    /// Every key of the typed catalog (`TypedKey`) as the profile's app reads
    /// it, its default included; other keys as written (`PropertyComparison`).
    case typed
}
