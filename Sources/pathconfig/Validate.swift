import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check that configurations load, and lint them.",
            discussion: """
                Checks each --config on its own (a URL is downloaded, never taken from a \
                cache). Each loads under every --profile given (hotwire-ios when none), and \
                fails when one of them refuses it, whatever their order; it is linted for \
                every --profile given (the four mobile apps when none). Prints \
                SOURCE: ok: ... for each that loads, with each lint warning on standard error \
                as FILE:LINE:COLUMN: warning: rule N ("description"): MESSAGE [kind]; for one \
                that does not load, FILE:LINE:COLUMN: error: MESSAGE. --format json prints one \
                JSON document on standard output instead. --allow KIND drops the warnings of \
                a kind (a team that anchors patterns with $ on purpose allows \
                query-string-anchor), as does a file's own marker, "lint": {"allow": [KIND]}, \
                at its top level or in a rule (that rule's warnings); --deny KIND makes them \
                errors, whatever a marker allows. A finding that a selected app crashes on, \
                or refuses the whole file for (a trailing comma the Android apps read as a null \
                rule, a string where hotwire-android casts to Boolean), is an error, not a \
                warning. Exits 0 when all load (and none has an error or a denied finding, \
                nor, with --strict, any warning), 1 otherwise.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Flag(name: .long, help: "Fail (exit 1) when there is any lint warning, not only on errors.")
        var strict = false

        @Option(name: .long, help: ArgumentHelp("Do not report the lint warnings of this kind (repeatable).", valueName: "kind"))
        var allow: [LintFinding.Kind] = []

        @Option(name: .long, help: ArgumentHelp("Report the lint warnings of this kind as errors, even where a file's \"lint\" marker allows them, and fail (exit 1) on any (repeatable).", valueName: "kind"))
        var deny: [LintFinding.Kind] = []

        @Option(name: .long, help: ArgumentHelp("text: compiler-style lines; json: one JSON document on standard output (file, ok, errors, findings with kind, severity, line, column, rule, pattern, message, and allowed_by_file).", valueName: "format"))
        var format: OutputFormat = .text

        func validate() throws {
            try options.requireConfig()
            if let both = allow.first(where: deny.contains) {
                throw ValidationError("--allow and --deny both name \(both.rawValue)")
            }
        }

        func run() throws {
            // Every profile given, in one order whatever the command line's, so
            // that the outcome never depends on the order of --profile.
            let given = Set(options.profiles).sorted { $0.rawValue < $1.rawValue }
            let loadProfiles = given.isEmpty ? [options.profile] : given
            let linter = Linter(options: LintOptions(profiles: given, load: options.loadOptions(), allow: Set(allow), deny: Set(deny)))
            var reports: [FileReport] = []
            for config in options.config {
                let source = try options.sources([config])[0]
                var failures: [LoaderEvent] = []
                var loaded: PathConfiguration?
                for profile in loadProfiles {
                    // Kept source: lint reads the document again.
                    let loader = try options.makeLoader([source], cached: false, load: options.loadOptions(profile: profile, keepsSource: true))
                    let events = try loader.load()
                    loaded = loaded ?? loader.current
                    if loader.current != nil { continue }
                    // Both iOS apps refuse a document in the same words: say it once.
                    for event in events {
                        guard let said = Diagnostics.placeAndMessage(event) else { continue }
                        if !failures.contains(where: { Diagnostics.placeAndMessage($0).map { $0 == said } ?? false }) { failures.append(event) }
                    }
                }
                reports.append(FileReport(file: config, events: failures, loaded: failures.isEmpty ? loaded : nil, linter: linter,
                                          profiles: loadProfiles))
            }
            let denied = Set(deny)
            let failed = reports.contains { !$0.passes(strict: strict, denied: denied) }
            switch format {
            case .text: printText(reports)
            case .json: printJSON(reports, failed: failed, profiles: linter.options.selectedProfiles)
            }
            if failed { throw ExitCode(1) }
        }

        private func printText(_ reports: [FileReport]) {
            var out = Output()
            for report in reports {
                guard let configuration = report.configuration else {
                    for event in report.events { Diagnostics.report(event, failuresAreErrors: true) }
                    continue
                }
                if let error = report.lintError { Diagnostics.error(error.message, at: Diagnostics.prefix(report.file, error.location)) }
                for finding in report.findings { Diagnostics.finding(finding, file: report.file, denied: deny.contains(finding.kind)) }
                let builtIns = configuration.rules.count - configuration.documentRuleCount
                // Errors, and denied findings, are printed as errors and counted so.
                let errors = report.findings.filter { $0.severity == .error || deny.contains($0.kind) }.count
                var counts = ValueText.count(report.findings.count - errors, "warning")
                if errors > 0 { counts += ", " + ValueText.count(errors, "error") }
                if !report.allowedByMarkers.isEmpty { counts += ", \(report.allowedByMarkers.count) allowed by the file" }
                let profiles = (report.profiles.count == 1 ? "profile " : "profiles ") + report.profiles.map(\.rawValue).joined(separator: ", ")
                out.line("\(report.file): ok: \(ValueText.count(configuration.documentRuleCount, "rule")) (+\(builtIns) built-in), \(counts), \(profiles)")
            }
            out.flush()
        }

        private func printJSON(_ reports: [FileReport], failed: Bool, profiles: [Profile]) {
            var document = JSONObject()
            document["ok"] = .bool(!failed)
            document["strict"] = .bool(strict)
            document["allowed"] = .array(allow.map { .string($0.rawValue) })
            document["denied"] = .array(deny.map { .string($0.rawValue) })
            document["profiles"] = .array(profiles.map { .string($0.rawValue) })
            document["files"] = .array(reports.map { .object($0.jsonObject(denied: Set(deny))) })
            StandardStreams.outputLine(JSONWriter.pretty(.object(document)))
        }
    }
}

/// What validate found for one --config: the load's events and, when it
/// loaded, the configuration and lint's findings.
struct FileReport {
    let file: String
    let events: [LoaderEvent]
    let configuration: PathConfiguration?
    /// The findings to report (the linter's options left out the allowed kinds).
    let findings: [LintFinding]
    /// The findings the file's own `lint` markers allowed.
    let allowedByMarkers: [LintFinding]
    /// Lint could not read a document that loaded (never expected: lint reads
    /// what the load read, less strictly).
    let lintError: ConfigurationError?
    /// The profiles it was loaded under.
    let profiles: [Profile]

    /// Lints `loaded`.
    init(file: String, events: [LoaderEvent], loaded: PathConfiguration?, linter: Linter, profiles: [Profile]) {
        self.file = file
        self.profiles = profiles
        self.events = events
        self.configuration = loaded
        var report = LintReport(), lintError: ConfigurationError?
        if let loaded {
            do { report = try linter.report(loaded.source?.bytes ?? []) } catch { lintError = error }
        }
        self.findings = report.findings
        self.allowedByMarkers = report.allowedByMarkers
        self.lintError = lintError
    }

    /// Loaded, linted, and no finding fails it: no error (an app crashes or
    /// refuses the file), none of a `denied` kind, and none at all when
    /// `strict`.
    func passes(strict: Bool, denied: Set<LintFinding.Kind> = []) -> Bool {
        configuration != nil && lintError == nil && !(strict && !findings.isEmpty)
            && !findings.contains { $0.severity == .error || denied.contains($0.kind) }
    }

    /// The file's entry in the JSON report (docs/command-line.md lists its
    /// keys); a finding of a `denied` kind is an `error`, as the text says.
    func jsonObject(denied: Set<LintFinding.Kind>) -> JSONObject {
        var errors = configuration == nil ? Diagnostics.failuresJSON(events, withFile: false) : []
        if let lintError { errors.append(.object(Diagnostics.errorJSON(lintError.message, lintError))) }
        var o = JSONObject()
        o["file"] = .string(file)
        o["ok"] = .bool(configuration != nil && lintError == nil)
        o["profile"] = configuration.map { .string($0.profile.rawValue) } ?? .null
        o["rules"] = .integer(configuration?.documentRuleCount)
        o["built_in_rules"] = .integer(configuration.map { $0.rules.count - $0.documentRuleCount })
        o["errors"] = .array(errors)
        o["findings"] = .array(findings.map { finding in
            var object = finding.jsonObject
            if denied.contains(finding.kind) { object["severity"] = .string("error") }
            return .object(object)
        })
        var allowed = JSONObject()
        for kind in LintFinding.Kind.allCases {
            let count = allowedByMarkers.filter { $0.kind == kind }.count
            if count > 0 { allowed[kind.rawValue] = .integer(count) }
        }
        o["allowed_by_file"] = .object(allowed)
        return o
    }
}
