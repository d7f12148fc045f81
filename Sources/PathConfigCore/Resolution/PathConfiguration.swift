/// A loaded path configuration: an immutable, thread-safe snapshot of
/// settings and rules with every pattern compiled, ready to resolve URLs.
///
/// ```swift
/// let config = try PathConfiguration(contentsOfFile: "path-configuration.json")
/// let properties = config.properties(for: "https://example.com/messages/new")
/// properties.context        // .modal
/// properties.json           // {"context":"modal",...}
/// ```
public final class PathConfiguration: Sendable {
    /// The top-level `settings` object.
    public let settings: JSONObject
    /// The file's rules followed by the profile's built-in rules.
    public let rules: [Rule]
    /// How many of `rules` came from the document (the rest are built-ins).
    public let documentRuleCount: Int
    /// What the load noticed but accepted (never printed by the library).
    public let warnings: [ConfigurationWarning]
    /// The options the configuration was loaded with.
    public let options: LoadOptions
    /// The document the configuration was loaded from, when
    /// `LoadOptions.keepsSource` asked for it, so that a tool can point back
    /// into it (`Linter` reads it again with its positions); nil otherwise.
    public let source: SourceText?

    /// The lookup work: compiled rules, rules from code, memoised results.
    private let resolver: RuleResolver

    /// Compiles a decoded document.
    public init(document: consuming ConfigurationDocument, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        self.options = options
        self.source = options.keepsSource ? document.source.keptCopy() : nil
        self.settings = document.settings
        self.documentRuleCount = document.rules.count
        // The document's rules become the configuration's, built-ins
        // appended, without a copy (88 bytes a rule, held through compiling)
        // when the document is not shared (the loads from bytes). The
        // document holds the same array and places no built-in (no offsets).
        var rules = document.rules
        document.rules = []
        rules.append(contentsOf: options.profile.builtInRules(firstIndex: rules.count))
        document.rules = rules
        self.rules = rules
        let (resolver, warnings) = try RuleResolver.compile(rules, options: options) { kind, i, r in
            kind == .glob ? document.location(ofGlob: i, inRule: r) : document.location(ofPattern: i, inRule: r)
        }
        self.resolver = resolver
        self.warnings = document.warnings + warnings
    }

    /// Loads a configuration from JSON bytes.
    public convenience init(json bytes: some Collection<UInt8>, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        try self.init(document: try options.decoder.decode(bytes), options: options)
    }

    /// Loads a configuration from JSON bytes in memory the caller owns (no
    /// copy: the document borrows them while it is compiled).
    public convenience init(json buffer: UnsafeBufferPointer<UInt8>, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        try self.init(document: try options.decoder.decode(borrowing: buffer), options: options)
    }

    /// Loads a configuration from bytes that came from `transport` (the
    /// loader's downloads and cached copies: an Android app reads those
    /// through OkHttp, which honours a byte-order mark).
    package convenience init(json bytes: [UInt8], options: LoadOptions, transport: DocumentTransport) throws(ConfigurationError) {
        try self.init(document: try options.decoder.decode(bytes, transport: transport), options: options)
    }

    /// Loads a configuration from JSON text.
    public convenience init(json text: String, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        try self.init(json: Array(text.utf8), options: options)
    }

    /// Loads a configuration from a file.
    public convenience init(contentsOfFile path: String, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        let bytes = try FileReader.read(path, limit: options.limits.maxDocumentBytes)
        try self.init(document: try options.decoder.decode(bytes), options: options)
    }

    /// The file patterns' plan (for tests).
    var patternPlan: MatchPlan { resolver.file.patternPlan }

    /// The profile the configuration reproduces.
    public var profile: Profile { options.profile }

    /// `settings.tabs` as typed tabs.
    public var tabs: [Tab] { Tab.tabs(in: settings) }

    /// The string the patterns see for `urlOrPath` (see `Profile.matchedString`;
    /// an input without a scheme is first resolved against the base URL, if any).
    /// `""` for a URL the profile's app crashes on, whose lookups throw.
    public func matchedString(for urlOrPath: String) -> String {
        options.profile.matchedString(for: Lookup.absolute(urlOrPath, base: options.baseURL),
                                      matchQueryStrings: options.effectiveMatchQueryStrings)
    }

    /// `matchedString(for:)`, refusing an input longer than
    /// `Limits.maxURLBytes` as a lookup of it does (the C boundary's
    /// `pathconfig_matched_string`).
    package func checkedMatchedString(for urlOrPath: String) throws(ResolveError) -> String {
        try resolver.checkLength(urlOrPath.utf8.count)
        return matchedString(for: urlOrPath)
    }

    /// The URL a lookup of `urlOrPath` is about (`RuleRequest.url`): what host
    /// predicates receive.
    public func requestURL(for urlOrPath: String) -> String {
        URLParts.foundationForm(of: Lookup.absolute(urlOrPath, base: options.baseURL))
    }

    /// The merged properties for a URL or path requested with `method` (GET
    /// when nil), memoised until `invalidate()`.
    ///
    /// Throws only for a method that is not an HTTP token, an input longer
    /// than `Limits.maxURLBytes`, a URL the profile's app crashes on
    /// (`ResolveError.Code.unreadableURL`: turbo-android on a URL
    /// `java.net.URL` rejects), or when a rule added from code throws (the
    /// failed lookup is not memoised).
    public func resolve(_ urlOrPath: String, method: String? = nil) throws(ResolveError) -> PathProperties {
        try resolver.resolve(urlOrPath, method: method)
    }

    /// `resolve(_:method:)` without its byte path: for a caller that has
    /// tried `resolveFromBytes` already (the C ABI).
    package func resolveString(_ urlOrPath: String, method: String? = nil) throws(ResolveError) -> PathProperties {
        try resolver.resolveString(urlOrPath, method: method)
    }

    /// `resolve(_:method:)` of the URL or path whose UTF-8 is `bytes`,
    /// without making a `String` of it, when that is all it takes (printable
    /// ASCII, no base URL, file patterns only: `RuleResolver`); nil when
    /// the lookup needs more: the caller then makes the string and calls
    /// `resolveString(_:method:)`. For the C ABI, whose hosts hand over bytes.
    package func resolveFromBytes(utf8 bytes: UnsafeBufferPointer<UInt8>, method: String? = nil) throws(ResolveError) -> PathProperties? {
        try resolver.resolveFromBytes(utf8: bytes, method: method)
    }

    /// The merged properties for a URL or a path (a GET lookup).
    ///
    /// The same as `resolve(urlOrPath)` for every configuration whose rules
    /// from code never throw; when one does, this returns the properties
    /// without any rule (`{}`): call `resolve(_:method:)` to see the error.
    public func properties(for urlOrPath: String) -> PathProperties {
        (try? resolve(urlOrPath)) ?? PathProperties([:], typedReading: options.profile.typedReading)
    }

    /// The rules that match a URL or path (first matching pattern or glob of
    /// each, then rules from code), in order, for `method` (GET when nil).
    public func matchingRules(for urlOrPath: String, method: String? = nil) throws(ResolveError) -> [RuleMatch] {
        try resolver.evaluate(urlOrPath, method: method).1.matches
    }

    /// Why `urlOrPath`, requested with `method` (GET when nil), resolves as it
    /// does. Never memoised: predicates and configurers run again.
    public func explain(_ urlOrPath: String, method: String? = nil) throws(ResolveError) -> Explanation {
        let (target, evaluation, host, method) = try resolver.evaluate(urlOrPath, method: method)
        let hostByIndex = Dictionary(uniqueKeysWithValues: host.map { ($0.rule.index, $0) })
        // Every match is of a file rule or of a rule from code in `host`, the
        // snapshot the evaluation ran with.
        let matched = evaluation.matches.compactMap { m -> Explanation.MatchedRule? in
            guard let rule = m.ruleIndex < rules.count ? rules[m.ruleIndex] : hostByIndex[m.ruleIndex]?.rule else { return nil }
            let text = switch m.kind {
            case .pattern: rule.patterns[m.patternIndex]
            case .glob: rule.globs[m.patternIndex]
            case .predicate: ""
            }
            return Explanation.MatchedRule(index: rule.index, pattern: text, patternIndex: m.patternIndex,
                                           description: rule.description, isBuiltIn: rule.isBuiltIn, kind: m.kind,
                                           fromCode: m.ruleIndex >= rules.count,
                                           hasConfigurer: hostByIndex[m.ruleIndex]?.configurer != nil)
        }
        let properties = PathProperties(evaluation.properties, typedReading: options.profile.typedReading)
        return Explanation(input: urlOrPath, method: method, url: target.url, matchedString: target.patternSubject,
                           rules: matched, limitExceeded: evaluation.limitExceeded, properties: properties)
    }

    // MARK: Rules from code

    /// The rules added from code, in order (numbered after `rules`).
    public var addedRules: [Rule] { resolver.hostRules().map(\.rule) }

    /// Adds a rule at the end of the ordered rules, as Siesta's `configure(…)`
    /// does, and invalidates memoised results. Lookups already running finish
    /// with the rules they started with. Returns the rule's index.
    ///
    /// Throws as loading would for the same rule in a file: for a rule
    /// without patterns, globs or predicate, for `methods` empty or not HTTP
    /// tokens, for patterns or globs over `Limits`, and for a pattern the
    /// engine rejects (under `lenient`, the pattern is skipped instead; the
    /// warning is not kept).
    @discardableResult
    public func add(_ hostRule: HostRule) throws(ConfigurationError) -> Int {
        try resolver.add { _ throws(ConfigurationError) in hostRule }
    }

    /// Adds a rule given as a JSON object (the keys of a file's rule, each
    /// optional: `ConfigurationDecoder.decodeRule`) with host code, as the C
    /// ABI and the bindings do. Messages name the rule by the index it gets.
    /// `package`: the C boundary's (`pathconfig_add_rule`); Swift code adds
    /// a `HostRule` (`add(_:)`).
    @discardableResult
    package func add(json: String, predicate: HostRule.Predicate? = nil, configurer: HostRule.Configurer? = nil,
                    owner: (any AnyObject & Sendable)? = nil) throws(ConfigurationError) -> Int {
        let decoder = options.decoder
        return try resolver.add { index throws(ConfigurationError) in
            HostRule(rule: try decoder.decodeRule(json, index: index), predicate: predicate, configurer: configurer, owner: owner)
        }
    }

    /// The number of rules added from code so far.
    public var addedRuleCount: Int { resolver.hostRuleCount }

    /// Drops every memoised result, so that the next lookup of each URL runs
    /// predicates and configurers again and reads the host's current values
    /// (Siesta's `invalidateConfiguration()`). Safe while other threads
    /// resolve: a lookup already running returns what it computed from the
    /// values it read, and no result computed before this call is returned
    /// by a lookup that starts after it.
    public func invalidate() { resolver.invalidate() }
}
