import PathConfiguration

/// Writes the results of `pathconfig test`: for people, each failure with
/// its differences key by key and the rules that matched, then a summary
/// line; for programs, one JSON document with every check.
struct TestReport {
    /// The cases file's name, as given.
    let file: String
    let results: [CheckResult]
    let caseCount: Int
    var mode: CompareMode = .json
    /// The base URL paths were read on unless a case's `base_url` option
    /// named another (`PathInput`), for the JSON report.
    var baseURL: BaseURL? = nil
    var ignored = IgnoredKeys()

    var failed: Int { results.filter { !$0.passed }.count }

    /// The summary: `14 checks (9 cases): 12 passed, 2 failed`.
    var summary: String {
        "\(ValueText.count(results.count, "check")) (\(ValueText.count(caseCount, "case"))): \(results.count - failed) passed, \(failed) failed"
    }

    /// The text report: the notes, the failures (and with `verbose`, the
    /// passes too), then the summary.
    func text(style: Style, verbose: Bool) -> [String] {
        var lines = [results.contains(where: \.usesDefaultBase) ? PathInput.defaultBaseNote : nil, ignored.note].compactMap { $0.map(style.dim) }
        for result in results {
            if result.passed {
                if verbose { lines.append(style.green("PASS") + " " + heading(result)) }
                continue
            }
            lines.append(style.red("FAIL") + " " + heading(result))
            if let error = result.error {
                lines.append("    " + style.red("error: " + error))
                continue
            }
            var table = TextTable(header: ["key", "expected", "actual"], style: style)
            for d in result.differences + result.typedDifferences {
                let expected = ValueText.text(d.values[0], written: d.written, side: 0)
                let actual = ValueText.text(d.values[1], written: d.written, side: 1)
                table.rows.append([TextTable.Cell(ValueText.key(d)), TextTable.Cell(expected, painted: style.green(expected)),
                                   TextTable.Cell(actual, painted: style.red(actual))])
            }
            lines += table.lines(indent: "    ")
            lines.append(result.rules.isEmpty ? "  no rule matched" : "  rules that matched:")
            for rule in result.rules { lines.append("    " + style.dim(ValueText.rule(rule))) }
        }
        lines.append((failed == 0 ? style.green : style.red)(summary))
        return lines
    }

    /// `FILE:LINE:COLUMN: case N ("description"): URL [in CONFIG] under PROFILE (METHOD, MATCH[, typed])`:
    /// `in CONFIG` for a case that names its configuration;
    /// the match only for a case with `properties`, `typed` when they were
    /// compared as typed reads; a URL over 80 characters shortened
    /// (`Inputs.shortened`; the JSON report has it whole).
    private func heading(_ result: CheckResult) -> String {
        let c = result.testCase
        var text = "\(file):\(c.location.line):\(c.location.column): case \(c.index)"
        if let description = c.description { text += " (\(JSONWriter.quoted(description)))" }
        var how = [result.method]
        if c.expected != nil {
            how.append(c.match.rawValue)
            if mode == .typed { how.append("typed") }
        }
        let config = c.config.map { " in \($0)" } ?? ""
        return text + ": \(Inputs.shortened(c.url))\(config) under \(result.profile.rawValue) (\(how.joined(separator: ", ")))"
    }

    /// The JSON report (its keys are listed in docs/command-line.md): the
    /// counts, then each check with its case and answer and, for a
    /// failure, its differences (`ValueDifference.json`) and matched rules.
    func json() -> JSONValue {
        var o = JSONObject()
        o["file"] = .string(file)
        o["compare"] = .string(mode.rawValue)
        if let baseURL { o["base_url"] = .string(baseURL.string) }
        o["ignored_keys"] = .array(ignored.keys.map(JSONValue.string))
        o["cases"] = .integer(caseCount)
        o["checks"] = .integer(results.count)
        o["passed"] = .integer(results.count - failed)
        o["failed"] = .integer(failed)
        o["results"] = .array(results.map { result in
            let c = result.testCase
            var r = JSONObject()
            r["case"] = .integer(c.index)
            r["line"] = .integer(c.location.line)
            r["column"] = .integer(c.location.column)
            if let d = c.description { r["description"] = .string(d) }
            r["url"] = .string(c.url)
            if let config = c.config { r["config"] = .string(config) }
            r["profile"] = .string(result.profile.rawValue)
            r["method"] = .string(result.method)
            r["match"] = .string(c.match.rawValue)
            r["passed"] = .bool(result.passed)
            if let expected = c.expected { r["expected"] = .object(expected) }
            if !c.typed.isEmpty { r["typed"] = .object(c.typedObject) }
            if let actual = result.actual { r["actual"] = .object(actual) }
            if let typed = result.actualTyped { r["actual_typed"] = .object(typed) }
            if let error = result.error { r["error"] = .string(error) }
            if !result.passed && result.error == nil {
                if c.expected != nil { r["differences"] = .array(result.differences.map { $0.json(Self.sides) }) }
                if !c.typed.isEmpty { r["typed_differences"] = .array(result.typedDifferences.map { $0.json(Self.sides) }) }
                r["rules"] = .array(result.rules.map { .object($0.jsonObject) })
            }
            return .object(r)
        })
        return .object(o)
    }

    /// The names of a check's two sides in the JSON report.
    private static let sides = ["expected", "actual"]
}
