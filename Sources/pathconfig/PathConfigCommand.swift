import ArgumentParser
import PathConfiguration

/// Exit codes: 0 success, 1 bad configuration or input, 2 usage error.
@main
struct PathConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pathconfig",
        abstract: "Resolve URLs against a Turbo / Hotwire Native path configuration.",
        version: "\(PathConfigurationVersion.string)",
        subcommands: [Resolve.self, Explain.self, Settings.self, Validate.self, Test.self, Diff.self, Port.self, Fetch.self, Schema.self, Profiles.self]
    )

    /// Runs the command, mapping usage errors to exit code 2 (ArgumentParser uses 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                StandardStreams.error(fullMessage(for: error) + "\n")
                Self.exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
