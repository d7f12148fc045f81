/// Bounds that keep hostile input from costing unbounded time or memory.
///
/// One value, passed down from the load options to the decoder and the
/// regex engine, so every limit is decided in one place. The defaults are far
/// above what real path configurations need (the largest benchmark corpus has
/// 10,000 rules in 1.4 MB).
public struct Limits: Sendable, Hashable {
    /// Largest configuration document, in bytes.
    public var maxDocumentBytes: Int = 64 << 20
    /// Deepest nesting of arrays and objects in the document.
    public var maxNestingDepth: Int = 256
    /// Most rules in one configuration.
    public var maxRules: Int = 200_000
    /// Most patterns in one rule.
    public var maxPatternsPerRule: Int = 10_000
    /// Longest pattern, in bytes of UTF-8.
    public var maxPatternBytes: Int = 16_384
    /// Backtracking budget of a regex search at each start position (PCRE2's
    /// match limit, which its interpreter counts afresh at every position it
    /// tries). A search that runs out counts as no match and is reported by
    /// `explain`.
    public var matchLimit: UInt32 = 10_000_000
    /// Memory budget of one regex search, in KiB (PCRE2's heap limit, which
    /// bounds the interpreter's backtracking frames). A search that runs out
    /// counts as no match and is reported by `explain`.
    ///
    /// The default leaves room for repeated groups on URLs of 64 KB, which
    /// ICU (iOS) answers: `^/((x)|(y))*$` on 64 KB of `x` needs between 20
    /// and 50 MiB. Memory is taken only as a search goes deeper, and given
    /// back when it ends.
    public var heapLimitKiB: UInt32 = 65_536
    /// Longest URL or path a lookup accepts, in bytes of UTF-8 (the
    /// `max_url_bytes` option). A longer input fails with
    /// `ResolveError.Code.limit` before any pattern runs.
    ///
    /// 64 KiB is eight times the request line most servers accept (nginx
    /// and Apache stop at about 8 KiB) and the size `heapLimitKiB` is chosen
    /// for, so that the memory and time one lookup costs stay bounded.
    public var maxURLBytes: Int = 65_536
    /// Most results kept in a configuration's per-lookup result cache (0
    /// turns it off; the `result_cache_size` option). It serves
    /// configurations with globs or rules from code; lookups of patterns
    /// alone skip it, since matching costs less than a lookup in it.
    /// An app visits far fewer distinct paths than this; a larger cache costs
    /// more than it saves when most lookups are new (make bench: 4,096 entries
    /// added 1.4 µs per lookup on 10,000 unique URLs, 512 add 0.5 µs).
    public var resultCacheCapacity: Int = 512

    /// The default limits.
    public init() {}

    /// The message for a rule with `count` `what`s (`pattern` or `glob`),
    /// more than `maxPatternsPerRule`. A file's rules and rules from code
    /// are held to it alike (the callers compare, on the load's hot path).
    func tooMany(_ count: Int, _ what: String, rule: Int) -> String {
        "rule \(rule) has \(count) \(what)s, more than the limit of \(maxPatternsPerRule)"
    }

    /// The message for a rule's `what` at `index` of `bytes` bytes, more
    /// than `maxPatternBytes`.
    func tooLong(_ bytes: Int, _ what: String, at index: Int, rule: Int) -> String {
        "rule \(rule), \(what) \(index) is \(bytes) bytes, more than the limit of \(maxPatternBytes)"
    }
}
