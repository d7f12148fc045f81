import ArgumentParser
import PathConfiguration

/// Options shared by every subcommand that loads a configuration.
struct ConfigOptions: ParsableArguments {
    @Option(name: .long, parsing: .singleValue, help: ArgumentHelp(
        "A path configuration: a JSON file or an http(s):// URL. Repeat to chain sources: files load first, in order, then each URL's cached copy and download; the newest good one wins.",
        valueName: "file-or-url"))
    var config: [String] = []

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Keep downloaded configurations here, one file per URL, and reuse them when the server is unreachable or answers 304.", valueName: "dir"))
    var cacheDirectory: String?

    @Option(name: .long, help: ArgumentHelp("The longest a download may take, in seconds.", valueName: "seconds"))
    var timeout: Double = 10

    @Option(name: .customLong("header"), parsing: .singleValue, help: ArgumentHelp("An extra request header for downloads, 'Name: value' (repeatable).", valueName: "header"))
    var headers: [String] = []

    @Option(name: .customLong("profile"), help: ArgumentHelp("The reference app to reproduce, as APP or APP@VERSION (hotwire-ios@1.2.2, hotwire-ios@main; the bare name is the app's latest stable release, `pathconfig profiles` lists them; siesta: the API client, for request rules with globs and methods). Repeat it where a command compares apps: test and diff check each, port writes for each, and validate loads and lints under each (with none: loads as hotwire-ios, lints for the four mobile apps); the other commands use the last one given.", valueName: "profile"),
            transform: Profile.argument)
    var profiles: [Profile] = []

    /// The profile a one-profile command uses: the last `--profile`, else hotwire-ios.
    var profile: Profile { profiles.last ?? .hotwireIOS }

    /// What diff compares and port writes for: each `--profile` once, else the mobile apps (siesta, beside them, would differ on every rule).
    var profilesOrMobileApps: [Profile] { profiles.isEmpty ? LintOptions.defaultProfiles : profiles.uniqued() }

    @Flag(inversion: .prefixedNo, help: "Append ?query to URL paths before matching (default: on, except turbo-ios).")
    var queryStrings: Bool?

    @Option(name: .long, help: ArgumentHelp("The regex engine (foundation is NSRegularExpression).", valueName: "backend"))
    var backend: Backend = .pcre2

    @Flag(name: .long, help: "Skip invalid patterns with a warning instead of failing, as the apps do.")
    var lenient = false

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The service's base URL (scheme://host[:port][/path]): relative globs and inputs without a scheme resolve against it, and a relative glob never matches another scheme, host or port. diff and test also read a path (/posts/new) as a page on it (default https://example.com).", valueName: "url"))
    var baseURL: String?

    @Option(name: .long, help: ArgumentHelp("How matching rules' properties combine: shallow (top-level keys replaced, as the apps do) or deep (JSON Merge Patch: nested objects merged, null removes).", valueName: "mode"))
    var merge: MergeMode = .shallow

    @Option(name: .customLong("result-cache-size"), help: ArgumentHelp("Entries of the per-lookup result cache (0 turns it off; answers are the same either way).", valueName: "entries"))
    var resultCacheSize: Int?

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        _ = try parsedHeaders()
        _ = try parsedBaseURL()
        if let n = resultCacheSize, n < 0 { throw ValidationError("--result-cache-size must be 0 or more") }
    }

    /// At least one `--config`, or a usage error: what every command but
    /// `test` (whose cases may name their own files) checks in `validate()`.
    func requireConfig() throws {
        guard !config.isEmpty else { throw ValidationError("Missing expected argument '--config <file-or-url>'") }
    }

    /// `--base-url`, validated.
    func parsedBaseURL() throws -> BaseURL? {
        guard let baseURL else { return nil }
        do { return try BaseURL(baseURL) } catch {
            // The core names the option as JSON spells it; say it as the flag.
            let option = "option \"base_url\" "
            let message = error.message.hasPrefix(option) ? "--base-url " + error.message.dropFirst(option.count) : "--base-url: " + error.message
            throw ValidationError(message)
        }
    }

    /// The load options the flags give, under `profile` (default: the last
    /// `--profile`), keeping the document's text when `keepsSource`.
    func loadOptions(profile: Profile? = nil, keepsSource: Bool = false) -> LoadOptions {
        var options = LoadOptions(profile: profile ?? self.profile, matchQueryStrings: queryStrings, engine: backend.engine, lenient: lenient)
        options.baseURL = try? parsedBaseURL()  // validate() has checked it
        options.merge = merge
        options.keepsSource = keepsSource
        if let resultCacheSize { options.limits.resultCacheCapacity = resultCacheSize }
        return options
    }

    /// The `--header` values as (name, value) pairs.
    func parsedHeaders() throws -> [(name: String, value: String)] {
        try headers.map { header in
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw ValidationError("--header must be 'Name: value', got '\(header)'")
            }
            let value = header[header.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
            return (String(header[..<colon]), String(value))
        }
    }

    /// True when `config` names a server rather than a file.
    static func isURL(_ config: String) -> Bool {
        let lower = config.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The sources of the chain `configs` (files or URLs, as `--config`
    /// takes them; `--config` when nil) in the order the loader runs them:
    /// files, then URLs, each group in the order given.
    func sources(_ configs: [String]? = nil) throws -> [ConfigurationSource] {
        let configs = configs ?? config
        let headers = try parsedHeaders()
        let files = configs.filter { !Self.isURL($0) }.map { ConfigurationSource.file($0) }
        let urls = configs.filter(Self.isURL).map { ConfigurationSource.server($0, headers: headers) }
        return files + urls
    }

    /// Runs the chain of `sources` (default: `--config`'s) once with `load`
    /// (default: the flags'; test and diff load one file under several) and
    /// returns the newest good configuration with the place it came from.
    /// Failures of some sources are warnings when another loaded; when none
    /// did, each is an error and the exit code is 1, or, with `errorsAsJSON`
    /// (a command's `--format json`), one JSON document on standard output
    /// (`Diagnostics.printLoadFailure`).
    func load(_ sources: [ConfigurationSource]? = nil, with load: LoadOptions? = nil, errorsAsJSON: Bool = false) throws
        -> (configuration: PathConfiguration, location: String) {
        let load = load ?? loadOptions()
        let loader = try makeLoader(sources ?? self.sources(), load: load)
        let events = try loader.load()
        guard let configuration = loader.current, let origin = loader.currentEvent else {
            if errorsAsJSON {
                Diagnostics.printLoadFailure(events, profile: load.profile)
            } else {
                for event in events { Diagnostics.report(event, failuresAreErrors: true) }
            }
            throw ExitCode(1)
        }
        for event in events { Diagnostics.report(event, failuresAreErrors: false) }
        return (configuration, Diagnostics.documentName(origin))
    }

    /// A loader over `sources` (with the --cache-dir cache unless `cached`
    /// is false; with `load` in place of the flags' load options when given),
    /// or exit 2 when a source is unusable as written.
    func makeLoader(_ sources: [ConfigurationSource], cached: Bool = true, load: LoadOptions? = nil) throws -> ConfigurationLoader {
        let options = LoaderOptions(load: load ?? loadOptions(), cacheDirectory: cached ? cacheDirectory : nil,
                                    timeout: .milliseconds(Int((timeout * 1000).rounded(.up))))
        do {
            return try ConfigurationLoader(sources: sources, options: options)
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        }
    }
}
