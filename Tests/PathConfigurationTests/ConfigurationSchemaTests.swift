import Foundation
import PathConfiguration
import Testing

/// The JSON Schema the library makes (`ConfigurationSchema`) against the
/// tables it is made from, and the documents of
/// Tests/SchemaTests/expectations.json against what the library loads
/// (jsonschema checks the schema's verdicts on them: `make test-schema`).
@Suite("JSON Schema")
struct ConfigurationSchemaTests {
    static let schema: JSONObject = ConfigurationSchema.schema.objectValue!
    static let definitions: JSONObject = schema["$defs"]!.objectValue!

    /// The sub-schema at `path` of object keys below `$defs`.
    static func definition(_ path: String...) -> JSONObject? {
        var value: JSONValue? = .object(definitions)
        for key in path { value = value?.objectValue?[key] }
        return value?.objectValue
    }

    static let expectations: JSONObject = {
        let path = Conformance.repositoryRoot + "/Tests/SchemaTests/expectations.json"
        guard let bytes = try? Conformance.readFile(path), let object = try? JSONValue(parsing: bytes).objectValue else {
            fatalError("cannot read \(path)")
        }
        return object
    }()

    /// The profiles under which `json` loads.
    static func profilesLoading(_ json: String) -> [Profile] {
        Profile.allCases.filter { (try? PathConfiguration(json: json, options: LoadOptions(profile: $0))) != nil }
    }

    /// An entry's document as JSON text: inline, a conformance fixture or an example.
    static func document(of entry: JSONObject) -> String {
        if let document = entry["document"] { return JSONWriter.compact(document) }
        if let example = entry["example"]?.stringValue {
            return String(decoding: try! Conformance.readFile(Conformance.repositoryRoot + "/" + example), as: UTF8.self)
        }
        let names = entry["conformance"]!.arrayValue!.map { $0.stringValue! }
        return Conformance.fixtureJSON(Conformance.load(names[0]), names[1])
    }

    static func entries(_ list: String) -> [JSONObject] { expectations[list]!.arrayValue!.map { $0.objectValue! } }

    @Test("the text is the schema as indented JSON with a final newline, the same each time")
    func text() throws {
        let text = ConfigurationSchema.text
        #expect(text == JSONWriter.pretty(ConfigurationSchema.schema) + "\n")
        #expect(text == ConfigurationSchema.text)
        #expect(try JSONValue(parsing: text) == ConfigurationSchema.schema)
        #expect(Self.schema["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"))
        #expect(Self.schema["$id"] == .string("https://raw.githubusercontent.com/libpathconfig/libpathconfig/main/docs/path-configuration.schema.json"))
        #expect(!text.contains("\"format\""), "no pattern is checked as an ECMA-262 expression")
    }

    @Test("every typed key is there, with its values on every platform and null", arguments: TypedKey.allCases)
    func typedKey(_ key: TypedKey) throws {
        let s = try #require(Self.definition("properties", "properties", key.rawValue))
        switch key.kind {
        case .enumeration:
            let listed = try #require(s["enum"]?.arrayValue)
            #expect(listed.last == .null)
            let values = Set(listed.compactMap(\.stringValue))
            #expect(values.count == listed.count - 1)
            #expect(values == Set(key.allowedValues(on: .ios) + key.allowedValues(on: .android)))
        case .boolean:
            #expect(s["type"] == .array([.string("boolean"), .string("null")]))
        case .string:
            #expect(s["type"] == .array([.string("string"), .string("null")]))
        }
        let description = try #require(s["description"]?.stringValue)
        for platform in [Profile.Platform.ios, .android] {
            #expect(description.contains("anything else as \(JSONWriter.compact(key.defaultValue(on: platform)))."), "\(platform)")
        }
    }

    @Test("the descriptions say what each platform reads, from the table")
    func typedDescriptions() throws {
        let presentation = try #require(Self.definition("properties", "properties", "presentation")?["description"]?.stringValue)
        #expect(presentation.contains("Only Android knows \"push\"."))
        #expect(presentation.contains("iOS (hotwire-ios, turbo-ios, siesta) reads \"default\", \"pop\""))
        #expect(presentation.contains("exactly as written") && presentation.contains("in any case"))
        let refresh = try #require(Self.definition("properties", "properties", "pull_to_refresh_enabled")?["description"]?.stringValue)
        #expect(refresh.contains("iOS (hotwire-ios, turbo-ios, siesta) reads true or false (0 and 1 too), and anything else as true."))
        #expect(refresh.contains("Android (hotwire-android) reads true or false, and crashes on anything else (java.lang.ClassCastException)."))
        #expect(refresh.contains("Android (turbo-android) reads true, false, or a string (\"true\" in any case as true, any other as false), and anything else as false."))
        let patterns = try #require(Self.definition("rule", "properties", "patterns")?["description"]?.stringValue)
        #expect(patterns.contains("hotwire-ios, turbo-ios, siesta: ICU, case-sensitive; hotwire-android, turbo-android: Java, case-insensitive."))
    }

    @Test("the lint marker lists every lint kind")
    func lintKinds() throws {
        let allow = try #require(Self.definition("lint", "properties", "allow")?["items"]?.objectValue?["enum"])
        #expect(allow == .array(LintFinding.Kind.allCases.map { .string($0.rawValue) }))
    }

    @Test("a method passes the schema's pattern exactly when HTTPMethod reads it")
    func methodPattern() throws {
        let items = try #require(Self.definition("rule", "properties", "methods")?["items"]?.objectValue)
        let regex = try NSRegularExpression(pattern: try #require(items["pattern"]?.stringValue))
        let maxLength = try #require(items["maxLength"]?.int64Value)
        var names = (0...0x7F).map { "GE" + String(UnicodeScalar(UInt8($0))) }
        names += ["", "get", "é", String(repeating: "A", count: Int(maxLength)), String(repeating: "A", count: Int(maxLength) + 1)]
        for name in names {
            // The whole string, as ECMA-262 reads ^...$ (ICU's $ also matches before a final line break).
            let range = NSRange(name.startIndex..., in: name)
            let passes = regex.firstMatch(in: name, range: range)?.range == range && name.count <= maxLength
            #expect(passes == (HTTPMethod.normalized(name) != nil), "\(JSONWriter.quoted(name))")
        }
    }

    @Test("a tab needs the keys the schema requires, and only those", arguments: Tab.Key.allCases)
    func tabKeys(_ missing: Tab.Key) throws {
        let required = try #require(Self.definition("tab")?["required"]?.arrayValue)
        #expect(required.contains(.string(missing.rawValue)) == missing.isRequired)
        var tab = JSONObject()
        for key in Tab.Key.allCases where key != missing { tab[key.rawValue] = .string("x") }
        #expect(Tab.tabs(in: [Tab.settingsKey: .array([.object(tab)])]).isEmpty == missing.isRequired)
    }

    @Test("a top-level \"$schema\" key loads under every profile, and lint reports nothing about it")
    func schemaKey() throws {
        let json = """
            {"\(ConfigurationSchema.schemaKey)": "\(ConfigurationSchema.id)",
             "settings": {}, "rules": [{"patterns": ["/new"], "properties": {"context": "modal"}}]}
            """
        for profile in Profile.allCases {
            let config = try PathConfiguration(json: json, options: LoadOptions(profile: profile))
            #expect(config.properties(for: "/new").object["context"] == .string("modal"), "\(profile)")
        }
        #expect(try Linter(options: LintOptions(profiles: Profile.allCases)).lint(json) == [])
        #expect(try Linter().lint(json) == [])
    }

    @Test("each document the schema rejects or accepts loads under the profiles expectations.json says")
    func loadsUnder() throws {
        for entry in Self.entries("rejected") + Self.entries("accepted") {
            let expected = entry["loads_under"]!.arrayValue!.map { Profile(rawValue: $0.stringValue!)! }
            #expect(Self.profilesLoading(Self.document(of: entry)) == expected, "\(entry["name"]!)")
        }
    }

    @Test("every conformance fixture and example the schema accepts loads under a mobile profile, but those listed")
    func acceptedLoad() throws {
        let notLoading = Self.entries("accepted_not_loading")
        let rejected = Set(Self.entries("rejected").compactMap { $0["conformance"].map(JSONWriter.compact) })
        let listed = Set(notLoading.compactMap { $0["conformance"].map(JSONWriter.compact) })
        var checked = 0
        for (file, contents) in [("ios.json", Conformance.ios), ("android.json", Conformance.android)] {
            for (name, _) in try #require(contents["fixtures"]?.objectValue) {
                let id = JSONWriter.compact(.array([.string(file), .string(name)]))
                guard !rejected.contains(id) else { continue }
                let loads = Self.profilesLoading(Conformance.fixtureJSON(contents, name)).contains(where: \.isMobileApp)
                #expect(loads == !listed.contains(id), "\(file): \(name)")
                checked += 1
            }
        }
        let examples = try FileManager.default.contentsOfDirectory(atPath: Conformance.repositoryRoot + "/examples")
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".cases.json") }
        let listedExamples = Set(notLoading.compactMap { $0["example"]?.stringValue })
        for example in examples {
            let loads = Self.profilesLoading(Self.document(of: ["example": .string("examples/" + example)])).contains(where: \.isMobileApp)
            #expect(loads == !listedExamples.contains("examples/" + example), "\(example)")
            checked += 1
        }
        #expect(checked >= 24 && examples.count >= 4, "\(checked) documents checked")
    }
}
