import PathConfigCore

/// A document's `lint` markers, read once: the kinds a team allows in its
/// own file, and what is wrong with the markers.
///
/// A marker is a key `"lint"` whose value is `{"allow": [KIND, ...]}`, the
/// kinds being `LintFinding.Kind` raw values. At the top level it allows
/// those kinds' findings in the whole document; in a rule (beside
/// `patterns` and `properties`) the findings about that rule (whose
/// `ruleIndex` is that rule). The apps never read the key, so a marker loads
/// under every profile. Anywhere else (`properties`, `settings`) `lint` is
/// a value like any other, not a marker.
///
/// A marker lint cannot read is a `lint-marker` finding, at the value
/// concerned, and allows nothing there: a value that is not an object, a
/// key other than `allow`, an `allow` that is not an array, an element that
/// is not the name of a kind. Only the first value of a repeated key counts,
/// as when loading (`duplicate-key` says so).
struct LintMarkers {
    /// The kinds allowed in the whole document.
    private(set) var document: Set<LintFinding.Kind> = []
    /// The kinds allowed in each rule, by rule index.
    private(set) var rules: [Int: Set<LintFinding.Kind>] = [:]
    /// What lint cannot read in the markers (`lint-marker`).
    private(set) var findings: [LintFinding] = []

    /// The marker's key, at the top level or in a rule.
    static let key = "lint"
    /// The marker's one key: the kinds it allows.
    static let allowKey = "allow"

    /// The example every message about a marker's shape shows.
    static let example = #"{"allow": ["query-string-anchor"]}"#

    /// Reads the markers of `d`: the top level's, then each rule's.
    init(_ d: LintDocument) {
        if let marker = d.tree.root.member(Self.key) { document = read(marker.value, rule: nil, in: d) }
        for (index, node) in d.ruleNodes.enumerated() {
            guard let marker = node.member(Self.key) else { continue }
            rules[index] = read(marker.value, rule: index, in: d)
        }
    }

    /// Whether a marker allows `finding`: the document's, or its rule's.
    func allows(_ finding: LintFinding) -> Bool {
        document.contains(finding.kind) || finding.ruleIndex.flatMap { rules[$0] }?.contains(finding.kind) == true
    }

    /// The kinds one marker allows; a finding for each part lint cannot read.
    private mutating func read(_ node: JSONNode, rule: Int?, in d: LintDocument) -> Set<LintFinding.Kind> {
        guard case .object(let members) = node.kind else {
            problem("\"lint\" must be an object such as \(Self.example), not \(Self.described(node)); it allows nothing", at: node, rule: rule, in: d)
            return []
        }
        var allowed: Set<LintFinding.Kind> = []
        var seen = Set<String>()
        for member in members where seen.insert(member.key).inserted {
            guard member.key == Self.allowKey else {
                findings.append(d.finding(.lintMarker, "\"lint\" has the key \(JSONWriter.quoted(member.key)), which lint does not read; its one key is \"allow\", as in \(Self.example)",
                                          at: d.location(member.keyOffset), rule: rule))
                continue
            }
            guard case .array(let items) = member.value.kind else {
                problem("\"allow\" must be an array of kinds such as [\"query-string-anchor\"], not \(Self.described(member.value)); it allows nothing",
                        at: member.value, rule: rule, in: d)
                continue
            }
            for item in items {
                if case .string(let name) = item.kind, let kind = LintFinding.Kind(rawValue: name) {
                    allowed.insert(kind)
                } else {
                    let kinds = LintFinding.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                    problem("\"allow\" lists \(JSONWriter.compact(item.value)), which is not a kind of lint finding; the kinds are \(kinds)",
                            at: item, rule: rule, in: d)
                }
            }
        }
        return allowed
    }

    private mutating func problem(_ message: String, at node: JSONNode, rule: Int?, in d: LintDocument) {
        findings.append(d.finding(.lintMarker, message, at: d.location(node.offset), rule: rule))
    }

    /// `a string ("x")`, `a number (42)`, `null`, `an array`: a value as a
    /// message names it.
    private static func described(_ node: JSONNode) -> String {
        switch node.kind {
        case .null: return "null"
        case .array: return "an array"
        case .object: return "an object"
        default: return "a \(node.typeName) (\(JSONWriter.compact(node.value)))"
        }
    }
}
