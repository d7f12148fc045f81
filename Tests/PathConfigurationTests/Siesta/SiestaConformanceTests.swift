import PathConfiguration
import Testing
@testable import PathConfigCore

/// Every case of Tests/Fixtures/conformance/siesta.json that is about choosing and
/// merging configuration (the rest pin Siesta's request pipeline, not rules),
/// through both engines.
@Suite("Siesta conformance")
struct SiestaConformanceTests {
    static let patternCases = Conformance.cases(Conformance.siesta, "pattern_cases")
    static let orderingCases = Conformance.cases(Conformance.siesta, "ordering_cases")

    @Test("the case file is present and complete")
    func caseCounts() {
        #expect(Self.patternCases.count == 97)
        #expect(Self.orderingCases.count == 33)
    }

    /// A configuration holding one rule for case `c`'s pattern, under the siesta profile.
    static func configuration(for c: Conformance.Case, engine: String) throws -> PathConfiguration {
        var options = LoadOptions(profile: .siesta, engine: Conformance.engine(engine))
        options.baseURL = try c["baseURL"]?.stringValue.map { try BaseURL($0) }
        let pattern = c["pattern"]?.stringValue ?? ""
        let caseInsensitive = c["regex_options"]?.arrayValue?.contains(.string("caseInsensitive")) ?? false
        func oneRule(_ key: String, _ value: String) throws -> PathConfiguration {
            let rule: JSONObject = [key: .array([.string(value)]), "properties": .object(["hit": .bool(true)])]
            return try PathConfiguration(json: JSONWriter.compact(.object(["rules": .array([.object(rule)])])), options: options)
        }
        switch c["pattern_kind"]?.stringValue {
        case "glob":
            return try oneRule("globs", pattern)
        case "regex":
            return try oneRule("patterns", (caseInsensitive ? "(?i)" : "") + pattern)
        case "resource":
            // configure(resource): URL equality, a predicate from code.
            let config = try PathConfiguration(json: "{\"rules\": []}", options: options)
            try config.add(HostRule(properties: ["hit": .bool(true)], predicate: { $0.url == pattern }))
            return config
        case "predicate":
            let config = try PathConfiguration(json: "{\"rules\": []}", options: options)
            try config.add(HostRule(properties: ["hit": .bool(true)], predicate: { $0.url.hasSuffix("foo") }))
            return config
        default:
            fatalError("unknown pattern kind in \(c.object)")
        }
    }

    @Test("pattern cases", arguments: patternCases, Conformance.engineNames)
    func pattern(_ c: Conformance.Case, engine: String) throws {
        let config = try Self.configuration(for: c, engine: engine)
        let properties = try config.resolve(c["url"]!.stringValue!)
        let why = try config.explain(c["url"]!.stringValue!).json
        #expect((properties["hit"] == .bool(true)) == c["matches"]!.boolValue!, "\(why)")
    }

    /// The ordering cases whose entries set plain values: Siesta's defaults
    /// first, then each entry as a rule from code, merged deep.
    static let valueCases = orderingCases.filter { c in
        let entries = c["entries"]!.arrayValue!.compactMap(\.objectValue)
        let plain: Set<String> = ["expirationTime", "retryTime", "headers"]
        return c["steps"] == nil && entries.allSatisfy { e in
            e["methods"].map { $0 == .null || $0.arrayValue != nil } ?? true
                && e["sets"]!.objectValue!.keys.allSatisfy(plain.contains)
                && e["sets"]!.objectValue!.allSatisfy { $0.value.stringValue == nil }
        }
    }

    @Test("value cases are the ones about choosing and merging configuration")
    func valueCaseCount() {
        #expect(Self.valueCases.count == 17)
    }

    static func entryRule(_ e: JSONObject, properties: JSONObject) throws -> HostRule {
        let methods = e["methods"]?.arrayValue?.compactMap(\.stringValue)
        let pattern = e["pattern"]?.stringValue ?? ""
        switch e["pattern_kind"]?.stringValue {
        case "global": return HostRule(globs: ["**"], methods: methods, properties: properties)
        case "glob": return HostRule(globs: [pattern], methods: methods, properties: properties)
        case "resource": return HostRule(methods: methods, properties: properties, predicate: { $0.url == pattern })
        case "predicate": return HostRule(methods: methods, properties: properties, predicate: { $0.url.hasSuffix("foo") })
        default: fatalError("unknown entry kind in \(e)")
        }
    }

    static func service(baseURL: String, engine: String) throws -> PathConfiguration {
        var options = LoadOptions(profile: .siesta, engine: Conformance.engine(engine))
        options.baseURL = try BaseURL(baseURL)
        options.merge = .deep
        let config = try PathConfiguration(json: "{\"rules\": []}", options: options)
        // Configuration() defaults, applied to every resource.
        try config.add(HostRule(description: "Siesta defaults", properties: ["expirationTime": .number(JSONNumber(Int64(30))), "retryTime": .number(JSONNumber(Int64(1))), "headers": .object([:])],
                                predicate: { _ in true }))
        return config
    }

    @Test("ordering cases with plain values", arguments: valueCases, Conformance.engineNames)
    func ordering(_ c: Conformance.Case, engine: String) throws {
        let config = try Self.service(baseURL: c["baseURL"]!.stringValue!, engine: engine)
        for e in c["entries"]!.arrayValue!.compactMap(\.objectValue) {
            try config.add(Self.entryRule(e, properties: e["sets"]!.objectValue!))
        }
        let properties = try config.resolve(c["url"]!.stringValue!, method: c["method"]!.stringValue!)
        for (key, expected) in c["expected"]!.objectValue! {
            switch key {
            case "request_headers_include":
                for (name, value) in expected.objectValue! {
                    #expect(properties["headers"]?.objectValue?[name] == value, "\(properties.json)")
                }
            case "loadIfNeeded_at_t+2s_loads":
                // Data (or an error) from t = 1000 is reloaded at t = 1002 when the
                // configured age limit is under 2 s: the entry's value must be in force.
                for e in c["entries"]!.arrayValue!.compactMap(\.objectValue) {
                    for (name, value) in e["sets"]!.objectValue! {
                        #expect(properties[name] == value, "\(properties.json)")
                        #expect((value.doubleValue! < 2) == expected.boolValue!)
                    }
                }
            default:
                #expect(unorderedEqual(properties[key], expected), "\(key) in \(properties.json)")
            }
        }
    }

    @Test("a rule added later drops memoised results (ServiceSpec 'changes when service config added')", arguments: Conformance.engineNames)
    func addedLater(engine: String) throws {
        let config = try Self.service(baseURL: "https://zingle.frotz", engine: engine)
        #expect(try config.resolve("https://zingle.frotz/foo")["expirationTime"] == .number(JSONNumber(Int64(30))))
        try config.add(HostRule(globs: ["**"], properties: ["expirationTime": .number(JSONNumber(Int64(17)))]))
        #expect(try config.resolve("https://zingle.frotz/foo")["expirationTime"] == .number(JSONNumber(Int64(17))))
        try config.add(HostRule(globs: ["*oo"], properties: ["expirationTime": .number(JSONNumber(Int64(16)))]))
        #expect(try config.resolve("https://zingle.frotz/foo")["expirationTime"] == .number(JSONNumber(Int64(16))))
    }

    @Test("a configurer reads the host's value again only after invalidate (ServiceSpec, RequestSpec repeated())", arguments: Conformance.engineNames)
    func invalidation(engine: String) throws {
        let x = Box(3)
        let config = try Self.service(baseURL: "https://zingle.frotz", engine: engine)
        try config.add(HostRule(globs: ["**"], configurer: { properties, _ in
            properties["expirationTime"] = .number(JSONNumber(Int64(x.value)))
        }))
        #expect(try config.resolve("https://zingle.frotz/foo")["expirationTime"] == .number(JSONNumber(Int64(3))))
        x.value = 4
        #expect(try config.resolve("https://zingle.frotz/foo")["expirationTime"] == .number(JSONNumber(Int64(3))), "memoised")
        config.invalidate()
        #expect(try config.resolve("https://zingle.frotz/foo")["expirationTime"] == .number(JSONNumber(Int64(4))))
    }

    @Test("configuration is computed only when a lookup needs it (ServiceSpec 'is not computed when traversing')", arguments: Conformance.engineNames)
    func lazy(engine: String) throws {
        let calls = Box(0)
        let config = try Self.service(baseURL: "https://zingle.frotz", engine: engine)
        try config.add(HostRule(globs: ["**"], configurer: { _, _ in calls.value += 1 }))
        _ = config.requestURL(for: "/bar?x=y")
        _ = config.matchedString(for: "/bar?x=y")
        #expect(calls.value == 0)
        _ = try config.resolve("/bar?x=y")
        #expect(calls.value == 1)
    }
}

/// A value the test changes and host closures read (tests run them on one thread).
final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
