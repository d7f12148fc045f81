import PathConfiguration

/// Writes `pathconfig diff --against`: a table of what changes for each URL
/// between two versions (one row per changed key, with the profiles that see
/// the change), then a summary line; or one JSON document.
struct VersionDiffReport {
    /// The old version's name (`--config`).
    let old: String
    /// The new version's name (`--against`).
    let new: String
    let profiles: [Profile]
    let method: String
    /// How many distinct URLs were compared (refused ones left out).
    let urlCount: Int
    /// The changes, URL by URL in input order.
    let changes: [VersionChange]
    var mode: CompareMode = .json
    /// The base URL paths were read on (`PathInput`), for the JSON report;
    /// nil when paths were read as given.
    var baseURL: BaseURL? = nil
    /// Whether a path was read on `PathInput.defaultBase`: the text report
    /// then opens with `PathInput.defaultBaseNote`.
    var pathsOnDefaultBase = false
    var ignored = IgnoredKeys()

    /// URLs with at least one change (told apart byte for byte, as inputs are).
    var changedCount: Int { Set(changes.map { Array($0.url.utf8) }).count }

    /// `1 of 6 URLs change from OLD to NEW under hotwire-ios, ...; 5 resolve alike`.
    var summary: String {
        let names = profiles.map(\.rawValue).joined(separator: ", ")
        return "\(changedCount) of \(ValueText.count(urlCount, "URL")) change from \(old) to \(new) under \(names); \(ValueText.alike(urlCount - changedCount))"
    }

    /// The notes, the table (when anything changes) and the summary; the
    /// profiles column says `all` when every profile compared sees the change.
    func text(style: Style) -> [String] {
        var lines = [pathsOnDefaultBase ? PathInput.defaultBaseNote : nil, ignored.note].compactMap { $0.map(style.dim) }
        if !changes.isEmpty {
            var table = TextTable(header: ["URL", "PROFILES", "CHANGE", "KEY", "OLD", "NEW"], style: style)
            var lastURL: String?
            for change in changes {
                let who = change.profiles.count == profiles.count ? "all" : change.profiles.map(\.rawValue).joined(separator: ",")
                for (i, key) in change.keys.enumerated() {
                    let url = lastURL.map { String.sameBytes($0, change.url) } == true ? "" : change.url
                    lastURL = change.url
                    let kind = key.change.rawValue
                    let paint = key.change == .added ? style.green : key.change == .removed ? style.red : style.yellow
                    table.rows.append([TextTable.Cell(url), TextTable.Cell(i == 0 ? who : ""), TextTable.Cell(kind, painted: paint(kind)),
                                       TextTable.Cell(ValueText.key(key)), TextTable.Cell(ValueText.text(key.values[0], written: key.written, side: 0)),
                                       TextTable.Cell(ValueText.text(key.values[1], written: key.written, side: 1))])
                }
            }
            lines += table.lines()
        }
        lines.append(summary)
        return lines
    }

    /// The JSON report (its keys are listed in docs/command-line.md): the
    /// counts, and per URL and group of profiles that see the same changes,
    /// each changed key (`ValueDifference.json`, with its `change`).
    func json() -> JSONValue {
        var o = JSONObject()
        o["old"] = .string(old)
        o["new"] = .string(new)
        o["profiles"] = .array(profiles.map { .string($0.rawValue) })
        o["method"] = .string(method)
        o["compare"] = .string(mode.rawValue)
        if let baseURL { o["base_url"] = .string(baseURL.string) }
        o["ignored_keys"] = .array(ignored.keys.map(JSONValue.string))
        o["urls"] = .integer(urlCount)
        o["changed"] = .integer(changedCount)
        o["unchanged"] = .integer(urlCount - changedCount)
        o["changes"] = .array(changes.map { change in
            var c = JSONObject()
            c["url"] = .string(change.url)
            c["profiles"] = .array(change.profiles.map { .string($0.rawValue) })
            c["keys"] = .array(change.keys.map { $0.json(["old", "new"], extra: ["change": .string($0.change.rawValue)]) })
            return .object(c)
        })
        return .object(o)
    }
}
