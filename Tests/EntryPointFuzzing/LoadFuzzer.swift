import PathConfiguration
import PathConfigurationC

/// `pathconfig-fuzz-load`: a document loaded under options picked by the
/// input, through the core and through the C ABI, then inspected.
///
/// Input: two selector bytes, then the document. With bit 7 of the first
/// byte set, the options are raw text instead (up to the first NUL, then the
/// document), so the fuzzer also reaches the options JSON reader.
///
/// Checks:
/// - `LoadOptions(json:)` + `PathConfiguration(json:options:)` and
///   `pathconfig_load_json` agree: both load, or both fail with the same code
///   and message; options that are not UTF-8 are `PATHCONFIG_E_ARGUMENT`.
/// - A failure has a message, and its location lies inside the document; a
///   lenient load never fails on a pattern (it skips it with a warning).
/// - A configuration's rule counts, settings and warnings are the same
///   through C; each warning has a message and a place inside the document.
/// - On a few URLs and methods: `resolve` gives `explain`'s properties,
///   `explain` reports `matchedString` and `requestURL`, its rules are in
///   order and in range, and the JSON of both reads back to the same text.
public enum LoadFuzzer {
    /// The selectable base URLs (the first: none).
    static let baseURLs: [String?] = [nil, "https://api.example.com/v1", "http://Example.COM:8080/a%20b/", "https://example.com"]

    /// The URLs every loaded configuration resolves.
    static let urls = ["/", "/new", "/messages/new?x=1", "/recede_historical_location", "https://Example.com/a/b/?q=1#f",
                       "/caf%C3%A9/é", "volcanos/1/status", ""]

    /// The options JSON the selector bytes stand for.
    public static func options(_ a: UInt8, _ b: UInt8) -> String {
        var members: [String] = []
        let profiles = Profile.allCases
        members.append("\"profile\":" + JSONWriter.quoted(profiles[Int(a & 0x7) % profiles.count].rawValue))
        if a & 0x08 != 0 { members.append("\"lenient\":true") }
        members.append("\"merge\":" + (a & 0x10 != 0 ? "\"deep\"" : "\"shallow\""))
        if let base = baseURLs[Int(a >> 5) & 3] { members.append("\"base_url\":" + JSONWriter.quoted(base)) }
        switch b % 3 {
        case 1: members.append("\"match_query_strings\":true")
        case 2: members.append("\"match_query_strings\":false")
        default: break
        }
        switch (b >> 2) & 3 {
        case 1: members.append("\"result_cache_size\":0")
        case 2: members.append("\"result_cache_size\":1")
        case 3: members.append("\"result_cache_size\":4096")
        default: break
        }
        if b & 0x40 != 0 { members.append("\"backend\":\"pcre2\"") }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Builds an input: options from selector bytes `a` (bit 7 clear) and `b`.
    public static func input(_ a: UInt8, _ b: UInt8, document: [UInt8]) -> [UInt8] { [a & 0x7F, b] + document }

    /// Builds an input with raw options text.
    public static func input(options: String, document: [UInt8]) -> [UInt8] {
        [0x80, 0] + Array(options.utf8) + [0] + document
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        var reader = FuzzReader(bytes)
        let a = reader.byte(), b = reader.byte()
        let optionBytes = a & 0x80 != 0 ? reader.field() : Array(options(a, b).utf8)
        let document = reader.rest()
        do throws(Violation) {
            try check(optionBytes: optionBytes, document: document)
            return nil
        } catch {
            return error
        }
    }

    static func check(optionBytes: [UInt8], document: [UInt8]) throws(Violation) {
        // Through C first: the handle is compared with the core's load below.
        let (handle, cFailure) = CABI.withError { err in
            document.withUnsafeBufferPointer { doc in
                CABI.withCString(optionBytes) { opts in
                    doc.withMemoryRebound(to: CChar.self) {
                        pathconfig_load_json($0.baseAddress ?? opts, UInt(doc.count), opts, err)
                    }
                }
            }
        }
        defer { pathconfig_release(handle) }
        if (handle == nil) != (cFailure != nil) {
            throw Violation("pathconfig_load_json returned \(handle == nil ? "NULL" : "a handle") with error \(cFailure.map(\.description) ?? "none")")
        }
        let cOptions = optionBytes.prefix(while: { $0 != 0 })
        guard let optionsText = String(validating: cOptions, as: UTF8.self) else {
            guard cFailure?.code == CABI.argumentCode else {
                throw Violation("options that are not UTF-8 gave \(cFailure.map(\.description) ?? "a handle"), not PATHCONFIG_E_ARGUMENT")
            }
            return
        }

        let configuration: PathConfiguration
        var lenient = false
        do throws(ConfigurationError) {
            var options = try LoadOptions(json: optionsText)
            options.limits.matchLimit = 200_000  // loading never searches; the lookups below stay quick
            lenient = options.lenient
            configuration = try PathConfiguration(json: document, options: options)
        } catch {
            try checkFailure(error, document: document)
            if lenient, error.code == .invalidPattern {
                throw Violation("a lenient load failed on a pattern: \(error.message)")
            }
            guard let cFailure, cFailure.code == Int32(error.code.rawValue), CABI.isTruncation(cFailure.message, of: error.message) else {
                throw Violation("the core failed with \(error.code) \(JSONWriter.quoted(error.message)); C with \(cFailure.map(\.description) ?? "no error")")
            }
            return
        }
        guard let handle else {
            throw Violation("the core loaded the document; C failed with \(cFailure.map(\.description) ?? "no error")")
        }
        try checkConfiguration(configuration, handle: handle, document: document)
        for url in urls {
            for method in [nil, "post"] { try checkLookup(configuration, url, method: method) }
        }
    }

    /// The most bytes the document's text can take as UTF-8, which offsets
    /// count: a document JSONSerialization would read as UTF-16 (a zero among
    /// its first bytes, or a UTF-16 byte-order mark) is converted first, and a
    /// UTF-16 unit may take three UTF-8 bytes.
    static func textLength(_ document: [UInt8]) -> Int {
        let utf16 = document.count >= 2 && (document[0] == 0 || document[1] == 0 || [[0xFF, 0xFE], [0xFE, 0xFF]].contains(Array(document.prefix(2))))
        return utf16 ? document.count * 3 / 2 : document.count
    }

    /// A load error says what and where.
    static func checkFailure(_ error: ConfigurationError, document: [UInt8]) throws(Violation) {
        if error.message.isEmpty { throw Violation("\(error.code) error without a message") }
        if let location = error.location, location.offset > textLength(document) || location.line < 1 || location.column < 1 {
            throw Violation("error \(JSONWriter.quoted(error.message)) at \(location) (offset \(location.offset)) of a \(document.count)-byte document")
        }
    }

    /// A loaded configuration, against its C handle.
    static func checkConfiguration(_ configuration: PathConfiguration, handle: OpaquePointer, document: [UInt8]) throws(Violation) {
        guard configuration.documentRuleCount <= configuration.rules.count,
              pathconfig_rule_count(handle) == UInt(configuration.rules.count),
              pathconfig_document_rule_count(handle) == UInt(configuration.documentRuleCount)
        else {
            throw Violation("rule counts: core \(configuration.rules.count) (\(configuration.documentRuleCount) from the document), C \(pathconfig_rule_count(handle)) (\(pathconfig_document_rule_count(handle)))")
        }
        let settings = JSONWriter.compact(configuration.settings)
        if pathconfig_settings(handle).map({ String(cString: $0) }) != settings { throw Violation("pathconfig_settings differs from \(settings)") }
        try checkRoundTrip(settings, what: "settings")
        let warnings = configuration.warnings
        guard pathconfig_warning_count(handle) == UInt(warnings.count) else {
            throw Violation("\(warnings.count) warnings, pathconfig_warning_count says \(pathconfig_warning_count(handle))")
        }
        let options = JSONWriter.compact(.object(configuration.options.jsonObject))
        guard pathconfig_options(handle).map({ String(cString: $0) }) == options else { throw Violation("pathconfig_options differs from \(options)") }
        try checkRoundTrip(options, what: "options")
        for (i, warning) in warnings.enumerated() {
            if warning.message.isEmpty { throw Violation("warning \(i) (\(warning.kind)) has no message") }
            if let location = warning.location, location.offset > textLength(document) || location.line < 1 || location.column < 1 {
                throw Violation("warning \(JSONWriter.quoted(warning.message)) at \(location) (offset \(location.offset)) of a \(document.count)-byte document")
            }
            if let rule = warning.ruleIndex, rule >= configuration.rules.count {
                throw Violation("warning \(JSONWriter.quoted(warning.message)) names rule \(rule) of \(configuration.rules.count)")
            }
            // struct pathconfig_warning, version 1: six ints, then the message pointer.
            var raw = [UInt8](repeating: 0, count: 32)
            let (status, message) = raw.withUnsafeMutableBytes { p -> (Int32, String) in
                p.storeBytes(of: Int32(1), as: Int32.self)
                let status = pathconfig_warning_get(handle, UInt(i), p.baseAddress)
                let text = p.load(fromByteOffset: 24, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
                return (status, text)
            }
            // The library's copy holds every byte; a C reader stops at a NUL.
            if status != 0 || message != String(decoding: warning.message.utf8.prefix(while: { $0 != 0 }), as: UTF8.self) {
                throw Violation("pathconfig_warning_get(\(i)) = \(status), message \(JSONWriter.quoted(message)), core: \(JSONWriter.quoted(warning.message))")
            }
        }
    }

    /// `resolve` against `explain`, and the strings `explain` reports.
    static func checkLookup(_ configuration: PathConfiguration, _ url: String, method: String?) throws(Violation) {
        let what = "\(method ?? "GET") \(JSONWriter.quoted(url))"
        let resolved: PathProperties, explanation: Explanation
        do throws(ResolveError) {
            resolved = try configuration.resolve(url, method: method)
            explanation = try configuration.explain(url, method: method)
        } catch {
            // No rules from code, valid methods: only a URL the app crashes on
            // throws, and then every lookup of it does.
            guard error.code == .unreadableURL, configuration.profile.platform == .android,
                  (try? configuration.explain(url, method: method)) == nil, configuration.properties(for: url).isEmpty,
                  configuration.matchedString(for: url).isEmpty else {
                throw Violation("\(what): \(error.message)")
            }
            return
        }
        if resolved.json != explanation.properties.json {
            throw Violation("\(what): resolve gives \(resolved.json), explain \(explanation.properties.json)")
        }
        if explanation.matchedString != configuration.matchedString(for: url) || explanation.url != configuration.requestURL(for: url) {
            throw Violation("\(what): explain says \(JSONWriter.quoted(explanation.matchedString)) on \(JSONWriter.quoted(explanation.url)); matchedString \(JSONWriter.quoted(configuration.matchedString(for: url))), requestURL \(JSONWriter.quoted(configuration.requestURL(for: url)))")
        }
        let indices = explanation.rules.map(\.index)
        if indices != indices.sorted() || Set(indices).count != indices.count || indices.contains(where: { $0 < 0 || $0 >= configuration.rules.count }) {
            throw Violation("\(what): explain's rules \(indices) out of order or range (\(configuration.rules.count) rules)")
        }
        try checkRoundTrip(resolved.json, what: "\(what) properties")
        try checkRoundTrip(explanation.json, what: "\(what) explanation")
    }

    /// JSON the library writes reads back, and writes again as the same text.
    static func checkRoundTrip(_ json: String, what: String) throws(Violation) {
        let value: JSONValue
        do throws(ConfigurationError) {
            value = try JSONValue(parsing: json, maxDepth: 1024)
        } catch {
            throw Violation("\(what): the library wrote JSON it cannot read: \(json) (\(error.message))")
        }
        let again = JSONWriter.compact(value)
        if again != json { throw Violation("\(what): \(json) reads back as \(again)") }
    }
}
