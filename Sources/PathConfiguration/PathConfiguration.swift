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

    private let plan: MatchPlan
    private let cache: ResultCache

    /// Compiles a decoded document.
    public init(document: ConfigurationDocument, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        self.options = options
        self.settings = document.settings
        self.documentRuleCount = document.rules.count
        let rules = document.rules + options.profile.builtInRules(firstIndex: document.rules.count)
        self.rules = rules
        var warnings = document.warnings
        var patternsByRule: [[MatchPlan.Pattern]] = []
        var literals: [[[UInt8]?]] = []
        patternsByRule.reserveCapacity(rules.count)
        literals.reserveCapacity(rules.count)
        let regexOptions = options.profile.regexOptions
        for (r, rule) in rules.enumerated() {
            var compiled: [MatchPlan.Pattern] = []
            var ruleLiterals: [[UInt8]?] = []
            compiled.reserveCapacity(rule.patterns.count)
            for (p, pattern) in rule.patterns.enumerated() {
                do {
                    compiled.append(.init(index: p, compiled: try options.engine.compile(pattern, options: regexOptions, limits: options.limits)))
                    ruleLiterals.append(RequiredLiteral.of(pattern, caseInsensitive: regexOptions.caseInsensitive))
                } catch {
                    let location = document.location(ofPattern: p, inRule: r)
                    let at = error.offset.map { " at offset \($0)" } ?? ""
                    let message = "rule \(rule.index), pattern \(p): invalid regular expression \(JSONWriter.quoted(pattern))\(at): \(error.message)"
                    guard options.lenient else {
                        throw ConfigurationError(code: .invalidPattern, message: message, location: location,
                                                 ruleIndex: rule.index, patternIndex: p, patternOffset: error.offset)
                    }
                    warnings.append(ConfigurationWarning(kind: .skippedPattern, message: message + " (skipped)", location: location,
                                                         ruleIndex: rule.index, patternIndex: p))
                }
            }
            patternsByRule.append(compiled)
            literals.append(ruleLiterals)
        }
        self.warnings = warnings
        self.plan = MatchPlan(patternsByRule: patternsByRule, literals: literals,
                              caseInsensitive: regexOptions.caseInsensitive, usePrefilter: options.usePrefilter)
        self.cache = ResultCache(capacity: options.limits.resultCacheCapacity)
    }

    /// Loads a configuration from JSON bytes.
    public convenience init(json bytes: some Collection<UInt8>, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        let decoder = ConfigurationDecoder(profile: options.profile, limits: options.limits)
        try self.init(document: try decoder.decode(bytes), options: options)
    }

    /// Loads a configuration from JSON bytes in memory the caller owns (no copy).
    public convenience init(json buffer: UnsafeBufferPointer<UInt8>, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        let decoder = ConfigurationDecoder(profile: options.profile, limits: options.limits)
        try self.init(document: try decoder.decode(buffer), options: options)
    }

    /// Loads a configuration from JSON text.
    public convenience init(json text: String, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        try self.init(json: Array(text.utf8), options: options)
    }

    /// Loads a configuration from a file.
    public convenience init(contentsOfFile path: String, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        let bytes = try FileReader.read(path, limit: options.limits.maxDocumentBytes)
        try self.init(document: try ConfigurationDecoder(profile: options.profile, limits: options.limits).decode(bytes), options: options)
    }

    /// The profile the configuration reproduces.
    public var profile: Profile { options.profile }

    /// `settings.tabs` as typed tabs.
    public var tabs: [Tab] { Tab.tabs(in: settings) }

    /// The string the patterns see for `urlOrPath` (see `Profile.matchedString`).
    public func matchedString(for urlOrPath: String) -> String {
        options.profile.matchedString(for: urlOrPath, matchQueryStrings: options.effectiveMatchQueryStrings)
    }

    /// The merged properties for a URL or a path.
    public func properties(for urlOrPath: String) -> PathProperties {
        cache.value(for: matchedString(for: urlOrPath)) { subject in
            let result = plan.run(subject)
            return PathProperties(Resolver.merge(result.matches, rules: rules), platform: options.profile.platform)
        }
    }

    /// The rules that match a URL or path (first matching pattern of each), in order.
    public func matchingRules(for urlOrPath: String) -> [RuleMatch] {
        plan.run(MatchSubject(matchedString(for: urlOrPath))).matches
    }

    /// Why `urlOrPath` resolves as it does.
    public func explain(_ urlOrPath: String) -> Explanation {
        let subject = matchedString(for: urlOrPath)
        let result = plan.run(MatchSubject(subject))
        let matched = result.matches.map { m in
            let rule = rules[m.ruleIndex]
            return Explanation.MatchedRule(index: rule.index, pattern: rule.patterns[m.patternIndex], patternIndex: m.patternIndex,
                                           description: rule.description, isBuiltIn: rule.isBuiltIn)
        }
        let properties = PathProperties(Resolver.merge(result.matches, rules: rules), platform: options.profile.platform)
        return Explanation(input: urlOrPath, matchedString: subject, rules: matched, limitExceeded: result.limitExceeded, properties: properties)
    }
}
