import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    /// `pathconfig validate`: load each source strictly and report.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that configurations load.",
            discussion: """
                Checks each --config on its own (a URL is downloaded, never taken from a \
                cache). Prints SOURCE: ok: ... for each that loads (warnings go to standard \
                error); for one that does not, FILE:LINE:COLUMN: error: MESSAGE on standard \
                error. Exits 0 when all load, 1 otherwise.
                """
        )

        @OptionGroup var options: ConfigOptions

        func run() throws {
            let headers = try options.parsedHeaders()
            var out = Output()
            var failed = false
            for config in options.config {
                let source: ConfigurationSource = ConfigOptions.isURL(config) ? .server(config, headers: headers) : .file(config)
                let loader = try options.makeLoader([source], cached: false)
                let events = try loader.load()
                guard let configuration = loader.current else {
                    for event in events { Diagnostics.report(event, failuresAreErrors: true) }
                    failed = true
                    continue
                }
                for w in configuration.warnings { Diagnostics.warning(w, file: config) }
                let builtIns = configuration.rules.count - configuration.documentRuleCount
                out.line("\(config): ok: \(Self.count(configuration.documentRuleCount, "rule")) (+\(builtIns) built-in), \(Self.count(configuration.warnings.count, "warning")), profile \(configuration.profile.rawValue)")
            }
            out.flush()
            if failed { throw ExitCode(1) }
        }

        private static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
    }
}
