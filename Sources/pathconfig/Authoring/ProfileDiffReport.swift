import PathConfiguration

/// Writes `pathconfig diff` across profiles: the summary by rule and key
/// (`RuleKeySummary`), a table of the URLs whose properties differ (one row
/// per differing key, one column per profile, or per file and profile in
/// the pair form), then a summary line; or one JSON document.
struct ProfileDiffReport {
    let columns: [DiffColumn]
    let method: String
    /// How many distinct URLs were compared (refused ones left out).
    let urlCount: Int
    /// The URLs that differ, in input order.
    let differences: [ProfileDifference]
    var mode: CompareMode = .json
    /// The base URL paths were read on (`PathInput`), for the JSON report;
    /// nil when paths were read as given.
    var baseURL: BaseURL? = nil
    /// Whether a path was read on `PathInput.defaultBase`: the text report
    /// then opens with `PathInput.defaultBaseNote`.
    var pathsOnDefaultBase = false
    /// Typed, each profile whose app never reads some keys of the catalog,
    /// with those keys, which are left out (`ProfileComparison.unreadKeys`).
    var unreadKeys: [(profile: Profile, keys: [TypedKey])] = []
    var ignored = IgnoredKeys()
    /// Print the summary by rule and key without the per-URL table.
    var summaryOnly = false

    /// Whether the columns read one configuration (not the pair form): a
    /// rule index then names the same rule in every column.
    private var oneConfiguration: Bool { Set(columns.map(\.config)).count == 1 }

    /// `2 of 6 URLs differ between hotwire-ios, turbo-ios, ...; 4 resolve
    /// alike`; in the pair form, each configuration with its profiles:
    /// `between ios.json under hotwire-ios, android.json under hotwire-android`.
    var summary: String {
        var names: [String] = []
        if oneConfiguration {
            names = columns.map(\.profile.rawValue)
        } else {
            for column in columns {
                if let last = names.last, last.hasPrefix(column.config + " under ") {
                    names[names.count - 1] += " and \(column.profile.rawValue)"
                } else {
                    names.append("\(column.config) under \(column.profile.rawValue)")
                }
            }
        }
        return "\(differences.count) of \(ValueText.count(urlCount, "URL")) differ between \(names.joined(separator: ", ")); \(ValueText.alike(urlCount - differences.count))"
    }

    /// The note on keys left out, typed, because an app never reads them:
    /// `note: not compared, as an app never reads them: hotwire-ios: title,
    /// uri, fallback_uri; hotwire-android: modal_style, ...`; nil when none is.
    var unreadNote: String? {
        guard !unreadKeys.isEmpty else { return nil }
        let apps = unreadKeys.map { "\($0.profile.rawValue) never reads \($0.keys.map(\.rawValue).joined(separator: ", "))" }
        return "note: typed keys an app never reads are not compared: " + apps.joined(separator: "; ")
    }

    /// The notes, then, when any URL differs, the summary by rule and key
    /// and (unless `summaryOnly`) the table, then the summary line.
    func text(style: Style) -> [String] {
        var lines = [pathsOnDefaultBase ? PathInput.defaultBaseNote : nil, unreadNote, ignored.note].compactMap { $0.map(style.dim) }
        if !differences.isEmpty {
            lines.append(style.bold("by rule and key:"))
            lines += RuleKeySummary(differences).lines(labels: columns.map(\.label), sharedRules: oneConfiguration, style: style)
        }
        if !differences.isEmpty && !summaryOnly {
            var table = TextTable(header: ["URL", "KEY"] + columns.map(\.label), style: style)
            for difference in differences {
                for (i, d) in difference.differences.enumerated() {
                    let url = i == 0 ? difference.url : ""
                    let cells = difference.crashes.enumerated().map { side, crash in
                        TextTable.Cell(crash == nil ? ValueText.text(d.values[side], written: d.written, side: side) : ValueText.crash)
                    }
                    table.rows.append([TextTable.Cell(url), TextTable.Cell(ValueText.key(d))] + cells)
                }
            }
            lines += table.lines()
        }
        lines.append(summary)
        return lines
    }

    /// The JSON report (its keys are listed in docs/command-line.md): the
    /// columns and counts, the summary by rule (`RuleKeySummary.json`), and,
    /// unless `summaryOnly`, each differing URL's keys, properties, typed
    /// values and crashes, each by column label.
    func json() -> JSONValue {
        var o = JSONObject()
        let labels = columns.map(\.label)
        o["profiles"] = .array(columns.map { .string($0.profile.rawValue) })
        o["columns"] = .array(columns.map { .object(["label": .string($0.label), "config": .string($0.config), "profile": .string($0.profile.rawValue)]) })
        o["method"] = .string(method)
        o["compare"] = .string(mode.rawValue)
        if let baseURL { o["base_url"] = .string(baseURL.string) }
        o["urls"] = .integer(urlCount)
        o["differing"] = .integer(differences.count)
        o["alike"] = .integer(urlCount - differences.count)
        o["ignored_keys"] = .array(ignored.keys.map(JSONValue.string))
        if mode == .typed {
            var unread = JSONObject()
            for (profile, keys) in unreadKeys { unread[profile.rawValue] = .array(keys.map { .string($0.rawValue) }) }
            o["unread_keys"] = .object(unread)
        }
        o["by_rule"] = RuleKeySummary(differences).json(labels: labels)
        if summaryOnly { return .object(o) }
        o["differences"] = .array(differences.map { difference in
            var u = JSONObject()
            u["url"] = .string(difference.url)
            u["keys"] = .array(difference.differences.map { $0.json(labels, nestedIn: "values") })
            u["properties"] = .object(ValueDifference.named(labels, difference.properties.map { $0.map(JSONValue.object) }))
            if let typed = difference.typed { u["typed"] = .object(ValueDifference.named(labels, typed.map { $0.map(JSONValue.object) })) }
            let crashes = ValueDifference.named(labels, difference.crashes.map { $0.map(JSONValue.string) })
            if !crashes.isEmpty { u["crashes"] = .object(crashes) }
            return .object(u)
        })
        return .object(o)
    }
}
