import PathConfiguration

/// `diff`'s summary by rule and key: the differences of every URL grouped by
/// the key that differs and the rule that set it under each column
/// (`ProfileDifference.rules`), so that 120 rows of one cause read as one
/// line: `rule 3 "/new$": context differs on 120 URLs, for example /posts/new`.
///
/// Keys that differ for one cause on the same URLs share a line (`title
/// and uri differ on 3 URLs`). Groups come most URLs first, then in the
/// order of their first URL.
struct RuleKeySummary {
    /// What set a column's value, for one group.
    enum Origin: Hashable {
        /// The rule with this index (`Explanation.MatchedRule`).
        case rule(Int)
        /// No rule: the key is absent, or the value is the app's default.
        case none
        /// The app crashes on the URL.
        case crash
    }

    /// One or more keys differing for one cause on the same URLs.
    struct Group {
        /// The keys (each with, typed, whether its values are typed reads).
        var keys: [ValueDifference]
        /// What set the value, by column.
        let origins: [Origin]
        /// The rule behind each `.rule` origin, as it matched the first URL.
        let rules: [Explanation.MatchedRule?]
        /// The URLs, as given, in input order.
        var urls: [String]
    }

    /// The groups, most URLs first.
    let groups: [Group]

    /// Groups `differences`.
    init(_ differences: [ProfileDifference]) {
        struct Name: Hashable { let path: KeyPath; let typed: Bool; let origins: [Origin] }
        var groups: [Group] = []
        var index: [Name: Int] = [:]
        for difference in differences {
            for (d, rules) in zip(difference.differences, difference.rules) {
                let origins = rules.enumerated().map { side, rule -> Origin in
                    if difference.crashes[side] != nil { return .crash }
                    return rule.map { .rule($0.index) } ?? .none
                }
                let name = Name(path: d.path, typed: d.isTyped, origins: origins)
                if let i = index[name] {
                    groups[i].urls.append(difference.url)
                } else {
                    index[name] = groups.count
                    groups.append(Group(keys: [ValueDifference(path: d.path, values: [], written: d.isTyped ? [] : nil)],
                                        origins: origins, rules: rules, urls: [difference.url]))
                }
            }
        }
        // Keys one cause makes differ on the same URLs are one line.
        var merged: [Group] = []
        for group in groups {
            if let i = merged.firstIndex(where: { $0.origins == group.origins && $0.urls.elementsEqual(group.urls, by: String.sameBytes) }) {
                merged[i].keys += group.keys
            } else {
                merged.append(group)
            }
        }
        // Most URLs first; `sorted` is stable, so first seen first among equals.
        self.groups = merged.sorted { $0.urls.count > $1.urls.count }
    }

    /// One line per group: `rule 3 "/new$": context differs on 2 URLs, for
    /// example /posts/new` where every column's value came from one rule of
    /// one file (`sharedRules`: the columns read one configuration), `no
    /// rule: ...` where no column's did (the apps' defaults differ), else
    /// each column named with its origin: `hotwire-ios rule 3 "/new$",
    /// hotwire-android no rule: ...`.
    func lines(labels: [String], sharedRules: Bool, style: Style) -> [String] {
        groups.map { group in
            let cause: String
            if group.origins.allSatisfy({ $0 == .none }) {
                cause = "no rule"
            } else if sharedRules, let first = group.origins.first, case .rule = first, group.origins.allSatisfy({ $0 == first }),
                      let rule = group.rules.compactMap({ $0 }).first {
                cause = Self.text(rule)
            } else {
                cause = zip(labels, zip(group.origins, group.rules)).map { label, origin in
                    switch origin.0 {
                    case .rule: return "\(label) " + (origin.1.map(Self.text) ?? "rule")
                    case .none: return "\(label) no rule"
                    case .crash: return "\(label) app crashes"
                    }
                }.joined(separator: ", ")
            }
            let keys = group.keys.map(ValueText.key)
            let subject = keys.listed() + (keys.count == 1 ? " differs" : " differ")
            let count = ValueText.count(group.urls.count, "URL")
            return "  \(style.dim(cause)): \(subject) on \(count), for example \(Inputs.shortened(group.urls[0]))"
        }
    }

    /// `rule 3 "/new$"` (glob, host predicate, built-in marked).
    static func text(_ rule: Explanation.MatchedRule) -> String {
        var text = "rule \(rule.index)"
        switch rule.kind {
        case .pattern: text += " \(JSONWriter.quoted(rule.pattern))"
        case .glob: text += " glob \(JSONWriter.quoted(rule.pattern))"
        case .predicate: text += " (host predicate)"
        }
        if rule.isBuiltIn { text += " (built-in)" }
        return text
    }

    /// The groups as JSON: per group `keys` (each a `path`, and `typed:
    /// true` for a typed read), `urls` (how many), `example` (the first, as given), and `rules`: by
    /// column label, the rule that set the value (as `explain` lists it),
    /// null where no rule did, `{"app_crashes": true}` where the app crashes.
    func json(labels: [String]) -> JSONValue {
        .array(groups.map { group in
            var o = JSONObject()
            o["keys"] = .array(group.keys.map { key in
                var k: JSONObject = ["path": key.path.json]
                if key.isTyped { k["typed"] = .bool(true) }
                return .object(k)
            })
            o["urls"] = .integer(group.urls.count)
            o["example"] = .string(group.urls[0])
            var rules = JSONObject()
            for (label, (origin, rule)) in zip(labels, zip(group.origins, group.rules)) {
                switch origin {
                case .rule: rules[label] = rule.map { .object($0.jsonObject) } ?? .null
                case .none: rules[label] = .null
                case .crash: rules[label] = .object(["app_crashes": .bool(true)])
                }
            }
            o["rules"] = .object(rules)
            return .object(o)
        })
    }
}
