import Synchronization

/// The lookup work of one `PathConfiguration`: its compiled file rules, the
/// rules added from code, and the memoised results, behind the calls the
/// public type makes (`resolve`, `evaluate`, `add`, `invalidate`).
///
/// Shared by every thread that resolves through the configuration. The
/// lookup path counts no reference on it or on its cache: the cache is
/// reached through an unmanaged, guaranteed reference, and closures capture
/// `self` unowned(unsafe) or unmanaged (the configuration keeps both alive
/// for as long as any call runs). A strong capture made every lookup count
/// one on an object every thread shares. The entry points are inlined into
/// `PathConfiguration`'s, so that the C ABI calls one function per lookup
/// (callgrind: a call between the two cost about 22 instructions).
final class RuleResolver: Sendable {
    /// The file's rules followed by the profile's built-ins.
    let file: FileRules
    private let options: LoadOptions
    private let cache: ResultCache
    /// `cache`, for the lookup path: calling it through an unmanaged,
    /// guaranteed reference counts no reference (`cache` keeps it alive).
    private let cacheRef: Unmanaged<ResultCache>
    /// Rules added from code, in the order added (after the file's rules).
    private let added = Locked<[CompiledHostRule]>([])
    /// How many rules `added` holds, stored (releasing) under its lock after
    /// each append, so that a lookup reads it without the lock: most
    /// configurations never add a rule, and every thread resolving through one
    /// would otherwise take the same lock on every lookup.
    private let addedCount = Atomic<Int>(0)
    /// True when a lookup's URL (not only the matched string) decides its result.
    private let filesUseURL: Bool
    /// Whether a lookup may be made from its bytes (`resolveFromBytes`): no
    /// base URL and no globs; under siesta, query strings matched.
    private let resolvesFromBytes: Bool
    /// Whether the profile writes every input back as Foundation does
    /// (siesta), so that only a path Foundation keeps as written is its bytes.
    private let writesInputsBack: Bool

    /// Compiles `rules` (the document's, then the profile's built-ins) with
    /// `options`; `location` places a pattern or glob of a rule in the
    /// document, for errors. Returns the resolver and the compiler's warnings.
    static func compile(_ rules: [Rule], options: LoadOptions,
                        location: (RuleMatch.Kind, Int, Int) -> SourceLocation?) throws(ConfigurationError)
        -> (RuleResolver, [ConfigurationWarning]) {
        var compiler = RuleCompiler(options: options)
        var patterns: [[MatchPlan.Pattern]] = [], patternLiterals: [[[UInt8]?]] = []
        var globs: [[MatchPlan.Pattern]] = [], globLiterals: [[[UInt8]?]] = []
        patterns.reserveCapacity(rules.count)
        patternLiterals.reserveCapacity(rules.count)
        for (r, rule) in rules.enumerated() {
            let compiled = try compiler.compile(rule) { kind, i in location(kind, i, r) }
            patterns.append(compiled.patterns)
            patternLiterals.append(compiled.patternLiterals)
            globs.append(compiled.globs)
            globLiterals.append(compiled.globLiterals)
        }
        let caseInsensitive = options.profile.regexOptions.caseInsensitive
        let hasGlobs = rules.contains { !$0.globs.isEmpty }
        let file = FileRules(
            rules: rules,
            patternPlan: MatchPlan(patternsByRule: patterns, literals: patternLiterals, caseInsensitive: caseInsensitive,
                                   usePrefilter: options.usePrefilter, combinesPatterns: options.combinesPatterns),
            globPlan: hasGlobs ? MatchPlan(patternsByRule: globs, literals: globLiterals, caseInsensitive: false,
                                           usePrefilter: options.usePrefilter, kind: .glob,
                                           combinesPatterns: options.combinesPatterns) : nil,
            filtersMethods: rules.contains { $0.methods != nil })
        return (RuleResolver(file: file, options: options, filesUseURL: hasGlobs), compiler.warnings)
    }

    private init(file: FileRules, options: LoadOptions, filesUseURL: Bool) {
        self.file = file
        self.options = options
        self.filesUseURL = filesUseURL
        writesInputsBack = options.profile.release.behaviour.subject == .foundationAbsoluteString
        resolvesFromBytes = options.baseURL == nil && !filesUseURL && (!writesInputsBack || options.effectiveMatchQueryStrings)
        self.cache = ResultCache(capacity: options.limits.resultCacheCapacity)
        self.cacheRef = Unmanaged.passUnretained(cache)
    }

    // MARK: Lookups

    /// `PathConfiguration.resolve(_:method:)`: a path or plain URL of
    /// printable ASCII, with file patterns only, is matched from its bytes
    /// (`resolveFromBytes`), as the C ABI does, read in place (a native
    /// string's are contiguous; a copy to reach them counted a reference on
    /// the caller's string); anything else through `resolveString`.
    @inline(__always)
    func resolve(_ urlOrPath: String, method: String?) throws(ResolveError) -> PathProperties {
        let direct = urlOrPath.utf8.withContiguousStorageIfAvailable { bytes in
            Result { () throws(ResolveError) in try resolveFromBytes(utf8: bytes, method: method) }
        }
        if let result = try direct?.get() { return result }
        return try resolveString(urlOrPath, method: method)
    }

    /// `resolve(_:method:)` without its byte path.
    @inline(__always)
    func resolveString(_ urlOrPath: String, method: String?) throws(ResolveError) -> PathProperties {
        try checkLength(urlOrPath.utf8.count)
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
                let evaluation = try Resolver.evaluate(file: file, host: host, subjects: target, method: method, merge: options.merge,
                                                         canonicalKeys: options.profile.documentReading.keysAreCanonical)
                return PathProperties(evaluation.properties, typedReading: options.profile.typedReading)
            }
            return file.applying(file.run(target).matches, to: method).withUnsafeBufferPointer { result(ofRulesIn: $0) }
        }
        guard cache.keepsLookups else { return try compute() }
        let key = ResultCache.Key(method: method, patternSubject: target.patternSubject,
                                  url: filesUseURL || !host.isEmpty ? target.url : nil)
        return try cache.value(for: key, since: generation, compute: compute)
    }

    /// `resolve(_:method:)` of the URL or path whose UTF-8 is `bytes`,
    /// without making a `String` of it, when that is all it takes: printable
    /// ASCII, no base URL, file patterns only, and either a path (which every
    /// profile matches as given, but siesta only where Foundation keeps it
    /// as written) or an absolute URL whose matched string is a run of its
    /// bytes (`Profile.matchedRange(of:in:matchQueryStrings:)`).
    /// nil when the lookup needs more: the caller then makes the string and
    /// calls `resolveString(_:method:)`.
    @inline(__always)
    func resolveFromBytes(utf8 bytes: UnsafeBufferPointer<UInt8>, method: String?) throws(ResolveError) -> PathProperties? {
        #if PATHCONFIG_ABLATE_BYTES
        return nil  // make bench-ablation: the layer off
        #endif
        guard resolvesFromBytes, ByteSet.allPrintable(bytes), hostRuleCount == 0 else { return nil }
        var subject = bytes
        // `Profile.matchedRange(inPrintable:matchQueryStrings:)`, written out
        // (calling it reads `options.profile` for a path too, 44 instructions
        // more a lookup, most of them a copy of the profile): siesta takes a
        // path Foundation keeps as written, whole; the other profiles a path
        // as given, most told by their first byte.
        if writesInputsBack {
            guard URLParts.relativeKeptAsWritten(bytes) else { return nil }
        } else if let first = bytes.first, Profile.mayStartURL(first) {
            guard let range = options.profile.matchedRange(ofPossibleURL: bytes, matchQueryStrings: options.effectiveMatchQueryStrings)
            else { return nil }
            subject = UnsafeBufferPointer(rebasing: bytes[range])
        }
        try checkLength(bytes.count)
        return result(ofFileMatches: .printableASCII(subject), method: try Self.normalized(method))
    }

    /// Every rule run against `urlOrPath` with `method`, never memoised:
    /// the lookup, what it found, and the rules from code it ran with.
    func evaluate(_ urlOrPath: String, method: String?) throws(ResolveError)
        -> (Lookup, Evaluation, [CompiledHostRule], String) {
        try checkLength(urlOrPath.utf8.count)
        let method = try Self.normalized(method)
        let target = try target(urlOrPath)
        let host = hostRules()
        let evaluation = try Resolver.evaluate(file: file, host: host, subjects: target, method: method, merge: options.merge,
                                                         canonicalKeys: options.profile.documentReading.keysAreCanonical)
        return (target, evaluation, host, method)
    }

    private func target(_ input: String) throws(ResolveError) -> Lookup {
        try Lookup(input, profile: options.profile, matchQueryStrings: options.effectiveMatchQueryStrings, base: options.baseURL)
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

    /// The result of exactly the file rules `matches` lists, in order.
    /// Nothing here counts a reference on the resolver or its cache: the
    /// cache is reached through `cacheRef`, and `self` is captured
    /// unowned(unsafe) (it outlives the call).
    private func result(ofRulesIn matches: UnsafeBufferPointer<RuleMatch>) -> PathProperties {
        cacheRef._withUnsafeGuaranteedRef { cache in
            cache.value(forRulesIn: matches) { [unowned(unsafe) self] in
                PathProperties(Resolver.merge(Array(matches), of: file.rules, by: options.merge,
                                               canonicalKeys: options.profile.documentReading.keysAreCanonical), typedReading: options.profile.typedReading)
            }
        }
    }

    /// The rules added from code so far; no lock taken while there are none.
    /// An `add` that returned before this call is seen: it stores the count
    /// (releasing) before it returns, and this loads it (acquiring).
    func hostRules() -> [CompiledHostRule] {
        hostRuleCount != 0 ? added.withLock { $0 } : []
    }

    /// The number of rules added from code so far (see `hostRules()`).
    var hostRuleCount: Int { addedCount.load(ordering: .acquiring) }

    /// Throws `.limit` for an input of `length` bytes, more than
    /// `Limits.maxURLBytes`. The comparison inline, the error out of line:
    /// every lookup makes the one, almost none the other.
    @inline(__always)
    func checkLength(_ length: Int) throws(ResolveError) {
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
            throw ResolveError(code: .invalidMethod, message: HTTPMethod.notAMethod(JSONWriter.quoted(method)))
        }
        return m
    }

    // MARK: Rules from code

    /// Adds the rule `make` gives for the next index, under the lock that
    /// orders additions, and invalidates memoised results.
    func add(_ make: (Int) throws(ConfigurationError) -> HostRule) throws(ConfigurationError) -> Int {
        let index = try added.withLock { list throws(ConfigurationError) -> Int in
            let index = file.rules.count + list.count  // numbered after the file's rules
            let hostRule = try make(index)
            let r = hostRule.rule
            guard !r.patterns.isEmpty || !r.globs.isEmpty || hostRule.predicate != nil else {
                throw ConfigurationError(code: .schema, message: "rule \(index): a rule added from code needs patterns, globs or a predicate", ruleIndex: index)
            }
            // As a file's rule is held (ConfigurationDecoder): limits, and methods a non-empty list of tokens, each once.
            for (what, values) in [("pattern", r.patterns), ("glob", r.globs)] {
                guard values.count <= options.limits.maxPatternsPerRule else {
                    throw ConfigurationError(code: .limit, message: options.limits.tooMany(values.count, what, rule: index), ruleIndex: index)
                }
                for (p, value) in values.enumerated() where value.utf8.count > options.limits.maxPatternBytes {
                    throw ConfigurationError(code: .limit, message: options.limits.tooLong(value.utf8.count, what, at: p, rule: index),
                                             ruleIndex: index, patternIndex: p)
                }
            }
            var methods: [String]?
            if let list = r.methods {
                guard !list.isEmpty else {
                    throw ConfigurationError(code: .schema, message: "rule \(index): " + HTTPMethod.notAList(found: "[]"), ruleIndex: index)
                }
                methods = try list.map { m throws(ConfigurationError) in
                    guard let n = HTTPMethod.normalized(m) else {
                        throw ConfigurationError(code: .schema, message: "rule \(index): " + HTTPMethod.notAMethod(JSONWriter.quoted(m)), ruleIndex: index)
                    }
                    return n
                }.uniqued()
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

    /// Drops every memoised result (`PathConfiguration.invalidate()`).
    func invalidate() { cache.invalidate() }
}
