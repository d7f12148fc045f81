import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ANSI colours for text reports, or none: colour only on a terminal, and
/// never when `NO_COLOR` is set (https://no-color.org), unless asked for.
struct Style: Sendable {
    /// When to colour: `--color`.
    enum When: String, ExpressibleByArgument, CaseIterable, Sendable {
        case auto, always, never

        /// Whether to colour, given where standard output goes and the environment.
        func enabled(isTerminal: Bool, environment: [String: String]) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
                if environment["TERM"] == "dumb" { return false }
                return isTerminal
            }
        }
    }

    /// Whether escapes are written at all.
    let enabled: Bool

    /// A failure, an actual value that is wrong, a removed key.
    func red(_ text: String) -> String { paint(text, "31") }
    /// A pass, an expected value, an added key.
    func green(_ text: String) -> String { paint(text, "32") }
    /// A changed key.
    func yellow(_ text: String) -> String { paint(text, "33") }
    /// Headings.
    func bold(_ text: String) -> String { paint(text, "1") }
    /// Context: the rules that matched.
    func dim(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// Whether file descriptor 1 is a terminal.
    static var standardOutputIsTerminal: Bool { isatty(1) == 1 }

    /// The variables that decide colour.
    static var environment: [String: String] {
        var out: [String: String] = [:]
        for name in ["NO_COLOR", "TERM"] {
            if let value = getenv(name) { out[name] = String(cString: value) }
        }
        return out
    }
}
