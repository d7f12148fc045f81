import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Download configurations into the cache and say what happened.",
            discussion: """
                For each --config URL: reads its cached copy from --cache-dir (for the ETag and \
                Last-Modified validators), downloads it, and prints one line on standard output: \
                URL: downloaded N bytes to FILE, or URL: not modified (FILE). A download that \
                fails or does not load leaves the cached copy as it was, is reported as \
                URL[:LINE:COLUMN]: error: MESSAGE on standard error, and makes the exit code 1.
                """
        )

        @OptionGroup var options: ConfigOptions

        func validate() throws {
            try options.requireConfig()
            guard options.cacheDirectory != nil else { throw ValidationError("Missing expected argument '--cache-dir <dir>'") }
            for config in options.config where !ConfigOptions.isURL(config) {
                throw ValidationError("fetch needs http:// or https:// URLs; '\(config)' is not one")
            }
        }

        func run() throws {
            let loader = try options.makeLoader(try options.sources())
            var out = Output()
            var failed = false
            for event in try loader.load() {
                let file = event.url.flatMap(loader.cacheFile(for:)) ?? "?"
                switch (event.origin, event.outcome) {
                case (.server, .applied), (.server, .superseded):
                    out.line("\(event.location): downloaded \(event.byteCount ?? 0) bytes to \(file)")
                case (.server, .notModified):
                    out.line("\(event.location): not modified (\(file))")
                case (_, .failed):
                    Diagnostics.report(event, failuresAreErrors: true)
                    failed = true
                case (_, .warning):
                    Diagnostics.report(event, failuresAreErrors: false)
                default:
                    continue // the cached copy loading is not news
                }
            }
            out.flush()
            if failed { throw ExitCode(1) }
        }
    }
}
