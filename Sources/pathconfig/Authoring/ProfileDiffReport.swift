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

    /// `2 of 6 URLs differ between hotwire-ios, turbo-ios, ...; 4 resolve alike`.
    var summary: String {
        let names = profiles.map(\.rawValue).joined(separator: ", ")
        return "\(differences.count) of \(ValueText.count(urlCount, "URL")) differ between \(names); \(ValueText.alike(urlCount - differences.count))"
    }

    /// The table (when any URL differs) and the summary.
    func text(style: Style) -> [String] {
        var lines: [String] = []
        if !differences.isEmpty {
            var table = TextTable()
            let header = ["URL", "KEY"] + profiles.map(\.rawValue)
            table.append(header.map { TextTable.Cell($0, painted: style.bold($0)) })
            for difference in differences {
                for (i, d) in difference.differences.enumerated() {
                    let url = i == 0 ? difference.url : ""
                    let cells = zip(d.values, difference.crashes).map { value, crash in
                        TextTable.Cell(crash == nil ? ValueText.text(value) : ValueText.crash)
                    }
                    table.append([TextTable.Cell(url), TextTable.Cell(d.path.text)] + cells)
                }
            }
            lines = table.lines()
        }
        lines.append(summary)
        return lines
    }

    /// `profiles`, `method`, `urls` (compared), `differing`, `alike`, and
    /// `differences`: per URL, `url`, `keys` (`path`, and `values`: the
    /// value under each profile, by profile name, a profile left out where
    /// the key is absent or the app crashes), `properties` (everything under
    /// each profile whose app answers) and, when an app crashes on the URL,
    /// `crashes` (why, by profile name).
    func json() -> JSONValue {
        var o = JSONObject()
        o["profiles"] = .array(profiles.map { .string($0.rawValue) })
        o["method"] = .string(method)
        o["urls"] = .integer(urlCount)
        o["differing"] = .integer(differences.count)
        o["alike"] = .integer(urlCount - differences.count)
        o["differences"] = .array(differences.map { difference in
            var u = JSONObject()
            u["url"] = .string(difference.url)
            u["keys"] = .array(difference.differences.map { d in
                var values = JSONObject()
                for (profile, value) in zip(profiles, d.values) { values[profile.rawValue] = value }
                return .object(["path": d.path.json, "values": .object(values)])
            })
            var properties = JSONObject(), crashes = JSONObject()
            for (profile, object) in zip(profiles, difference.properties) { if let object { properties[profile.rawValue] = .object(object) } }
            for (profile, crash) in zip(profiles, difference.crashes) { if let crash { crashes[profile.rawValue] = .string(crash) } }
            u["properties"] = .object(properties)
            if !crashes.isEmpty { u["crashes"] = .object(crashes) }
            return .object(u)
        })
        return .object(o)
    }
}
