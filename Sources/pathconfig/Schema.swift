import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the JSON Schema of a path configuration.",
            discussion: """
                Prints the JSON Schema (draft 2020-12) that editors and validators check a path configuration \
                against, made from the library's own tables. The repository keeps the same text in \
                docs/path-configuration.schema.json; a document names it with a top-level "$schema" key.
                """
        )

        func run() throws {
            StandardStreams.output(Array(ConfigurationSchema.text.utf8))
        }
    }
}
