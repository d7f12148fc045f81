import PathConfiguration
import Testing

@Suite("Loader options and sources from JSON")
struct LoaderJSONTests {
    @Test("nil, blank and {} mean defaults")
    func defaults() throws {
        for text in [nil, "", " \n", "{}"] as [String?] {
            let o = try LoaderOptions(json: text)
            #expect(o.cacheDirectory == nil)
            #expect(o.timeout == .seconds(30))
            #expect(o.maxBodyBytes == 8 << 20)
            #expect(o.refreshInterval == nil)
            #expect(o.userAgent == LoaderOptions().userAgent)
            #expect(o.caFile == nil)
            #expect(!o.followRedirectsToOtherHosts)
            #expect(o.load.profile == .hotwireIOS)
        }
    }

    @Test("every loader key and the load keys are read")
    func keys() throws {
        let o = try LoaderOptions(json: """
            {"profile": "turbo-android", "lenient": true, "cache_dir": "/tmp/c", "timeout_ms": 1500,
             "max_body_bytes": 1024, "refresh_interval_ms": 60000, "user_agent": "app/1.0", "ca_file": "/etc/ca.pem",
             "follow_redirects_to_other_hosts": true, "match_query_strings": false}
            """)
        #expect(o.load.profile == .turboAndroid)
        #expect(o.load.lenient)
        #expect(o.load.matchQueryStrings == false)
        #expect(o.cacheDirectory == "/tmp/c")
        #expect(o.timeout == .milliseconds(1500))
        #expect(o.maxBodyBytes == 1024)
        #expect(o.refreshInterval == .seconds(60))
        #expect(o.userAgent == "app/1.0")
        #expect(o.caFile == "/etc/ca.pem")
        #expect(o.followRedirectsToOtherHosts)
    }

    @Test("null clears the optional keys")
    func nulls() throws {
        let o = try LoaderOptions(json: "{\"cache_dir\": null, \"refresh_interval_ms\": null, \"ca_file\": null}")
        #expect(o.cacheDirectory == nil && o.refreshInterval == nil && o.caFile == nil)
    }

    @Test("unknown keys and bad values are errors, never ignored", arguments: [
        ("{\"cache_directory\": \"/x\"}", ConfigurationError.Code.invalidOption, "unknown option \"cache_directory\"; known options: profile, match_query_strings, backend, lenient, base_url, merge, result_cache_size, max_url_bytes, cache_dir,"),
        ("{\"timeout_ms\": 0}", .invalidOption, "option \"timeout_ms\" must be a positive integer (milliseconds), found 0"),
        ("{\"timeout_ms\": -5}", .invalidOption, "must be a positive integer"),
        ("{\"timeout_ms\": 1.5}", .invalidOption, "must be a positive integer"),
        ("{\"timeout_ms\": \"10\"}", .invalidOption, "found \"10\""),
        ("{\"timeout_ms\": 99999999999999999999}", .invalidOption, "must be a positive integer"),
        ("{\"max_body_bytes\": 0}", .invalidOption, "\"max_body_bytes\" must be a positive integer"),
        ("{\"refresh_interval_ms\": false}", .invalidOption, "positive integer (milliseconds) or null"),
        ("{\"cache_dir\": \"\"}", .invalidOption, "\"cache_dir\" must be a non-empty path"),
        ("{\"cache_dir\": \"a\\u0000b\"}", .invalidOption, "without U+0000"),
        ("{\"ca_file\": 3}", .invalidOption, "\"ca_file\" must be"),
        ("{\"follow_redirects_to_other_hosts\": 1}", .invalidOption, "option \"follow_redirects_to_other_hosts\" must be true or false, found 1"),
        ("{\"follow_redirects_to_other_hosts\": null}", .invalidOption, "must be true or false, found null"),
        ("{\"user_agent\": \"a\\r\\nX-Evil: 1\"}", .invalidOption, "without control characters"),
        ("{\"user_agent\": null}", .invalidOption, "without control characters"),
        ("{\"profile\": \"ios\"}", .invalidOption, "unknown profile \"ios\""),
        ("{\"backend\": \"foundation\"}", .backendUnavailable, "not built into this library"),
        ("[]", .invalidOption, "options must be a JSON object, found array"),
        ("{\"timeout_ms\": ", .invalidOption, "options are not valid JSON"),
    ])
    func optionErrors(_ text: String, _ code: ConfigurationError.Code, _ message: String) {
        do {
            _ = try LoaderOptions(json: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.code == code)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("the three kinds of source, in order")
    func sources() throws {
        let list = try ConfigurationSource.list(json: """
            [{"file": "/app/bundle.json"},
             {"data": "{\\"rules\\": []}", "name": "embedded"},
             {"data": "{}"},
             {"server": "https://example.com/p.json", "headers": {"Accept": "application/json", "X-Two": "b"}},
             {"server": "http://127.0.0.1:8080/x"}]
            """)
        #expect(list.count == 5)
        guard list.count == 5 else { return }
        guard case .file(let path) = list[0] else { Issue.record("0: \(list[0])"); return }
        #expect(path == "/app/bundle.json")
        guard case .data(let bytes, let name) = list[1] else { Issue.record("1: \(list[1])"); return }
        #expect(bytes == Array("{\"rules\": []}".utf8) && name == "embedded")
        guard case .data(_, let defaultName) = list[2] else { Issue.record("2: \(list[2])"); return }
        #expect(defaultName == "data")
        guard case .server(let url, let headers) = list[3] else { Issue.record("3: \(list[3])"); return }
        #expect(url == "https://example.com/p.json")
        #expect(headers.map(\.name) == ["Accept", "X-Two"] && headers.map(\.value) == ["application/json", "b"])
        guard case .server(_, let none) = list[4] else { Issue.record("4: \(list[4])"); return }
        #expect(none.isEmpty)
        // What the parser accepts, a loader accepts.
        _ = try ConfigurationLoader(sources: list, options: LoaderOptions(json: "{\"timeout_ms\": 100}"))
    }

    @Test("malformed sources are errors naming the source", arguments: [
        (nil, "sources are missing"),
        ("  ", "sources are missing"),
        ("[]", "sources are empty"),
        ("{\"file\": \"x\"}", "sources must be a JSON array, found object"),
        ("[1]", "source 0: must be an object"),
        ("[{\"file\": \"a\"}, {\"fiel\": \"b\"}]", "source 1: unknown key \"fiel\""),
        ("[{}]", "source 0: names no source"),
        ("[{\"file\": \"a\", \"server\": \"http://h/\"}]", "source 0: has both \"file\" and \"server\""),
        ("[{\"file\": \"a\", \"file\": \"b\"}]", "source 0: \"file\" is repeated"),
        ("[{\"file\": 7}]", "source 0: \"file\" must be a string, found number"),
        ("[{\"file\": \"\"}]", "source 0: \"file\" must be a non-empty path"),
        ("[{\"data\": {\"rules\": []}}]", "source 0: \"data\" must be a string, found object"),
        ("[{\"data\": \"{}\", \"name\": 1}]", "source 0: \"name\" must be a string"),
        ("[{\"file\": \"a\", \"name\": \"n\"}]", "source 0: \"name\" goes with \"data\" only"),
        ("[{\"file\": \"a\", \"headers\": {}}]", "source 0: \"headers\" goes with \"server\" only"),
        ("[{\"server\": \"http://h/\", \"headers\": [\"Accept: x\"]}]", "source 0: \"headers\" must be an object of strings, found array"),
        ("[{\"server\": \"http://h/\", \"headers\": {\"Accept\": 1}}]", "source 0: header \"Accept\" must be a string, found number"),
        ("[{\"file\": ", "sources are not valid JSON"),
    ] as [(String?, String)])
    func sourceErrors(_ text: String?, _ message: String) {
        do {
            let list = try ConfigurationSource.list(json: text)
            Issue.record("accepted \(text ?? "nil"): \(list.count) sources")
        } catch {
            #expect(error.code == .invalidOption)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("bad URLs and headers from JSON fail when the loader is created")
    func validatedByTheLoader() throws {
        for (text, message) in [("[{\"server\": \"ftp://h/x\"}]", "source 0: \"ftp://h/x\" is not an http:// or https:// URL"),
                                ("[{\"file\": \"a\"}, {\"server\": \"http://h/\", \"headers\": {\"Bad Name\": \"v\"}}]", "source 1: \"Bad Name\" is not a valid header name")] {
            let list = try ConfigurationSource.list(json: text)
            do {
                _ = try ConfigurationLoader(sources: list)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.code == .invalidOption)
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
    }
}
