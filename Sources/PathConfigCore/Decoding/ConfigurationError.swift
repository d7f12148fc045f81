/// Why a configuration could not be loaded, and where.
///
/// Every error carries what a person needs to fix the file: a line and column
/// for syntax and schema errors, the rule and pattern index and the offset in
/// the pattern for a regular expression the engine rejected.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure. The raw values are stable (the C ABI has its own
    /// constants for them, `PATHCONFIG_E_*`).
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// The bytes are not JSON as the profile's app reads it (strict JSON
        /// in UTF-8, UTF-16 or UTF-32 on iOS; Gson's lenient JSON on Android),
        /// or not valid text in their encoding.
        case invalidJSON = 1
        /// JSON, but not a path configuration: a missing or mistyped key.
        case schema = 2
        /// A pattern the regular expression engine rejected.
        case invalidPattern = 3
        /// A load option with an unknown name or a bad value.
        case invalidOption = 4
        /// The file could not be read.
        case io = 5
        /// The input exceeds a configured limit (size, depth, counts).
        case limit = 6
        /// The requested regex backend is not part of this build.
        case backendUnavailable = 7
    }

    /// What went wrong.
    public let code: Code
    /// A sentence saying what is wrong, without the location prefix.
    public let message: String
    /// Line and column in the JSON document, when the error has a place there.
    public let location: SourceLocation?
    /// 0-based index of the rule at fault, when one is.
    public let ruleIndex: Int?
    /// 0-based index of the pattern at fault within its rule, when one is.
    public let patternIndex: Int?
    /// 0-based offset inside the pattern where the engine stopped, when known.
    public let patternOffset: Int?
    /// The operating system's error number (`errno`, e.g. `ENOENT`, `EACCES`)
    /// of an `.io` error, so a host can classify it without reading the
    /// message; nil for every other code.
    public let osError: Int32?

    /// Creates an error.
    public init(code: Code, message: String, location: SourceLocation? = nil, ruleIndex: Int? = nil,
                patternIndex: Int? = nil, patternOffset: Int? = nil, osError: Int32? = nil) {
        self.code = code
        self.message = message
        self.location = location
        self.ruleIndex = ruleIndex
        self.patternIndex = patternIndex
        self.patternOffset = patternOffset
        self.osError = osError
    }

    /// `LINE:COLUMN: message` when there is a location, else the message.
    public var description: String { location.map { "\($0): \(message)" } ?? message }
}

/// Something worth knowing about a configuration that loaded anyway.
///
/// The library never prints warnings; it returns them with the configuration.
public struct ConfigurationWarning: Sendable, Hashable, CustomStringConvertible {
    /// The kind of warning. The order is stable and only appended to: the C
    /// ABI numbers the kinds from 1 in this order (`PATHCONFIG_WARNING_*`).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An object repeats a key; the message says which value the
        /// profile's app keeps (the first under JSONSerialization, the last
        /// of an Android app's own fields under Gson).
        case duplicateKey = "duplicate-key"
        /// `lenient` skipped a pattern the engine rejected.
        case skippedPattern = "skipped-pattern"
        /// `settings` is not an object and was treated as `{}`.
        case ignoredSettings = "ignored-settings"
        /// A rule uses keys the chosen mobile app does not read (`globs`,
        /// `methods`): that app would reject the file or answer differently;
        /// or turbo-android reads `settings` as null and crashes outside a lookup.
        case notPortable = "not-portable"
    }

    /// What kind of warning this is.
    public let kind: Kind
    /// A sentence saying what was noticed.
    public let message: String
    /// Where, in the JSON document.
    public let location: SourceLocation?
    /// The rule concerned, when one is.
    public let ruleIndex: Int?
    /// The pattern concerned within its rule, when one is.
    public let patternIndex: Int?

    /// Creates a warning.
    public init(kind: Kind, message: String, location: SourceLocation? = nil, ruleIndex: Int? = nil, patternIndex: Int? = nil) {
        self.kind = kind
        self.message = message
        self.location = location
        self.ruleIndex = ruleIndex
        self.patternIndex = patternIndex
    }

    /// `LINE:COLUMN: message` when there is a location, else the message.
    public var description: String { location.map { "\($0): \(message)" } ?? message }

    /// The warning as JSON, the shape every host sees: `kind`, `message`,
    /// `line`, `column`, `rule_index`, `pattern_index` (null when not applicable).
    public var jsonObject: JSONObject {
        ["kind": .string(kind.rawValue),
         "message": .string(message),
         "line": .integer(location?.line),
         "column": .integer(location?.column),
         "rule_index": .integer(ruleIndex),
         "pattern_index": .integer(patternIndex)]
    }
}
