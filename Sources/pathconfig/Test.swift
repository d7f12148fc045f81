import ArgumentParser
import PathConfiguration

extension PathConfigCommand {
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check a file of expected properties (a cases file) against a configuration.",
            discussion: """
                CASES is JSON: {"cases": [{"url": ..., "properties": {...}}, ...]}, each case \
                with "properties", "typed" or both, and optionally "config" (the file, or \
                http(s):// URL, the case is checked against, as --config names one; default: \
                --config, which may then be left out when every case names its own), \
                "profile" (a name or an array of names; default: every \
                --profile given, else hotwire-ios), "method" (default: --method), "options" \
                (load options as the C API names them, over the flags: match_query_strings, \
                base_url, merge, ...), "match" ("exact", the default: no other key may \
                appear; or "subset": the keys named must be there, others are ignored) and \
                "description". Values compare as JSON: numbers by value, object keys in any \
                order, no conversion between types; --ignore-key KEY (repeated) leaves a \
                key out of every check. CASES may be - for standard input.

                "typed" holds keys of the typed catalog (listed under --compare) with the \
                value the app's typed accessor must read, defaults included: \
                {"modal_style": "large"} passes where the key is unset. With --compare typed, \
                "properties" compares so too: every key of the catalog as each side's app \
                reads it, defaults included; keys outside the catalog, which app code reads \
                raw, still as written. A typed key is shown as KEY (typed), each value \
                followed by (default) where nothing is written and (written X) where the app \
                read something other than the X written.

                A "url" that is a path (it starts with one /, not //) is read by a mobile app \
                as the page at that path on --base-url, or the case's "base_url" option \
                (default https://example.com, which a note line then names), so that the \
                app's URL handling applies: turbo-ios drops a trailing slash and the query, hotwire-ios the slash. \
                siesta reads a path as Siesta's resource(_:) does. Reports show the URL as the \
                case gives it.

                Prints each failing check with its differences key by key and the rules \
                that matched, then a summary line. Exits 0 when every check passes, 1 when \
                any fails or a file has an error (FILE:LINE:COLUMN: error: MESSAGE), 2 on \
                a usage error. The configuration's warnings are validate's to print.
                """
        )

        @OptionGroup var options: ConfigOptions

        @OptionGroup var request: MethodOption

        @OptionGroup var report: ReportOptions

        @Flag(name: .long, help: "List the checks that pass too.")
        var verbose = false

        @Argument(help: ArgumentHelp("The cases file (- for standard input).", valueName: "cases"))
        var cases: String

        func run() throws {
            Style.colourDiagnostics(report.color)
            let file = try Self.read(cases)
            // A file of no cases checks nothing: passing it would let a CI job
            // that lost its cases go green.
            guard !file.cases.isEmpty else {
                Diagnostics.error("no cases: the file checks nothing; add at least one case to \"cases\"", at: file.path)
                throw ExitCode(1)
            }
            // A case that names no file is checked against --config: without
            // one, a usage error at each such case.
            let unnamed = options.config.isEmpty ? file.cases.filter { $0.config == nil } : []
            for c in unnamed {
                Diagnostics.error("case \(c.index) names no \"config\", and no --config was given", at: Diagnostics.prefix(file.path, c.location))
            }
            if !unnamed.isEmpty { throw ExitCode(2) }
            let runner = CaseRunner(flags: options, errorsAsJSON: report.format == .json,
                                    defaultProfiles: options.profiles.isEmpty ? [options.profile] : options.profiles.uniqued(),
                                    defaultMethod: HTTPMethod.normalized(request.method) ?? HTTPMethod.defaultMethod,
                                    mode: report.compare, ignored: report.ignored)
            let results = try runner.run(file)
            let testReport = TestReport(file: file.path, results: results, caseCount: file.cases.count, mode: report.compare,
                                        baseURL: try options.parsedBaseURL() ?? PathInput.defaultBase, ignored: report.ignored)
            report.write(text: testReport.text(style: report.style, verbose: verbose), json: testReport.json())
            if testReport.failed > 0 { throw ExitCode(1) }
        }

        /// The cases file, decoded, or exit 1 with every problem at its place.
        static func read(_ path: String) throws -> CaseFile {
            let name = FileBytes.name(path)
            do {
                return try CaseFileDecoder.decode(try FileBytes.read(path), path: name)
            } catch let failure as ConfigurationError {
                Diagnostics.error(failure.message, at: name)
            } catch let problems as CaseFileErrors {
                for e in problems.errors { Diagnostics.error(e.message, at: Diagnostics.prefix(name, e.location)) }
            }
            throw ExitCode(1)
        }
    }
}
