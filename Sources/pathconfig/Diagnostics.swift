#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PathConfiguration

/// Writes compiler-style diagnostics to standard error, in colour only when
/// standard error is a terminal (see `Colour`).
enum Diagnostics {
    static func prefix(_ file: String, _ location: SourceLocation?) -> String {
        if let location { return "\(file):\(location.line):\(location.column)" }
        return file
    }

    static func error(_ error: ConfigurationError, file: String) {
        emit(prefix(file, error.location), .error, error.message)
    }

    static func warning(_ warning: ConfigurationWarning, file: String) {
        emit(prefix(file, warning.location), .warning, warning.message)
    }

    /// `FILE:LINE:COLUMN: warning: rule N ("description"): MESSAGE [kind]`.
    /// An error when the finding is one (an app crashes or refuses the file)
    /// or its kind is denied (`validate --deny`).
    static func finding(_ finding: LintFinding, file: String, denied: Bool = false) {
        emit(prefix(file, finding.location), denied || finding.severity == .error ? .error : .warning, finding.summary, kind: finding.kind.rawValue)
    }

    /// An input the library refuses to look up (one over `max_url_bytes`):
    /// `PLACE: error: "INPUT": MESSAGE`, the input shortened (`Inputs.shortened`).
    static func refused(_ input: Input, _ error: ResolveError) {
        emit(input.place, .error, JSONWriter.quoted(Inputs.shortened(input.text)) + ": " + error.message)
    }

    /// The name a configuration's own positions refer to: the file, the data,
    /// or the URL (for a cached copy too, since its body is the URL's).
    static func documentName(_ event: LoaderEvent) -> String {
        event.url ?? event.location
    }

    /// Prints a failure or warning event (others are silent):
    /// `PLACE[:LINE:COLUMN]: error|warning: MESSAGE`.
    static func report(_ event: LoaderEvent, failuresAreErrors: Bool) {
        let severity: Severity
        switch event.outcome {
        case .failed: severity = failuresAreErrors ? .error : .warning
        case .warning: severity = .warning
        default: return
        }
        guard let (place, message) = placeAndMessage(event) else { return }
        emit(place, severity, message)
    }

    /// A load that gave no configuration, as the JSON document `test`, `diff`
    /// and `port` print under `--format json`: `ok` false, the `profile`, and
    /// `errors`, each failure's `file`, `message`, `line`, `column`, `rule`
    /// and `pattern` (null where unknown), as `validate` gives its errors.
    static func loadFailureJSON(_ events: [LoaderEvent], profile: Profile) -> JSONValue {
        var errors: [JSONValue] = []
        for event in events where event.isFailure {
            guard let (_, message) = placeAndMessage(event) else { continue }
            var e: ConfigurationError?
            if case .configuration(let error)? = event.error { e = error }
            errors.append(.object(["file": .string(documentName(event)), "message": .string(message), "line": .integer(e?.location?.line),
                                   "column": .integer(e?.location?.column), "rule": .integer(e?.ruleIndex),
                                   "pattern": .integer(e?.patternIndex)]))
        }
        return .object(["ok": .bool(false), "profile": .string(profile.rawValue), "errors": .array(errors)])
    }

    /// Where a failure or warning event points and what it says (nil for
    /// other events): the same words `report` prints, for JSON output too.
    static func placeAndMessage(_ event: LoaderEvent) -> (place: String, message: String)? {
        guard let error = event.error else { return nil }
        switch error {
        case .configuration(let e):
            let copy = event.origin == .cache ? " (cached copy)" : ""
            return (prefix(documentName(event), e.location), e.message + copy)
        case .download(let e):
            return (event.location, e.message)
        case .cache(let e):
            return (documentName(event), e.message)
        case .reentrantCall, .handlerRunning:
            return ("pathconfig", "\(error)")
        }
    }

    enum Severity: String { case error, warning }

    private static func emit(_ place: String, _ severity: Severity, _ message: String, kind: String? = nil) {
        let suffix = kind.map { " [\($0)]" } ?? ""
        let c = Colour.standardError
        let label = c.paint(severity.rawValue + ":", severity == .error ? .red : .magenta)
        StandardStreams.error("\(c.paint(place + ":", .bold)) \(label) \(message)\(c.paint(suffix, .dim))\n")
    }
}

/// ANSI colour, only where it helps: on a terminal, unless `NO_COLOR` is set
/// (https://no-color.org); `CLICOLOR_FORCE` set to anything but `0` turns it
/// on elsewhere (as in other tools; the tests use it). `NO_COLOR` wins.
struct Colour {
    enum Style: String {
        case bold = "1", dim = "2", red = "1;31", magenta = "1;35"
    }

    let enabled: Bool

    /// Whether diagnostics on standard error are coloured, decided once.
    static let standardError = Colour(enabled: decide(fd: 2))

    static func decide(fd: Int32) -> Bool {
        if let noColor = getenv("NO_COLOR"), noColor.pointee != 0 { return false }
        if let force = getenv("CLICOLOR_FORCE"), force.pointee != 0, String(cString: force) != "0" { return true }
        return isatty(fd) == 1
    }

    func paint(_ text: String, _ style: Style) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}
