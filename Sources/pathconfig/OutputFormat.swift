import ArgumentParser

/// How a report is printed: for people (text) or for programs (one JSON document).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text
    case json
}
