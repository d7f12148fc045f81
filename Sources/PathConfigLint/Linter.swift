import PathConfigCore

/// Checks a path configuration for what loads but probably does not do what
/// its author meant, for every app it is meant for.
///
/// ```swift
/// let findings = try Linter(options: LintOptions(profiles: [.hotwireIOS, .hotwireAndroid])).lint(bytes)
/// for f in findings { print(f) }   // 12:9: rule 3 ("Forms"): ... [unescaped-dot]
/// ```
///
/// The checks (one type each, in `Lint/Checks`) find the kinds
/// `LintFinding.Kind` lists. Findings come sorted by position in the
/// document. Lint never traps and never prints.
///
/// A team chooses what it hears about: `LintOptions.allow` drops kinds
/// everywhere, and a document allows kinds itself with a `lint` marker,
/// `{"allow": ["query-string-anchor"]}`, at its top level (the whole file) or
/// in a rule (that rule's findings); a marker lint cannot read is a
/// `lint-marker` finding (`LintMarkers`). `LintOptions.deny` names kinds
/// that are reported whatever a marker says.
public struct Linter: Sendable {
    /// The profiles and load options checked against.
    public var options: LintOptions

    /// Creates a linter.
    public init(options: LintOptions = LintOptions()) { self.options = options }

    /// The checks, in the order their findings are listed at one position.
    static let checks: [any LintCheck] = [
        DecoderCheck(), TrailingCommaCheck(), RepeatedKeyCheck(), PatternCompileCheck(), QueryStringAnchorCheck(), UnescapedDotCheck(),
        DeadPatternCheck(),
        TypedValueCheck(), OverriddenRuleCheck(), SpeltApartKeyCheck(),
    ]

    /// The findings for a document's bytes, sorted by position, without those
    /// `options.allow` drops or the document's `lint` markers allow. Throws
    /// the error a load reports when the bytes are not a configuration at all
    /// (not JSON, no `rules`, a limit exceeded).
    public func lint(_ bytes: some Collection<UInt8>) throws(ConfigurationError) -> [LintFinding] { try report(bytes).findings }

    /// The findings for a document given as text.
    public func lint(_ text: String) throws(ConfigurationError) -> [LintFinding] { try lint(Array(text.utf8)) }

    /// What lint found in a document's bytes: the findings to report, and
    /// those its `lint` markers allowed. A kind `options.allow` names is in
    /// neither; one `options.deny` names is always reported, whatever a
    /// marker says. Throws as `lint` does.
    public func report(_ bytes: some Collection<UInt8>) throws(ConfigurationError) -> LintReport {
        let document = try LintDocument(Array(bytes), options: options)
        let markers = LintMarkers(document)
        // By place; `sorted` is stable, so a check's order stays among equals.
        let found = (Self.checks.flatMap { $0.findings(in: document) } + markers.findings).sorted {
            ($0.location?.offset ?? -1) < ($1.location?.offset ?? -1)
        }
        var report = LintReport()
        for finding in found where options.deny.contains(finding.kind) || !options.allow.contains(finding.kind) {
            if !options.deny.contains(finding.kind), markers.allows(finding) {
                report.allowedByMarkers.append(finding)
            } else {
                report.findings.append(finding)
            }
        }
        return report
    }

    /// What lint found in a document given as text.
    public func report(_ text: String) throws(ConfigurationError) -> LintReport { try report(Array(text.utf8)) }
}

/// What lint found in one document (`Linter.report`).
public struct LintReport: Sendable, Hashable {
    /// The findings to report, sorted by position in the document.
    public var findings: [LintFinding] = []
    /// The findings the document's own `lint` markers allowed, sorted by
    /// position: not reported, but counted (`pathconfig validate` says how many).
    public var allowedByMarkers: [LintFinding] = []

    /// An empty report.
    public init() {}
}
