/// The keys a comparison leaves out (`--ignore-key`, repeated): a key the
/// team knows differs, or does not care about, and that would otherwise
/// make every URL differ (turbo-android's `"true"` against a boolean).
///
/// A key is named as the reports write its path: a top-level key
/// (`pull_to_refresh_enabled`), which leaves out everything under it too,
/// or a nested one (`headers.Accept`).
struct IgnoredKeys: Sendable {
    /// The keys as given, each once, in order.
    let keys: [String]

    init(_ keys: [String] = []) { self.keys = keys.uniqued() }

    /// Whether a difference at `path` is left out: its text is one of the
    /// keys, or lies under one (`headers` leaves out `headers.Accept`).
    func ignores(_ path: KeyPath) -> Bool {
        guard !keys.isEmpty, !path.components.isEmpty else { return false }
        let text = path.text
        return keys.contains { key in
            path.components[0] == key || text == key || text.hasPrefix(key + ".") || text.hasPrefix(key + "[")
        }
    }

    /// The line the text reports print when keys are ignored:
    /// `note: keys ignored (--ignore-key): uri, title`; nil when none is.
    var note: String? {
        keys.isEmpty ? nil : "note: keys ignored (--ignore-key): " + keys.joined(separator: ", ")
    }

    /// `differences` without those at ignored keys.
    func filter(_ differences: [ValueDifference]) -> [ValueDifference] {
        keys.isEmpty ? differences : differences.filter { !ignores($0.path) }
    }
}
