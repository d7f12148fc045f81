import ArgumentParser
import PathConfiguration
import PathConfigurationFoundation

// The core's names, as values of --profile, --merge, --backend and validate's --allow and
// --deny: ArgumentParser lists and checks them from the enums, so the command keeps no copy.

extension Profile {
    /// Parses `--profile`'s and `--like`'s `APP` or `APP@VERSION`; a version that is
    /// not a release of the app is refused with the core's message, which lists the releases.
    static func argument(_ text: String) throws -> Profile {
        do { return try Profile(name: text) } catch { throw ValidationError(error.message) }
    }
}
extension MergeMode: ExpressibleByArgument {}
/// validate's --allow and --deny.
extension LintFinding.Kind: ExpressibleByArgument {}

/// Every backend the core names: the command links both engines.
extension Backend: ExpressibleByArgument {
    var engine: any RegexEngine {
        switch self {
        case .pcre2: return PCRE2Engine()
        case .foundation: return FoundationEngine()
        }
    }

    /// Every backend's engine by name, for options given as JSON (a cases file's `options`).
    static var engines: [String: any RegexEngine] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0.engine) })
    }
}
