import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Settings: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the configuration's settings as JSON.")

        @OptionGroup var options: ConfigOptions

        func validate() throws { try options.requireConfig() }

        @Flag(name: .long, help: "Print compact JSON on one line instead of indented JSON.")
        var compact = false

        func run() throws {
            let (config, _) = try options.load()
            StandardStreams.outputLine(compact ? JSONWriter.compact(config.settings) : JSONWriter.pretty(.object(config.settings)))
        }
    }
}
