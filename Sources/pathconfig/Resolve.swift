import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    /// `pathconfig resolve`: one compact JSON object of merged properties per input.
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the merged properties of each URL or path, one JSON object per line.",
            discussion: """
                With no inputs, reads them from standard input, one per line.

                With several --config sources (files and http(s) URLs), runs the chain once: \
                the files in order, then for each URL its cached copy (--cache-dir) and its \
                download, and resolves against the newest configuration that loaded. Failures \
                of some sources are warnings on standard error; the exit code is 1 only when \
                none loaded.
                """
        )

        @OptionGroup var options: ConfigOptions

        @OptionGroup var request: MethodOption

        @Argument(help: ArgumentHelp("URLs or paths to resolve (default: standard input, one per line).", valueName: "url-or-path"))
        var inputs: [String] = []

        func run() throws {
            let (config, location) = try options.load()
            for w in config.warnings { Diagnostics.warning(w, file: location) }
            var out = Output()
            if inputs.isEmpty {
                while let line = readLine(strippingNewline: true) {
                    let input = line.hasSuffix("\r") ? String(line.dropLast()) : line
                    out.line(try config.resolve(input, method: request.method).json)
                }
            } else {
                for input in inputs { out.line(try config.resolve(input, method: request.method).json) }
            }
            out.flush()
        }
    }
}
