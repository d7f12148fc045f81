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

        @Option(name: .long, help: ArgumentHelp("text (the report on standard error) or json (one JSON document on standard output: the report, the checks, and the files' text unless --output writes them).", valueName: "format"))
        var format: OutputFormat = .text

        /// The apps to write for.
        var apps: [Profile] { options.profiles.isEmpty ? PathConfigCommand.Diff.defaultProfiles : options.distinctProfiles }

        func validate() throws {
            try options.requireConfig()
            if like == .siesta || apps.contains(.siesta) {
                throw ValidationError("port is for the mobile apps: siesta matches whole URLs and reads globs and methods")
            }
            // Each app is reproduced with its own settings, which a file cannot change.
            if options.queryStrings != nil || options.merge != .shallow || options.baseURL != nil {
                throw ValidationError("port reads each app with the app's own settings: --query-strings, --no-query-strings, --merge and --base-url do not apply")
            }
        }

        func run() throws {
            let set = ConfigurationSet(flags: options, sources: try options.sources(), errorsAsJSON: format == .json)
            let original = try set.configuration(profile: like)
            let port = ConfigurationPort(original, to: apps, strict: strict)
            let urls = try checkURLs()
            // A JSON report without --output carries the files' text instead.
            let files = format == .json && output == nil ? [] : try write(port)
            let checks = urls.map { Self.check(port, original: original, urls: $0) } ?? []
            switch format {
            case .text:
                StandardStreams.error((reportLines(port, files: files) + checks.flatMap(\.lines)).joined(separator: "\n") + "\n")
            case .json:
                StandardStreams.output(Array((JSONWriter.compact(json(port, files: files, checks: checks, urlCount: urls?.count)) + "\n").utf8))
            }
            let coveredDiffers = checks.contains { $0.differences.contains(where: \.covered) }
            if (strict && !port.refusals.isEmpty) || coveredDiffers { throw ExitCode(1) }
        }

        /// The URLs of the `--check` files, or nil without any; exit 1 when one cannot be read.
        private func checkURLs() throws -> [Input]? {
            guard !check.isEmpty else { return nil }
            var lines: [String] = []
            for file in check {
                do { lines += String(decoding: try FileBytes.read(file), as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init) } catch {
                    StandardStreams.error("pathconfig: error: --check: \(error.message)\n")
                    throw ExitCode(1)
                }
            }
            return URLList.read(lines)
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

        /// The text report, for standard error.
        private func reportLines(_ port: ConfigurationPort, files: [(name: String, apps: [Profile])]) -> [String] {
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
            return lines
        }

        /// The JSON report: what the text report says, the files (their
        /// text when none was written) and the checks.
        private func json(_ port: ConfigurationPort, files: [(name: String, apps: [Profile])], checks: [CheckResult], urlCount: Int?) -> JSONValue {
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
            if let urlCount {
                o["check"] = .array(checks.map { c in
                    .object(["app": .string(c.app.rawValue), "urls": .integer(urlCount), "differ": .integer(c.differences.count),
                             "differences": .array(c.differences.map { d in
                                 .object(["url": .string(d.url), "covered": .bool(d.covered), "keys": .array(d.keys.map { k in
                                     var e: JSONObject = ["path": k.path.json]
                                     if let v = k.values[0] { e["reference"] = v }
                                     if let v = k.values[1] { e["app"] = v }
                                     return .object(e)
                                 })])
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
                let keys: [ValueDifference]
            }
            let app: Profile
            let reference: Profile
            let urlCount: Int
            let differences: [Difference]

            /// The text report's lines.
            var lines: [String] {
                differences.map { d in
                    "check: \(app.rawValue) differs on \(d.url)\(d.covered ? "" : " (not covered)"): " + d.keys.map { k in
                        "\(k.path.text): " + zip([reference, app], k.values)
                            .map { "\($0.rawValue) \($1.map(JSONWriter.compact) ?? "(absent)")" }.joined(separator: ", ")
                    }.joined(separator: "; ")
                } + ["check: \(app.rawValue): \(urlCount - differences.count) of \(urlCount) URLs answer as \(reference.rawValue)"]
            }
        }

        /// `--check`: each app's answers on its file against the
        /// reference's on the original, with diff's comparison.
        private static func check(_ port: ConfigurationPort, original: PathConfiguration, urls: [Input]) -> [CheckResult] {
            var results: [CheckResult] = []
            for output in port.outputs {
                for app in output.apps {
                    // A file that does not load is refused, and has nothing to check.
                    guard let ported = port.configurations[app] else { continue }
                    let comparison = ProfileComparison(configurations: [(port.reference, original), (app, ported)],
                                                       method: HTTPMethod.defaultMethod)
                    var differences: [CheckResult.Difference] = []
                    for url in urls {
                        let difference: ProfileDifference?
                        do { difference = try comparison.compare(url.text) } catch {
                            Diagnostics.refused(url, error)
                            continue
                        }
                        guard let difference else { continue }
                        differences.append(.init(url: url.text, covered: port.coveredURLs.contains(url.text), keys: difference.differences))
                    }
                    results.append(CheckResult(app: app, reference: port.reference, urlCount: urls.count, differences: differences))
                }
            }
            return results
        }
    }
}
