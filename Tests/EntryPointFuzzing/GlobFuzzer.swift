import Foundation
import PathConfiguration
import PathConfigurationFoundation

/// `pathconfig-fuzz-globs`: a fuzzed Siesta glob, base URL and URLs through
/// `GlobPattern`, `BaseURL` and resolution under the siesta profile.
///
/// Input: a selector byte (the base URL: none, fuzzed, or one of two fixed
/// ones; query matching), then NUL-separated fields: the glob, the base URL
/// text when it is fuzzed, then up to four URLs.
///
/// Checks:
/// - a base URL that `BaseURL` accepts keeps the origin (scheme, host,
///   port) of its text, and ends in `/`;
/// - every glob loads under the strict siesta profile (only a limit may
///   refuse it);
/// - security: a relative glob matches no URL whose origin differs from
///   the base URL's; an absolute glob without wildcards in its authority
///   matches no URL whose origin differs from its own (`Origin`, written
///   apart from the library's URL parsing);
/// - PCRE2 and Foundation (NSRegularExpression) agree on every match, when
///   the glob and URL are small enough for ICU, which has no match budget;
/// - the prefilter and the glob's automaton (`GlobPattern.automatonForm`,
///   on printable ASCII URLs) agree with Siesta's expression run by the
///   engine alone (`usePrefilter` off) on every match the engine decides
///   within its match budget.
public enum GlobFuzzer {
    /// The fixed base URLs a selector picks (with none, and a fuzzed one).
    static let fixedBases = ["https://api.example.com/v1", "http://LOCALHOST:8080/"]

    /// Builds an input from its parts (`base` nil: no base URL).
    public static func input(glob: String, base: String?, urls: [String], matchQueryStrings: Bool = true) -> [UInt8] {
        let selector: UInt8 = (base == nil ? 0 : 1) | (matchQueryStrings ? 0 : 4)
        let fields = [Array(glob.utf8)] + (base.map { [Array($0.utf8)] } ?? []) + urls.map { Array($0.utf8) }
        return FuzzInputBuilder.encode([selector], fields: fields)
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        var reader = FuzzReader(bytes)
        let selector = reader.byte()
        let glob = String(repairing: reader.field())
        let baseText: String?
        switch selector & 3 {
        case 0: baseText = nil
        case 1: baseText = String(repairing: reader.field())
        default: baseText = fixedBases[Int(selector & 3) - 2]
        }
        var urls: [String] = []
        while !reader.isAtEnd, urls.count < 4 { urls.append(String(repairing: reader.field())) }
        do throws(Violation) {
            try check(glob: glob, baseText: baseText, urls: urls, matchQueryStrings: selector & 4 == 0)
            return nil
        } catch {
            return error
        }
    }

    static func check(glob: String, baseText: String?, urls: [String], matchQueryStrings: Bool) throws(Violation) {
        var base: BaseURL?
        if let baseText {
            base = try? BaseURL(baseText)
            if let base { try checkBase(base, text: baseText) }
        }
        _ = GlobPattern.regex(for: glob, base: base)
        let document = "{\"rules\":[{\"globs\":[" + JSONWriter.quoted(glob) + "],\"properties\":{\"glob\":true}}]}"
        var options = LoadOptions(profile: .siesta, matchQueryStrings: matchQueryStrings)
        options.baseURL = base
        options.limits.resultCacheCapacity = 0
        let configuration: PathConfiguration
        do throws(ConfigurationError) {
            configuration = try PathConfiguration(json: document, options: options)
        } catch {
            if error.code == .limit { return }
            throw Violation("glob \(JSONWriter.quoted(glob)) (base \(base?.string ?? "none")) does not load: \(error.code) \(error.message)")
        }
        var engineOnlyOptions = options
        engineOnlyOptions.usePrefilter = false
        guard let engineOnly = try? PathConfiguration(json: document, options: engineOnlyOptions) else {
            throw Violation("glob \(JSONWriter.quoted(glob)) loads with the prefilter, not without it")
        }
        var foundationOptions = options
        foundationOptions.engine = FoundationEngine()
        let tame = isTame(GlobPattern.regex(for: glob, base: base))
        let foundation = tame ? try? PathConfiguration(json: document, options: foundationOptions) : nil
        if tame, foundation == nil { throw Violation("glob \(JSONWriter.quoted(glob)) loads with PCRE2, not with Foundation") }

        for url in urls {
            let what = "glob \(JSONWriter.quoted(glob)) (base \(base?.string ?? "none")) on \(JSONWriter.quoted(url))"
            let explanation: Explanation
            do throws(ResolveError) {
                explanation = try configuration.explain(url)
            } catch {
                throw Violation("\(what): \(error.message)")
            }
            let matched = explanation.rules.contains { $0.index == 0 }
            if matched { try checkOrigin(glob: glob, base: base, url: explanation.url, what: what) }
            // Where the engine ran out of its match budget it answers no
            // match; the automaton, linear, still decides: nothing to compare.
            let byEngine = try? engineOnly.explain(url)
            if let byEngine, byEngine.limitExceeded.isEmpty, byEngine.rules.contains(where: { $0.index == 0 }) != matched {
                throw Violation("\(what): with the prefilter it \(matched ? "matches" : "does not match"), by the engine alone it \(matched ? "does not" : "does") (regex \(GlobPattern.regex(for: glob, base: base)), automaton \(GlobPattern.automatonForm(for: glob, base: base)))")
            }
            if let foundation, url.utf8.count <= 160 {
                let other = ((try? foundation.matchingRules(for: url)) ?? []).contains { $0.ruleIndex == 0 }
                if other != matched {
                    throw Violation("\(what): PCRE2 \(matched ? "matches" : "does not match"), Foundation \(other ? "matches" : "does not match") (regex \(GlobPattern.regex(for: glob, base: base)))")
                }
            }
        }
    }

    /// A normalised base URL keeps its text's origin: the same server, its
    /// host as Foundation's `URL(string:)` writes it back (IDNA for a name
    /// beyond ASCII, an IP literal's bytes percent-encoded), its port read as
    /// a number (`0080` is `80`; an empty one is none).
    static func checkBase(_ base: BaseURL, text: String) throws(Violation) {
        guard base.string.hasSuffix("/"), var normalised = Origin(base.string), var written = Origin(text) else {
            throw Violation("base URL \(JSONWriter.quoted(text)) became \(JSONWriter.quoted(base.string)): origin \(Origin(text)?.description ?? "none") -> \(Origin(base.string)?.description ?? "none")")
        }
        // The host as Foundation's URL(string:) writes it back (absoluteString:
        // IDNA for a name beyond ASCII, an IP literal's bytes percent-encoded;
        // host(percentEncoded:) would give a name percent-encoded, not
        // IDNA-encoded). Where it has none for a name beyond ASCII, a
        // difference docs/request-rules.md documents.
        if let host = URL(string: text).flatMap({ Origin($0.absoluteString)?.host }) {
            written.host = host
        } else if written.host.utf8.contains(where: { $0 >= 0x80 }) {
            return
        }
        // An empty port is no port.
        func number(_ port: String?) -> String? { port.flatMap { $0.isEmpty ? nil : Int($0).map(String.init) ?? $0 } }
        written.port = number(written.port)
        normalised.port = number(normalised.port)
        guard normalised == written else {
            throw Violation("base URL \(JSONWriter.quoted(text)) became \(JSONWriter.quoted(base.string)): origin \(Origin(text)?.description ?? "none") -> \(Origin(base.string)?.description ?? "none")")
        }
    }

    /// The origin check on its own, for tests: the violation a match of
    /// `glob` on `url` under `base` would be, if any.
    public static func originViolation(glob: String, base: String?, url: String) -> Violation? {
        do throws(Violation) {
            try checkOrigin(glob: glob, base: base.flatMap { try? BaseURL($0) }, url: url, what: "glob \(JSONWriter.quoted(glob))")
            return nil
        } catch {
            return error
        }
    }

    /// The security property: a glob's match stays on the origin it names.
    static func checkOrigin(glob: String, base: BaseURL?, url: String, what: String) throws(Violation) {
        let expected: Origin
        if GlobPattern.isAbsolute(glob) {
            // Only when the glob's own authority is literal.
            guard let origin = Origin(glob), !authority(of: glob).contains(where: { $0 == "*" || $0 == "?" }) else { return }
            expected = origin
        } else {
            guard let base, let origin = Origin(base.string) else { return }  // without a base a relative glob is taken as written
            expected = origin
        }
        guard let actual = Origin(url), actual == expected else {
            throw Violation("\(what): matches \(JSONWriter.quoted(url)), origin \(Origin(url)?.description ?? "none"), outside \(expected)")
        }
    }

    /// The text between `//` and the first `/` after it (the glob's authority, wildcards included).
    static func authority(of glob: String) -> Substring {
        guard let slashes = glob.firstRange(of: "//") else { return "" }
        let rest = glob[slashes.upperBound...]
        return rest[..<(rest.firstIndex(of: "/") ?? rest.endIndex)]
    }

    /// Whether Foundation may run a glob's regex: few enough wildcards for
    /// ICU, which has no match budget, to answer quickly, and at most 256
    /// UTF-16 units (CoreFoundation leaks the copy of a longer pattern, see
    /// Tests/Sanitizers/lsan.supp, and every leak costs libFuzzer a full leak check).
    static func isTame(_ regex: String) -> Bool {
        regex.utf16.count <= 256 && regex.utf8.count(where: { $0 == UInt8(ascii: "*") }) <= 4
    }
}
