import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    /// `pathconfig port`: a configuration every selected app reads as a reference app reads the original.
    struct Port: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rewrite a configuration so that other apps read it as a reference app reads the original.",
            discussion: """
                Loads --config as the reference app (--like) reads it and writes a configuration \
                that each app (--profile, repeated; default: the four mobile apps) reads exactly as \
                the reference reads the original, on every URL as servers write them (the report's \
                "covered" line says which). Patterns keep the reference's case rule ((?-i) before each \
                from an iOS app, letters in both cases from an Android one), \\d, \\w and \\s are spelled \
                out, patterns are confined to the path for an app that sees the query when the \
                reference does not, and the historical-location rules are written out for an app \
                without them. A rule with globs or methods, which the apps do not read, is refused.

                One file is written when one serves every app (to --output, or standard output); \
                otherwise one per app, named after --output with the app before the extension \
                (paths.json: paths.hotwire-ios.json, ...). What stops an app from agreeing (a pattern \
                whose answer depends on a query string the app never sees, a value turbo-android would \
                keep as a string, a rule with globs or methods) is reported on standard error by rule, \
                pattern and app; under --strict nothing is written for such an app, and the command \
                exits 1.

                --check FILE (repeatable; - for standard input) resolves the URLs in FILE, one per line, \
                under the reference and under each app with its file, and prints those that differ; \
                it exits 1 when a covered URL differs.
                """
        )

        @OptionGroup var options: ConfigOptions

        @Option(name: .long, help: ArgumentHelp("The reference app, whose reading of --config the others must reproduce.", valueName: "profile"))
        var like: Profile

        @Flag(name: .long, help: "Write nothing for an app that cannot be made to agree, and exit 1.")
        var strict = false

        @Option(name: .long, parsing: .singleValue, help: ArgumentHelp("Check the result on the URLs in this file, one per line (- for standard input; repeatable).", valueName: "file"))
        var check: [String] = []

        @Option(name: [.short, .long], help: ArgumentHelp("Where to write (default: standard output, when one file serves every app).", valueName: "file"))
        var output: String?

        /// The apps to write for.
        var apps: [Profile] { options.profiles.isEmpty ? PathConfigCommand.Diff.defaultProfiles : options.distinctProfiles }

        func validate() throws {
            if like == .siesta || apps.contains(.siesta) {
                throw ValidationError("port is for the mobile apps: siesta matches whole URLs and reads globs and methods")
            }
            // Each app is reproduced with its own settings, which a file cannot change.
            if options.queryStrings != nil || options.merge != .shallow || options.baseURL != nil {
                throw ValidationError("port reads each app with the app's own settings: --query-strings, --no-query-strings, --merge and --base-url do not apply")
            }
        }

        func run() throws {
            let set = ConfigurationSet(flags: options, sources: try options.sources())
            let original = try set.configuration(profile: like)
            let port = ConfigurationPort(original, to: apps, strict: strict)
            let files = try write(port)
            report(port, files: files)
            var failed = strict && !port.refusals.isEmpty
            if !check.isEmpty { failed = try runCheck(port, original: original) || failed }
            if failed { throw ExitCode(1) }
        }

        /// Writes the outputs; returns each file's name and the apps it serves.
        private func write(_ port: ConfigurationPort) throws -> [(name: String, apps: [Profile])] {
            guard !port.outputs.isEmpty else { return [] }
            if port.outputs.count == 1 {
                let out = port.outputs[0]
                guard let output, output != "-" else {
                    StandardStreams.output(Array(out.text.utf8))
                    return [("standard output", out.apps)]
                }
                try FileOutput.write(out.text, to: output)
                return [(output, out.apps)]
            }
            guard let output, output != "-" else {
                StandardStreams.error("pathconfig: error: the apps need different files ("
                    + port.outputs.map { $0.apps.map(\.rawValue).joined(separator: ", ") }.joined(separator: "; ")
                    + "): name one with --output, and each app's is written beside it\n")
                throw ExitCode(1)
            }
            var files: [(String, [Profile])] = []
            for out in port.outputs {
                for app in out.apps {
                    let name = FileOutput.name(output, inserting: app.rawValue)
                    try FileOutput.write(out.text, to: name)
                    files.append((name, [app]))
                }
            }
            return files
        }

        /// The report, on standard error.
        private func report(_ port: ConfigurationPort, files: [(name: String, apps: [Profile])]) {
            var lines = ["pathconfig port: as \(port.reference.rawValue) reads \(options.config.joined(separator: ",")), for "
                + port.apps.map(\.rawValue).joined(separator: ", ")]
            lines.append("covered: \(port.coveredURLs)")
            for rewrite in port.rewrites { lines.append("rewritten: \(rewrite)") }
            for refusal in port.refusals { lines.append("refused: \(refusal)") }
            for file in files { lines.append("wrote \(file.name) for \(file.apps.map(\.rawValue).joined(separator: ", "))") }
            let refusedApps = port.apps.filter { app in port.refusals.contains { $0.app == app } }
            if strict, !refusedApps.isEmpty {
                lines.append("nothing written for \(refusedApps.map(\.rawValue).joined(separator: ", ")) (--strict)")
            }
            StandardStreams.error(lines.joined(separator: "\n") + "\n")
        }

        /// `--check`: each app's answers on its file against the
        /// reference's on the original. True when a covered URL differs.
        private func runCheck(_ port: ConfigurationPort, original: PathConfiguration) throws -> Bool {
            let urls = URLList.read(check.flatMap { file -> [String] in
                guard let bytes = try? FileBytes.read(file) else { return [] }
                return String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
            })
            var coveredDiffers = false
            var lines: [String] = []
            for output in port.outputs {
                for app in output.apps {
                    let ported = try PathConfiguration(json: output.text, options: LoadOptions(profile: app))
                    let comparison = ProfileComparison(configurations: [(port.reference, original), (app, ported)],
                                                       method: HTTPMethod.defaultMethod)
                    var differing = 0
                    for url in urls {
                        guard let difference = try? comparison.compare(url.text) else { continue }
                        differing += 1
                        let covered = port.coveredURLs.contains(url.text)
                        if covered { coveredDiffers = true }
                        let keys = difference.differences.map { d in
                            "\(d.path.text): " + zip([port.reference, app], d.values)
                                .map { "\($0.rawValue) \($1.map(JSONWriter.compact) ?? "(absent)")" }.joined(separator: ", ")
                        }
                        lines.append("check: \(app.rawValue) differs on \(url.text)\(covered ? "" : " (not covered)"): "
                            + keys.joined(separator: "; "))
                    }
                    lines.append("check: \(app.rawValue): \(urls.count - differing) of \(urls.count) URLs answer as \(port.reference.rawValue)")
                }
            }
            StandardStreams.error(lines.joined(separator: "\n") + "\n")
            return coveredDiffers
        }
    }
}
