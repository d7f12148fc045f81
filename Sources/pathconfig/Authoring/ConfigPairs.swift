import ArgumentParser
import PathConfiguration

/// `diff`'s pair form: each `--config` with the `--profile`s that follow it,
/// in command-line order, so that a team with one file per app compares the
/// files as their apps read them:
///
///     pathconfig diff --config ios_v1.json --profile hotwire-ios \
///                     --config android_v1.json --profile hotwire-android URLS
///
/// ArgumentParser gives each option's values in order, but not how the two
/// options interleave, so the order is read from the raw arguments: only
/// the places of `--config` and `--profile` (as `--config X` or
/// `--config=X`), up to a `--`. The values themselves are ArgumentParser's:
/// the scan must find the same ones, in the same order, or it says so
/// rather than guess.
///
/// The pair form is in use when a `--config` follows a `--profile` that
/// follows a `--config`. Consecutive `--config`s form one chain (as
/// without pairs: files first, then URLs, the newest good one wins), and
/// that chain is read under each `--profile` after it, up to the next
/// `--config`. Otherwise (every `--config` before or after every
/// `--profile`) the arguments mean what they always did: one chain under
/// every profile, and nil is returned.
struct ConfigPairs {
    /// One chain of sources and the profiles it is read under.
    struct Group: Equatable {
        /// The `--config` values, in order.
        let configs: [String]
        /// The `--profile`s that follow them, in order.
        let profiles: [Profile]
    }

    /// The groups `arguments` (the raw command line after the program
    /// name) make, given the values ArgumentParser parsed from them; nil
    /// when they are not in the pair form.
    /// - Throws: `ValidationError` when the pair form leaves a `--profile`
    ///   before the first `--config`, or a `--config` with no `--profile`
    ///   after it, or when the scan does not find the parsed values.
    static func groups(in arguments: [String], configs: [String], profiles: [Profile]) throws -> [Group]? {
        let items = scan(arguments)
        guard let firstConfig = items.firstIndex(where: { $0.isConfig }), let lastConfig = items.lastIndex(where: { $0.isConfig }),
              items[firstConfig..<lastConfig].contains(where: { !$0.isConfig }) else {
            return nil
        }
        guard items.filter({ $0.isConfig }).map({ $0.value }) == configs,
              items.filter({ !$0.isConfig }).map({ try? Profile(name: $0.value) }) == profiles.map(Optional.some) else {
            throw ValidationError("cannot tell which --profile follows which --config; write each as --config FILE and --profile NAME")
        }
        if firstConfig > 0 {
            throw ValidationError("a --profile before the first --config names no file: give each --config its --profile after it")
        }
        var groups: [Group] = []
        var chain: [String] = [], named: [Profile] = []
        var unread = profiles[...]
        for item in items {
            if item.isConfig {
                if !named.isEmpty {
                    groups.append(Group(configs: chain, profiles: named))
                    chain = []
                    named = []
                }
                chain.append(item.value)
            } else {
                named.append(unread.removeFirst())
            }
        }
        guard !named.isEmpty else {
            throw ValidationError("--config \(chain.joined(separator: " --config ")) has no --profile after it: name the app that reads it")
        }
        groups.append(Group(configs: chain, profiles: named))
        return groups
    }

    /// What the scan found: a `--config` value, or a `--profile` one.
    private typealias Item = (isConfig: Bool, value: String)

    /// The option the scan reads as `name`, made from its value; nil for any other.
    private static func item(_ name: Substring, _ value: String) -> Item? {
        name == "--config" || name == "--profile" ? (name == "--config", value) : nil
    }

    /// The `--config` and `--profile` values of `arguments`, in order, up to `--`.
    private static func scan(_ arguments: [String]) -> [Item] {
        var items: [Item] = []
        var i = arguments.startIndex
        while i < arguments.endIndex {
            let argument = arguments[i]
            if argument == "--" { break }
            if i + 1 < arguments.endIndex, let item = item(argument[...], arguments[i + 1]) {
                items.append(item)
                i += 2
                continue
            }
            if let equals = argument.firstIndex(of: "="), let item = item(argument[..<equals], String(argument[argument.index(after: equals)...])) {
                items.append(item)
            }
            i += 1
        }
        return items
    }
}
