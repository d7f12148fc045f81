import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the matched string, each matching rule and pattern, and the merged properties.",
            discussion: """
                With no inputs, reads them from standard input, one per line, and writes \
                each explanation before it waits for more input. Several inputs \
                get one explanation each, in input order (with --compact, one per line). \
                An input the library refuses (one longer than max_url_bytes) gets null in \
                place of the explanation, an error on standard error naming it \
                (<stdin>:LINE or input N); the other inputs still get theirs, and the exit \
                code is then 1.
                """
        )

        @OptionGroup var options: ConfigOptions

        func validate() throws { try options.requireConfig() }

        @Flag(name: .long, help: "Print compact JSON on one line instead of indented JSON.")
        var compact = false

        @OptionGroup var request: MethodOption

        @Argument(help: ArgumentHelp("URLs or paths to explain (default: standard input, one per line).", valueName: "url-or-path"))
        var inputs: [String] = []

        func run() throws {
            let (config, _) = try options.load()
            try Inputs.printAnswers(inputs) { input throws(ResolveError) in
                let explanation = try config.explain(input.text, method: request.method)
                return compact ? explanation.json : JSONWriter.pretty(.object(explanation.jsonObject))
            }
        }
    }
}
