import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    /// `pathconfig validate`: load the file strictly and report.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that a configuration loads.",
            discussion: """
                Exits 0 when it loads (warnings go to standard error), 1 otherwise with \
                FILE:LINE:COLUMN: error: MESSAGE on standard error.
                """
        )

        @OptionGroup var options: ConfigOptions

        func run() throws {
            let config = try options.load()
            for w in config.warnings { Diagnostics.warning(w, file: options.config) }
            let builtIns = config.rules.count - config.documentRuleCount
            var out = Output()
            out.line("\(options.config): ok: \(Self.count(config.documentRuleCount, "rule")) (+\(builtIns) built-in), \(Self.count(config.warnings.count, "warning")), profile \(config.profile.rawValue)")
            out.flush()
        }

        private static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
    }
}
