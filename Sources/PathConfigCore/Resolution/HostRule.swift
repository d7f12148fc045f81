/// What a host predicate or configurer is told about the lookup it runs for.
public struct RuleRequest: Sendable, Hashable {
    /// The URL as a request would be made (`Lookup.url`): relative
    /// inputs appended to the base URL as Siesta's `resource(_:)` appends
    /// them, scheme lower-cased, percent-encoded and a host beyond ASCII
    /// IDNA-encoded as Foundation's `URL(string:)` would; `:` for a URL
    /// `URL(string:)` rejects.
    public let url: String
    /// The HTTP method, upper-cased (`GET` when the lookup named none).
    public let method: String

    /// Creates a request.
    public init(url: String, method: String) {
        self.url = url
        self.method = method
    }
}

/// A rule added from code, as Siesta's `configure(…)` adds one: it joins the
/// end of the configuration's ordered rules (`PathConfiguration.add(_:)`).
///
/// It matches like a rule from the file (its `patterns` or `globs`, limited
/// to its `methods`), and can also, or instead, ask a host `predicate`
/// (Siesta's `whenURLMatches`): with both, the predicate refines the
/// patterns. When it applies, its fixed `properties` merge into the result,
/// then its `configurer` (if any) receives the properties merged so far and
/// changes them, reading whatever the host holds at that moment (an auth
/// token). Results are memoised: predicates and configurers run again only
/// after `PathConfiguration.invalidate()`.
///
/// Predicates and configurers run on the thread that resolves, possibly on
/// several threads at once, and may call back into the configuration. An
/// error they throw fails that lookup (`ResolveError.Code.hostRule`), which
/// is then not memoised.
public struct HostRule: Sendable {
    /// Decides whether the rule applies to a request.
    public typealias Predicate = @Sendable (RuleRequest) throws -> Bool
    /// Changes the properties merged so far.
    public typealias Configurer = @Sendable (inout JSONObject, RuleRequest) throws -> Void

    /// Patterns, globs, methods, fixed properties and `description`, as a
    /// file's rule holds them (its index is given when the rule is added).
    public var rule: Rule
    /// The host's test, when there is one.
    public var predicate: Predicate?
    /// The host's change to the properties, when there is one.
    public var configurer: Configurer?
    /// An object the rule keeps for as long as it exists and releases with
    /// the configuration holding it, whether or not the rule has callbacks
    /// (the C ABI's host context, whose free function runs then).
    public var owner: (any AnyObject & Sendable)?

    /// Creates a rule from its parts. At least one of `patterns`, `globs` and
    /// `predicate` must be given (`PathConfiguration.add(_:)` checks).
    public init(patterns: [String] = [], globs: [String] = [], methods: [String]? = nil, description: String? = nil,
                properties: JSONObject = [:], predicate: Predicate? = nil, configurer: Configurer? = nil) {
        self.init(rule: Rule(index: 0, patterns: patterns, globs: globs, methods: methods, properties: properties,
                             extras: description.map { ["description": .string($0)] } ?? [:]),
                  predicate: predicate, configurer: configurer)
    }

    /// Creates a rule around one decoded from JSON (`ConfigurationDecoder.decodeRule`).
    public init(rule: Rule, predicate: Predicate? = nil, configurer: Configurer? = nil, owner: (any AnyObject & Sendable)? = nil) {
        self.rule = rule
        self.predicate = predicate
        self.configurer = configurer
        self.owner = owner
    }
}
