import Synchronization
import PathConfigModel
import PathConfigMatching

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

    private let file: FileRules
    private let cache: ResultCache
    /// `cache`, for the lookup path: calling it through an unmanaged,
    /// guaranteed reference counts no reference on an object every thread
    /// shares (`cache` keeps it alive).
    private let cacheRef: Unmanaged<ResultCache>
    /// Rules added from code, in the order added (after `rules`).
    private let added = Mutex<[CompiledHostRule]>([])
    /// How many rules `added` holds, stored (releasing) under its lock after
    /// each append, so that a lookup reads it without the lock: most
    /// configurations never add a rule, and every thread resolving through one
    /// would otherwise take the same lock on every lookup.
    private let addedCount = Atomic<Int>(0)
    /// True when a lookup's URL (not only the matched string) decides its result.
    private let filesUseURL: Bool

    /// Compiles a decoded document.
    public init(document: ConfigurationDocument, options: LoadOptions = LoadOptions()) throws(ConfigurationError) {
        self.options = options
        self.source = options.keepsSource ? document.source : nil
        self.settings = document.settings
        self.documentRuleCount = document.rules.count
        let rules = document.rules + options.profile.builtInRules(firstIndex: document.rules.count)
        self.rules = rules
        var compiler = RuleCompiler(options: options)
        var patterns: [[MatchPlan.Pattern]] = [], patternLiterals: [[[UInt8]?]] = []
        var globs: [[MatchPlan.Pattern]] = [], globLiterals: [[[UInt8]?]] = []
        patterns.reserveCapacity(rules.count)
        patternLiterals.reserveCapacity(rules.count)
        for (r, rule) in rules.enumerated() {
            let compiled = try compiler.compile(rule) { kind, i in
                kind == .glob ? document.location(ofGlob: i, inRule: r) : document.location(ofPattern: i, inRule: r)
            }
            patterns.append(compiled.patterns)
            patternLiterals.append(compiled.patternLiterals)
            globs.append(compiled.globs)
            globLiterals.append(compiled.globLiterals)
        }
        self.warnings = document.warnings + compiler.warnings
        let caseInsensitive = options.profile.regexOptions.caseInsensitive
        let hasGlobs = rules.contains { !$0.globs.isEmpty }
        self.file = FileRules(
            rules: rules,
            patternPlan: MatchPlan(patternsByRule: patterns, literals: patternLiterals, caseInsensitive: caseInsensitive,
                                   usePrefilter: options.usePrefilter, combinesPatterns: options.combinesPatterns),
            globPlan: hasGlobs ? MatchPlan(patternsByRule: globs, literals: globLiterals, caseInsensitive: false,
                                           usePrefilter: options.usePrefilter, kind: .glob,
                                           combinesPatterns: options.combinesPatterns) : nil,
            filtersMethods: rules.contains { $0.methods != nil })
        self.filesUseURL = hasGlobs
        self.cache = ResultCache(capacity: options.limits.resultCacheCapacity)
        self.cacheRef = Unmanaged.passUnretained(cache)
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

    /// Loads a configuration from bytes that came from `transport` (the
    /// loader's downloads and cached copies: an Android app reads those
    /// through OkHttp, which honours a byte-order mark).
    package convenience init(json bytes: [UInt8], options: LoadOptions, transport: DocumentTransport) throws(ConfigurationError) {
        let decoder = ConfigurationDecoder(profile: options.profile, limits: options.limits)
        let document = try bytes.withUnsafeBufferPointer { buffer throws(ConfigurationError) in try decoder.decode(buffer, transport: transport) }
        try self.init(document: document, options: options)
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

    /// The file patterns' combined automaton, if the plan has one (for tests).
    var patternAutomaton: PlanAutomaton? { file.patternPlan.automaton }

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

    /// The URL a lookup of `urlOrPath` is about (`RuleRequest.url`): what host
    /// predicates receive.
    public func requestURL(for urlOrPath: String) -> String {
        Lookup.requestURL(Lookup.absolute(urlOrPath, base: options.baseURL))
    }

    private func target(_ input: String) throws(ResolveError) -> Lookup {
        try Lookup(input, profile: options.profile, matchQueryStrings: options.effectiveMatchQueryStrings, base: options.baseURL)
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
        // A path or plain URL of printable ASCII, with file patterns only:
        // matched from its bytes (`resolveFromBytes`), as the C ABI does,
        // read in place (a native string's are contiguous; a copy to reach
        // them counted a reference on the caller's string).
        let direct = urlOrPath.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(ResolveError) in try resolveFromBytes(utf8: bytes, method: method) }
        }
        if let result = try direct?.get() { return result }
        return try resolveString(urlOrPath, method: method)
    }

    /// `resolve(_:method:)` without its byte path: for a caller that has
    /// tried `resolveFromBytes` already (the C ABI).
    package func resolveString(_ urlOrPath: String, method: String? = nil) throws(ResolveError) -> PathProperties {
        try checkLength(urlOrPath)
        let method = try Self.normalized(method)
        // Before the rules are read: a rule added after this point (add()
        // invalidates) keeps what is computed below out of the cache.
        let generation = cache.generation
        let host = hostRules()
        if host.isEmpty && !filesUseURL {
            // The common case, kept short: file patterns only. The result
            // depends on the matched string alone, and matching it costs less
            // than a per-lookup cache's key and lock (make bench), so that
            // level is skipped: the rule-set level still shares the result.
            let subject = try Lookup.patternSubject(urlOrPath, profile: options.profile, matchQueryStrings: options.effectiveMatchQueryStrings,
                                                    base: options.baseURL)
            return result(ofFileMatches: .string(subject), method: method)
        }
        let target = try target(urlOrPath)
        func compute() throws(ResolveError) -> PathProperties {
            guard host.isEmpty else {
                let evaluation = try Resolver.evaluate(file: file, host: host, subjects: target, method: method, merge: options.merge)
                return PathProperties(evaluation.properties, platform: options.profile.platform)
            }
            return result(of: file.matches(target, method: method))
        }
        guard cache.keepsLookups else { return try compute() }
        let key = ResultCache.Key(method: method, patternSubject: target.patternSubject,
                                  url: filesUseURL || !host.isEmpty ? target.url : nil)
        return try cache.value(for: key, since: generation, compute: compute)
    }

    /// The result of the file rules that apply to `subject` with `method`,
    /// when no glob or rule from code takes part.
    private func result(ofFileMatches subject: PatternSubject, method: String) -> PathProperties {
        // `self` lent to the closure as an unmanaged, guaranteed reference:
        // a call on a captured `self`, even unowned(unsafe), counts one.
        let this = Unmanaged.passUnretained(self)
        return file.withMatches(patternSubject: subject, method: method) { matches in
            this._withUnsafeGuaranteedRef { $0.result(ofRulesIn: matches) }
        }
    }

    /// `resolve(_:method:)` of the URL or path whose UTF-8 is `bytes`,
    /// without making a `String` of it, when that is all it takes: printable
    /// ASCII, no base URL, file patterns only, and either a path (which every
    /// profile matches as given) or an absolute URL whose matched string is
    /// a run of its bytes (`Profile.matchedRange(of:in:matchQueryStrings:)`).
    /// nil when the lookup needs more: the caller then makes the string and
    /// calls `resolveString(_:method:)`. For the C ABI, whose hosts hand over
    /// bytes, and `resolve(_:method:)`.
    package func resolveFromBytes(utf8 bytes: UnsafeBufferPointer<UInt8>, method: String? = nil) throws(ResolveError) -> PathProperties? {
        #if PATHCONFIG_ABLATE_BYTES
        return nil  // make bench-ablation: the layer off
        #endif
        guard options.baseURL == nil, !filesUseURL, ByteSet.allPrintable(bytes), !hasHostRules else { return nil }
        var subject = bytes
        // A path is matched as given; most are told by their first byte
        // (`Profile.matchedRange(inPrintable:matchQueryStrings:)`).
        if let first = bytes.first, Profile.mayStartURL(first) {
            guard let range = options.profile.matchedRange(ofPossibleURL: bytes, matchQueryStrings: options.effectiveMatchQueryStrings)
            else { return nil }
            subject = UnsafeBufferPointer(rebasing: bytes[range])
        }
        try checkLength(bytes.count)
        return result(ofFileMatches: .printableASCII(subject), method: try Self.normalized(method))
    }

    /// The result of exactly `matches` (file rules, in order): with file
    /// rules only, it depends on which rules matched, nothing else.
    private func result(of matches: [RuleMatch]) -> PathProperties {
        matches.withUnsafeBufferPointer { result(ofRulesIn: $0) }
    }

    /// The result of exactly the file rules `matches` lists, in order.
    /// Nothing here counts a reference on the configuration or its cache,
    /// which every thread shares: the cache is reached through an unmanaged,
    /// guaranteed reference, and `self` is captured unowned(unsafe) (it
    /// outlives the call). A strong capture made every lookup count one.
    private func result(ofRulesIn matches: UnsafeBufferPointer<RuleMatch>) -> PathProperties {
        cacheRef._withUnsafeGuaranteedRef { cache in
            cache.value(forRulesIn: matches) { [unowned(unsafe) self] in
                PathProperties(Resolver.merge(Array(matches), of: file.rules, by: options.merge), platform: options.profile.platform)
            }
        }
    }

    /// The merged properties for a URL or a path (a GET lookup).
    ///
    /// The same as `resolve(urlOrPath)` for every configuration whose rules
    /// from code never throw; when one does, this returns the properties
    /// without any rule (`{}`): call `resolve(_:method:)` to see the error.
    public func properties(for urlOrPath: String) -> PathProperties {
        (try? resolve(urlOrPath)) ?? PathProperties([:], platform: options.profile.platform)
    }

    /// The rules that match a URL or path (first matching pattern or glob of
    /// each, then rules from code), in order, for `method` (GET when nil).
    public func matchingRules(for urlOrPath: String, method: String? = nil) throws(ResolveError) -> [RuleMatch] {
        try evaluate(urlOrPath, method: method).1.matches
    }

    /// Why `urlOrPath`, requested with `method` (GET when nil), resolves as it
    /// does. Never memoised: predicates and configurers run again.
    public func explain(_ urlOrPath: String, method: String? = nil) throws(ResolveError) -> Explanation {
        let (target, evaluation, host, method) = try evaluate(urlOrPath, method: method)
        let hostByIndex = Dictionary(uniqueKeysWithValues: host.map { ($0.rule.index, $0) })
        // Every match is of a file rule or of a rule from code in `host`, the
        // snapshot the evaluation ran with.
        let matched = evaluation.matches.compactMap { m -> Explanation.MatchedRule? in
            guard let rule = m.ruleIndex < rules.count ? rules[m.ruleIndex] : hostByIndex[m.ruleIndex]?.rule else { return nil }
            let text: String
            switch m.kind {
            case .pattern: text = rule.patterns[m.patternIndex]
            case .glob: text = rule.globs[m.patternIndex]
            case .predicate: text = ""
            }
            return Explanation.MatchedRule(index: rule.index, pattern: text, patternIndex: m.patternIndex,
                                           description: rule.description, isBuiltIn: rule.isBuiltIn, kind: m.kind,
                                           fromCode: m.ruleIndex >= rules.count,
                                           hasConfigurer: hostByIndex[m.ruleIndex]?.configurer != nil)
        }
        let properties = PathProperties(evaluation.properties, platform: options.profile.platform)
        return Explanation(input: urlOrPath, method: method, url: target.url, matchedString: target.patternSubject,
                           rules: matched, limitExceeded: evaluation.limitExceeded, properties: properties)
    }

    private func evaluate(_ urlOrPath: String, method: String?) throws(ResolveError)
        -> (Lookup, Evaluation, [CompiledHostRule], String) {
        try checkLength(urlOrPath)
        let method = try Self.normalized(method)
        let target = try target(urlOrPath)
        let host = hostRules()
        let evaluation = try Resolver.evaluate(file: file, host: host, subjects: target, method: method, merge: options.merge)
        return (target, evaluation, host, method)
    }

    /// The rules added from code so far; no lock taken while there are none.
    /// An `add` that returned before this call is seen: it stores the count
    /// (releasing) before it returns, and this loads it (acquiring).
    private func hostRules() -> [CompiledHostRule] {
        hasHostRules ? added.withLock { $0 } : []
    }

    /// Whether any rule was added from code (see `hostRules()`).
    private var hasHostRules: Bool { addedCount.load(ordering: .acquiring) != 0 }

    /// Throws `.limit` for an input longer than `Limits.maxURLBytes`.
    private func checkLength(_ urlOrPath: String) throws(ResolveError) {
        try checkLength(urlOrPath.utf8.count)
    }

    /// Throws `.limit` for an input of `length` bytes, more than
    /// `Limits.maxURLBytes`. The comparison inline, the error out of line:
    /// every lookup makes the one, almost none the other.
    @inline(__always)
    private func checkLength(_ length: Int) throws(ResolveError) {
        guard length > options.limits.maxURLBytes else { return }
        throw tooLong(length)
    }

    @inline(never)
    private func tooLong(_ length: Int) -> ResolveError {
        ResolveError(code: .limit, message: "the URL is \(length) bytes, more than the limit of \(options.limits.maxURLBytes) (max_url_bytes)")
    }

    /// `method` as rules compare it (nil: GET); throws for one that is not
    /// an HTTP token. A GET given as nil inline, the rest out of line.
    @inline(__always)
    private static func normalized(_ method: String?) throws(ResolveError) -> String {
        guard let method else { return HTTPMethod.defaultMethod }
        return try normalized(given: method)
    }

    @inline(never)
    private static func normalized(given method: String) throws(ResolveError) -> String {
        guard let m = HTTPMethod.normalized(method) else {
            throw ResolveError(code: .invalidMethod, message: "\(JSONWriter.quoted(method)) is not an HTTP method (a token such as GET or POST)")
        }
        return m
    }

    // MARK: Rules from code

    /// The rules added from code, in order (numbered after `rules`).
    public var addedRules: [Rule] { added.withLock { $0.map(\.rule) } }

    /// Adds a rule at the end of the ordered rules, as Siesta's `configure(…)`
    /// does, and invalidates memoised results. Lookups already running finish
    /// with the rules they started with. Returns the rule's index.
    ///
    /// Throws for a rule without patterns, globs or predicate, for methods that
    /// are not HTTP tokens, and for a pattern the engine rejects (under
    /// `lenient`, the pattern is skipped instead; the warning is not kept).
    @discardableResult
    public func add(_ hostRule: HostRule) throws(ConfigurationError) -> Int {
        try add { _ throws(ConfigurationError) in hostRule }
    }

    /// Adds a rule given as a JSON object (the keys of a file's rule, each
    /// optional: `ConfigurationDecoder.decodeRule`) with host code, as the C
    /// ABI and the bindings do. Messages name the rule by the index it gets.
    @discardableResult
    public func add(json: String, predicate: HostRule.Predicate? = nil, configurer: HostRule.Configurer? = nil,
                    owner: (any AnyObject & Sendable)? = nil) throws(ConfigurationError) -> Int {
        let decoder = ConfigurationDecoder(profile: options.profile, limits: options.limits)
        return try add { index throws(ConfigurationError) in
            HostRule(rule: try decoder.decodeRule(json, index: index), predicate: predicate, configurer: configurer, owner: owner)
        }
    }

    /// The number of rules added from code so far.
    public var addedRuleCount: Int { added.withLock { $0.count } }

    /// Adds the rule `make` gives for the next index, under the lock that
    /// orders additions, and invalidates memoised results.
    private func add(_ make: (Int) throws(ConfigurationError) -> HostRule) throws(ConfigurationError) -> Int {
        let index = try added.withLock { list throws(ConfigurationError) -> Int in
            let index = rules.count + list.count
            let hostRule = try make(index)
            let r = hostRule.rule
            guard !r.patterns.isEmpty || !r.globs.isEmpty || hostRule.predicate != nil else {
                throw ConfigurationError(code: .schema, message: "rule \(index): a rule added from code needs patterns, globs or a predicate", ruleIndex: index)
            }
            var methods: [String]?
            if let list = r.methods {
                var normalized: [String] = []
                for m in list {
                    guard let n = HTTPMethod.normalized(m) else {
                        throw ConfigurationError(code: .schema, message: "rule \(index): \(JSONWriter.quoted(m)) is not an HTTP method (a token such as GET or POST)", ruleIndex: index)
                    }
                    normalized.append(n)
                }
                methods = normalized
            }
            let rule = Rule(index: index, patterns: r.patterns, globs: r.globs, methods: methods, properties: r.properties, extras: r.extras)
            var compiler = RuleCompiler(options: options)
            let compiled = try compiler.compile(rule) { _, _ in nil }
            list.append(CompiledHostRule(rule: rule, patterns: compiled.patterns, globs: compiled.globs,
                                         predicate: hostRule.predicate, configurer: hostRule.configurer, owner: hostRule.owner))
            addedCount.store(list.count, ordering: .releasing)
            return index
        }
        cache.invalidate()
        return index
    }

    /// Drops every memoised result, so that the next lookup of each URL runs
    /// predicates and configurers again and reads the host's current values
    /// (Siesta's `invalidateConfiguration()`). Safe while other threads
    /// resolve: a lookup already running returns what it computed from the
    /// values it read, and no result computed before this call is returned
    /// by a lookup that starts after it.
    public func invalidate() { cache.invalidate() }
}
