/// One rule of a path configuration: what selects URLs (regular-expression
/// `patterns`, Siesta-style `globs`, optionally limited to some HTTP
/// `methods`), and the properties those URLs get.
public struct Rule: Sendable, Hashable {
    /// 0-based position of the rule in the configuration (built-in rules
    /// continue the numbering after the file's rules, rules added from code
    /// after those).
    public let index: Int
    /// Regular expressions, searched unanchored in the matched string; the
    /// rule applies when any of them (or any glob) matches. An empty list never matches.
    public let patterns: [String]
    /// Siesta globs (`/volcanos/*/status`, `/**/knob`), matched against the
    /// whole URL, relative ones under the `base_url` option (see `GlobPattern`).
    public let globs: [String]
    /// The HTTP methods the rule applies to, upper-cased; nil for every method.
    public let methods: [String]?
    /// The properties merged into the result when the rule applies.
    public let properties: JSONObject
    /// Every other key of the rule object (`comment`, `description`, ...), kept as written.
    public let extras: JSONObject
    /// True for the historical-location rules a profile appends after the file's rules.
    public let isBuiltIn: Bool
    /// The byte offset where each pattern string starts in the document it
    /// was decoded from (parallel to `patterns`; empty for built-in rules and
    /// rules made in code). `ConfigurationDocument.location(ofPattern:inRule:)`
    /// turns one into a line and column.
    public let patternOffsets: [Int]
    /// The byte offset of each glob string, as `patternOffsets` for patterns.
    public let globOffsets: [Int]

    /// Creates a rule.
    public init(index: Int, patterns: [String], globs: [String] = [], methods: [String]? = nil, properties: JSONObject,
                extras: JSONObject = [:], isBuiltIn: Bool = false, patternOffsets: [Int] = [], globOffsets: [Int] = []) {
        self.index = index
        self.patterns = patterns
        self.globs = globs
        self.methods = methods
        self.properties = properties
        self.extras = extras
        self.isBuiltIn = isBuiltIn
        self.patternOffsets = patternOffsets
        self.globOffsets = globOffsets
    }

    /// The rule's `description` (or, failing that, its `comment`) when it is a string.
    public var description: String? {
        extras["description"]?.stringValue ?? extras["comment"]?.stringValue
    }

    /// Whether the rule applies to requests with `method` (already normalised).
    public func applies(to method: String) -> Bool { methods?.contains(method) ?? true }

    /// "rule 3" or `rule 3 ("auth token")`: how messages name the rule.
    package var label: String { description.map { "rule \(index) (\(JSONWriter.quoted($0)))" } ?? "rule \(index)" }
}
