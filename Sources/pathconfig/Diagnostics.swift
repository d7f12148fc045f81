import PathConfiguration

/// Writes compiler-style diagnostics to standard error.
enum Diagnostics {
    static func prefix(_ file: String, _ location: SourceLocation?) -> String {
        if let location { return "\(file):\(location.line):\(location.column)" }
        return file
    }

    static func error(_ error: ConfigurationError, file: String) {
        StandardStreams.error("\(prefix(file, error.location)): error: \(error.message)\n")
    }

    static func warning(_ warning: ConfigurationWarning, file: String) {
        StandardStreams.error("\(prefix(file, warning.location)): warning: \(warning.message)\n")
    }

    /// The name a configuration's own positions refer to: the file, the data,
    /// or the URL (for a cached copy too, since its body is the URL's).
    static func documentName(_ event: LoaderEvent) -> String {
        event.url ?? event.location
    }

    /// Prints a failure or warning event (others are silent):
    /// `PLACE[:LINE:COLUMN]: error|warning: MESSAGE`.
    static func report(_ event: LoaderEvent, failuresAreErrors: Bool) {
        let severity: String
        switch event.outcome {
        case .failed: severity = failuresAreErrors ? "error" : "warning"
        case .warning: severity = "warning"
        default: return
        }
        guard let error = event.error else { return }
        let line: String
        switch error {
        case .configuration(let e):
            let copy = event.origin == .cache ? " (cached copy)" : ""
            line = "\(prefix(documentName(event), e.location)): \(severity): \(e.message)\(copy)"
        case .download(let e):
            line = "\(event.location): \(severity): \(e.message)"
        case .cache(let e):
            line = "\(documentName(event)): \(severity): \(e.message)"
        case .reentrantCall:
            line = "pathconfig: \(severity): \(error)"
        }
        StandardStreams.error(line + "\n")
    }
}
