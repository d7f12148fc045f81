import PathConfigCore

/// One thing lint found in a configuration that loads: something that
/// probably does not do what its author meant, or that another app or tool
/// reads differently.
///
/// Most findings are warnings, which `pathconfig validate --strict` turns
/// into failures; a finding that an app among the selected profiles crashes
/// on, or refuses the file for, is an error, which fails `validate` always.
/// Each names its rule (by index and, when present, its
/// `description` or `comment`) and points at the exact line and column.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// What was found. The raw values are stable identifiers (kebab-case, as
    /// `ConfigurationWarning.Kind`'s, whose kinds keep their names here).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A pattern that the engine of one of the selected profiles rejects
        /// (that app skips it, or the file fails to load there).
        case invalidPattern = "invalid-pattern"
        /// A rule that never changes a result: every key it sets is set again
        /// by a later rule that applies wherever it does.
        case overriddenRule = "overridden-rule"
        /// A pattern that cannot match what an app matches it against: `^`
        /// and a first character a path never starts with, a scheme and host
        /// where the app sees the path, a character beyond ASCII where it
        /// sees the URL percent-encoded.
        case deadPattern = "dead-pattern"
        /// An object repeats a key; the message says which value each app
        /// keeps, or that it refuses the file.
        case duplicateKey = "duplicate-key"
        /// A pattern ending in `$` after a literal character: once query
        /// strings are matched, a URL it matches stops matching when it has
        /// a query string.
        case queryStringAnchor = "query-string-anchor"
        /// An unescaped `.` before a file extension at the end of a pattern
        /// (`/file.pdf$`, `.json$`), where a literal dot is clearly meant.
        case unescapedDot = "unescaped-dot"
        /// A well-known boolean property written as the string `"true"` or
        /// `"false"`, which the iOS apps do not read as a boolean.
        case stringBoolean = "string-boolean"
        /// A value of a well-known typed property that an app does not know
        /// (`presentation: "push"` on iOS) and replaces with its default.
        case unknownValue = "unknown-value"
        /// A comma before `]` or `}`: the iOS apps accept it, the Android
        /// apps read a null element or refuse the file, strict JSON parsers
        /// reject it; the message says what each selected app does.
        case trailingComma = "trailing-comma"
        /// A rule or key one of the mobile apps would reject or ignore
        /// (`globs`, `methods`, a nested value under turbo-android), or a
        /// key the iOS apps hold as one with an earlier rule's and the
        /// Android apps apart.
        case notPortable = "not-portable"
        /// `settings` is not an object and is treated as `{}`.
        case ignoredSettings = "ignored-settings"
        /// A `lint` marker (`{"allow": [KIND, ...]}`, at the top level or in
        /// a rule) that lint cannot read: another shape, or a name that is
        /// not a kind. It allows nothing where it is wrong (`LintMarkers`).
        case lintMarker = "lint-marker"
    }

    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// Loads, but probably not as meant; `--strict` is how a team makes
        /// warnings fail.
        case warning
        /// An app among the finding's `profiles` crashes on what it reads
        /// there, or refuses the whole file: the file does not work in that
        /// app, so `validate` fails whatever its options.
        case error
    }

    /// What was found.
    public let kind: Kind
    /// How serious it is.
    public let severity: Severity
    /// A sentence saying what is wrong, without the rule's name (see `summary`).
    public let message: String
    /// Where, in the document: the exact character (inside a pattern when
    /// the finding is about part of it).
    public let location: SourceLocation?
    /// The rule concerned (0-based), when one is.
    public let ruleIndex: Int?
    /// The pattern concerned within its rule (0-based), when one is.
    public let patternIndex: Int?
    /// The rule's `description` (or `comment`), when it has one.
    public let ruleDescription: String?
    /// The profiles the finding is about, when it holds only for some (empty:
    /// for the document whatever the profile).
    public let profiles: [Profile]

    /// Creates a finding.
    public init(kind: Kind, severity: Severity = .warning, message: String, location: SourceLocation?,
                ruleIndex: Int? = nil, patternIndex: Int? = nil, ruleDescription: String? = nil, profiles: [Profile] = []) {
        self.kind = kind
        self.severity = severity
        self.message = message
        self.location = location
        self.ruleIndex = ruleIndex
        self.patternIndex = patternIndex
        self.ruleDescription = ruleDescription
        self.profiles = profiles
    }

    /// The message with the rule named first: `rule 3 ("Forms open as modals"): MESSAGE`,
    /// or the message alone when no rule is concerned.
    public var summary: String {
        guard let ruleIndex else { return message }
        let name = ruleDescription.map { "rule \(ruleIndex) (\(JSONWriter.quoted($0)))" } ?? "rule \(ruleIndex)"
        return "\(name): \(message)"
    }

    /// `LINE:COLUMN: SUMMARY [KIND]`, or without the location when there is none.
    public var description: String {
        let text = "\(summary) [\(kind.rawValue)]"
        guard let location else { return text }
        return "\(location.line):\(location.column): \(text)"
    }

    /// The finding as JSON, the shape `pathconfig validate --format json`
    /// prints: `kind`, `severity`, `line`, `column`, `rule`, `pattern`,
    /// `description`, `profiles`, `message` (null where not applicable).
    public var jsonObject: JSONObject {
        var o = JSONObject()
        o["kind"] = .string(kind.rawValue)
        o["severity"] = .string(severity.rawValue)
        o["line"] = .integer(location?.line)
        o["column"] = .integer(location?.column)
        o["rule"] = .integer(ruleIndex)
        o["pattern"] = .integer(patternIndex)
        o["description"] = ruleDescription.map { .string($0) } ?? .null
        o["profiles"] = .array(profiles.map { .string($0.rawValue) })
        o["message"] = .string(message)
        return o
    }
}
