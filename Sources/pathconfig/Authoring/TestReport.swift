import PathConfiguration

/// Writes the results of `pathconfig test`: for people, each failure with
/// its differences key by key and the rules that matched, then a summary
/// line; for programs, one JSON document with every check.
struct TestReport {
    /// The cases file's name, as given.
    let file: String
    /// The checks, in order.
    let results: [CheckResult]
    /// How many cases the file holds.
    let caseCount: Int

    /// Checks that failed.
    var failed: Int { results.filter { !$0.passed }.count }

    /// The summary: `14 checks (9 cases): 12 passed, 2 failed`.
    var summary: String {
        "\(ValueText.count(results.count, "check")) (\(ValueText.count(caseCount, "case"))): \(results.count - failed) passed, \(failed) failed"
    }

    /// The text report: failures (and with `verbose`, passes too), then the summary.
    func text(style: Style, verbose: Bool) -> [String] {
        var lines: [String] = []
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
            var table = TextTable()
            table.append([TextTable.Cell("key", painted: style.bold("key")), TextTable.Cell("expected", painted: style.bold("expected")),
                          TextTable.Cell("actual", painted: style.bold("actual"))])
            for d in result.differences {
                let expected = ValueText.text(d.values[0]), actual = ValueText.text(d.values[1])
                table.append([TextTable.Cell(d.path.text), TextTable.Cell(expected, painted: style.green(expected)),
                              TextTable.Cell(actual, painted: style.red(actual))])
            }
            lines += table.lines(indent: "    ")
            lines.append(result.rules.isEmpty ? "  no rule matched" : "  rules that matched:")
            for rule in result.rules { lines.append("    " + style.dim(ValueText.rule(rule))) }
        }
        let summary = summary
        lines.append(failed == 0 ? style.green(summary) : style.red(summary))
        return lines
    }

    /// `FILE:LINE:COLUMN: case N ("description"): URL under PROFILE (METHOD, MATCH)`,
    /// a URL over 80 characters shortened (`Inputs.shortened`; the JSON report has it whole).
    private func heading(_ result: CheckResult) -> String {
        let c = result.testCase
        var text = "\(file):\(c.location.line):\(c.location.column): case \(c.index)"
        if let description = c.description { text += " (\(JSONWriter.quoted(description)))" }
        return text + ": \(Inputs.shortened(c.url)) under \(result.profile.rawValue) (\(result.method), \(c.match.rawValue))"
    }

    /// The JSON report: `file`, `cases`, `checks`, `passed`, `failed`, and
    /// `results`, one per check: `case`, `line`, `column`, `description`
    /// (when present), `url`, `profile`, `method`, `match`, `passed`,
    /// `expected`, `actual` (absent when the lookup failed: `error` instead),
    /// and for a failure `differences` (`path`: the keys, `expected` and
    /// `actual`, each left out where the key is absent) and `rules` (as
    /// `explain` lists them).
    func json() -> JSONValue {
        var o = JSONObject()
        o["file"] = .string(file)
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
            r["profile"] = .string(result.profile.rawValue)
            r["method"] = .string(result.method)
            r["match"] = .string(c.match.rawValue)
            r["passed"] = .bool(result.passed)
            r["expected"] = .object(c.expected)
            if let actual = result.actual { r["actual"] = .object(actual) }
            if let error = result.error { r["error"] = .string(error) }
            if !result.passed && result.error == nil {
                r["differences"] = .array(result.differences.map { d in
                    var e: JSONObject = ["path": d.path.json]
                    if let v = d.values[0] { e["expected"] = v }
                    if let v = d.values[1] { e["actual"] = v }
                    return .object(e)
                })
                r["rules"] = .array(result.rules.map { .object($0.jsonObject) })
            }
            return .object(r)
        })
        return .object(o)
    }
}
