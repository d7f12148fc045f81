import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    /// `pathconfig explain`: which rules matched one input, through which pattern, and the result.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the matched string, each matching rule and pattern, and the merged properties."
        )

        @OptionGroup var options: ConfigOptions

        @Flag(name: .long, help: "Print compact JSON on one line instead of indented JSON.")
        var compact = false

        @OptionGroup var request: MethodOption

        @Argument(help: ArgumentHelp("The URL or path to explain.", valueName: "url-or-path"))
        var input: String

        func run() throws {
            let (config, _) = try options.load()
            let explanation = try config.explain(input, method: request.method)
            var out = Output()
            out.line(compact ? explanation.json : JSONWriter.pretty(.object(explanation.jsonObject)))
            out.flush()
        }
    }
}
