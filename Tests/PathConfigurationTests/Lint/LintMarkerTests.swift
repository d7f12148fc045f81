import Foundation
import PathConfiguration
import Testing

@Suite("Lint: the lint marker in a file")
struct LintMarkerTests {
    /// A team's file: `$`-anchored patterns in two rules, an unescaped dot in
    /// one, a `"$schema"` key, and `marker` (JSON text, or nil) at the top level.
    static func document(top marker: String?, rule0: String? = nil) -> String {
        let top = marker.map { "  \"lint\": \($0),\n" } ?? ""
        let inRule = rule0.map { ", \"lint\": \($0)" } ?? ""
        return """
            {
              "$schema": "https://raw.githubusercontent.com/libpathconfig/libpathconfig/main/docs/path-configuration.schema.json",
            \(top)  "settings": {},
              "rules": [
                {"patterns": ["/new$", "/files/.*.pdf$"], "properties": {"context": "modal"}\(inRule)},
                {"patterns": ["/edit$"], "properties": {"context": "modal", "title": 42}}
              ]
            }
            """
    }

    /// What a finding says, apart from where it is (a marker moves the rest).
    static func essence(_ findings: [LintFinding]) -> [String] {
        findings.map { "\($0.kind.rawValue) \($0.ruleIndex.map(String.init) ?? "-") \($0.patternIndex.map(String.init) ?? "-") \($0.message)" }
    }

    static func report(_ json: String, profiles: [Profile] = [], allow: Set<LintFinding.Kind> = [], deny: Set<LintFinding.Kind> = []) throws -> LintReport {
        try Linter(options: LintOptions(profiles: profiles, allow: allow, deny: deny)).report(json)
    }

    @Test("at the top level it allows its kinds in the whole file: the findings are counted, not reported")
    func fileLevel() throws {
        let plain = try Self.report(Self.document(top: nil))
        #expect(plain.findings.filter { $0.kind == .queryStringAnchor }.map(\.ruleIndex) == [0, 0, 1])
        #expect(plain.allowedByMarkers.isEmpty)
        let marked = try Self.report(Self.document(top: #"{"allow": ["query-string-anchor", "unknown-value"]}"#))
        let allowed: Set<LintFinding.Kind> = [.queryStringAnchor, .unknownValue]
        #expect(Self.essence(marked.findings) == Self.essence(plain.findings.filter { !allowed.contains($0.kind) }))
        #expect(Self.essence(marked.allowedByMarkers) == Self.essence(plain.findings.filter { allowed.contains($0.kind) }))
        #expect(marked.findings.map(\.kind) == [.unescapedDot])
        // lint() is the report's findings.
        #expect(try Lint.run(Self.document(top: #"{"allow": ["query-string-anchor", "unknown-value"]}"#)) == marked.findings)
    }

    @Test("in a rule it allows its kinds in that rule's findings only")
    func ruleLevel() throws {
        let json = Self.document(top: nil, rule0: #"{"allow": ["query-string-anchor"]}"#)
        let report = try Self.report(json)
        #expect(report.findings.filter { $0.kind == .queryStringAnchor }.map(\.ruleIndex) == [1])
        #expect(report.allowedByMarkers.map(\.kind) == [.queryStringAnchor, .queryStringAnchor])
        #expect(report.allowedByMarkers.map(\.ruleIndex) == [0, 0])
        // A finding about no rule is not a rule's: settings that are not an object.
        let settings = #"{"settings": [], "rules": [{"patterns": ["/a"], "properties": {}, "lint": {"allow": ["ignored-settings"]}}]}"#
        #expect(try Lint.run(settings, profiles: [.hotwireIOS]).map(\.kind) == [.ignoredSettings])
        #expect(try Lint.run(#"{"settings": [], "lint": {"allow": ["ignored-settings"]}, "rules": []}"#, profiles: [.hotwireIOS]).isEmpty)
    }

    @Test("a rule's own trailing comma and repeated key are its findings too")
    func ruleLevelPlaces() throws {
        let json = #"{"settings": {}, "rules": [{"patterns": ["/a",], "properties": {"title": "A", "title": "B"}, "lint": {"allow": ["trailing-comma", "duplicate-key"]}}]}"#
        let report = try Self.report(json)
        #expect(Set(report.allowedByMarkers.map(\.kind)) == [.trailingComma, .duplicateKey])
        #expect(report.findings.allSatisfy { ![.trailingComma, .duplicateKey].contains($0.kind) })
    }

    @Test("loads under every profile with no warning, and lint says nothing about the marker or \"$schema\"", arguments: Profile.allCases)
    func everyProfile(_ profile: Profile) throws {
        let json = Self.document(top: #"{"allow": ["query-string-anchor"]}"#, rule0: #"{"allow": ["unescaped-dot"]}"#)
        let configuration = try PathConfiguration(json: json, options: LoadOptions(profile: profile))
        #expect(configuration.warnings.isEmpty, "\(configuration.warnings)")
        #expect(configuration.documentRuleCount == 2)
        let plain = try Self.report(Self.document(top: nil), profiles: [profile])
        let marked = try Self.report(json, profiles: [profile])
        // The same findings as without the keys, less the kinds allowed: nothing about "lint" or "$schema".
        let expected = plain.findings.filter { $0.kind != .queryStringAnchor && !($0.kind == .unescapedDot && $0.ruleIndex == 0) }
        #expect(Self.essence(marked.findings) == Self.essence(expected))
        #expect(marked.findings.allSatisfy { ![.lintMarker, .notPortable].contains($0.kind) })
        #expect(marked.allowedByMarkers.count == plain.findings.count - expected.count)
        // The Android apps and siesta read the file as without the keys.
        let bare = try PathConfiguration(json: Self.document(top: nil), options: LoadOptions(profile: profile))
        #expect(configuration.properties(for: "https://example.com/files/a.pdf").json == bare.properties(for: "https://example.com/files/a.pdf").json)
    }

    @Test("a file only Gson reads (comments, single quotes) has its markers read too")
    func gsonOnly() throws {
        let json = "// forms\n{settings: {}, lint: {allow: ['query-string-anchor']}, rules: [\n  {patterns: ['/new$'], properties: {context: 'modal'}}\n]}"
        let report = try Self.report(json, profiles: [.hotwireAndroid])
        #expect(report.findings.isEmpty)
        #expect(report.allowedByMarkers.map(\.kind) == [.queryStringAnchor])
    }

    @Test("a kind lint does not know is a lint-marker finding at that name; the marker's other kinds still count")
    func unknownKind() throws {
        let json = Self.document(top: #"{"allow": ["query-string", "unknown-value"]}"#)
        let report = try Self.report(json)
        let markers = report.findings.filter { $0.kind == .lintMarker }
        try #require(markers.count == 1)
        #expect(markers[0].location.map { [$0.line, $0.column] } == Lint.position(of: #""query-string""#, in: json))
        #expect(markers[0].ruleIndex == nil && markers[0].profiles.isEmpty)
        #expect(markers[0].message.hasPrefix(#""allow" lists "query-string", which is not a kind of lint finding; the kinds are invalid-pattern, overridden-rule, "#))
        #expect(markers[0].message.hasSuffix(LintFinding.Kind.allCases.map(\.rawValue).joined(separator: ", ")))
        #expect(report.findings.contains { $0.kind == .queryStringAnchor })
        #expect(!report.findings.contains { $0.kind == .unknownValue } && report.allowedByMarkers.map(\.kind) == [.unknownValue])
    }

    @Test("a marker of another shape is a lint-marker finding where it goes wrong, and allows nothing there", arguments: [
        (#""query-string-anchor""#, #""query-string-anchor""#, #""lint" must be an object such as {"allow": ["query-string-anchor"]}, not a string ("query-string-anchor"); it allows nothing"#),
        ("null", "null", #""lint" must be an object such as {"allow": ["query-string-anchor"]}, not null; it allows nothing"#),
        (#"["query-string-anchor"]"#, #"["query"#, #""lint" must be an object such as {"allow": ["query-string-anchor"]}, not an array; it allows nothing"#),
        (#"{"allow": "query-string-anchor"}"#, #""query-string-anchor""#, #""allow" must be an array of kinds such as ["query-string-anchor"], not a string ("query-string-anchor"); it allows nothing"#),
        (#"{"allow": [1]}"#, "1]", #""allow" lists 1, which is not a kind of lint finding; the kinds are "#),
        (#"{"alow": ["query-string-anchor"]}"#, #""alow""#, #""lint" has the key "alow", which lint does not read; its one key is "allow", as in {"allow": ["query-string-anchor"]}"#),
    ])
    func wrongShape(_ marker: String, _ at: String, _ message: String) throws {
        for rule in [false, true] {
            let json = rule ? Self.document(top: nil, rule0: marker) : Self.document(top: marker)
            let report = try Self.report(json)
            let markers = report.findings.filter { $0.kind == .lintMarker }
            try #require(markers.count == 1, "\(json)")
            #expect(markers[0].message.hasPrefix(message))
            // At the first `at` after the "lint" key.
            let key = try #require(json.range(of: "\"lint\""))
            let occurrence = String(json[..<key.upperBound]).components(separatedBy: at).count - 1
            #expect(markers[0].location.map { [$0.line, $0.column] } == Lint.position(of: at, in: json, occurrence: occurrence))
            #expect(markers[0].ruleIndex == (rule ? 0 : nil))
            #expect(report.allowedByMarkers.isEmpty)
            #expect(report.findings.filter { $0.kind == .queryStringAnchor }.count == 3)
        }
    }

    @Test("\"lint\" inside properties or settings is a value the apps read, not a marker")
    func notAMarker() throws {
        let json = #"{"settings": {"lint": "x"}, "rules": [{"patterns": ["/new$"], "properties": {"lint": {"allow": ["query-string-anchor"]}}}]}"#
        let report = try Self.report(json, profiles: [.hotwireIOS])
        #expect(report.findings.map(\.kind) == [.queryStringAnchor])
        #expect(report.allowedByMarkers.isEmpty)
    }

    @Test("a repeated \"lint\" key: the first value counts, as when loading, and the repeat is a duplicate-key finding")
    func repeatedKey() throws {
        let json = #"{"settings": {}, "lint": {"allow": ["query-string-anchor"]}, "lint": {"allow": []}, "rules": [{"patterns": ["/new$"], "properties": {}}]}"#
        let report = try Self.report(json, profiles: [.hotwireIOS])
        #expect(report.findings.map(\.kind) == [.duplicateKey])
        #expect(report.allowedByMarkers.map(\.kind) == [.queryStringAnchor])
    }

    @Test("the host decides over the file: deny keeps a kind a marker allows; allow drops a kind whatever the file says")
    func hostDecides() throws {
        let json = Self.document(top: #"{"allow": ["query-string-anchor"]}"#)
        let denied = try Self.report(json, deny: [.queryStringAnchor])
        #expect(denied.findings.filter { $0.kind == .queryStringAnchor }.count == 3)
        #expect(denied.allowedByMarkers.isEmpty)
        // deny wins over the host's own allow too.
        #expect(try Self.report(json, allow: [.queryStringAnchor], deny: [.queryStringAnchor]).findings.filter { $0.kind == .queryStringAnchor }.count == 3)
        // allow: not reported and not counted as the file's.
        let allowed = try Self.report(json, allow: [.queryStringAnchor, .unescapedDot])
        #expect(allowed.findings.map(\.kind) == [.unknownValue])
        #expect(allowed.allowedByMarkers.isEmpty)
        // A marker that allows lint-marker hides its own mistakes, as the team asked; deny shows them.
        let hiding = Self.document(top: #"{"allow": ["lint-marker", "query-strng-anchor"]}"#)
        #expect(try Self.report(hiding).allowedByMarkers.map(\.kind) == [.lintMarker])
        #expect(try Self.report(hiding, deny: [.lintMarker]).findings.contains { $0.kind == .lintMarker })
    }
}
