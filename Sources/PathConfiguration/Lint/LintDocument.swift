/// A document as lint sees it: the located syntax tree (with the reader's
/// trailing commas and repeated keys), the rules decoded with their values
/// as written, and the options. Every check reads it; none changes it.
struct LintDocument {
    let source: SourceText
    let tree: JSONReadResult
    /// The document decoded with values as written (no profile's string
    /// conversion); its rules are the file's rules.
    let document: ConfigurationDocument
    /// Each rule's object in the tree, parallel to `document.rules`.
    let ruleNodes: [JSONNode]
    let options: LintOptions
    /// `options.selectedProfiles`, worked out once.
    let profiles: [Profile]
    /// The rule whose object holds each value, key and container offset.
    private let ruleByOffset: [Int: Int]

    /// Reads `bytes`; throws the error a load would report when the document
    /// is not a configuration at all.
    init(_ bytes: [UInt8], options: LintOptions) throws(ConfigurationError) {
        let limits = options.limits
        guard bytes.count <= limits.maxDocumentBytes else {
            throw ConfigurationError(code: .limit, message: "the document is \(bytes.count) bytes, more than the limit of \(limits.maxDocumentBytes)")
        }
        let read = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONReadResult in try JSONReader.read(buffer, maxDepth: limits.maxNestingDepth) }
                .mapError { $0.configurationError(in: buffer) }
        }
        tree = try read.get()
        // Siesta's decoding keeps values as written and adds no not-portable warnings.
        document = try ConfigurationDecoder(profile: .siesta, limits: limits).decode(bytes)
        source = document.source
        if case .array(let nodes)? = tree.root.member("rules")?.value.kind { ruleNodes = nodes } else { ruleNodes = [] }
        self.options = options
        profiles = options.selectedProfiles
        var map: [Int: Int] = [:]
        for (index, node) in ruleNodes.enumerated() { Self.record(node, rule: index, in: &map) }
        ruleByOffset = map
    }

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

    /// The file's rules.
    var rules: [Rule] { document.rules }

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
                 pattern: Int? = nil, profiles: [Profile] = []) -> LintFinding {
        let description = rule.flatMap { rules.indices.contains($0) ? rules[$0].description : nil }
        return LintFinding(kind: kind, message: message, location: location, ruleIndex: rule, patternIndex: pattern,
                           ruleDescription: description, profiles: profiles)
    }

    /// `message` without the name of rule `rule` in front (`rule 3: `, or with
    /// its description), which
    /// the decoder's messages carry and a finding's `summary`
    /// adds again.
    func withoutRuleName(_ message: String, rule: Int?) -> String {
        guard let rule, rules.indices.contains(rule) else { return message }
        for prefix in [rules[rule].label + ": ", "rule \(rule): "] where message.hasPrefix(prefix) {
            return String(message.dropFirst(prefix.count))
        }
        return message
    }

    /// `hotwire-ios, turbo-ios`: profiles as messages list them.
    static func names(_ profiles: [Profile]) -> String { profiles.map(\.rawValue).joined(separator: ", ") }
}
