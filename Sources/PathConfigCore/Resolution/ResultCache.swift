import Synchronization

/// The memoised results of a configuration, at two levels:
///
/// - per lookup (method, matched string, and the URL), for configurations
///   with globs or rules from code: a hit skips every regex, predicate and
///   configurer. `invalidate()` (Siesta's `invalidateConfiguration`) empties
///   it, so that rules from code run again. Lookups of file patterns alone
///   skip this level (`RuleResolver.resolveString`): matching them costs less
///   than a key and a lock.
/// - per set of matching rules (file rules only): the merged properties and
///   their JSON are made once for each distinct set, so unique URLs that
///   match the same rules share one result.
///
/// Rule-set results are handed out through `ThreadResults`: a thread that
/// meets a set often gets its own copy of the shared result, so that threads
/// do not contend for one object.
///
/// Lookup keys compare the matched strings' UTF-8 bytes, never `String`
/// equality: that is Unicode canonical equivalence (`é` equals `e` + U+0301,
/// `K` equals U+212A KELVIN SIGN), while regexes see code points, so two
/// strings that compare equal can match different rules.
final class ResultCache: Sendable {
    private let byLookup: SharedCache
    private let byRuleSet: SharedCache
    /// This cache's number, unique in the process: what `ThreadResults` keys
    /// its copies by (an address could be reused by a later cache).
    private let serial = ResultCache.serials.wrappingAdd(1, ordering: .relaxed).newValue

    private static let serials = Atomic<UInt64>(0)

    /// The distinct sets of matching rules a configuration keeps results for
    /// (whatever `result_cache_size`): a configuration has few, and each
    /// costs one merge and one JSON text.
    static let ruleSetCapacity = 4096

    /// `capacity` lookups (0 turns that level off: `result_cache_size`), and
    /// `ruleSetCapacity` distinct sets of matching rules.
    init(capacity: Int) {
        byLookup = SharedCache(capacity: capacity)
        byRuleSet = SharedCache(capacity: Self.ruleSetCapacity)
    }

    /// Whether lookups are memoised (`result_cache_size` above 0): when not,
    /// callers need not make a `Key`.
    var keepsLookups: Bool { byLookup.isEnabled }

    /// The token that opens a lookup: read it before the rules added from
    /// code (`SharedCache.generation`).
    var generation: UInt64 { byLookup.generation }

    /// The result of a lookup, or `compute()`'s, kept unless the cache was
    /// invalidated since `generation` was read.
    func value(for key: Key, since generation: UInt64, compute: () throws(ResolveError) -> PathProperties) throws(ResolveError) -> PathProperties {
        try byLookup.value(for: .lookup(key), since: generation, compute: compute)
    }

    /// The merged result of exactly the rules listed in `matches` (file
    /// rules, in order), made once (for a set the calling thread meets
    /// often, its own copy: `ThreadResults`). No `RuleSet` is made when the
    /// calling thread keeps the result: a lookup that finds it there
    /// allocates nothing.
    func value(forRulesIn matches: UnsafeBufferPointer<RuleMatch>, make: () -> PathProperties) -> PathProperties {
        #if PATHCONFIG_ABLATE_RULESETS
        return make()  // make bench-ablation: the layer off
        #elseif PATHCONFIG_ABLATE_THREADRESULTS
        let rules = RuleSet(matches: Array(matches), hash: RuleSet.hash(of: matches))  // make bench-ablation: the layer off
        return byRuleSet.value(for: .ruleSet(rules), compute: make)
        #endif
        ThreadResults.withCurrent { local in
            let hash = RuleSet.hash(of: matches)
            if let kept = local.value(owner: serial, hash: hash, matches: matches) { return kept }
            let rules = RuleSet(matches: Array(matches), hash: hash)
            let shared = byRuleSet.value(for: .ruleSet(rules), compute: make)
            local.store(shared: shared, owner: serial, rules: rules)
            return shared
        }
    }

    /// Drops every memoised lookup; lookups already computing will not store theirs.
    func invalidate() { byLookup.invalidate() }

    /// What decides a lookup's result: the method, the string patterns see,
    /// and (when globs or rules from code need it) the URL. Hashed once, by
    /// UTF-8 bytes, without copying them.
    struct Key: Hashable, Sendable {
        let method: String
        let patternSubject: String
        let url: String?
        let hash: Int

        init(method: String, patternSubject: String, url: String?) {
            self.method = method
            self.patternSubject = patternSubject
            self.url = url
            var hasher = Hasher()
            hasher.combine(method)
            patternSubject.hashBytes(into: &hasher)
            // A URL that is the pattern subject (siesta with query strings)
            // is hashed once; `==` still compares it.
            if let url, url != patternSubject { url.hashBytes(into: &hasher) }
            hash = hasher.finalize()
        }

        static func == (a: Key, b: Key) -> Bool {
            // Methods are ASCII tokens: String equality is byte equality there.
            guard a.hash == b.hash, a.method == b.method, String.sameBytes(a.patternSubject, b.patternSubject) else { return false }
            switch (a.url, b.url) {
            case (nil, nil): return true
            case let (x?, y?): return String.sameBytes(x, y)
            default: return false
            }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// The rules that matched one lookup, in order, compared by rule index
    /// (which pattern or glob matched does not change the result).
    struct RuleSet: Hashable, Sendable {
        let matches: [RuleMatch]
        /// `hash(of:)` of `matches`.
        let hash: Int

        /// The hash of the set `matches` lists: FNV-1a over the indices,
        /// then a final mix. Cheaper than a seeded Hasher, and keys are
        /// compared in full on a hit, so the hash only spreads sets over
        /// slots.
        static func hash(of matches: UnsafeBufferPointer<RuleMatch>) -> Int {
            var h: UInt64 = 0xCBF2_9CE4_8422_2325
            for m in matches { h = (h ^ UInt64(truncatingIfNeeded: m.ruleIndex)) &* 0x100_0000_01B3 }
            h ^= h >> 29
            h = h &* 0xBF58_476D_1CE4_E5B9
            return Int(truncatingIfNeeded: h ^ h >> 32)
        }

        /// Whether this is the set `matches` lists (whose hash is `hash`).
        func isSet(of matches: UnsafeBufferPointer<RuleMatch>, hash: Int) -> Bool {
            guard self.hash == hash, self.matches.count == matches.count else { return false }
            return self.matches.withUnsafeBufferPointer { mine in
                for i in mine.indices where mine[i].ruleIndex != matches[i].ruleIndex { return false }
                return true
            }
        }

        static func == (a: RuleSet, b: RuleSet) -> Bool {
            a.matches.withUnsafeBufferPointer { b.isSet(of: $0, hash: a.hash) }
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A key of either level.
    enum CacheKey: Hashable, Sendable {
        case lookup(Key)
        case ruleSet(RuleSet)
    }
}
