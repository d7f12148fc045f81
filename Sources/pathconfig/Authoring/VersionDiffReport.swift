import PathConfiguration

/// Writes `pathconfig diff --against`: a table of what changes for each URL
/// between two versions (one row per changed key, with the profiles that see
/// the change), then a summary line; or one JSON document.
struct VersionDiffReport {
    /// The old version's name (`--config`).
    let old: String
    /// The new version's name (`--against`).
    let new: String
    /// The profiles compared under.
    let profiles: [Profile]
    /// The method of the lookups.
    let method: String
    /// How many distinct URLs were compared (refused ones left out).
    let urlCount: Int
    /// The changes, URL by URL in input order.
    let changes: [VersionChange]

    /// URLs with at least one change.
    var changedCount: Int { Set(changes.map(\.url)).count }

    /// `1 of 6 URLs change from OLD to NEW under hotwire-ios, ...; 5 resolve alike`.
    var summary: String {
        let names = profiles.map(\.rawValue).joined(separator: ", ")
        return "\(changedCount) of \(ValueText.count(urlCount, "URL")) change from \(old) to \(new) under \(names); \(ValueText.alike(urlCount - changedCount))"
    }

    /// The table (when anything changes) and the summary. The profiles
    /// column says `all` when every profile compared sees the change.
    func text(style: Style) -> [String] {
        var lines: [String] = []
        if !changes.isEmpty {
            var table = TextTable()
            let header = ["URL", "PROFILES", "CHANGE", "KEY", "OLD", "NEW"]
            table.append(header.map { TextTable.Cell($0, painted: style.bold($0)) })
            var lastURL: String?
            for change in changes {
                let who = change.profiles.count == profiles.count ? "all" : change.profiles.map(\.rawValue).joined(separator: ",")
                for (i, key) in change.keys.enumerated() {
                    let url = change.url == lastURL ? "" : change.url
                    lastURL = change.url
                    let kind = key.kind.rawValue
                    let painted: String
                    switch key.kind {
                    case .added: painted = style.green(kind)
                    case .removed: painted = style.red(kind)
                    case .changed: painted = style.yellow(kind)
                    }
                    table.append([TextTable.Cell(url), TextTable.Cell(i == 0 ? who : ""), TextTable.Cell(kind, painted: painted),
                                  TextTable.Cell(key.path.text), TextTable.Cell(ValueText.text(key.old)), TextTable.Cell(ValueText.text(key.new))])
                }
            }
            lines = table.lines()
        }
        lines.append(summary)
        return lines
    }

    /// `old`, `new`, `profiles`, `method`, `urls` (compared), `changed`,
    /// `unchanged`, and `changes`: per URL and group of profiles that see
    /// the same changes, `url`, `profiles` and `keys` (`path`, `change`:
    /// added, removed or changed, and `old` and `new`, each left out where
    /// the key is absent).
    func json() -> JSONValue {
        var o = JSONObject()
        o["old"] = .string(old)
        o["new"] = .string(new)
        o["profiles"] = .array(profiles.map { .string($0.rawValue) })
        o["method"] = .string(method)
        o["urls"] = .integer(urlCount)
        o["changed"] = .integer(changedCount)
        o["unchanged"] = .integer(urlCount - changedCount)
        o["changes"] = .array(changes.map { change in
            var c = JSONObject()
            c["url"] = .string(change.url)
            c["profiles"] = .array(change.profiles.map { .string($0.rawValue) })
            c["keys"] = .array(change.keys.map { key in
                var k: JSONObject = ["path": key.path.json, "change": .string(key.kind.rawValue)]
                if let v = key.old { k["old"] = v }
                if let v = key.new { k["new"] = v }
                return .object(k)
            })
            return .object(c)
        })
        return .object(o)
    }
}
