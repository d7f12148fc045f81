import PathConfigCore

/// A document as lint sees it: the located syntax tree (with the reader's
/// trailing commas), the rules decoded with their values as written, where
/// each container sits for the apps (`DocumentPlace`), the keys repeated,
/// and the options. Every check reads it; none changes it.
///
/// The tree is JSONSerialization's reading (UTF-16 and UTF-32 converted to
/// UTF-8, so lines and columns are the editor's); a file only Gson reads
/// (comments, unquoted names, ...) is read as the first selected Android
/// profile that loads it reads it.
struct LintDocument {
    /// The bytes as given: each profile decodes these (`DecoderCheck`).
    let original: [UInt8]
    /// The text the tree's offsets point into (UTF-8).
    let source: SourceText
    let tree: JSONReadResult
    /// True when the tree is Gson's reading (the file is not JSON).
    let readByGson: Bool
    /// The document decoded with values as written (no profile's string
    /// conversion; Gson's reading when `readByGson`); its rules are the file's rules.
    let document: ConfigurationDocument
    /// Each rule's object in the tree, parallel to `document.rules`.
    let ruleNodes: [JSONNode]
    let options: LintOptions
    /// `options.selectedProfiles`, worked out once.
    let profiles: [Profile]
    /// The rule whose object holds each value, key and container offset.
    private let ruleByOffset: [Int: Int]
    /// Where each array and object sits, by its offset.
    private(set) var places: [Int: DocumentPlace] = [:]
    /// Keys repeated in one object, in document order.
    private(set) var repeatedKeys: [RepeatedKey] = []

    /// A key an object has already: where, and where it was before and
    /// whether the value it would replace is null, to a reader whose keys
    /// are the same when canonically equivalent (`canonical`) and to one
    /// that compares code points (`exact`: nil where the key is new to it;
    /// `DocumentReading.keysAreCanonical` says which reader an app has).
    struct RepeatedKey {
        let key: String
        let offset: Int
        let objectOffset: Int
        let canonical: Before
        let exact: Before?

        struct Before {
            let firstOffset: Int
            let valueIsNull: Bool
        }
    }

    /// Reads `bytes`; throws the error a load would report when the document
    /// is not a configuration at all.
    init(_ bytes: [UInt8], options: LintOptions) throws(ConfigurationError) {
        let limits = options.limits  // a document over maxDocumentBytes: the decoders' error, below
        original = bytes
        self.options = options
        profiles = options.selectedProfiles
        do throws(ConfigurationError) {
            // Siesta's decoding keeps values as written and adds no not-portable warnings.
            let decoded = try ConfigurationDecoder(profile: .siesta, limits: limits).decode(bytes)
            tree = try decoded.source.bytes.withUnsafeBufferPointer { buffer throws(ConfigurationError) in
                do throws(JSONSyntaxError) { return try JSONReader.read(buffer, maxDepth: limits.maxNestingDepth) } catch {
                    throw error.configurationError(in: buffer)
                }
            }
            document = decoded
            readByGson = false
        } catch {
            // Not JSON, or not a configuration, for JSONSerialization: an
            // Android app may still read it.
            guard case let (app, decoded)? = options.selectedProfiles.lazy.compactMap({ profile -> (GsonApp, ConfigurationDocument)? in
                guard case .gson(let app) = profile.documentReading,
                      let d = try? ConfigurationDecoder(profile: profile, limits: limits).decode(bytes) else { return nil }
                return (app, d)
            }).first else { throw error }
            let read = decoded.source.bytes.withUnsafeBufferPointer {
                try? GsonReader.read($0, maxDepth: limits.maxNestingDepth, nestingLimit: app.nestingLimit)
            }
            guard let read, let root = read.root else { throw error }
            tree = JSONReadResult(root: root, duplicateKeys: [], trailingCommas: read.trailingCommas)
            document = decoded
            readByGson = true
        }
        source = document.source
        if case .array(let nodes)? = tree.root.member("rules")?.value.kind { ruleNodes = nodes } else { ruleNodes = [] }
        var map: [Int: Int] = [:]
        for (index, node) in ruleNodes.enumerated() { Self.record(node, rule: index, in: &map) }
        ruleByOffset = map
        let trailing = Set(tree.trailingCommas.map(\.containerOffset))
        visit(tree.root, place: .document, trailingCommaContainers: trailing)
    }

    /// Records where each container sits and the keys repeated in each object.
    private mutating func visit(_ node: JSONNode, place: DocumentPlace, trailingCommaContainers: Set<Int>) {
        switch node.kind {
        case .array(let items):
            places[node.offset] = place
            for (i, item) in items.enumerated() {
                let child: DocumentPlace
                switch place {
                case .rules: child = .rule
                case .map:
                    // A strict tree leaves out the null a trailing comma makes for Gson.
                    let count = if case .array(let parts) = item.kind { parts.count } else { 0 }
                    child = .mapEntry(elements: count + (!readByGson && trailingCommaContainers.contains(item.offset) ? 1 : 0))
                case .mapEntry: child = i == 1 ? .value : .unread
                case .value: child = .value
                default: child = .unread
                }
                visit(item, place: child, trailingCommaContainers: trailingCommaContainers)
            }
        case .object(let members):
            places[node.offset] = place
            var last: [String: Int] = [:]
            for (i, m) in members.enumerated() {
                if let previous = last[m.key] {
                    func before(_ previous: Int, first: (JSONNode.Member) -> Bool) -> RepeatedKey.Before {
                        let isNull = if case .null = members[previous].value.kind { true } else { false }
                        return RepeatedKey.Before(firstOffset: members.first(where: first)!.keyOffset, valueIsNull: isNull)
                    }
                    repeatedKeys.append(RepeatedKey(key: m.key, offset: m.keyOffset, objectOffset: node.offset,
                                                    canonical: before(previous) { $0.key == m.key },
                                                    exact: members[..<i].lastIndex { String.sameBytes($0.key, m.key) }
                                                        .map { before($0) { String.sameBytes($0.key, m.key) } }))
                }
                last[m.key] = i
                let child: DocumentPlace
                switch (place, m.key) {
                case (.document, "rules"): child = .rules
                case (.document, "settings"), (.rule, "properties"): child = .map
                case (.rule, "patterns"): child = .patterns
                case (.map, _), (.value, _): child = .value
                default: child = .unread
                }
                visit(m.value, place: child, trailingCommaContainers: trailingCommaContainers)
            }
        default:
            break
        }
    }

    /// Where the array or object starting at `offset` sits (`.unread` when unknown).
    func place(ofContainerAt offset: Int) -> DocumentPlace { places[offset] ?? .unread }

    private static func record(_ node: JSONNode, rule: Int, in map: inout [Int: Int]) {
        map[node.offset] = rule
        switch node.kind {
        case .array(let items): for item in items { record(item, rule: rule, in: &map) }
        case .object(let members):
            for m in members {
                map[m.keyOffset] = rule
                record(m.value, rule: rule, in: &map)
            }
        default: break
        }
    }

    var rules: [Rule] { document.rules }

    /// Each pattern of the file's rules, in order: its rule's index, its index in the rule, and its text.
    var patterns: [(rule: Int, index: Int, pattern: String)] {
        rules.flatMap { rule in rule.patterns.enumerated().map { (rule: rule.index, index: $0.offset, pattern: $0.element) } }
    }

    /// The document as `profile`'s app decodes it, where that may differ
    /// from `document`: an Android app keeps the last value of a key a rule
    /// or the top level repeats (`"patterns"` given twice), where `document`
    /// keeps the first, as the iOS apps do. nil under an iOS profile, or
    /// where the app refuses the document.
    func decoded(as profile: Profile) -> ConfigurationDocument? {
        guard case .gson = profile.documentReading else { return nil }
        return try? ConfigurationDecoder(profile: profile, limits: options.limits).decode(original)
    }

    /// The rule whose object holds the value, key or container starting at `offset`.
    func rule(at offset: Int) -> Int? { ruleByOffset[offset] }

    /// The line and column of byte `offset`.
    func location(_ offset: Int) -> SourceLocation { source.location(offset) }

    /// The line and column of scalar `scalar` of the string value starting
    /// (at its opening quote) at `stringOffset`.
    func location(ofScalar scalar: Int, inStringAt stringOffset: Int) -> SourceLocation {
        source.location(JSONStringOffsets.byteOffset(ofScalar: scalar, inStringAt: stringOffset, in: source.bytes))
    }

    /// Where pattern `pattern` of rule `rule` starts, scalar `scalar` in.
    func location(ofPattern pattern: Int, inRule rule: Int, scalar: Int = 0) -> SourceLocation? {
        guard rules.indices.contains(rule), rules[rule].patternOffsets.indices.contains(pattern) else { return nil }
        return location(ofScalar: scalar, inStringAt: rules[rule].patternOffsets[pattern])
    }

    /// A finding about rule `rule` (its description filled in), or about the
    /// document when `rule` is nil.
    func finding(_ kind: LintFinding.Kind, _ message: String, at location: SourceLocation?, rule: Int? = nil,
                 pattern: Int? = nil, profiles: [Profile] = [], severity: LintFinding.Severity = .warning) -> LintFinding {
        let description = rule.flatMap { rules.indices.contains($0) ? rules[$0].description : nil }
        return LintFinding(kind: kind, severity: severity, message: message, location: location, ruleIndex: rule, patternIndex: pattern,
                           ruleDescription: description, profiles: profiles)
    }

    /// `message` without the name of rule `rule` in front (`rule 3: `, or with
    /// its description), which the decoder's messages carry and a finding's
    /// `summary` adds again.
    func withoutRuleName(_ message: String, rule: Int?) -> String {
        guard let rule, rules.indices.contains(rule) else { return message }
        for prefix in [rules[rule].label + ": ", "rule \(rule): "] where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }

    /// `hotwire-ios, hotwire-android and turbo-android`: profiles as the
    /// subject of a sentence (as `DocumentEffect.sentence` names them).
    static func subject(_ profiles: [Profile]) -> String { profiles.map(\.rawValue).listed() }
}
