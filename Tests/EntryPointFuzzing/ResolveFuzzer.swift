import PathConfiguration
import PathConfigurationC

/// `pathconfig-fuzz-resolve`: hostile URLs, as raw bytes, against realistic
/// configurations under every profile.
///
/// Input: a byte picking the document and profile, a byte picking the base
/// URL, rules from code and the method, then the URL (every remaining byte;
/// with the "fuzzed method" choice, the method comes first, up to a NUL).
/// The core sees the bytes as Swift callers would pass them (invalid UTF-8
/// repaired, NULs kept); the C ABI sees them as a C host would (cut at the
/// first NUL, invalid UTF-8 refused).
///
/// Each configuration is loaded four ways from the same options JSON: with
/// the result cache (kept for the whole run, so earlier inputs' entries are
/// there to be wrongly served), without it (`result_cache_size` 0), without
/// it and without the prefilter, and through `pathconfig_load_json`.
///
/// Checks:
/// - cached (twice), uncached and prefilter-off lookups give the same
///   properties, or all reject the method;
/// - uncached and prefilter-off match the same rules (same first pattern);
/// - `explain` gives `resolve`'s properties, `matchedString` and `requestURL`;
/// - through C: `pathconfig_resolve` (every read of its result against its
///   JSON text: `checkReads`), `pathconfig_explain`
///   and `pathconfig_matched_string` give the core's answers for the C view
///   of the input, and `PATHCONFIG_E_ARGUMENT` for a URL or method that is
///   not UTF-8.
public enum ResolveFuzzer {
    /// The documents: the README's example, the API client's, and the
    /// benchmark's 100 rules.
    static let documents = ["examples/path-configuration.json", "examples/api-configuration.json", "bench/corpora/rules-100.json"]

    /// The base URL a configuration may get.
    static let baseURL = "https://api.example.com/v1"

    /// The methods a selector picks; `fuzzedMethod` takes it from the input.
    static let methods: [String?] = [nil, "GET", "get", "POST", "Delete", "PATCH", "HEAD", "BREW", "", "G ET", "GET\n", "p\u{F6}st"]
    static let fuzzedMethod = 12
    static let methodChoices = 16

    /// One configuration, loaded the four ways.
    final class Subject: Sendable {
        let cached: PathConfiguration
        let uncached: PathConfiguration
        let unfiltered: PathConfiguration
        /// The C handle, or nil when the configuration has rules from code
        /// (added through the core only).
        nonisolated(unsafe) let handle: OpaquePointer?

        init(cached: PathConfiguration, uncached: PathConfiguration, unfiltered: PathConfiguration, handle: OpaquePointer?) {
            self.cached = cached
            self.uncached = uncached
            self.unfiltered = unfiltered
            self.handle = handle
        }

        deinit { pathconfig_release(handle) }
    }

    /// Subjects loaded so far, by selector; nil for a document the profile
    /// rejects (turbo-android and nested values).
    private static let subjects = Locked<[Int: Subject?]>([:])

    /// Which document, profile, base URL and rules from code `a` and `b` select.
    static func key(_ a: UInt8, _ b: UInt8) -> Int {
        let document = Int(a) % documents.count
        let profile = Int(a) / documents.count % Profile.allCases.count
        return ((document * Profile.allCases.count + profile) * 2 + Int(b & 1)) * 2 + Int(b >> 1 & 1)
    }

    static func subject(_ key: Int) throws(Violation) -> Subject? {
        if let known = subjects.withLock({ $0[key] }) { return known }
        let subject = try load(key)
        subjects.withLock { $0[key] = subject }
        return subject
    }

    static func load(_ key: Int) throws(Violation) -> Subject? {
        let withRulesFromCode = key & 1 != 0, withBase = key >> 1 & 1 != 0
        let profile = Profile.allCases[(key >> 2) % Profile.allCases.count]
        let document = try FuzzFiles.required(documents[(key >> 2) / Profile.allCases.count])
        var json = "{\"profile\":" + JSONWriter.quoted(profile.rawValue)
        if withBase { json += ",\"base_url\":" + JSONWriter.quoted(baseURL) }
        json += "}"
        do throws(ConfigurationError) {
            let options = try LoadOptions(json: json)
            var uncachedOptions = options
            uncachedOptions.limits.resultCacheCapacity = 0
            var unfilteredOptions = uncachedOptions
            unfilteredOptions.usePrefilter = false
            let configurations = [try PathConfiguration(json: document, options: options),
                                  try PathConfiguration(json: document, options: uncachedOptions),
                                  try PathConfiguration(json: document, options: unfilteredOptions)]
            if withRulesFromCode {
                for configuration in configurations { try addRules(to: configuration) }
            }
            let handle = withRulesFromCode ? nil : CABI.withCString(Array(json.utf8)) { opts in
                document.withUnsafeBufferPointer { doc in
                    doc.withMemoryRebound(to: CChar.self) { pathconfig_load_json($0.baseAddress, UInt(doc.count), opts, nil) }
                }
            }
            return Subject(cached: configurations[0], uncached: configurations[1], unfiltered: configurations[2], handle: handle)
        } catch {
            return nil
        }
    }

    /// Rules from code: a predicate, a configurer that reads the request, a
    /// pattern rule limited to a method; all deterministic.
    static func addRules(to configuration: PathConfiguration) throws(ConfigurationError) {
        try configuration.add(HostRule(description: "admin pages", properties: ["admin": .bool(true)],
                                       predicate: { $0.url.contains("/admin") }))
        try configuration.add(HostRule(globs: ["/users/*"], properties: ["user": .bool(true)],
                                       configurer: { properties, request in
                                           properties["seen"] = .string(request.method + " " + request.url)
                                       }))
        try configuration.add(HostRule(patterns: ["^/(new|edit)$", "\\d{3,}"], methods: ["POST", "put"], properties: ["form": .bool(true)]))
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        var reader = FuzzReader(bytes)
        let a = reader.byte(), b = reader.byte()
        let choice = Int(b >> 2) % methodChoices
        let methodBytes: [UInt8]? = choice == fuzzedMethod ? reader.field() : choice < methods.count ? methods[choice].map { Array($0.utf8) } : nil
        let urlBytes = reader.rest()
        do throws(Violation) {
            guard let subject = try subject(key(a, b)) else { return nil }
            try checkCore(subject, url: String(repairing: urlBytes), method: methodBytes.map { String(repairing: $0) })
            if let handle = subject.handle { try checkC(subject, handle: handle, url: urlBytes, method: methodBytes) }
            return nil
        } catch {
            return error
        }
    }

    /// The properties of a lookup, or the error's message.
    static func outcome(_ configuration: PathConfiguration, _ url: String, _ method: String?) -> Result<String, ResolveError> {
        Result { () throws(ResolveError) in try configuration.resolve(url, method: method).json }
    }

    static func checkCore(_ subject: Subject, url: String, method: String?) throws(Violation) {
        let what = "\(method.map(JSONWriter.quoted) ?? "no method") \(JSONWriter.quoted(url))"
        let outcomes = [outcome(subject.cached, url, method), outcome(subject.cached, url, method),
                        outcome(subject.uncached, url, method), outcome(subject.unfiltered, url, method)]
        let texts = outcomes.map { o in
            switch o {
            case .success(let json): return json
            case .failure(let error): return "error: \(error.message)"
            }
        }
        if Set(texts).count != 1 {
            throw Violation("\(what): cached \(texts[0]), cached again \(texts[1]), uncached \(texts[2]), no prefilter \(texts[3])")
        }
        let rules: [RuleMatch], unfilteredRules: [RuleMatch], explanation: Explanation
        do throws(ResolveError) {
            rules = try subject.uncached.matchingRules(for: url, method: method)
            unfilteredRules = try subject.unfiltered.matchingRules(for: url, method: method)
            explanation = try subject.uncached.explain(url, method: method)
        } catch {
            guard case .failure(let first) = outcomes[0], first.code == error.code else {
                throw Violation("\(what): resolve gives \(texts[0]), matchingRules or explain throw \(error.message)")
            }
            return
        }
        if case .failure = outcomes[0] { throw Violation("\(what): resolve throws \(texts[0]), explain does not") }
        if rules != unfilteredRules {
            throw Violation("\(what): with the prefilter \(describe(rules)), without \(describe(unfilteredRules))")
        }
        if explanation.properties.json != texts[2] {
            throw Violation("\(what): resolve gives \(texts[2]), explain \(explanation.properties.json)")
        }
        let matched = subject.uncached.matchedString(for: url), requestURL = subject.uncached.requestURL(for: url)
        if explanation.matchedString != matched || explanation.url != requestURL {
            throw Violation("\(what): explain says \(JSONWriter.quoted(explanation.matchedString)) on \(JSONWriter.quoted(explanation.url)); matchedString \(JSONWriter.quoted(matched)), requestURL \(JSONWriter.quoted(requestURL))")
        }
        if explanation.rules.map(\.index) != rules.map(\.ruleIndex) {
            throw Violation("\(what): explain's rules \(explanation.rules.map(\.index)), matchingRules \(describe(rules))")
        }
    }

    static func describe(_ matches: [RuleMatch]) -> String {
        "[" + matches.map { "\($0.ruleIndex).\($0.kind.rawValue)\($0.patternIndex)" }.joined(separator: " ") + "]"
    }

    /// The C ABI on the C view of the input, against the core.
    static func checkC(_ subject: Subject, handle: OpaquePointer, url: [UInt8], method: [UInt8]?) throws(Violation) {
        let cURL = Array(url.prefix(while: { $0 != 0 }))
        let cMethod = method.map { Array($0.prefix(while: { $0 != 0 })) }
        let urlText = String(validating: cURL, as: UTF8.self)
        let methodText = cMethod.map { String(validating: $0, as: UTF8.self) }
        let what = "C \(JSONWriter.quoted(String(repairing: cURL)))"

        var readViolation: Violation?
        let (json, failure) = CABI.withError { err -> String? in
            CABI.withCString(cURL) { u in
                CABI.withOptionalCString(cMethod) { m in
                    let result = pathconfig_resolve(handle, u, m, err)
                    defer { pathconfig_result_release(result) }
                    guard let result, let text = pathconfig_result_json(result).map({ String(cString: $0) }) else { return nil }
                    do throws(Violation) { try checkReads(result, json: text, reading: subject.cached.profile.typedReading) } catch { readViolation = error }
                    return text
                }
            }
        }
        if let readViolation { throw Violation("\(what): \(readViolation.description)") }
        let (explained, explainFailure) = CABI.withError { err in
            CABI.withCString(cURL) { u in
                CABI.withOptionalCString(cMethod) { m in CABI.take(pathconfig_explain(handle, u, m, err)) }
            }
        }
        let matched = CABI.withCString(cURL) { CABI.take(pathconfig_matched_string(handle, $0, nil)) }

        guard let urlText, methodText.map({ $0 != nil }) ?? true else {
            for (name, f) in [("resolve", failure), ("explain", explainFailure)] where f?.code != CABI.argumentCode {
                throw Violation("\(what): \(name) of text that is not UTF-8 gave \(f.map(\.description) ?? "a result"), not PATHCONFIG_E_ARGUMENT")
            }
            if urlText == nil, matched != nil { throw Violation("\(what): pathconfig_matched_string accepted text that is not UTF-8") }
            return
        }
        let methodString = methodText ?? nil
        switch outcome(subject.cached, urlText, methodString) {
        case .success(let expected):
            if json != expected { throw Violation("\(what): pathconfig_resolve gives \(json ?? "NULL (\(failure?.description ?? ""))"), the core \(expected)") }
            let explanation = try? subject.uncached.explain(urlText, method: methodString)
            if explained != explanation?.json { throw Violation("\(what): pathconfig_explain gives \(explained ?? "NULL"), the core \(explanation?.json ?? "an error")") }
        case .failure(let error):
            // A method that is not a token, or a URL the app crashes on.
            let code = error.code == .unreadableURL ? CABI.urlCode : CABI.argumentCode
            if json != nil || failure?.code != code || !CABI.isTruncation(failure?.message ?? "", of: error.message)
                || explained != nil || explainFailure?.code != code {
                throw Violation("\(what): the core fails (\(error.message)), C gives \(json ?? failure?.description ?? "nothing"), explain \(explained ?? explainFailure?.description ?? "nothing")")
            }
        }
        // Every byte is copied, but a C reader stops at a U+0000 (turbo-ios
        // decodes %00 into the matched string): compare what C can see.
        let core = subject.cached.matchedString(for: urlText)
        if matched != String(decoding: core.utf8.prefix(while: { $0 != 0 }), as: UTF8.self) {
            throw Violation("\(what): pathconfig_matched_string gives \(matched.map(JSONWriter.quoted) ?? "NULL"), the core \(JSONWriter.quoted(core))")
        }
    }

    /// Every way C reads a result against its JSON text: the keys in order,
    /// each value's type, text and scalar through its getter, and every
    /// typed value against the core's reading of the same JSON.
    static func checkReads(_ result: OpaquePointer, json: String, reading: TypedReading) throws(Violation) {
        let parsed: JSONValue
        do throws(ConfigurationError) { parsed = try JSONValue(parsing: json) } catch { throw Violation("JSON text \(json) does not parse: \(error.message)") }
        guard let object = parsed.objectValue else { throw Violation("JSON text \(json) is not an object") }
        guard pathconfig_result_count(result) == UInt(object.count) else {
            throw Violation("pathconfig_result_count \(pathconfig_result_count(result)), the JSON has \(object.count) keys")
        }
        guard pathconfig_result_id(result) != 0 else { throw Violation("pathconfig_result_id is 0") }
        for (i, (key, value)) in object.enumerated() {
            let cKey = pathconfig_result_key(result, UInt(i)).map { String(cString: $0) }
            // A C reader stops at U+0000: compare what C can see.
            let visible = String(decoding: key.utf8.prefix(while: { $0 != 0 }), as: UTF8.self)
            guard cKey == visible else { throw Violation("key \(i) is \(cKey.map(JSONWriter.quoted) ?? "NULL"), the JSON has \(JSONWriter.quoted(key))") }
            let type = pathconfig_result_type(result, UInt(i))
            let expectedType: Int32
            switch value {
            case .null: expectedType = 1
            case .bool: expectedType = 2
            case .number: expectedType = value.int64Value != nil ? 3 : 4
            case .string: expectedType = 5
            case .array: expectedType = 6
            case .object: expectedType = 7
            }
            guard type == expectedType else { throw Violation("type of \(JSONWriter.quoted(key)) is \(type), the JSON has \(value.typeName)") }
            // A key holding U+0000 cannot be named from C; the index reads are checked above.
            guard !key.utf8.contains(0) else { continue }
            let violation = key.withCString { (k: UnsafePointer<CChar>) -> Violation? in
                var text: UnsafePointer<CChar>?
                guard pathconfig_result_get_json(result, k, &text) == 0, let text, String(cString: text) == JSONWriter.compact(value) else {
                    return Violation("pathconfig_result_get_json of \(JSONWriter.quoted(key)) differs from \(JSONWriter.compact(value))")
                }
                var string: UnsafePointer<CChar>?
                var length: UInt = 0
                let status = pathconfig_result_get_string(result, k, &string, &length)
                if case .string(let s) = value {
                    let bytes = string.map { Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: Int(length))) }
                    guard status == 0, bytes == Array(s.utf8) else { return Violation("pathconfig_result_get_string of \(JSONWriter.quoted(key)) differs") }
                } else if status != CABI.typeCode || string != nil {
                    return Violation("pathconfig_result_get_string of the \(value.typeName) \(JSONWriter.quoted(key)) gave \(status)")
                }
                var flag: Int32 = -1
                let boolStatus = pathconfig_result_get_bool(result, k, &flag)
                if boolStatus != (value.boolValue != nil ? 0 : CABI.typeCode) || (value.boolValue.map { (flag != 0) != $0 } ?? false) {
                    return Violation("pathconfig_result_get_bool of \(JSONWriter.quoted(key)) gave \(boolStatus), \(flag)")
                }
                var integer: Int64 = 0
                let intStatus = pathconfig_result_get_int64(result, k, &integer)
                if intStatus != (value.int64Value != nil ? 0 : CABI.typeCode) || (value.int64Value.map { $0 != integer } ?? false) {
                    return Violation("pathconfig_result_get_int64 of \(JSONWriter.quoted(key)) gave \(intStatus), \(integer)")
                }
                var number: Double = 0
                let doubleStatus = pathconfig_result_get_double(result, k, &number)
                let expected: Double? = { if case .number(let n) = value { return n.doubleValue } else { return nil } }()
                if doubleStatus != (expected != nil ? 0 : CABI.typeCode) || (expected.map { $0 != number && !($0.isNaN && number.isNaN) } ?? false) {
                    return Violation("pathconfig_result_get_double of \(JSONWriter.quoted(key)) gave \(doubleStatus), \(number)")
                }
                return nil
            }
            if let violation { throw violation }
        }
        for key in TypedKey.allCases {
            guard case .value(let expected) = key.read(object[key.rawValue], by: reading) else {
                // The app crashes reading the key: no value, PATHCONFIG_E_CRASH.
                let read = key.kind == .boolean ? pathconfig_result_typed_bool(result, Int32(key.index))
                    : (pathconfig_result_typed_string(result, Int32(key.index)) == nil ? 0 : 1)
                let code = pathconfig_last_error().load(as: Int32.self)
                guard read == 0, code == CABI.crashCode else {
                    throw Violation("typed \(key.rawValue) read \(read), error \(code), where the app crashes")
                }
                continue
            }
            if key.kind == .boolean {
                let b = pathconfig_result_typed_bool(result, Int32(key.index))
                guard b == (expected.boolValue == true ? 1 : 0) else { throw Violation("typed \(key.rawValue) is \(b), the JSON reads \(expected)") }
            } else {
                let s = pathconfig_result_typed_string(result, Int32(key.index)).map { String(cString: $0) }
                let visible = expected.stringValue.map { String(decoding: $0.utf8.prefix(while: { $0 != 0 }), as: UTF8.self) }
                guard s == visible else { throw Violation("typed \(key.rawValue) is \(s.map(JSONWriter.quoted) ?? "NULL"), the JSON reads \(expected)") }
            }
        }
    }
}
