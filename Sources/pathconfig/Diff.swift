import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the URLs whose properties differ between profiles, or between two versions of a configuration.",
            discussion: """
                Without --against, resolves each URL under every profile (--profile, \
                repeated; default: hotwire-ios, turbo-ios, hotwire-android and turbo-android, \
                the mobile apps, each left out with a warning if the file does not load under \
                it; add siesta by naming it; a named profile must load) and prints the URLs \
                whose properties differ, one row per differing key with its value under each profile \
                ((absent) where a profile has no such key). With --against NEW, resolves each \
                URL under --config (the old version) and NEW, profile by profile, and prints \
                what is added, removed or changed. Nested objects are compared key by key \
                (headers.Accept); numbers by value, object keys in any order, strings and keys by their \
                code points ("café" spelt with U+00E9 and with e and U+0301 differ; a string not written \
                composed, NFC, is shown with its code points).

                Pairs: a team with one file per app gives each --config the --profile(s) \
                that read it, in order: --config ios.json --profile hotwire-ios --config \
                android.json --profile hotwire-android. Each file is read under its own \
                profiles, one column each (named by profile, or FILE:PROFILE where a \
                profile comes twice); every one must load. Consecutive --configs are one \
                chain, as without pairs. Not with --against.

                Across profiles, a summary by rule and key comes before the table: one \
                line per key and cause, the rule that set the value in each column \
                (rule 3 "/new$": context differs on 120 URLs, for example /posts/new); \
                --summary-only prints it without the table. --ignore-key KEY (repeated) \
                leaves a key out of every comparison.

                --compare typed compares what each app reads through its typed accessors \
                instead: every key of the typed catalog (listed under --compare), defaults \
                included, as the profile's platform reads it ("false" is not a boolean on \
                iOS; POP is pop on Android). Such a key is shown as KEY (typed), each value \
                followed by (default) where nothing is written and (written X) where the app \
                read something other than the X written. Keys outside the catalog, which app \
                code reads raw, are still compared as written. Across profiles, a key of \
                the catalog that one app never reads (view_controller on Android, title \
                on iOS) is not compared, and a note names it.

                URLs come from the arguments, or from standard input one per line (blank lines \
                and lines starting with # are skipped). URLs that resolve alike are not \
                printed; a summary line counts them. A path (an input starting with one /, \
                not //) is read by each mobile app as the page at that path on --base-url \
                (default https://example.com, which a note line then names), so that each \
                app's URL handling applies: turbo-ios drops a trailing slash and the query, hotwire-ios the slash. \
                siesta reads a path as Siesta's resource(_:) does. Inputs are shown as given.

                Exits 0 whether or not anything differs, like git diff; with --exit-code, 1 \
                when something does. A configuration that fails to load exits 1; so does \
                a URL the library refuses (one longer than max_url_bytes), after the \
                others are compared: an error on standard error names it (<stdin>:LINE or \
                input N), and the summary does not count it. A usage error exits 2.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Option(name: .long, help: ArgumentHelp("The new version of the configuration (a file or an http(s):// URL); --config is the old one.", valueName: "file-or-url"))
        var against: String?

        @OptionGroup var request: MethodOption

        @OptionGroup var report: ReportOptions

        @Flag(name: .customLong("summary-only"), help: "Print the summary by rule and key without the per-URL table (not with --against).")
        var summaryOnly = false

        @Flag(name: .customLong("exit-code"), help: "Exit 1 when any URL differs (and 0 when none does), as git diff --exit-code.")
        var exitCode = false

        @Argument(help: ArgumentHelp("URLs or paths to compare (default: standard input, one per line).", valueName: "url-or-path"))
        var inputs: [String] = []

        /// The pair form's groups (`ConfigPairs`), read from the command
        /// line; nil when the arguments are not in that form.
        private func pairs() throws -> [ConfigPairs.Group]? {
            try ConfigPairs.groups(in: Array(CommandLine.arguments.dropFirst()), configs: options.config, profiles: options.profiles)
        }

        /// The profiles to compare, each with what `load` gives under it.
        /// Named profiles must load (else exit 1); a default one that does
        /// not (turbo-android refuses nested values) is left out with a
        /// warning, its load's failures as warnings before it. When too few
        /// are left, exit 1; under `--format json` with the first left out's
        /// failures as the JSON document of a file that does not load.
        private func loaded<T>(_ sets: [ConfigurationSet], _ load: (Profile, Bool) throws -> T?) throws -> [(Profile, T)] {
            var out: [(Profile, T)] = []
            var leftOut: [(Profile, [LoaderEvent])] = []
            for profile in options.profilesOrMobileApps {
                if let value = try load(profile, options.profiles.isEmpty) {
                    out.append((profile, value))
                } else {
                    leftOut.append((profile, sets.compactMap { $0.failures[profile] }.first ?? []))
                }
            }
            let enough = out.count >= (against == nil ? 2 : 1)
            if !enough, report.format == .json, let (profile, events) = leftOut.first {
                Diagnostics.printLoadFailure(events, profile: profile)
                throw ExitCode(1)
            }
            for (profile, events) in leftOut {
                for event in events { Diagnostics.report(event, failuresAreErrors: false) }
                Diagnostics.warning("\(profile.rawValue) left out: the configuration does not load under it")
            }
            if !enough {
                Diagnostics.error("\(against == nil ? "fewer than two profiles" : "no profile") to compare under")
                throw ExitCode(1)
            }
            return out
        }

        func validate() throws {
            try options.requireConfig()
            if let pairs = try pairs() {
                if against != nil { throw ValidationError("--against compares two versions of one configuration: give one --config, not pairs") }
                if pairs.reduce(0, { $0 + $1.profiles.count }) < 2 {
                    throw ValidationError("diff compares at least two columns: give each --config its --profile")
                }
                return
            }
            if summaryOnly, against != nil { throw ValidationError("--summary-only summarises a diff across profiles, not --against") }
            if against == nil, options.profilesOrMobileApps.count < 2 {
                throw ValidationError("diff compares profiles: name at least two with --profile (or none, for the mobile apps'), or give --against")
            }
        }

        func run() throws {
            Style.colourDiagnostics(report.color)
            let method = HTTPMethod.normalized(request.method) ?? HTTPMethod.defaultMethod
            let old = ConfigurationSet(flags: options, sources: try options.sources(), errorsAsJSON: report.format == .json)
            let urls = URLList.read(inputs)
            var refusedCount = 0
            // `compare` of each URL but those the library refuses, each reported and counted.
            func each<T>(_ compare: (String) throws(ResolveError) -> T) -> [T] {
                urls.compactMap { url in
                    do throws(ResolveError) { return try compare(url.text) } catch { refusedCount += 1; Diagnostics.refused(url, error); return nil }
                }
            }
            var differs = false
            if let against {
                let new = ConfigurationSet(flags: options, sources: try options.sources([against]), errorsAsJSON: report.format == .json)
                let versions = try loaded([old, new]) { profile, optional -> (PathConfiguration, PathConfiguration)? in
                    guard let before = try old.configuration(profile: profile, optional: optional),
                          let after = try new.configuration(profile: profile, optional: optional) else { return nil }
                    return (before, after)
                }
                let comparison = VersionComparison(configurations: versions.map { ($0.0, $0.1.0, $0.1.1) }, method: method,
                                                   mode: report.compare, ignored: report.ignored)
                let changes = each(comparison.compare).flatMap { $0 }
                let versionReport = VersionDiffReport(old: options.config.joined(separator: ","), new: against, profiles: versions.map(\.0),
                                                      method: method, urlCount: urls.count - refusedCount, changes: changes,
                                                      mode: report.compare, baseURL: try baseURL(versions.map(\.0)),
                                                      pathsOnDefaultBase: Self.usesDefaultBase(urls, versions.map(\.1.0)),
                                                      ignored: report.ignored)
                differs = !changes.isEmpty
                report.write(text: versionReport.text(style: report.style), json: versionReport.json())
            } else {
                let columns: [DiffColumn], configurations: [PathConfiguration]
                if let pairs = try pairs() {
                    // Each file under its own profiles: every one named, so every one must load.
                    columns = DiffColumn.columns(pairs: pairs)
                    configurations = try pairs.flatMap { group -> [PathConfiguration] in
                        let set = ConfigurationSet(flags: options, sources: try options.sources(group.configs), errorsAsJSON: report.format == .json)
                        return try group.profiles.map { try set.configuration(profile: $0) }
                    }
                } else {
                    let loaded = try loaded([old]) { profile, optional in try old.configuration(profile: profile, optional: optional) }
                    columns = DiffColumn.columns(pairs: [ConfigPairs.Group(configs: options.config, profiles: loaded.map(\.0))])
                    configurations = loaded.map(\.1)
                }
                let comparison = ProfileComparison(configurations: Array(zip(columns.map(\.profile), configurations)), method: method,
                                                   mode: report.compare, ignored: report.ignored)
                let differences = each(comparison.compare).compactMap { $0 }
                let profileReport = ProfileDiffReport(columns: columns, method: method, urlCount: urls.count - refusedCount,
                                                      differences: differences, mode: report.compare,
                                                      baseURL: try baseURL(columns.map(\.profile)),
                                                      pathsOnDefaultBase: Self.usesDefaultBase(urls, configurations),
                                                      unreadKeys: comparison.unreadKeys, ignored: report.ignored, summaryOnly: summaryOnly)
                differs = !differences.isEmpty
                report.write(text: profileReport.text(style: report.style), json: profileReport.json())
            }
            if refusedCount > 0 || (exitCode && differs) { throw ExitCode(1) }
        }

        /// The base URL the mobile apps read paths on (`PathInput`): --base-url,
        /// else the default; nil when no profile compared is a mobile app's.
        private func baseURL(_ profiles: [Profile]) throws -> BaseURL? {
            guard profiles.contains(where: \.isMobileApp) else { return nil }
            return try options.parsedBaseURL() ?? PathInput.defaultBase
        }

        /// Whether some input is a path that some configuration's app reads on
        /// the default base URL.
        private static func usesDefaultBase(_ urls: [Input], _ configurations: [PathConfiguration]) -> Bool {
            urls.contains { url in configurations.contains { PathInput.usesDefaultBase(url.text, in: $0) } }
        }
    }
}
