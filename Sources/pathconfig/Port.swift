import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Port: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite a configuration so that other apps read it as a reference app reads the original.",
            discussion: """
                Loads --config as the reference app (--like) reads it and writes a configuration \
                that each app (--profile, repeated; default: the four mobile apps) reads exactly as \
                the reference reads the original, on every URL as servers write them (the report's \
                "covered" line says which). Patterns keep the reference's case rule ((?-i) before each \
                from an iOS app, (?i) from an Android one), \\d, \\w and \\s are spelled out, patterns \
                are confined to the path for an app that sees the query when the reference does not, \
                values are written as each app reads them alike (typed keys through the app's typed \
                accessors), a first rule sets the reference's default for a typed key whose default differs \
                on the app (pull_to_refresh_enabled: false on Android, true on iOS), and the \
                historical-location rules are written out for an app without them. \
                Everything else ($schema, version, lint, settings, comments, keys no app reads) stays as \
                written, in its place; a port to the file's own app writes the file unchanged.

                Apps whose files are identical share one. When one file serves every app, it is written \
                to --output, or standard output; otherwise --output is needed, and each file is named after \
                it with its apps before the extension (paths.json: paths.hotwire-ios+hotwire-android.json, \
                paths.turbo-ios.json). Every file is loaded under each of its apps before any is written, \
                a file that does not load is never written, and the files are written all or none.

                What stops an app from agreeing (a pattern whose answer depends on a query string the app \
                never sees, a rewrite the app's engine would not load, a value the app cannot read alike, \
                keys the iOS apps hold as one and the Android apps apart, a rule with globs or methods) is \
                reported on standard error by app, rule, pattern and reason. Without --strict the files are written all the same (those rules do not answer \
                there as the reference), and the command exits 3; under --strict nothing is written for \
                such an app, and the command exits 1.

                --check FILE (repeatable; - for standard input) resolves the URLs in FILE, one per line, \
                under the reference and under each app with its file, and prints those where the app \
                reads a value otherwise: typed keys by what the apps' typed accessors return (POP and pop \
                alike), other keys as written; a typed key neither answer holds by each app's default where \
                both apps read it, another such key not at all. It exits 1 when a \
                covered URL differs.

                Exit status: 0 every app agrees and its file is written; 1 an error, --strict with a \
                refusal, or a covered URL that differs under --check; 2 a usage error; 3 without --strict, \
                some rule refused for some app (the files are written).
                """
        )

        @OptionGroup var options: ConfigOptions

        @Option(name: .long, help: ArgumentHelp("The reference app, whose reading of --config the others must reproduce.", valueName: "profile"),
                transform: Profile.argument)
        var like: Profile

        @Flag(name: .long, help: "Write nothing for an app that cannot be made to agree, and exit 1 (without it, such an app's file is written and the command exits 3).")
        var strict = false

        @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Check the result on the URLs in this file, one per line (- for standard input; repeatable).", valueName: "file"))
        var check: [String] = []

        @Option(name: [.short, .long], help: ArgumentHelp("Where to write (default: standard output, when one file serves every app).", valueName: "file"))
        var output: String?

        @Option(name: .long, help: ArgumentHelp("text (the report on standard error) or json (one JSON document on standard output: the report, the checks, and the files' text unless --output writes them).", valueName: "format"))
        var format: OutputFormat = .text

        func validate() throws {
            try options.requireConfig()
            if like == .siesta || options.profilesOrMobileApps.contains(.siesta) {
                throw ValidationError("port is for the mobile apps: siesta matches whole URLs and reads globs and methods")
            }
            // Each app is reproduced with its own settings, which a file cannot change.
            if options.queryStrings != nil || options.merge != .shallow || options.baseURL != nil {
                throw ValidationError("port reads each app with the app's own settings: --query-strings, --no-query-strings, --merge and --base-url do not apply")
            }
        }

        /// The exit status of a port without `--strict` that refused some rule for some app.
        static let refusedStatus: Int32 = 3

        func run() throws {
            // Kept source: the port keeps what the document says beyond its rules.
            let (original, _) = try options.load(with: options.loadOptions(profile: like, keepsSource: true), errorsAsJSON: format == .json)
            let port = ConfigurationPort(original, to: options.profilesOrMobileApps, strict: strict)
            let urls = try checkURLs()
            // A JSON report without --output carries the files' text instead.
            let files = format == .json && output == nil ? [] : try write(port)
            let checks = urls.map { Self.check(port, original: original, urls: $0) } ?? []
            switch format {
            case .text:
                StandardStreams.error((reportLines(port, files: files) + checks.flatMap(\.lines)).joined(separator: "\n") + "\n")
            case .json:
                StandardStreams.outputLine(JSONWriter.compact(json(port, files: files, checks: checks)))
            }
            let coveredDiffers = checks.contains { $0.differences.contains(where: \.covered) }
            if (strict && !port.refusals.isEmpty) || coveredDiffers { throw ExitCode(1) }
            if !port.refusals.isEmpty { throw ExitCode(Self.refusedStatus) }
        }

        /// The URLs of the `--check` files, or nil without any; exit 1 when one cannot be read.
        private func checkURLs() throws -> [Input]? {
            guard !check.isEmpty else { return nil }
            do { return try URLList.read(files: check) } catch {
                Diagnostics.error("--check: \(error.message)")
                throw ExitCode(1)
            }
        }

        /// Writes the outputs, all or none; returns each file's name and the
        /// apps it serves. One file: --output, or standard output. Several:
        /// each named after --output with its apps (`paths.hotwire-ios+hotwire-android.json`).
        private func write(_ port: ConfigurationPort) throws -> [(name: String, apps: [Profile])] {
            guard !port.outputs.isEmpty else { return [] }
            if port.outputs.count == 1, output == nil || output == "-" {
                StandardStreams.output(Array(port.outputs[0].text.utf8))
                return [("standard output", port.outputs[0].apps)]
            }
            guard let output, output != "-" else {
                Diagnostics.error("the apps need different files ("
                    + port.outputs.map { $0.apps.map(\.rawValue).joined(separator: ", ") }.joined(separator: "; ")
                    + "): name one with --output, and each is written beside it")
                throw ExitCode(1)
            }
            let files = port.outputs.map { out in
                (name: port.outputs.count == 1 ? output : FileOutput.name(output, inserting: out.apps.map(\.rawValue).joined(separator: "+")),
                 text: out.text, apps: out.apps)
            }
            try FileOutput.writeAll(files.map { ($0.text, $0.name) })
            return files.map { ($0.name, $0.apps) }
        }

        /// The text report, for standard error.
        private func reportLines(_ port: ConfigurationPort, files: [(name: String, apps: [Profile])]) -> [String] {
            var lines = ["pathconfig port: as \(port.reference.rawValue) reads \(options.config.joined(separator: ",")), for "
                + port.apps.map(\.rawValue).joined(separator: ", ")]
            lines.append("covered: \(port.coveredURLs)")
            for rewrite in port.rewrites { lines.append("rewritten: \(rewrite)") }
            for refusal in port.refusals { lines.append("refused: \(refusal)") }
            for file in files { lines.append("wrote \(file.name) for \(file.apps.map(\.rawValue).joined(separator: ", "))") }
            let refusedApps = port.apps.filter { app in port.refusals.contains { $0.app == app } }
            let unwritten = refusedApps.filter { port.configurations[$0] == nil }
            if !unwritten.isEmpty {
                lines.append("nothing written for \(unwritten.map(\.rawValue).joined(separator: ", "))" + (strict ? " (--strict)" : ""))
            }
            for app in refusedApps where !strict && port.configurations[app] != nil {
                let unique = port.refusals.filter { $0.app == app }.compactMap(\.ruleIndex).uniqued()
                lines.append("not ported for \(app.rawValue): " + (unique.isEmpty ? "the file" : "rule" + (unique.count == 1 ? " " : "s ")
                    + unique.map(String.init).joined(separator: ", ")) + " (written all the same; exit \(Self.refusedStatus))")
            }
            return lines
        }

        /// The JSON report: what the text report says, the files (their
        /// text when none was written) and the checks.
        private func json(_ port: ConfigurationPort, files: [(name: String, apps: [Profile])], checks: [CheckResult]) -> JSONValue {
            func names(_ apps: [Profile]) -> JSONValue { .array(apps.map { .string($0.rawValue) }) }
            var o: JSONObject = ["reference": .string(port.reference.rawValue), "apps": names(port.apps),
                                 "covered": .string(port.coveredURLs.description),
                                 "rewrites": .array(port.rewrites.map(JSONValue.string))]
            o["refusals"] = .array(port.refusals.map { r in
                var e: JSONObject = ["app": .string(r.app.rawValue), "reason": .string(r.reason)]
                if let rule = r.ruleIndex { e["rule"] = .integer(rule) }
                if let description = r.ruleDescription { e["description"] = .string(description) }
                if let index = r.patternIndex { e["pattern_index"] = .integer(index) }
                if let pattern = r.pattern { e["pattern"] = .string(pattern) }
                return .object(e)
            })
            o["files"] = files.isEmpty && output == nil
                ? .array(port.outputs.map { .object(["apps": names($0.apps), "text": .string($0.text)]) })
                : .array(files.map { .object(["path": .string($0.name), "apps": names($0.apps)]) })
            if !check.isEmpty {
                o["check"] = .array(checks.map { c in
                    .object(["app": .string(c.app.rawValue), "urls": .integer(c.urlCount), "differ": .integer(c.differences.count),
                             "differences": .array(c.differences.map { d in
                                 var e: JSONObject = ["url": .string(d.url), "covered": .bool(d.covered), "keys": .array(d.keys.map {
                                     ValueDifference(path: KeyPath([$0.key]), values: [$0.reference, $0.app]).json(["reference", "app"])
                                 })]
                                 if let why = d.errors.0 { e["reference_error"] = .string(why) }
                                 if let why = d.errors.1 { e["app_error"] = .string(why) }
                                 return .object(e)
                             })])
                })
            }
            return .object(o)
        }

        /// What `--check` found for one app.
        struct CheckResult {
            struct Difference {
                let url: String
                let covered: Bool
                /// The keys read otherwise; empty where one side could not read the URL.
                let keys: [PortComparison.Mismatch]
                /// Where the reference or the app cannot read the URL, why (reference's, app's).
                let errors: (String?, String?)
            }
            let app: Profile
            let reference: Profile
            let urlCount: Int
            let differences: [Difference]

            var lines: [String] {
                differences.map { d in
                    let what: String
                    if d.errors.0 != nil || d.errors.1 != nil {
                        what = zip([reference, app], [d.errors.0, d.errors.1])
                            .map { "\($0.rawValue) \($1.map { "cannot read it (\($0))" } ?? "answers")" }.joined(separator: ", ")
                    } else {
                        what = d.keys.map { k in
                            "\(KeyPath([k.key]).text): " + zip([reference, app], [k.reference, k.app])
                                .map { "\($0.rawValue) \(ValueText.text($1))" }.joined(separator: ", ")
                        }.joined(separator: "; ")
                    }
                    return "check: \(app.rawValue) differs on \(d.url)\(d.covered ? "" : " (not covered)"): " + what
                } + ["check: \(app.rawValue): \(urlCount - differences.count) of \(urlCount) URLs answer as \(reference.rawValue)"]
            }
        }

        /// `--check`: each app's answers on its file against the
        /// reference's on the original, as the apps read them (`PortComparison`).
        private static func check(_ port: ConfigurationPort, original: PathConfiguration, urls: [Input]) -> [CheckResult] {
            port.outputs.flatMap(\.apps).compactMap { (app: Profile) -> CheckResult? in
                guard let ported = port.configurations[app] else { return nil }
                let typedKeys = PortComparison.typedKeysRead(by: port.reference, and: app)
                let differences = urls.compactMap { url -> CheckResult.Difference? in
                    // A path is a page on the default base URL, as diff and test read it.
                    let input = PathInput.url(for: url.text, in: original)
                    let covered = port.coveredURLs.contains(input)
                    var expected: PathProperties?, actual: PathProperties?
                    var errors: (String?, String?) = (nil, nil)
                    do throws(ResolveError) { expected = try original.resolve(input) } catch { errors.0 = error.message }
                    do throws(ResolveError) { actual = try ported.resolve(input) } catch { errors.1 = error.message }
                    if let expected, let actual {
                        let keys = PortComparison.mismatches(expected, actual, typedKeys: typedKeys)
                        return keys.isEmpty ? nil : .init(url: url.text, covered: covered, keys: keys, errors: (nil, nil))
                    }
                    // Neither reads it: the same refusal, nothing to compare.
                    return expected != nil || actual != nil ? .init(url: url.text, covered: covered, keys: [], errors: errors) : nil
                }
                return CheckResult(app: app, reference: port.reference, urlCount: urls.count, differences: differences)
            }
        }
    }
}
