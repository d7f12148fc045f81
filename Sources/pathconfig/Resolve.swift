import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the merged properties of each URL or path, one JSON object per line.",
            discussion: """
                With no inputs, reads them from standard input, one per line, and writes \
                each answer before it waits for more input: a program can write a URL and \
                read its answer.

                With several --config sources (files and http(s) URLs), runs the chain once: \
                the files in order, then for each URL its cached copy (--cache-dir) and its \
                download, and resolves against the newest configuration that loaded. Failures \
                of some sources are warnings on standard error; when none loaded, the exit \
                code is 1.

                An input the library refuses (one longer than max_url_bytes) gets the line \
                null, and an error on standard error naming it (<stdin>:LINE or input N); \
                the other inputs still get theirs, and the exit code is then 1.
                """
        )

        @OptionGroup var options: ConfigOptions

        func validate() throws { try options.requireConfig() }

        @OptionGroup var request: MethodOption

        @Argument(help: ArgumentHelp("URLs or paths to resolve (default: standard input, one per line).", valueName: "url-or-path"))
        var inputs: [String] = []

        func run() throws {
            let (config, location) = try options.load()
            for w in config.warnings { Diagnostics.warning(w.message, at: Diagnostics.prefix(location, w.location)) }
            try Inputs.printAnswers(inputs) { input throws(ResolveError) in try config.resolve(input.text, method: request.method).json }
        }
    }
}
