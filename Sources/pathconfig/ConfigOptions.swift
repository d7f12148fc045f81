import ArgumentParser
import PathConfiguration
import PathConfigurationFoundation

extension Profile: ExpressibleByArgument {}

/// Every backend the core names: the command links both engines.
extension Backend: ExpressibleByArgument {
    var engine: any RegexEngine {
        switch self {
        case .pcre2: return PCRE2Engine()
        case .foundation: return FoundationEngine()
        }
    }
}

/// Options shared by every subcommand that loads a configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp(
        "A path configuration: a JSON file or an http(s):// URL. Repeat to chain sources: files load first, in order, then each URL's cached copy and download; the newest good one wins.",
        valueName: "file-or-url"))
    var config: [String] = []

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Keep downloaded configurations here, one file per URL, and reuse them when the server is unreachable or answers 304.", valueName: "dir"))
    var cacheDirectory: String?

    @Option(name: .long, help: ArgumentHelp("The longest a download may take, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    @Option(name: .customLong("header"), parsing: .singleValue, help: ArgumentHelp("An extra request header for downloads, 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    @Option(name: .long, help: ArgumentHelp("The reference app to reproduce.", valueName: "profile"))
    var profile: Profile = .hotwireIOS

    @Flag(inversion: .prefixedNo, help: "Append ?query to URL paths before matching (default: on, except turbo-ios).")
    var queryStrings: Bool?

    @Option(name: .long, help: ArgumentHelp("The regex engine (foundation is NSRegularExpression).", valueName: "backend"))
    var backend: Backend = .pcre2

    @Flag(name: .long, help: "Skip invalid patterns with a warning instead of failing, as the apps do.")
    var lenient = false

    func validate() throws {
        guard !config.isEmpty else { throw ValidationError("Missing expected argument '--config <file-or-url>'") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        _ = try parsedHeaders()
    }

    var loadOptions: LoadOptions {
        LoadOptions(profile: profile, matchQueryStrings: queryStrings, engine: backend.engine, lenient: lenient)
    }

    /// The `--header` values as (name, value) pairs.
    func parsedHeaders() throws -> [(name: String, value: String)] {
        try headers.map { header in
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw ValidationError("--header must be 'Name: value', got '\(header)'")
            }
            let value = header[header.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
            return (String(header[..<colon]), String(value))
        }
    }

    /// True when `config` names a server rather than a file.
    static func isURL(_ config: String) -> Bool {
        let lower = config.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The sources, in the order the loader runs them: files, then URLs,
    /// each group in command-line order.
    func sources() throws -> [ConfigurationSource] {
        let headers = try parsedHeaders()
        let files = config.filter { !Self.isURL($0) }.map { ConfigurationSource.file($0) }
        let urls = config.filter(Self.isURL).map { ConfigurationSource.server($0, headers: headers) }
        return files + urls
    }

    /// The loader options the flags describe.
    var loaderOptions: LoaderOptions {
        LoaderOptions(load: loadOptions, cacheDirectory: cacheDirectory,
                      timeout: .milliseconds(Int((timeout * 1000).rounded(.up))))
    }

    /// Runs the chain once and returns the newest good configuration with
    /// the place it came from. Failures of some sources are warnings when
    /// another loaded; when none did, each is an error and the exit code is 1.
    func load() throws -> (configuration: PathConfiguration, location: String) {
        let loader = try makeLoader(sources())
        let events = try loader.load()
        guard let configuration = loader.current, let origin = loader.currentEvent else {
            for event in events { Diagnostics.report(event, failuresAreErrors: true) }
            throw ExitCode(1)
        }
        for event in events { Diagnostics.report(event, failuresAreErrors: false) }
        return (configuration, Diagnostics.documentName(origin))
    }

    /// A loader over `sources` (with the --cache-dir cache unless `cached`
    /// is false), or exit 2 when a source is unusable as written.
    func makeLoader(_ sources: [ConfigurationSource], cached: Bool = true) throws -> ConfigurationLoader {
        var options = loaderOptions
        if !cached { options.cacheDirectory = nil }
        do {
            return try ConfigurationLoader(sources: sources, options: options)
        } catch {
            StandardStreams.error("pathconfig: error: \(error.message)\n")
            throw ExitCode(2)
        }
    }
}

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

/// Buffered standard output, flushed at the end of a command.
struct Output {
    private var buffer: [UInt8] = []

    mutating func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        StandardStreams.output(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
