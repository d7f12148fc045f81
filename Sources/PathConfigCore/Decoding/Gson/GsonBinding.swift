/// Fills an Android app's configuration classes from the tree `GsonReader`
/// read, as Gson's adapters do, and gives back the configuration in the
/// shape the decoder reads: an object with `rules` (each rule's `patterns`
/// strings and `properties` first, then its other keys as written) and
/// `settings`.
///
/// The adapters reproduced (com.google.gson.internal.bind): the app's
/// classes through `ReflectiveTypeAdapterFactory` (a key read again replaces
/// the field, the last value wins; `null` sets it to null; unknown keys are
/// skipped); lists through `CollectionTypeAdapterFactory`; `properties` and
/// `settings` through `MapTypeAdapterFactory` (an object, or an array of
/// `[key, value]` arrays; "duplicate key" when `put` replaces a value that
/// is not null); a pattern and turbo-android's values through
/// `TypeAdapters.STRING` (a number as its literal, `true`/`false` as those
/// words, an array or object an error); hotwire-android's values through
/// `ObjectTypeAdapter` (anything; a nested object's repeated key keeps its
/// last value). A type Gson does not expect is an exception: the app
/// ignores the file, and so this throws at once. What only crashes later
/// (a null where the app's Kotlin code assumes none), and what the app holds
/// but this library cannot (a map's null key), is noted as it is met and
/// thrown once the whole document is read, if a later value has not
/// replaced it; one that crashes at start-up first, then in document order.
struct GsonBinding {
    let app: GsonApp
    let source: SourceText
    /// The nulls commas made (`GsonReader.Result.commaNulls`).
    let commaNulls: Set<Int>
    /// Repeated keys whose last value counts, and the like.
    private(set) var warnings: [ConfigurationWarning] = []
    /// Set when binding what Gson had read before a syntax error
    /// (`GsonRefusal.partial`): that error, thrown where binding reaches the
    /// cut (the end, or a map entry in `incomplete`) unless a type error
    /// comes first, as Gson, which binds while it reads, throws it first.
    var truncatedBy: ConfigurationError?
    /// The values the syntax error cut short, by offset.
    var incomplete: Set<Int> = []

    /// A crash waiting for the end of the document, or what this library
    /// cannot hold.
    private struct Crash {
        /// Which comes first in the app: 0 at start-up, 1 on any lookup, 2
        /// later; 3, no crash: the app holds what this library cannot.
        let rank: Int
        let error: ConfigurationError
    }

    // MARK: Errors

    private func refusal(_ what: String, gson: String?, at offset: Int, rule: Int? = nil, pattern: Int? = nil,
                         joiner: String = ": ") -> ConfigurationError {
        ConfigurationError(code: .schema, message: "\(what)\(joiner)\(app.name) \(app.refusal(gson: gson))",
                           location: source.location(offset), ruleIndex: rule, patternIndex: pattern)
    }

    /// A value of the wrong type: Gson's "Expected X but was Y".
    private func wrongType(_ what: String, expected: String, found node: JSONNode, rule: Int? = nil, pattern: Int? = nil) -> ConfigurationError {
        refusal("\(what) is \(Self.article(node)) \(node.typeName)", gson: "Expected \(expected) but was \(Self.token(node))",
                at: node.offset, rule: rule, pattern: pattern)
    }

    private func crash(_ what: String, _ effect: DocumentEffect, at offset: Int, rule: Int? = nil, pattern: Int? = nil) -> Crash {
        var rank = 2
        if case .crashes(_, let when) = effect { rank = when == "at start-up" ? 0 : when == "on every lookup" ? 1 : 2 }
        return Crash(rank: rank, error: ConfigurationError(code: .schema, message: "\(what): \(app.name) \(effect.phrase(plural: false))",
                                                           location: source.location(offset), ruleIndex: rule, patternIndex: pattern))
    }

    /// How a null element is named: by the trailing comma or empty element
    /// that made it, or as written.
    private func nullName(_ node: JSONNode, written: String) -> String {
        guard commaNulls.contains(node.offset) else { return written }
        let beforeBracket = source.withBytes { b in
            let atComma = b.indices.contains(node.offset) && (b[node.offset] == UInt8(ascii: ",") || b[node.offset] == UInt8(ascii: ";"))
            var next = node.offset + 1
            while next < b.count, [0x20, 0x09, 0x0A, 0x0D].contains(b[next]) { next += 1 }
            return atComma && next < b.count && b[next] == UInt8(ascii: "]")
        }
        if beforeBracket { return "trailing comma before \"]\"" }
        return "empty element (\(written))"
    }

    /// Gson's JsonToken for a node.
    static func token(_ node: JSONNode) -> String {
        switch node.kind {
        case .null: return "NULL"
        case .bool: return "BOOLEAN"
        case .number: return "NUMBER"
        case .string: return "STRING"
        case .array: return "BEGIN_ARRAY"
        case .object: return "BEGIN_OBJECT"
        }
    }

    private static func article(_ node: JSONNode) -> String {
        if case .null = node.kind { return "" }
        return node.typeName == "array" || node.typeName == "object" ? "an" : "a"
    }

    private mutating func warnLastKept(_ key: String, at offset: Int, previous: Int, why: String = "", rule: Int? = nil) {
        let first = source.location(previous)
        warnings.append(ConfigurationWarning(
            kind: .duplicateKey,
            message: "duplicate key \(JSONWriter.quoted(key)); \(app.name) keeps this last value\(why), not the one at line \(first.line), column \(first.column)",
            location: source.location(offset), ruleIndex: rule))
    }

    // MARK: The document

    /// The configuration as the app's classes hold it; throws what the app
    /// refuses or crashes on. `root` nil: an empty document.
    mutating func bind(_ root: JSONNode?) throws(ConfigurationError) -> JSONNode {
        guard let root else {
            throw ConfigurationError(code: .invalidJSON, message: "an empty document: \(app.name)'s Gson reads it as null and \(app.dropsFile)",
                                     location: source.location(source.count))
        }
        guard case .object(let members) = root.kind else {
            if case .null = root.kind {
                throw ConfigurationError(code: .schema, message: "the document is null: \(app.name)'s Gson reads it as no configuration and \(app.dropsFile)",
                                         location: source.location(root.offset))
            }
            throw wrongType("the top level", expected: "BEGIN_OBJECT", found: root)
        }
        var crashes: [Crash] = []
        var rules: (node: JSONNode, crashes: [Crash], keyOffset: Int)?
        var settings: (node: JSONNode?, crashes: [Crash], keyOffset: Int)?
        for m in members {
            switch m.key {
            case "rules":
                if let previous = rules { warnLastKept("rules", at: m.keyOffset, previous: previous.keyOffset) }
                if case .null = m.value.kind {
                    rules = (JSONNode(kind: .array([]), offset: m.value.offset),
                             [crash("\"rules\" is null", .crashes(what: "rules list", when: app.nullRulesCrash), at: m.value.offset)], m.keyOffset)
                } else {
                    var found: [Crash] = []
                    let node = try self.rules(m.value, crashes: &found)
                    rules = (node, found, m.keyOffset)
                }
            case "settings":
                if let previous = settings { warnLastKept("settings", at: m.keyOffset, previous: previous.keyOffset) }
                if case .null = m.value.kind {
                    settings = (nil, nullSettingsCrashes(at: m.value.offset, "\"settings\" is null"), m.keyOffset)
                } else {
                    var found: [Crash] = []
                    settings = (try map(m.value, what: "\"settings\"", member: "setting", rule: nil, crashes: &found), found, m.keyOffset)
                }
            default:
                continue  // skipValue: read, and its syntax checked, but not used
            }
        }
        if rules == nil, !app.defaultsMissingFields {
            crashes.append(crash("no \"rules\"", .crashes(what: "rules list", when: app.nullRulesCrash), at: root.offset))
        }
        if settings == nil, !app.defaultsMissingFields {
            settings = (nil, nullSettingsCrashes(at: root.offset, "no \"settings\""), root.offset)
        }
        if let truncatedBy { throw truncatedBy }
        crashes += rules?.crashes ?? []
        for c in settings?.crashes ?? [] {
            // turbo-android's crash is in its navigation session, not in a
            // lookup: the file loads, with a warning (see GsonApp).
            if app.loadsDespiteNullSettings && c.rank < 3 {
                warnings.append(ConfigurationWarning(kind: .notPortable, message: c.error.message + "; write \"settings\": {}", location: c.error.location))
            } else {
                crashes.append(c)
            }
        }
        // What crashes first: start-up, then any lookup, then the rest, each in document order.
        if let first = crashes.min(by: { ($0.rank, $0.error.location?.offset ?? 0) < ($1.rank, $1.error.location?.offset ?? 0) }) {
            throw first.error
        }
        var out: [JSONNode.Member] = []
        if let node = settings?.node { out.append(JSONNode.Member(key: "settings", keyOffset: settings!.keyOffset, value: node)) }
        out.append(JSONNode.Member(key: "rules", keyOffset: rules?.keyOffset ?? root.offset,
                                   value: rules?.node ?? JSONNode(kind: .array([]), offset: root.offset)))
        return JSONNode(kind: .object(out), offset: root.offset)
    }

    /// Throws `truncatedBy` when `node` is one the syntax error cut short:
    /// Gson never finished reading it.
    private func stopIfCut(_ node: JSONNode) throws(ConfigurationError) {
        if let truncatedBy, incomplete.contains(node.offset) { throw truncatedBy }
    }

    /// The first lone surrogate (`GsonReader.Result.loneSurrogates`) in a
    /// string the bound configuration `root` holds: a setting's or
    /// property's key or value, or a pattern. nil when the app skipped or
    /// replaced every one.
    static func firstHeld(_ loneSurrogates: [Int: Int], in root: JSONNode) -> Int? {
        guard !loneSurrogates.isEmpty else { return nil }
        var found: [Int] = []
        func visit(_ node: JSONNode) {
            switch node.kind {
            case .string: found += loneSurrogates[node.offset].map { [$0] } ?? []
            case .array(let items): items.forEach(visit)
            case .object(let members):
                for m in members {
                    found += loneSurrogates[m.keyOffset].map { [$0] } ?? []
                    visit(m.value)
                }
            default: break
            }
        }
        root.member("settings").map { visit($0.value) }
        if case .array(let rules)? = root.member("rules")?.value.kind {
            for rule in rules {
                rule.member("patterns").map { visit($0.value) }
                rule.member("properties").map { visit($0.value) }
            }
        }
        return found.min()
    }

    /// The crash a null `settings` causes, none where the app never reads them.
    private func nullSettingsCrashes(at offset: Int, _ what: String) -> [Crash] {
        guard let when = app.nullSettingsCrash else { return [] }
        return [crash(what, .crashes(what: "settings map", when: when), at: offset)]
    }

    /// `rules`: a list of rules (a null rule crashes on every lookup).
    private mutating func rules(_ node: JSONNode, crashes: inout [Crash]) throws(ConfigurationError) -> JSONNode {
        guard case .array(let items) = node.kind else { throw wrongType("\"rules\"", expected: "BEGIN_ARRAY", found: node) }
        let out = try items.enumerated().map { index, item throws(ConfigurationError) -> JSONNode in
            switch item.kind {
            case .null:
                crashes.append(crash(nullName(item, written: "rule \(index) is null"), app.nullElementEffect(in: .rules),
                                     at: item.offset, rule: index))
                return item
            case .object:
                return try rule(item, index: index, crashes: &crashes)
            default:
                throw wrongType("rule \(index)", expected: "BEGIN_OBJECT", found: item, rule: index)
            }
        }
        return JSONNode(kind: .array(out), offset: node.offset)
    }

    /// One rule: `patterns` and `properties` (the last of each), the other
    /// keys kept as written after them.
    private mutating func rule(_ node: JSONNode, index: Int, crashes: inout [Crash]) throws(ConfigurationError) -> JSONNode {
        guard case .object(let members) = node.kind else { return node }
        var patterns: (member: JSONNode.Member, crashes: [Crash])?
        var properties: (member: JSONNode.Member, crashes: [Crash])?
        var others: [JSONNode.Member] = []
        for m in members {
            switch m.key {
            case "patterns":
                if let previous = patterns { warnLastKept("patterns", at: m.keyOffset, previous: previous.member.keyOffset, rule: index) }
                var found: [Crash] = []
                let value = try self.patterns(m.value, rule: index, crashes: &found)
                patterns = (JSONNode.Member(key: m.key, keyOffset: m.keyOffset, value: value), found)
            case "properties":
                if let previous = properties { warnLastKept("properties", at: m.keyOffset, previous: previous.member.keyOffset, rule: index) }
                if case .null = m.value.kind {
                    properties = (JSONNode.Member(key: m.key, keyOffset: m.keyOffset, value: JSONNode(kind: .object([]), offset: m.value.offset)),
                                  [crash("rule \(index): \"properties\" is null", .crashes(what: "properties map", when: "on every lookup the rule matches"),
                                         at: m.value.offset, rule: index)])
                } else {
                    var found: [Crash] = []
                    let value = try map(m.value, what: "rule \(index): \"properties\"", member: "rule \(index): property", rule: index, crashes: &found)
                    properties = (JSONNode.Member(key: m.key, keyOffset: m.keyOffset, value: value), found)
                }
            default:
                others.append(m)
            }
        }
        crashes += (patterns?.crashes ?? []) + (properties?.crashes ?? [])
        if patterns == nil {
            crashes.append(crash("rule \(index) has no \"patterns\"", .crashes(what: "patterns list", when: "on every lookup"), at: node.offset, rule: index))
        }
        if properties == nil {
            crashes.append(crash("rule \(index) has no \"properties\"", .crashes(what: "properties map", when: "on every lookup the rule matches"),
                                 at: node.offset, rule: index))
        }
        var out: [JSONNode.Member] = []
        if let patterns { out.append(patterns.member) }
        if let properties { out.append(properties.member) }
        return JSONNode(kind: .object(out + others), offset: node.offset)
    }

    /// `patterns`: a list of strings (TypeAdapters.STRING each).
    private mutating func patterns(_ node: JSONNode, rule index: Int, crashes: inout [Crash]) throws(ConfigurationError) -> JSONNode {
        if case .null = node.kind {
            crashes.append(crash("rule \(index): \"patterns\" is null", .crashes(what: "patterns list", when: "on every lookup"), at: node.offset, rule: index))
            return JSONNode(kind: .array([]), offset: node.offset)
        }
        guard case .array(let items) = node.kind else {
            throw wrongType("rule \(index): \"patterns\"", expected: "BEGIN_ARRAY", found: node, rule: index)
        }
        var out: [JSONNode] = []
        out.reserveCapacity(items.count)
        for (p, item) in items.enumerated() {
            if case .null = item.kind {
                crashes.append(crash(nullName(item, written: "rule \(index), pattern \(p) is null"),
                                     app.nullElementEffect(in: .patterns), at: item.offset, rule: index, pattern: p))
                continue
            }
            guard let text = GsonLeaf.string(of: item.value) else {
                throw wrongType("rule \(index), pattern \(p)", expected: "a string", found: item, rule: index, pattern: p)
            }
            out.append(JSONNode(kind: .string(text), offset: item.offset))
        }
        return JSONNode(kind: .array(out), offset: node.offset)
    }

    /// `properties` or `settings`: a map from an object or from an array of
    /// `[key, value]` entries, values read by the app's value adapter.
    /// `what` names the map in messages (`"settings"`, `rule 2: "properties"`),
    /// `member` one of its values (`setting`, `rule 2: property`). A null
    /// key, which a Java `HashMap` holds, is left out and noted in `crashes`.
    private mutating func map(_ node: JSONNode, what: @autoclosure () -> String, member: @autoclosure () -> String,
                              rule: Int?, crashes: inout [Crash]) throws(ConfigurationError) -> JSONNode {
        var out: [JSONNode.Member] = []
        var index: [String: Int]?
        var nullKeyValue: JSONNode?
        func put(_ key: String, keyOffset: Int, value: JSONNode, binding: inout GsonBinding) throws(ConfigurationError) {
            // Java's maps compare keys by UTF-16 unit.
            guard let i = JSONReader.position(of: key, in: out, index: &index, exact: true) else {
                out.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
                return
            }
            let previous = out[i]
            let effect = binding.app.repeatedKeyEffect(key, place: .map, previousValueIsNull: { if case .null = previous.value.kind { return true }; return false }())
            guard effect == .keepsLast else {
                throw binding.refusal("\(what()): key \(JSONWriter.quoted(key)) repeated", gson: "duplicate key: \(key)", at: keyOffset, rule: rule)
            }
            binding.warnLastKept(key, at: keyOffset, previous: previous.keyOffset, why: " (the value it replaces is null)", rule: rule)
            out[i] = JSONNode.Member(key: key, keyOffset: previous.keyOffset, value: value)
        }
        switch node.kind {
        case .object(let members):
            for m in members {
                let bound = try value(m.value, what: "\(member()) \(JSONWriter.quoted(m.key))", rule: rule)
                try stopIfCut(m.value)
                try put(m.key, keyOffset: m.keyOffset, value: bound, binding: &self)
            }
        case .array(let entries):
            for (e, entry) in entries.enumerated() {
                guard case .array(let parts) = entry.kind else {
                    throw wrongType("\(what()), entry \(e)", expected: "BEGIN_ARRAY", found: entry, rule: rule)
                }
                if parts.count < 2 { try stopIfCut(entry) }
                guard let keyNode = parts.first else {
                    throw refusal("\(what()), entry \(e) is empty", gson: "Expected a string but was END_ARRAY", at: entry.offset, rule: rule)
                }
                let isNull: Bool
                if case .null = keyNode.kind { isNull = true } else { isNull = false }
                guard let key = isNull ? "null" : GsonLeaf.string(of: keyNode.value) else {
                    throw wrongType("\(what()), entry \(e)'s key", expected: "a string", found: keyNode, rule: rule)
                }
                guard parts.count >= 2 else {
                    throw refusal("\(what()), entry \(e) has no value", gson: app.valuesAsStrings ? "Expected a string but was END_ARRAY" : "Unexpected token: END_ARRAY",
                                  at: entry.offset, rule: rule)
                }
                let bound = try value(parts[1], what: "\(member()) \(isNull ? "null" : JSONWriter.quoted(key))", rule: rule)
                // Gson's order: the key, the value, `put`, then END_ARRAY.
                try stopIfCut(parts[1])
                if !isNull {
                    try put(key, keyOffset: keyNode.offset, value: bound, binding: &self)
                } else if let previous = nullKeyValue, previous.typeName != "null" {
                    throw refusal("\(what()): key null repeated", gson: "duplicate key: null", at: keyNode.offset, rule: rule)
                } else {
                    if nullKeyValue == nil {
                        crashes.append(Crash(rank: 3, error: ConfigurationError(
                            code: .schema, message: "\(what()), entry \(e) has a null key, which \(app.name) reads but this library cannot hold",
                            location: source.location(keyNode.offset), ruleIndex: rule)))
                    }
                    nullKeyValue = bound
                }
                guard parts.count == 2 else {
                    throw refusal("\(what()), entry \(e) has more than a key and a value", gson: "Expected END_ARRAY but was \(Self.token(parts[2]))",
                                  at: parts[2].offset, rule: rule)
                }
            }
        default:
            throw wrongType(what(), expected: "BEGIN_OBJECT", found: node, rule: rule)
        }
        return JSONNode(kind: .object(out), offset: node.offset)
    }

    /// A value of `properties` or `settings`: a string (turbo-android), or
    /// anything, a nested object's repeated key keeping its last value
    /// (hotwire-android).
    private mutating func value(_ node: JSONNode, what: @autoclosure () -> String, rule: Int?) throws(ConfigurationError) -> JSONNode {
        if app.valuesAsStrings {
            if case .null = node.kind { return node }
            guard let text = GsonLeaf.string(of: node.value) else {
                throw refusal("\(what()) is \(Self.article(node)) \(node.typeName); the \(app.name) profile stores every value as a string, so",
                              gson: "Expected a string but was \(Self.token(node))", at: node.offset, rule: rule, joiner: " ")
            }
            return JSONNode(kind: .string(text), offset: node.offset)
        }
        switch node.kind {
        case .array(let items):
            let out = try items.map { item throws(ConfigurationError) in try value(item, what: what(), rule: rule) }
            return JSONNode(kind: .array(out), offset: node.offset)
        case .object(let members):
            var out: [JSONNode.Member] = []
            var index: [String: Int]?
            for m in members {
                let bound = try value(m.value, what: what(), rule: rule)
                if let i = JSONReader.position(of: m.key, in: out, index: &index, exact: true) {
                    warnLastKept(m.key, at: m.keyOffset, previous: out[i].keyOffset, rule: rule)
                    out[i] = JSONNode.Member(key: m.key, keyOffset: out[i].keyOffset, value: bound)
                } else {
                    out.append(JSONNode.Member(key: m.key, keyOffset: m.keyOffset, value: bound))
                }
            }
            return JSONNode(kind: .object(out), offset: node.offset)
        default:
            return node
        }
    }
}
