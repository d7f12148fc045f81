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
        let o = try LoadOptions(json: "{\"profile\": \"turbo-android\", \"match_query_strings\": false, \"backend\": \"pcre2\", \"lenient\": true}")
        #expect(o.profile == .turboAndroid)
        #expect(o.matchQueryStrings == false)
        #expect(o.lenient)
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
        ("{\"profile\": ", .invalidOption, "not valid JSON"),
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
}
