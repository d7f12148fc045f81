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
    public func location(ofPattern pattern: Int, inRule rule: Int) -> SourceLocation? { location(pattern, rule, \.patternOffsets) }

    /// Where glob `glob` of rule `rule` starts in the document, or nil.
    public func location(ofGlob glob: Int, inRule rule: Int) -> SourceLocation? { location(glob, rule, \.globOffsets) }

    private func location(_ i: Int, _ rule: Int, _ offsets: KeyPath<Rule, [Int]>) -> SourceLocation? {
        guard rules.indices.contains(rule), rules[rule][keyPath: offsets].indices.contains(i) else { return nil }
        return source.location(rules[rule][keyPath: offsets][i])
    }
}

/// Turns JSON bytes into a `ConfigurationDocument`, with every error located.
///
/// The profile's `documentReading` decides how the bytes are read. Under the
/// iOS profiles and siesta, as `JSONSerialization` reads them: UTF-8, UTF-16
/// or UTF-32 (converted to UTF-8 once, here), strict JSON but for trailing
/// commas. The schema is then the iOS apps': `rules` is required and is an
/// array of objects, each with `patterns` (array of strings) and
/// `properties` (object); other keys are kept as the rule's extras; one bad
/// rule rejects the file; `settings` is optional and any object. Under the
/// Android profiles, as Gson reads them into the app's classes
/// (`GsonReader`, `GsonBinding`): leniently, and refusing what the app
/// refuses or crashes on; turbo-android's values become strings.
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

    /// Decodes a document from UTF-8 JSON bytes (the document's `source`
    /// holds them: no copy of an array).
    public func decode(_ bytes: some Collection<UInt8>) throws(ConfigurationError) -> ConfigurationDocument {
        try decode(Array(bytes), transport: .file)
    }

    /// Decodes a document whose `source` borrows `buffer` (no copy): for a
    /// caller that is done with the document while it holds the bytes
    /// (`PathConfiguration(json:options:)` of a buffer, the C ABI's load).
    package func decode(borrowing buffer: UnsafeBufferPointer<UInt8>) throws(ConfigurationError) -> ConfigurationDocument {
        try decode(buffer: buffer, keeping: .borrow)
    }

    /// Decodes a document from JSON text.
    public func decode(_ text: String) throws(ConfigurationError) -> ConfigurationDocument {
        try decode(Array(text.utf8))
    }

    /// Decodes one rule given on its own as a JSON object, as hosts add rules
    /// from code: the keys of a file's rule (`patterns`, `globs`, `methods`,
    /// `properties`, `description`, ...), every one optional. Errors give
    /// the line and column in `text`, and name the rule by `index`.
    public func decodeRule(_ text: String, index: Int = 0) throws(ConfigurationError) -> Rule {
        let bytes = Array(text.utf8)
        var walker = Walker(source: SourceText(bytes), profile: profile, limits: limits)
        let parsed = try JSONNode.parse(bytes, maxDepth: limits.maxNestingDepth)
        walker.canonicalRepeats = profile.documentReading.keysAreCanonical && !parsed.duplicateKeys.isEmpty
        return try walker.rule(parsed.root, index: index, fromCode: true)
    }

    /// Decodes a document that came from `transport` (the Android apps read
    /// a download's byte-order mark, not a bundled file's).
    package func decode(_ bytes: [UInt8], transport: DocumentTransport) throws(ConfigurationError) -> ConfigurationDocument {
        try bytes.withUnsafeBufferPointer { buffer throws(ConfigurationError) in
            try decode(buffer: buffer, transport: transport, keeping: .array(bytes))
        }
    }

    /// How a decoded document holds the bytes it was read from.
    private enum Keeping {
        /// A copy of them.
        case copy
        /// This array, whose bytes they are.
        case array([UInt8])
        /// Where they are (`SourceText(borrowing:)`).
        case borrow

        /// The text of `buffer`, the bytes read.
        func source(_ buffer: UnsafeBufferPointer<UInt8>) -> SourceText {
            switch self {
            case .copy: return SourceText(buffer)
            case .array(let bytes): return SourceText(bytes)
            case .borrow: return SourceText(borrowing: buffer)
            }
        }

        /// How to keep a part of the bytes: an array holds more than it.
        var forPart: Keeping { if case .array = self { .copy } else { self } }
    }

    private func decode(buffer: UnsafeBufferPointer<UInt8>, transport: DocumentTransport = .file,
                        keeping: Keeping) throws(ConfigurationError) -> ConfigurationDocument {
        guard buffer.count <= limits.maxDocumentBytes else {
            throw ConfigurationError(code: .limit, message: "the document is \(buffer.count) bytes, more than the limit of \(limits.maxDocumentBytes)")
        }
        switch profile.documentReading {
        case .jsonSerialization:
            let (encoding, bomLength) = DocumentEncoding.jsonSerialization(buffer)
            guard encoding != .utf8 else { return try decodeJSON(buffer, keeping: keeping) }
            let utf8 = try DocumentText.utf8(from: buffer, encoding: encoding, bomLength: bomLength, reader: "JSONSerialization")
            return try utf8.withUnsafeBufferPointer { converted throws(ConfigurationError) in try decodeJSON(converted, keeping: .array(utf8)) }
        case .gson(let app):
            return try decodeGson(buffer, app: app, transport: transport, keeping: keeping)
        }
    }

    /// Reads bytes as Gson does in `app`: the text as the app makes it
    /// (OkHttp honours a download's byte-order mark; a bundled file is
    /// UTF-8), Gson's lenient reader, the app's classes.
    private func decodeGson(_ buffer: UnsafeBufferPointer<UInt8>, app: GsonApp, transport: DocumentTransport,
                            keeping: Keeping) throws(ConfigurationError) -> ConfigurationDocument {
        var hint = ""
        if transport == .download, let (encoding, bomLength) = DocumentEncoding.byteOrderMark(buffer) {
            if encoding == .utf8 {
                return try readGson(UnsafeBufferPointer(rebasing: buffer[bomLength...]), app: app, hint: hint, keeping: keeping.forPart)
            }
            let converted = try DocumentText.utf8(from: buffer, encoding: encoding, bomLength: bomLength, reader: "\(app.name) (OkHttp)")
            return try converted.withUnsafeBufferPointer { utf8 throws(ConfigurationError) in
                try readGson(utf8, app: app, hint: hint, keeping: .array(converted))
            }
        }
        let encoding = DocumentEncoding.jsonSerialization(buffer).encoding
        if encoding != .utf8 {
            hint = " (the document is \(encoding.rawValue); \(app.name) reads \(transport == .file ? "a bundled file" : "a download without a byte-order mark") as UTF-8)"
        }
        return try readGson(buffer, app: app, hint: hint, keeping: keeping)
    }

    private func readGson(_ utf8: UnsafeBufferPointer<UInt8>, app: GsonApp, hint: String,
                          keeping: Keeping) throws(ConfigurationError) -> ConfigurationDocument {
        let source = keeping.source(utf8)
        func hinted(_ error: ConfigurationError) -> ConfigurationError {
            hint.isEmpty ? error : ConfigurationError(code: error.code, message: error.message + hint, location: error.location,
                                                      ruleIndex: error.ruleIndex, patternIndex: error.patternIndex)
        }
        let read: GsonReader.Result
        do {
            read = try GsonReader.read(utf8, maxDepth: limits.maxNestingDepth, nestingLimit: app.nestingLimit)
        } catch {
            guard case .gson(let gson) = error.kind else {
                throw ConfigurationError(code: .limit, message: error.what, location: source.location(error.offset))
            }
            let refusal = ConfigurationError(code: .invalidJSON, message: "\(error.what): \(app.name) \(app.refusal(gson: gson))",
                                             location: source.location(error.offset))
            // Gson fills the classes as it reads: a type error before the syntax error is the one thrown.
            if let partial = error.partial {
                var binding = GsonBinding(app: app, source: source, commaNulls: [])
                binding.truncatedBy = refusal
                binding.incomplete = error.incomplete
                do { _ = try binding.bind(partial) } catch { throw hinted(error) }
            }
            throw hinted(refusal)
        }
        var binding = GsonBinding(app: app, source: source, commaNulls: read.commaNulls)
        let root: JSONNode
        do {
            root = try binding.bind(read.root)
        } catch {
            throw hinted(error)
        }
        if let escape = GsonBinding.firstHeld(read.loneSurrogates, in: root) {
            throw ConfigurationError(code: .invalidJSON, message: "a \\u escape of a lone surrogate, which \(app.name) reads but this library cannot hold in a string",
                                     location: source.location(escape))
        }
        var walker = Walker(source: source, profile: profile, limits: limits)
        walker.warnings = binding.warnings
        return try walker.document(root)
    }

    /// Reads UTF-8 bytes as JSONSerialization does.
    private func decodeJSON(_ buffer: UnsafeBufferPointer<UInt8>, keeping: Keeping) throws(ConfigurationError) -> ConfigurationDocument {
        let read: JSONReadResult
        do {
            read = try JSONReader.read(buffer, maxDepth: limits.maxNestingDepth)
        } catch {
            throw error.configurationError(in: buffer)
        }
        let root = read.root
        if let number = read.firstNumberBeyondDouble(), case .number(let n) = number.kind {
            // JSONSerialization refuses the document, so the app ignores the file. A long literal is shortened.
            let shown = n.text.utf8.count <= 40 ? n.text : "\(n.text.prefix(24))... (\(n.text.utf8.count) characters)"
            throw ConfigurationError(code: .invalidJSON,
                                     message: "number \(shown) is too large for a Double: \(profile.rawValue)'s JSONSerialization refuses the document "
                                         + "(\"Number \(shown) is not representable in Swift.\") and the app ignores the whole file",
                                     location: SourceLocation(offset: number.offset, in: buffer))
        }
        var walker = Walker(source: keeping.source(buffer), profile: profile, limits: limits)
        walker.canonicalRepeats = !read.duplicateKeys.isEmpty
        for d in read.duplicateKeys {
            let first = walker.source.location(d.firstOffset)
            walker.warnings.append(ConfigurationWarning(
                kind: .duplicateKey,
                message: "duplicate key \(JSONWriter.quoted(d.key)); the first value (line \(first.line), column \(first.column)) is kept",
                location: walker.source.location(d.offset), ruleIndex: Self.rule(holdingKeyAt: d.firstOffset, in: root)))
        }
        return try walker.document(root)
    }

    /// The index of the rule (an element of the top-level `"rules"` array)
    /// whose object, or something inside it, has a key at byte `offset`;
    /// nil when the key is outside every rule.
    static func rule(holdingKeyAt offset: Int, in root: JSONNode) -> Int? {
        guard case .object(let top) = root.kind, let rules = top.last(where: { $0.key == "rules" }),
              case .array(let elements) = rules.value.kind else { return nil }
        func holds(_ node: JSONNode) -> Bool {
            switch node.kind {
            case .object(let members): return members.contains { $0.keyOffset == offset || holds($0.value) }
            case .array(let items): return items.contains(where: holds)
            default: return false
            }
        }
        // Rules lie in document order: the last one starting before the key is the only one that can hold it.
        guard let index = elements.lastIndex(where: { $0.offset < offset }) else { return nil }
        return holds(elements[index]) ? index : nil
    }
}

/// Walks the located syntax tree and builds the model. It records byte
/// offsets; a line and column is worked out only for a message.
private struct Walker {
    let source: SourceText
    let profile: Profile
    let limits: Limits
    var warnings: [ConfigurationWarning] = []
    /// Whether JSONSerialization's reading found keys repeated in an object
    /// (spelt alike, or canonically equivalent, which its Swift dictionaries
    /// take as one): only then does `stored` compare keys so, at a cost a
    /// document without repeats need not pay.
    var canonicalRepeats = false

    func schemaError(_ message: String, at offset: Int, rule: Int? = nil, pattern: Int? = nil) -> ConfigurationError {
        ConfigurationError(code: .schema, message: message, location: source.location(offset), ruleIndex: rule, patternIndex: pattern)
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
                    location: source.location(member.value.offset)))
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
                                     location: source.location(rulesMember.value.offset))
        }
        let rules = try ruleNodes.enumerated().map { index, node throws(ConfigurationError) in try rule(node, index: index) }
        return ConfigurationDocument(settings: settings, rules: rules, warnings: warnings, source: source)
    }

    /// The rule keys the decoder reads; every other key is kept in `extras`.
    static let ruleKeys: Set<String> = ["patterns", "globs", "methods", "properties"]

    /// Decodes one rule. A file's rule needs `patterns` or `globs`, and
    /// `properties`; a rule from code (`fromCode`) may omit any of them.
    mutating func rule(_ node: JSONNode, index: Int, fromCode: Bool = false) throws(ConfigurationError) -> Rule {
        guard case .object(let members) = node.kind else {
            throw schemaError("rule \(index) must be an object, found \(node.typeName)", at: node.offset, rule: index)
        }
        let patternsMember = node.member("patterns"), globsMember = node.member("globs")
        guard fromCode || patternsMember != nil || globsMember != nil else {
            throw schemaError("rule \(index) is missing required key \"patterns\"", at: node.offset, rule: index)
        }
        let (patterns, patternOffsets) = try strings(patternsMember, what: "pattern", rule: index)
        let (globs, globOffsets) = try strings(globsMember, what: "glob", rule: index)
        let methods = try methods(node.member("methods"), rule: index)
        var properties = JSONObject()
        if let propertiesMember = node.member("properties") {
            guard case .object = propertiesMember.value.kind else {
                throw schemaError("rule \(index): \"properties\" must be an object, found \(propertiesMember.value.typeName)",
                                  at: propertiesMember.value.offset, rule: index)
            }
            properties = try stored(propertiesMember.value, what: "property", rule: index).objectValue ?? [:]
        } else if !fromCode {
            throw schemaError("rule \(index) is missing required key \"properties\"", at: node.offset, rule: index)
        }
        var extras = JSONObject()
        for m in members where !Self.ruleKeys.contains(m.key) && !extras.contains(key: m.key) {
            extras[m.key] = m.value.value
        }
        let rule = Rule(index: index, patterns: patterns, globs: globs, methods: methods, properties: properties, extras: extras,
                        patternOffsets: patternOffsets, globOffsets: globOffsets)
        if !fromCode { warnIfNotPortable(rule, node: node) }
        return rule
    }

    /// The strings of `patterns` or `globs` (absent: none), with their offsets.
    func strings(_ member: JSONNode.Member?, what: String, rule index: Int) throws(ConfigurationError) -> ([String], [Int]) {
        guard let member else { return ([], []) }
        guard case .array(let nodes) = member.value.kind else {
            throw schemaError("rule \(index): \"\(member.key)\" must be an array of strings, found \(member.value.typeName)",
                              at: member.value.offset, rule: index)
        }
        guard nodes.count <= limits.maxPatternsPerRule else {
            throw ConfigurationError(code: .limit, message: limits.tooMany(nodes.count, what, rule: index),
                                     location: source.location(member.value.offset), ruleIndex: index)
        }
        let values = try nodes.enumerated().map { p, node throws(ConfigurationError) in
            guard case .string(let value) = node.kind else {
                throw schemaError("rule \(index), \(what) \(p) must be a string, found \(node.typeName)", at: node.offset, rule: index, pattern: p)
            }
            guard value.utf8.count <= limits.maxPatternBytes else {
                throw ConfigurationError(code: .limit, message: limits.tooLong(value.utf8.count, what, at: p, rule: index),
                                         location: source.location(node.offset), ruleIndex: index, patternIndex: p)
            }
            return value
        }
        return (values, nodes.map(\.offset))
    }

    /// `methods`: nil when absent, else a non-empty array of HTTP method tokens, upper-cased.
    func methods(_ member: JSONNode.Member?, rule index: Int) throws(ConfigurationError) -> [String]? {
        guard let member else { return nil }
        guard case .array(let nodes) = member.value.kind, !nodes.isEmpty else {
            throw schemaError("rule \(index): " + HTTPMethod.notAList(found: JSONWriter.compact(member.value.value)),
                              at: member.value.offset, rule: index)
        }
        return try nodes.map { node throws(ConfigurationError) in
            guard case .string(let name) = node.kind, let method = HTTPMethod.normalized(name) else {
                throw schemaError("rule \(index): " + HTTPMethod.notAMethod(JSONWriter.compact(node.value)),
                                  at: node.offset, rule: index)
            }
            return method
        }.uniqued()
    }

    /// Under the mobile apps' profiles, says when a rule uses keys those apps
    /// do not read: they would reject it or answer differently.
    mutating func warnIfNotPortable(_ rule: Rule, node: JSONNode) {
        guard profile.isMobileApp else { return }
        var app: String { "the \(profile.rawValue) app" }  // made only for a warning
        if let globs = node.member("globs") {
            let message = rule.patterns.isEmpty && node.member("patterns") == nil
                ? "\(rule.label): \"globs\" but no \"patterns\": \(app) rejects a rule without \"patterns\", so this file is not portable to it"
                : "\(rule.label): \(app) ignores \"globs\", so it matches this rule differently"
            warnings.append(ConfigurationWarning(kind: .notPortable, message: message, location: source.location(globs.value.offset), ruleIndex: rule.index))
        }
        if let methods = node.member("methods") {
            warnings.append(ConfigurationWarning(
                kind: .notPortable, message: "\(rule.label): \(app) ignores \"methods\" and applies the rule to every visit",
                location: source.location(methods.value.offset), ruleIndex: rule.index))
        }
    }

    /// The object's value as the profile stores it: unchanged, or (turbo-android)
    /// every scalar member as a string and nested values rejected.
    func stored(_ object: JSONNode, what: String, rule: Int?) throws(ConfigurationError) -> JSONValue {
        guard profile.storesValuesAsStrings, case .object(let members) = object.kind else {
            return object.value(canonicalKeys: canonicalRepeats)
        }
        var out = JSONObject()
        for m in members where !out.contains(key: m.key) {
            switch m.value.kind {
            case .null, .bool, .number, .string: out[m.key] = GsonLeaf.string(of: m.value.value).map(JSONValue.string) ?? .null
            case .array, .object:
                let prefix = rule.map { "rule \($0): " } ?? ""
                throw schemaError("\(prefix)\(what) \(JSONWriter.quoted(m.key)) is \(m.value.typeName == "array" ? "an array" : "an object"); the \(profile.rawValue) profile stores every value as a string",
                                  at: m.value.offset, rule: rule)
            }
        }
        return .object(out)
    }
}
