import PathConfigModel

/// Checks a path configuration for what loads but probably does not do what
/// its author meant, for every app it is meant for.
///
/// ```swift
/// let findings = try Linter(options: LintOptions(profiles: [.hotwireIOS, .hotwireAndroid])).lint(bytes)
/// for f in findings { print(f) }   // 12:9: rule 3 ("Forms"): ... [unescaped-dot]
/// ```
///
/// The checks (one type each, in `Lint/Checks`): patterns an engine rejects
/// (`invalid-pattern`), rules later rules always override (`overridden-rule`),
/// repeated keys (`duplicate-key`), `$` before a query string
/// (`query-string-anchor`), an unescaped `.` before a file extension
/// (`unescaped-dot`), `"true"`/`"false"` as strings and unknown values of the
/// well-known typed keys (`string-boolean`, `unknown-value`), trailing commas
/// (`trailing-comma`), and what the decoder knows the mobile apps reject or
/// ignore (`not-portable`, `ignored-settings`). Findings come sorted by
/// position in the document. Lint never traps and never prints.
public struct Linter: Sendable {
    /// The profiles and load options checked against.
    public var options: LintOptions

    /// Creates a linter.
    public init(options: LintOptions = LintOptions()) { self.options = options }

    /// The checks, in the order their findings are listed at one position.
    static let checks: [any LintCheck] = [
        DecoderCheck(), TrailingCommaCheck(), RepeatedKeyCheck(), PatternCompileCheck(), QueryStringAnchorCheck(), UnescapedDotCheck(),
        TypedValueCheck(), OverriddenRuleCheck(),
    ]

    /// The findings for a document's bytes, sorted by position. Throws the
    /// error a load reports when the bytes are not a configuration at all
    /// (not JSON, no `rules`, a limit exceeded).
    public func lint(_ bytes: some Collection<UInt8>) throws(ConfigurationError) -> [LintFinding] {
        let document = try LintDocument(Array(bytes), options: options)
        var found: [(order: Int, finding: LintFinding)] = []
        for check in Self.checks {
            for finding in check.findings(in: document) { found.append((found.count, finding)) }
        }
        found.sort { a, b in
            let x = a.finding.location?.offset ?? -1, y = b.finding.location?.offset ?? -1
            return x != y ? x < y : a.order < b.order
        }
        return found.map(\.finding)
    }

    /// The findings for a document given as text.
    public func lint(_ text: String) throws(ConfigurationError) -> [LintFinding] { try lint(Array(text.utf8)) }
}
