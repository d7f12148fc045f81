import PathConfigCore

/// `not-portable`: a property key canonically equivalent to one of an
/// earlier rule but spelt in other code points (`"café"` with U+00E9, then
/// with `e` and U+0301), where the selected profiles read keys both ways:
/// one key to the iOS apps, two to the Android ones
/// (`DocumentReading.keysSpeltApart`). Within one object, `duplicate-key`
/// says it.
struct SpeltApartKeyCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        let keys = d.ruleNodes.enumerated().flatMap { rule, node in
            guard case .object(let members)? = node.member("properties")?.value.kind else { return [] as [(rule: Int, key: String, offset: Int)] }
            return members.map { (rule: rule, key: $0.key, offset: $0.keyOffset) }
        }
        return DocumentReading.keysSpeltApart(keys.map(\.key)).compactMap { i, first in
            let (key, first) = (keys[i], keys[first])
            let at = d.location(first.offset)
            guard key.rule != first.rule, let reason = DocumentReading.speltApartReason(
                key.key, first.key, where: "of rule \(first.rule) (line \(at.line), column \(at.column))", profiles: d.profiles) else { return nil }
            return d.finding(.notPortable, reason, at: d.location(key.offset), rule: key.rule, profiles: d.profiles.filter(\.isMobileApp))
        }
    }
}
