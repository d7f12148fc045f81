import Foundation
import DialectFuzzing
import EntryPointFuzzing
import Testing

/// Every stored input of the entry-point fuzz targets, through the check the
/// target runs (`make fuzz` runs them under libFuzzer): the seeds, and each
/// input that once broke a check (Fuzz/<Target>/crashes/), so a crash found
/// stays a test.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// The targets: their directory under Fuzz/ and their check.
    static let targets: [(String, @Sendable ([UInt8]) -> Violation?)] = [
        ("Load", LoadFuzzer.check),
        ("Resolve", ResolveFuzzer.check),
        ("Globs", GlobFuzzer.check),
        ("Loader", LoaderFuzzer.check),
        ("Exchange", ExchangeFuzzer.check),
        ("Lint", LintFuzzer.check),
        ("Port", PortFuzzer.check),
        ("Dialect", DialectFuzzer.check),
    ]

    @Test("seeds and stored crashes pass their target's check", arguments: targets.map(\.0))
    func replay(_ target: String) throws {
        let check = try #require(Self.targets.first { $0.0 == target }?.1)
        let files = ["seeds", "crashes"].flatMap { FuzzFiles.inputs(at: FuzzFiles.inRepository("Fuzz/\(target)/\($0)")) }
        #expect(files.count >= 3, "Fuzz/\(target) has no seeds")
        var violations: [String] = []
        for file in files {
            let bytes = try #require(FuzzFiles.read(file))
            if let violation = check(bytes) { violations.append("\(file): \(violation)") }
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    /// The dialect target's other half: its seeds and stored crashes under
    /// the Android profile, pcre2 against the JDK (one JVM run for all).
    @Test("the dialect target's seeds and stored crashes: pcre2 finds what the JDK finds")
    func dialectJava() throws {
        let files = ["seeds", "crashes"].flatMap { FuzzFiles.inputs(at: FuzzFiles.inRepository("Fuzz/Dialect/\($0)")) }
        let sides = try files.map { DialectFuzzer.javaCase(try #require(FuzzFiles.read($0))) }
        defer { JDKOracle.removeScratch() }
        let violations = try sides.compactMap(\.1) + DialectFuzzer.compare(sides.compactMap(\.0)).get().map(\.0)
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    /// A stored dialect input in the grammar's form (an even first byte)
    /// means what the grammar's vocabulary makes of its bytes, so a change to
    /// the vocabulary changes it: each must still read as the pattern it was
    /// found as. A find is better stored as raw text (`DialectInput.encode`),
    /// as the others are; these two need the grammar's subjects, which raw
    /// text would not search.
    @Test("the dialect target's stored inputs in the grammar's form still read as the patterns they were found as")
    func dialectGrammarInputs() throws {
        let found = [
            "java-possessive-group-auto-possess": "(?i://///[[[kkkk][kkkk][kkkk][à-ÿ\\p{Lu}k/]]K=\\d]é?(?>,){0,1}+é)é??{2}é??{2}(?i)",
            "java-zero-repeat-lookahead-first-unit": "(?i)[[\\[&&$&&\\p{Lu}]\\x{6B}]{0}",
        ]
        var grammarForm: [String] = []
        for file in FuzzFiles.inputs(at: FuzzFiles.inRepository("Fuzz/Dialect/crashes")) {
            let bytes = try #require(FuzzFiles.read(file))
            guard let first = bytes.first, first & 1 == 0 else { continue }
            let name = String(file.split(separator: "/").last ?? "")
            grammarForm.append(name)
            #expect(DialectInput(bytes)?.pattern == found[name], "\(name) reads as \(DialectInput(bytes)?.pattern ?? "nothing")")
        }
        #expect(grammarForm.sorted() == found.keys.sorted())
    }

    /// The checks are not vacuous: inputs that break each property are caught.
    @Test("a rule lint called overridden that does change a result would be reported")
    func overriddenCheck() {
        let document = #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"}}, {"patterns": [".*"], "properties": {"title": "x"}}]}"#
        #expect(LintFuzzer.overriddenViolation(document, rule: 0, profiles: [.hotwireIOS]) != nil)
        let overridden = document.replacingOccurrences(of: #""title": "x""#, with: #""context": "default""#)
        #expect(LintFuzzer.overriddenViolation(overridden, rule: 0, profiles: [.hotwireIOS, .hotwireAndroid]) == nil)
    }

    @Test("a relative glob that matched another origin would be reported")
    func originCheck() {
        // The library never does this; the check is fed a fabricated match.
        #expect(GlobFuzzer.check(GlobFuzzer.input(glob: "**", base: "https://api.example.com/v1", urls: ["https://api.example.com/v1/x"])) == nil)
        #expect(GlobFuzzer.originViolation(glob: "/**", base: "https://api.example.com/v1/", url: "https://evil.example.com/v1/x") != nil)
        #expect(GlobFuzzer.originViolation(glob: "/**", base: "https://api.example.com/v1/", url: "https://API.example.com/v1/x") == nil)
        #expect(GlobFuzzer.originViolation(glob: "https://a.example/*", base: nil, url: "https://a.example:8080/x") != nil)
    }

    @Test("the exchange target's model and policy checks catch what they are for")
    func exchangeChecks() {
        // A redirect to another host followed without the option, a
        // downgrade to http, credentials sent across hosts.
        #expect(ExchangeFuzzer.redirectViolation(from: "https://config.example/a", to: "https://other.example/b", followsOtherHosts: false) != nil)
        #expect(ExchangeFuzzer.redirectViolation(from: "https://config.example/a", to: "http://config.example/b", followsOtherHosts: true) != nil)
        #expect(ExchangeFuzzer.redirectViolation(from: "https://config.example/a", to: "https://other.example/b", followsOtherHosts: true,
                                                 headers: [("Cookie", "s=1")]) != nil)
        #expect(ExchangeFuzzer.redirectViolation(from: "https://config.example/a", to: "https://CONFIG.example:8443/b", followsOtherHosts: false) == nil)
        // The model predicts a refusal where the loader refuses, and the
        // check reports an outcome that differs from the prediction.
        #expect(ExchangeFuzzer.predicted(followsOtherHosts: false, statuses: [302, 200], location: 1) == "download failure httpStatus 302")
        #expect(ExchangeFuzzer.predicted(followsOtherHosts: true, statuses: [302, 200], location: 1) != "download failure httpStatus 302")
    }

    @Test("a request with a bare CR in a header would be reported")
    func requestCheck() {
        #expect(LoaderFuzzer.requestViolation(Array("GET / HTTP/1.1\r\nIf-None-Match: a\rb\r\n\r\n".utf8)) != nil)
        #expect(LoaderFuzzer.requestViolation(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == nil)
    }
}
