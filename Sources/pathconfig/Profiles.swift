import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Profiles: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the apps and the releases each --profile can name.",
            discussion: """
                One line per release line of each app: the name --profile takes (APP@VERSION with any tag of the \
                line, or APP@main), the line's tags, and the upstream commit that made it read files as it does \
                (--format json adds what changed). The bare name (hotwire-ios) is the line marked "(bare name)": the app's latest stable \
                release. docs/app-versions.md explains each change.
                """
        )

        @Option(help: "text (a table), or json.")
        var format: OutputFormat = .text

        func run() throws {
            var table = TextTable(header: ["PROFILE", "TAGS", "COMMIT"], style: Style(enabled: false))
            var json: [JSONValue] = []
            for app in Profile.App.allCases {
                let bare = Profile(app).release
                for line in app.releases {
                    let name = app.rawValue + "@" + (line.tags.first ?? "main")
                    let tags = line.tags.count > 3 ? "\(line.tags.first!) .. \(line.tags.last!) (\(line.tags.count))" : line.tags.joined(separator: ", ")
                    table.rows.append([name + (line == bare ? " (bare name)" : ""), tags.isEmpty ? "-" : tags, line.commit].map { TextTable.Cell($0) })
                    json.append(.object([
                        "app": .string(app.rawValue), "line": .string(line.name), "tags": .array(line.tags.map(JSONValue.string)),
                        "commit": .string(line.commit), "stable": .bool(line.isStable), "bare": .bool(line == bare),
                        "platform": .string(app.platform.rawValue), "change": .string(line.change),
                    ]))
                }
            }
            switch format {
            case .json: StandardStreams.outputLine(JSONWriter.pretty(.array(json)))
            case .text: StandardStreams.output(Array(table.lines().map { $0 + "\n" }.joined().utf8))
            }
        }
    }
}
