import PathConfiguration
import Testing

@Suite("Load options from JSON")
struct LoadOptionsTests {
    @Test("nil and empty mean defaults")
    func defaults() throws {
        for text in [nil, "", "  ", "{}"] as [String?] {
            let o = try LoadOptions(json: text)
            #expect(o.profile == .hotwireIOS)
            #expect(o.matchQueryStrings == nil)
            #expect(!o.lenient)
            #expect(o.engine.name == "pcre2")
        }
    }

    @Test("every key is read")
    func keys() throws {
        let o = try LoadOptions(json: "{\"profile\": \"turbo-android\", \"match_query_strings\": false, \"backend\": \"pcre2\", \"lenient\": true, \"base_url\": \"https://API.example.com/v1\", \"merge\": \"deep\", \"result_cache_size\": 0, \"max_url_bytes\": 4096}")
        #expect(o.profile == .turboAndroid)
        #expect(o.matchQueryStrings == false)
        #expect(o.lenient)
        #expect(o.baseURL?.string == "https://api.example.com/v1/")
        #expect(o.merge == .deep)
        #expect(o.limits.resultCacheCapacity == 0)
        #expect(o.limits.maxURLBytes == 4096)
        #expect(Set(LoadOptions.jsonKeys) == ["profile", "match_query_strings", "backend", "lenient", "base_url", "merge", "result_cache_size", "max_url_bytes"])
    }

    @Test("unknown keys and bad values are errors, never ignored", arguments: [
        ("{\"profil\": \"x\"}", ConfigurationError.Code.invalidOption, "unknown option \"profil\""),
        ("{\"profile\": \"ios\"}", .invalidOption, "unknown profile \"ios\""),
        ("{\"profile\": 1}", .invalidOption, "must be a string"),
        ("{\"lenient\": \"yes\"}", .invalidOption, "must be true or false"),
        ("{\"match_query_strings\": 1}", .invalidOption, "true, false or null"),
        ("{\"backend\": \"re2\"}", .invalidOption, "unknown backend"),
        ("{\"backend\": \"foundation\"}", .backendUnavailable, "not built into this library"),
        ("[1]", .invalidOption, "must be a JSON object"),
        ("{\"base_url\": \"/v1\"}", .invalidOption, "option \"base_url\" \"/v1\" is not an absolute URL"),
        ("{\"base_url\": 1}", .invalidOption, "a URL string or null"),
        ("{\"merge\": \"deeper\"}", .invalidOption, "unknown merge mode \"deeper\"; expected one of shallow, deep"),
        ("{\"result_cache_size\": -1}", .invalidOption, "a whole number of entries"),
        ("{\"result_cache_size\": 1.5}", .invalidOption, "a whole number of entries"),
        ("{\"max_url_bytes\": 0}", .invalidOption, "option \"max_url_bytes\" must be a whole number of bytes from 1 to 2147483647, found 0"),
        ("{\"max_url_bytes\": 2147483648}", .invalidOption, "a whole number of bytes"),
        ("{\"max_url_bytes\": \"64k\"}", .invalidOption, "a whole number of bytes"),
        ("{\"profile\": ", .invalidOption, "not valid JSON"),
        ("{\"profile\": \"turbo-ios\", \"lenient\": true, \"profile\": \"hotwire-ios\"}", .invalidOption,
         "options give \"profile\" twice; give each once"),
        // Quoted input is JSON-escaped: a NUL cannot cut the message short for C hosts.
        ("{\"a\\u0000b\\n\": 1}", .invalidOption, "unknown option \"a\\u0000b\\n\"; known options"),
    ])
    func errors(_ text: String, _ code: ConfigurationError.Code, _ message: String) {
        do {
            _ = try LoadOptions(json: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == code)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("apply sets the options it names over others and leaves the rest as they were")
    func apply() throws {
        var o = LoadOptions(profile: .hotwireAndroid, matchQueryStrings: true, lenient: true)
        let members = try #require(try JSONNode.parse(Array("{\"merge\": \"deep\", \"match_query_strings\": null}".utf8)).root.objectMembers)
        try o.apply(members, engines: Backend.builtIn)
        #expect(o.merge == .deep)
        #expect(o.matchQueryStrings == nil)
        #expect(o.profile == .hotwireAndroid)
        #expect(o.lenient)
    }

    @Test("keepsSource keeps the document's bytes; by default a configuration does not hold its text")
    func keepsSource() throws {
        let json = #"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal"},}]}"#
        #expect(try PathConfiguration(json: json).source == nil)
        var options = LoadOptions()
        options.keepsSource = true
        let kept = try PathConfiguration(json: json, options: options)
        #expect(kept.source?.bytes == Array(json.utf8))
        #expect(try kept.resolve("/x/new").json == #"{"context":"modal"}"#)
    }
}

extension JSONNode {
    /// The members, when this is an object.
    var objectMembers: [Member]? {
        if case .object(let members) = kind { return members }
        return nil
    }
}
