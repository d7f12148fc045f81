import ArgumentParser
import PathConfiguration
import PathConfigurationFoundation

extension Profile: ExpressibleByArgument {}

/// The regex backends the CLI offers.
enum Backend: String, CaseIterable, ExpressibleByArgument {
    case pcre2
    case foundation

    var engine: any RegexEngine {
        switch self {
        case .pcre2: return PCRE2Engine()
        case .foundation: return FoundationEngine()
        }
    }
}

/// Options shared by every subcommand that loads a configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The path configuration JSON file.", valueName: "file"))
    var config: String

    @Option(name: .long, help: ArgumentHelp("The reference app to reproduce: \(Profile.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "profile"))
    var profile: Profile = .hotwireIOS

    @Flag(inversion: .prefixedNo, help: "Append ?query to URL paths before matching (default: on, except turbo-ios).")
    var queryStrings: Bool?

    @Option(name: .long, help: ArgumentHelp("The regex engine: pcre2 or foundation (NSRegularExpression).", valueName: "backend"))
    var backend: Backend = .pcre2

    @Flag(name: .long, help: "Skip invalid patterns with a warning instead of failing, as the apps do.")
    var lenient = false

    var loadOptions: LoadOptions {
        LoadOptions(profile: profile, matchQueryStrings: queryStrings, engine: backend.engine, lenient: lenient)
    }

    /// Loads the configuration, or prints `FILE:LINE:COLUMN: error: MESSAGE`
    /// and exits with 1.
    func load() throws -> PathConfiguration {
        do {
            return try PathConfiguration(contentsOfFile: config, options: loadOptions)
        } catch {
            Diagnostics.error(error, file: config)
            throw ExitCode(1)
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
