import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    /// `pathconfig explain`: which rules matched one input, through which pattern, and the result.
    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the matched string, each matching rule and pattern, and the merged properties.",
            discussion: """
                An input the library refuses (one longer than max_url_bytes) gets null in \
                place of the explanation, an error on standard error naming it, and exit code 1.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Flag(name: .long, help: "Print compact JSON on one line instead of indented JSON.")
        var compact = false

        @OptionGroup var request: MethodOption

        @Argument(help: ArgumentHelp("The URL or path to explain.", valueName: "url-or-path"))
        var input: String

        func run() throws {
            let (config, _) = try options.load()
            var out = Output()
            var refused = false
            Inputs.each([input]) { input in
                do throws(ResolveError) {
                    let explanation = try config.explain(input.text, method: request.method)
                    out.line(compact ? explanation.json : JSONWriter.pretty(.object(explanation.jsonObject)))
                } catch {
                    refused = true
                    out.line(Inputs.refusedLine)
                    out.flush()
                    Diagnostics.refused(input, error)
                }
            }
            out.flush()
            if refused { throw ExitCode(1) }
        }
    }
}
