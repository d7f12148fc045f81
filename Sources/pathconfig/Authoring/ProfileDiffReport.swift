import PathConfiguration

/// Writes `pathconfig diff` across profiles: a table of the URLs whose
/// properties differ (one row per differing key, one column per profile),
/// then a summary line; or one JSON document.
struct ProfileDiffReport {
    /// The profiles, in column order.
    let profiles: [Profile]
    /// The method of the lookups.
    let method: String
    /// How many distinct URLs were compared (refused ones left out).
    let urlCount: Int
    /// The URLs that differ, in input order.
    let differences: [ProfileDifference]
    /// How values were compared.
    var mode: CompareMode = .json
    /// The base URL paths were read on (`PathInput`), for the JSON report;
    /// nil when paths were read as given.
    var baseURL: BaseURL? = nil
    /// Whether a path was read on `PathInput.defaultBase`: the text report
    /// then opens with `PathInput.defaultBaseNote`.
    var pathsOnDefaultBase = false

    /// `2 of 6 URLs differ between hotwire-ios, turbo-ios, ...; 4 resolve alike`.
    var summary: String {
        let names = profiles.map(\.rawValue).joined(separator: ", ")
        return "\(differences.count) of \(ValueText.count(urlCount, "URL")) differ between \(names); \(ValueText.alike(urlCount - differences.count))"
    }

    /// The note on the default base URL (when a path was read on it), the
    /// table (when any URL differs) and the summary. A typed read's key says
    /// `(typed)`, and its values where they came from (`ValueText.text(_:written:side:)`).
    func text(style: Style) -> [String] {
        var lines: [String] = pathsOnDefaultBase ? [style.dim(PathInput.defaultBaseNote)] : []
        if !differences.isEmpty {
            var table = TextTable()
            let header = ["URL", "KEY"] + profiles.map(\.rawValue)
            table.append(header.map { TextTable.Cell($0, painted: style.bold($0)) })
            for difference in differences {
                for (i, d) in difference.differences.enumerated() {
                    let url = i == 0 ? difference.url : ""
                    let cells = difference.crashes.enumerated().map { side, crash in
                        TextTable.Cell(crash == nil ? ValueText.text(d.values[side], written: d.written, side: side) : ValueText.crash)
                    }
                    table.append([TextTable.Cell(url), TextTable.Cell(ValueText.key(d))] + cells)
                }
            }
            lines += table.lines()
        }
        lines.append(summary)
        return lines
    }

    /// `profiles`, `method`, `compare` (`json` or `typed`), `base_url` (when
    /// paths were read on one), `urls` (compared), `differing`, `alike`, and
    /// `differences`: per URL, `url` (as given), `keys` (`path`, and
    /// `values`: the value under each profile, by profile name, a profile
    /// left out where the key is absent or the app crashes; for a typed read
    /// `typed: true`, `values` the typed values and `written` what each
    /// profile's properties hold, left out where they hold nothing),
    /// `properties` (everything under each profile whose app answers, as
    /// written), with `--compare typed` `typed` (every typed key's value, by
    /// profile) and, when an app crashes on the URL, `crashes` (why, by
    /// profile name).
    func json() -> JSONValue {
        var o = JSONObject()
        o["profiles"] = .array(profiles.map { .string($0.rawValue) })
        o["method"] = .string(method)
        o["compare"] = .string(mode.rawValue)
        if let baseURL { o["base_url"] = .string(baseURL.string) }
        o["urls"] = .integer(urlCount)
        o["differing"] = .integer(differences.count)
        o["alike"] = .integer(urlCount - differences.count)
        o["differences"] = .array(differences.map { difference in
            var u = JSONObject()
            u["url"] = .string(difference.url)
            u["keys"] = .array(difference.differences.map { d in
                var values = JSONObject()
                for (profile, value) in zip(profiles, d.values) { values[profile.rawValue] = value }
                var key: JSONObject = ["path": d.path.json, "values": .object(values)]
                if let written = d.written {
                    var raw = JSONObject()
                    for (profile, value) in zip(profiles, written) { raw[profile.rawValue] = value }
                    key["typed"] = .bool(true)
                    key["written"] = .object(raw)
                }
                return .object(key)
            })
            var properties = JSONObject(), crashes = JSONObject()
            for (profile, object) in zip(profiles, difference.properties) { if let object { properties[profile.rawValue] = .object(object) } }
            for (profile, crash) in zip(profiles, difference.crashes) { if let crash { crashes[profile.rawValue] = .string(crash) } }
            u["properties"] = .object(properties)
            if let typed = difference.typed {
                var values = JSONObject()
                for (profile, object) in zip(profiles, typed) { if let object { values[profile.rawValue] = .object(object) } }
                u["typed"] = .object(values)
            }
            if !crashes.isEmpty { u["crashes"] = .object(crashes) }
            return .object(u)
        })
        return .object(o)
    }
}
