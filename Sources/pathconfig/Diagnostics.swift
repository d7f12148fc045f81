import PathConfiguration

/// Writes compiler-style diagnostics to standard error, in colour where
/// `Style.standardError` says.
enum Diagnostics {
    static func prefix(_ file: String, _ location: SourceLocation?) -> String {
        location.map { "\(file):\($0.line):\($0.column)" } ?? file
    }

    /// `PLACE: error: MESSAGE`; the place is `pathconfig` for the
    /// command's own errors (a flag's value, a file it cannot write).
    static func error(_ message: String, at place: String = "pathconfig") {
        emit(place, .error, message)
    }

    /// `PLACE: warning: MESSAGE`, as `error(_:at:)`.
    static func warning(_ message: String, at place: String = "pathconfig") {
        emit(place, .warning, message)
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
        guard let (place, message) = placeAndMessage(event) else { return }
        emit(place, failuresAreErrors && event.isFailure ? .error : .warning, message)
    }

    /// Prints a load that gave no configuration on standard output, as the
    /// one line of JSON `test`, `diff` and `port` answer under `--format
    /// json`: `ok` false, the `profile`, and `errors` (`failuresJSON`).
    static func printLoadFailure(_ events: [LoaderEvent], profile: Profile) {
        let document: JSONObject = ["ok": .bool(false), "profile": .string(profile.rawValue), "errors": .array(failuresJSON(events, withFile: true))]
        StandardStreams.outputLine(JSONWriter.compact(.object(document)))
    }

    /// Each failure of `events` as JSON, as `validate` gives its errors: its
    /// `file` (when `withFile`), then `errorJSON`.
    static func failuresJSON(_ events: [LoaderEvent], withFile: Bool) -> [JSONValue] {
        events.filter(\.isFailure).compactMap { event in
            guard let (_, message) = placeAndMessage(event) else { return nil }
            let e: ConfigurationError? = if case .configuration(let error)? = event.error { error } else { nil }
            var o: JSONObject = withFile ? ["file": .string(documentName(event))] : [:]
            o.merge(errorJSON(message, e))
            return .object(o)
        }
    }

    /// `message` with `error`'s `line`, `column`, `rule` and `pattern` (null where unknown).
    static func errorJSON(_ message: String, _ error: ConfigurationError?) -> JSONObject {
        ["message": .string(message), "line": .integer(error?.location?.line), "column": .integer(error?.location?.column),
         "rule": .integer(error?.ruleIndex), "pattern": .integer(error?.patternIndex)]
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
        case .reentrantCall, .handlerRunning, .forked:
            return ("pathconfig", "\(error)")
        }
    }

    enum Severity { case error, warning }

    private static func emit(_ place: String, _ severity: Severity, _ message: String, kind: String? = nil) {
        let suffix = kind.map { " [\($0)]" } ?? ""
        let s = Style.standardError
        let label = severity == .error ? s.errorLabel("error:") : s.warningLabel("warning:")
        StandardStreams.error("\(s.bold(place + ":")) \(label) \(message)\(s.dim(suffix))\n")
    }
}
