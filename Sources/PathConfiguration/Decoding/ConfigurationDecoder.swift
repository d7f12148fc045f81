/// A decoded path configuration document, before its patterns are compiled.
public struct ConfigurationDocument: Sendable, Hashable {
    /// The top-level `settings` object (`{}` when absent or not an object).
    public var settings: JSONObject
    /// The file's rules, in order (no built-ins).
    public var rules: [Rule]
    /// What the decoder noticed but accepted.
    public var warnings: [ConfigurationWarning]
    /// The document's bytes, for locating what is found wrong later (an
    /// invalid pattern) when a message needs a line and column.
    public var source: SourceText

    /// Where pattern `pattern` of rule `rule` starts in the document, or nil
    /// when the rule or pattern did not come from it.
    public func location(ofPattern pattern: Int, inRule rule: Int) -> SourceLocation? {
        guard rules.indices.contains(rule), rules[rule].patternOffsets.indices.contains(pattern) else { return nil }
        return source.location(rules[rule].patternOffsets[pattern])
    }
}

/// Turns JSON bytes into a `ConfigurationDocument`, with every error located.
///
/// The schema is the reference apps': `rules` is required and is an array of
/// objects, each with `patterns` (array of strings) and `properties` (object);
/// other keys are kept as the rule's extras; one bad rule rejects the file;
/// `settings` is optional and any object. Under a profile that stores values
/// as strings (turbo-android), scalars become strings and nested arrays or
/// objects in properties or settings are errors, as Gson rejects them there.
public struct ConfigurationDecoder: Sendable {
    /// The profile whose value rules apply.
    public var profile: Profile
    /// Size and depth bounds.
    public var limits: Limits

    /// Creates a decoder.
    public init(profile: Profile = .hotwireIOS, limits: Limits = Limits()) {
        self.profile = profile
        self.limits = limits
    }

    /// Decodes a document from UTF-8 JSON bytes.
    public func decode(_ bytes: some Collection<UInt8>) throws(ConfigurationError) -> ConfigurationDocument {
        let contiguous = Array(bytes)
        return try contiguous.withUnsafeBufferPointer { buf throws(ConfigurationError) in try decode(buf) }
    }

    /// Decodes a document from UTF-8 JSON bytes in memory the caller owns
    /// (the C ABI's entry point: no copy, no generic code).
    public func decode(_ buffer: UnsafeBufferPointer<UInt8>) throws(ConfigurationError) -> ConfigurationDocument {
        try decode(buffer: buffer)
    }

    /// Decodes a document from JSON text.
    public func decode(_ text: String) throws(ConfigurationError) -> ConfigurationDocument {
        try decode(Array(text.utf8))
    }

    private func decode(buffer: UnsafeBufferPointer<UInt8>) throws(ConfigurationError) -> ConfigurationDocument {
        guard buffer.count <= limits.maxDocumentBytes else {
            throw ConfigurationError(code: .limit, message: "the document is \(buffer.count) bytes, more than the limit of \(limits.maxDocumentBytes)")
        }
        let root: JSONNode
        let duplicates: [JSONDuplicateKey]
        do {
            (root, duplicates) = try JSONReader.parse(buffer, maxDepth: limits.maxNestingDepth)
        } catch {
            throw error.configurationError(in: buffer)
        }
        var walker = Walker(source: SourceText(buffer), profile: profile, limits: limits)
        for d in duplicates {
            let first = walker.location(d.firstOffset)
            walker.warnings.append(ConfigurationWarning(
                kind: .duplicateKey,
                message: "duplicate key \(JSONWriter.quoted(d.key)); the first value (line \(first.line), column \(first.column)) is kept",
                location: walker.location(d.offset)))
        }
        return try walker.document(root)
    }
}

/// Walks the located syntax tree and builds the model. It records byte
/// offsets; a line and column is worked out only for a message.
private struct Walker {
    let source: SourceText
    let profile: Profile
    let limits: Limits
    var warnings: [ConfigurationWarning] = []

    init(source: SourceText, profile: Profile, limits: Limits) {
        self.source = source
        self.profile = profile
        self.limits = limits
    }

    func location(_ offset: Int) -> SourceLocation { source.location(offset) }

    func schemaError(_ message: String, at offset: Int, rule: Int? = nil, pattern: Int? = nil) -> ConfigurationError {
        ConfigurationError(code: .schema, message: message, location: location(offset), ruleIndex: rule, patternIndex: pattern)
    }

    mutating func document(_ root: JSONNode) throws(ConfigurationError) -> ConfigurationDocument {
        guard case .object = root.kind else {
            throw schemaError("the top level must be an object with a \"rules\" array, found \(root.typeName)", at: root.offset)
        }
        var settings = JSONObject()
        if let member = root.member("settings") {
            if case .object = member.value.kind {
                settings = try stored(member.value, what: "setting", rule: nil).objectValue ?? [:]
            } else {
                warnings.append(ConfigurationWarning(
                    kind: .ignoredSettings,
                    message: "\"settings\" must be an object, found \(member.value.typeName); it is treated as {}",
                    location: location(member.value.offset)))
            }
        }
        guard let rulesMember = root.member("rules") else {
            throw schemaError("missing required key \"rules\" (an array of rules)", at: root.offset)
        }
        guard case .array(let ruleNodes) = rulesMember.value.kind else {
            throw schemaError("\"rules\" must be an array, found \(rulesMember.value.typeName)", at: rulesMember.value.offset)
        }
        guard ruleNodes.count <= limits.maxRules else {
            throw ConfigurationError(code: .limit, message: "\(ruleNodes.count) rules, more than the limit of \(limits.maxRules)",
                                     location: location(rulesMember.value.offset))
        }
        var rules: [Rule] = []
        rules.reserveCapacity(ruleNodes.count)
        for (index, node) in ruleNodes.enumerated() {
            rules.append(try rule(node, index: index))
        }
        return ConfigurationDocument(settings: settings, rules: rules, warnings: warnings, source: source)
    }

    func rule(_ node: JSONNode, index: Int) throws(ConfigurationError) -> Rule {
        guard case .object(let members) = node.kind else {
            throw schemaError("rule \(index) must be an object, found \(node.typeName)", at: node.offset, rule: index)
        }
        guard let patternsMember = node.member("patterns") else {
            throw schemaError("rule \(index) is missing required key \"patterns\"", at: node.offset, rule: index)
        }
        guard case .array(let patternNodes) = patternsMember.value.kind else {
            throw schemaError("rule \(index): \"patterns\" must be an array of strings, found \(patternsMember.value.typeName)",
                              at: patternsMember.value.offset, rule: index)
        }
        guard patternNodes.count <= limits.maxPatternsPerRule else {
            throw ConfigurationError(code: .limit, message: "rule \(index) has \(patternNodes.count) patterns, more than the limit of \(limits.maxPatternsPerRule)",
                                     location: location(patternsMember.value.offset), ruleIndex: index)
        }
        var patterns: [String] = []
        var offsets: [Int] = []
        offsets.reserveCapacity(patternNodes.count)
        for (p, patternNode) in patternNodes.enumerated() {
            guard case .string(let pattern) = patternNode.kind else {
                throw schemaError("rule \(index), pattern \(p) must be a string, found \(patternNode.typeName)",
                                  at: patternNode.offset, rule: index, pattern: p)
            }
            guard pattern.utf8.count <= limits.maxPatternBytes else {
                throw ConfigurationError(code: .limit, message: "rule \(index), pattern \(p) is \(pattern.utf8.count) bytes, more than the limit of \(limits.maxPatternBytes)",
                                         location: location(patternNode.offset), ruleIndex: index, patternIndex: p)
            }
            patterns.append(pattern)
            offsets.append(patternNode.offset)
        }
        guard let propertiesMember = node.member("properties") else {
            throw schemaError("rule \(index) is missing required key \"properties\"", at: node.offset, rule: index)
        }
        guard case .object = propertiesMember.value.kind else {
            throw schemaError("rule \(index): \"properties\" must be an object, found \(propertiesMember.value.typeName)",
                              at: propertiesMember.value.offset, rule: index)
        }
        let properties = try stored(propertiesMember.value, what: "property", rule: index).objectValue ?? [:]
        var extras = JSONObject()
        for m in members where m.key != "patterns" && m.key != "properties" && !extras.contains(key: m.key) {
            extras[m.key] = m.value.value
        }
        return Rule(index: index, patterns: patterns, properties: properties, extras: extras, patternOffsets: offsets)
    }

    /// The object's value as the profile stores it: unchanged, or (turbo-android)
    /// every scalar member as a string and nested values rejected.
    func stored(_ object: JSONNode, what: String, rule: Int?) throws(ConfigurationError) -> JSONValue {
        guard profile.storesValuesAsStrings, case .object(let members) = object.kind else { return object.value }
        var out = JSONObject()
        for m in members where !out.contains(key: m.key) {
            switch m.value.kind {
            case .null: out[m.key] = .null
            case .bool(let b): out[m.key] = .string(b ? "true" : "false")
            case .number(let n): out[m.key] = .string(n.text)
            case .string(let s): out[m.key] = .string(s)
            case .array, .object:
                let prefix = rule.map { "rule \($0): " } ?? ""
                throw schemaError("\(prefix)\(what) \(JSONWriter.quoted(m.key)) is \(m.value.typeName == "array" ? "an array" : "an object"); the \(profile.rawValue) profile stores every value as a string",
                                  at: m.value.offset, rule: rule)
            }
        }
        return .object(out)
    }
}
