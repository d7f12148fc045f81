import ArgumentParser
import PathConfiguration

/// One configuration (the chain of `--config` sources, or `--against`'s)
/// loaded under as many option sets as the checks ask for, each once.
///
/// The options are the command's flags with the profile, and a case's
/// `options`, put in their place. A source that fails to load under some
/// options is reported as `resolve` reports it and ends the command (exit 1):
/// a file the apps would reject is not one to compare.
final class ConfigurationSet {
    private let flags: ConfigOptions
    private let sources: [ConfigurationSource]
    private let errorsAsJSON: Bool
    /// By profile and options' text, byte for byte (a `base_url` spelt
    /// with U+00E9 and with `e` and U+0301 loads two configurations).
    private var loaded: [[UInt8]: PathConfiguration] = [:]
    /// What each `optional` load that failed said, by profile,
    /// for its caller to report (`Diff` warns, or answers JSON).
    private(set) var failures: [Profile: [LoaderEvent]] = [:]

    /// The configuration `sources` describe, loaded with `flags`' options;
    /// `errorsAsJSON` (`--format json`): a load that fails is reported as a
    /// JSON document on standard output.
    init(flags: ConfigOptions, sources: [ConfigurationSource], errorsAsJSON: Bool = false) {
        self.flags = flags
        self.sources = sources
        self.errorsAsJSON = errorsAsJSON
    }

    /// The configuration under `profile`, with `overrides` (load options as
    /// JSON members, already checked) applied over the flags; loaded once for
    /// equal overrides (as compact JSON text) and profiles.
    func configuration(profile: Profile, overrides: [JSONNode.Member] = []) throws -> PathConfiguration {
        var written = JSONObject()
        for member in overrides { written[member.key] = member.value.value }
        let cacheKey = Array((profile.rawValue + " " + (overrides.isEmpty ? "" : JSONWriter.compact(written))).utf8)
        if let configuration = loaded[cacheKey] { return configuration }
        var options = flags.loadOptions(profile: profile)
        if !overrides.isEmpty {
            do { try options.apply(overrides, engines: Backend.engines) } catch {
                Diagnostics.error(error.message)
                throw ExitCode(1)
            }
        }
        let configuration = try flags.load(sources, with: options, errorsAsJSON: errorsAsJSON).configuration
        loaded[cacheKey] = configuration
        return configuration
    }

    /// The configuration under `profile`; when `optional`, nil where it does
    /// not load under it: its events are then kept in `failures`, unreported
    /// (diff leaves such a profile out when the profiles are its defaults).
    func configuration(profile: Profile, optional: Bool) throws -> PathConfiguration? {
        guard optional else { return try self.configuration(profile: profile) }
        let cacheKey = Array((profile.rawValue + " ").utf8)
        if let configuration = loaded[cacheKey] { return configuration }
        let loader = try flags.makeLoader(sources, load: flags.loadOptions(profile: profile))
        let events = try loader.load()
        guard let configuration = loader.current else {
            failures[profile] = events
            return nil
        }
        for event in events { Diagnostics.report(event, failuresAreErrors: false) }
        loaded[cacheKey] = configuration
        return configuration
    }
}
