import ArgumentParser
import PathConfiguration
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ANSI colours, or none: the one colour policy of the command, for the
/// diagnostics on standard error and the text reports on standard output.
struct Style: Sendable {
    /// When to colour: `--color`, for a report and the command's diagnostics.
    enum When: String, ExpressibleByArgument, CaseIterable, Sendable {
        case auto, always, never

        /// Whether to colour what goes to the file descriptor `fd`. `auto`:
        /// never when `NO_COLOR` is set and not empty (https://no-color.org);
        /// otherwise always when `CLICOLOR_FORCE` is set to anything but `0`
        /// (as in other tools; the tests use it); otherwise on a terminal,
        /// unless `TERM` is `dumb`.
        func enabled(fd: Int32) -> Bool {
            switch self {
            case .always: return true
            case .never: return false
            case .auto:
                if let noColor = Style.variable("NO_COLOR"), !noColor.isEmpty { return false }
                if let force = Style.variable("CLICOLOR_FORCE"), !force.isEmpty, force != "0" { return true }
                if Style.variable("TERM") == "dumb" { return false }
                return isatty(fd) == 1
            }
        }
    }

    /// Whether escapes are written at all.
    let enabled: Bool

    /// When diagnostics are coloured: `auto`, unless a report's `--color`
    /// says otherwise (`colourDiagnostics`).
    private static let diagnostics = Locked(When.auto)

    /// Colours the diagnostics `when` a report's `--color` says, as the
    /// report is (a command that takes `--color` calls it first).
    static func colourDiagnostics(_ when: When) { diagnostics.withLock { $0 = when } }

    /// The diagnostics' style.
    static var standardError: Style { Style(enabled: diagnostics.withLock { $0 }.enabled(fd: 2)) }

    /// A failure, an actual value that is wrong, a removed key.
    func red(_ text: String) -> String { paint(text, "31") }
    /// A pass, an expected value, an added key.
    func green(_ text: String) -> String { paint(text, "32") }
    /// A changed key.
    func yellow(_ text: String) -> String { paint(text, "33") }
    /// Headings, and a diagnostic's place.
    func bold(_ text: String) -> String { paint(text, "1") }
    /// Context: the rules that matched, a finding's kind.
    func dim(_ text: String) -> String { paint(text, "2") }
    /// A diagnostic's `error:` label.
    func errorLabel(_ text: String) -> String { paint(text, "1;31") }
    /// A diagnostic's `warning:` label.
    func warningLabel(_ text: String) -> String { paint(text, "1;35") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    private static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
