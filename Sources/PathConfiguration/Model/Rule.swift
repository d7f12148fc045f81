/// One rule of a path configuration: patterns that select URLs, and the
/// properties those URLs get.
public struct Rule: Sendable, Hashable {
    /// 0-based position of the rule in the configuration (built-in rules
    /// continue the numbering after the file's rules).
    public let index: Int
    /// Regular expressions, searched unanchored in the matched string; the
    /// rule applies when any of them matches. An empty list never matches.
    public let patterns: [String]
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

    /// Creates a rule.
    public init(index: Int, patterns: [String], properties: JSONObject, extras: JSONObject = [:],
                isBuiltIn: Bool = false, patternOffsets: [Int] = []) {
        self.index = index
        self.patterns = patterns
        self.properties = properties
        self.extras = extras
        self.isBuiltIn = isBuiltIn
        self.patternOffsets = patternOffsets
    }

    /// The rule's `description` (or, failing that, its `comment`) when it is a string.
    public var description: String? {
        extras["description"]?.stringValue ?? extras["comment"]?.stringValue
    }
}
