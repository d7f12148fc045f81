/// Merges the properties of matching rules: in rule order, shallow, later
/// keys replacing earlier ones (a nested object is replaced whole).
enum Resolver {
    static func merge(_ matches: [RuleMatch], rules: [Rule]) -> JSONObject {
        guard let first = matches.first else { return [:] }
        var merged = rules[first.ruleIndex].properties
        for m in matches.dropFirst() { merged.merge(rules[m.ruleIndex].properties) }
        return merged
    }
}
