import PathConfiguration

/// Which rule set the value a lookup gave for a key: of the rules that
/// matched (`PathConfiguration.explain`), the last one whose properties
/// hold the key's path, since a later rule's value wins (shallow merge
/// replaces a top-level key; deep merge patches nested ones). Where no
/// matched rule holds the path itself, the last one that holds its
/// top-level key (under shallow merge, that rule replaced the whole
/// object). nil where no matched rule holds it: the key is absent, or its
/// value is the app's default. Keys are found as the app finds them: by
/// canonical equivalence on iOS (a rule's `"e\u{301}"` sets the answer's
/// `"é"` there), by code points on Android.
enum RuleAttribution {
    /// The rule of `explanation` (of a lookup in `configuration`) that set
    /// the value at `path`, or nil.
    static func rule(setting path: KeyPath, in explanation: Explanation,
                     of configuration: PathConfiguration) -> Explanation.MatchedRule? {
        guard let top = path.components.first else { return explanation.rules.last }
        let canonical = configuration.profile.documentReading.keysAreCanonical
        var topLevel: Explanation.MatchedRule?
        for matched in explanation.rules.reversed() {
            guard let properties = properties(of: matched, in: configuration), let value = member(properties, top, canonical) else { continue }
            if holds(value, path.components.dropFirst(), canonical) { return matched }
            if topLevel == nil { topLevel = matched }
        }
        return topLevel
    }

    /// `object`'s value for `key`, found as the iOS apps find it or by code points.
    private static func member(_ object: JSONObject, _ key: String, _ canonical: Bool) -> JSONValue? {
        canonical ? object.value(canonicallyMatching: key) : object[key]
    }

    /// The properties of the matched rule (nil for one from code, which the
    /// command line never adds).
    private static func properties(of matched: Explanation.MatchedRule, in configuration: PathConfiguration) -> JSONObject? {
        let rules = configuration.rules
        if matched.index < rules.count, rules[matched.index].index == matched.index { return rules[matched.index].properties }
        return rules.first { $0.index == matched.index }?.properties
    }

    /// Whether `value` holds something at `rest`, the keys below the top.
    private static func holds(_ value: JSONValue, _ rest: ArraySlice<String>, _ canonical: Bool) -> Bool {
        guard let key = rest.first else { return true }
        guard let object = value.objectValue, let inner = member(object, key, canonical) else { return false }
        return holds(inner, rest.dropFirst(), canonical)
    }
}
