import PathConfigCore

/// Loader options and sources from JSON, as the C ABI and the bindings pass
/// them, parsed here so that every host reads them the same way.
extension LoaderOptions {
    /// The loader's own option names; `init(json:engines:)` also accepts
    /// `LoadOptions.jsonKeys`.
    public static let jsonKeys = ["cache_dir", "timeout_ms", "max_body_bytes", "refresh_interval_ms", "user_agent", "ca_file",
                                   "follow_redirects_to_other_hosts"]

    /// Parses options from a JSON object: the keys of `LoadOptions(json:engines:)`
    /// plus
    /// - `cache_dir`: a directory path, or null for no cache;
    /// - `timeout_ms`: a positive integer, milliseconds per download;
    /// - `max_body_bytes`: a positive integer;
    /// - `refresh_interval_ms`: a positive integer, or null for no polling;
    /// - `user_agent`: a string without control characters;
    /// - `ca_file`: a PEM file path, or null for libcurl's default bundle;
    /// - `follow_redirects_to_other_hosts`: a boolean (default false).
    ///
    /// Nil or blank text means defaults. Unknown keys and bad values throw
    /// `.invalidOption` (an unavailable backend `.backendUnavailable`), never
    /// ignored.
    /// - Parameter engines: the backends this build offers, by name.
    public init(json: String?, engines: [String: any RegexEngine] = Backend.builtIn) throws(ConfigurationError) {
        self.init()
        guard let members = try OptionsJSON.object(json) else { return }
        var loadMembers: [JSONNode.Member] = []
        for m in members {
            let value = m.value.value
            func bad(_ expected: String) -> ConfigurationError { OptionsJSON.wrongValue(m, expected) }
            switch m.key {
            case _ where LoadOptions.jsonKeys.contains(m.key):
                loadMembers.append(m)
            case "cache_dir", "ca_file":
                guard value == .null || value.stringValue.map(OptionsJSON.isPath) == true else { throw bad("a non-empty path without U+0000, or null") }
                self[keyPath: m.key == "cache_dir" ? \LoaderOptions.cacheDirectory : \LoaderOptions.caFile] = value.stringValue
            case "timeout_ms":
                guard let ms = OptionsJSON.positiveInteger(value) else { throw bad("a positive integer (milliseconds)") }
                timeout = .milliseconds(ms)
            case "max_body_bytes":
                guard let n = OptionsJSON.positiveInteger(value), let bytes = Int(exactly: n) else { throw bad("a positive integer") }
                maxBodyBytes = bytes
            case "refresh_interval_ms":
                if value == .null { refreshInterval = nil; continue }
                guard let ms = OptionsJSON.positiveInteger(value) else { throw bad("a positive integer (milliseconds) or null") }
                refreshInterval = .milliseconds(ms)
            case "follow_redirects_to_other_hosts":
                guard let follow = value.boolValue else { throw bad("true or false") }
                followRedirectsToOtherHosts = follow
            case "user_agent":
                guard let agent = value.stringValue, !agent.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    throw bad("a string without control characters")
                }
                userAgent = agent
            default:
                let known = LoadOptions.jsonKeys + Self.jsonKeys
                throw OptionsJSON.invalid("unknown option \(JSONWriter.quoted(m.key)); known options: \(known.joined(separator: ", "))")
            }
        }
        try load.apply(loadMembers, engines: engines)
    }
}

extension ConfigurationSource {
    /// Parses a loader's sources from a JSON array whose items are one of
    /// - `{"file": PATH}`;
    /// - `{"data": JSON_TEXT, "name": NAME}` (`name` optional, default "data");
    /// - `{"server": URL, "headers": {NAME: VALUE, ...}}` (`headers` optional;
    ///   sent in the order written).
    ///
    /// Anything else (an unknown or missing key, a wrong type, an empty
    /// array) throws `.invalidOption` naming the source's index. URLs and
    /// headers are checked when the loader is created.
    public static func list(json: String?) throws(ConfigurationError) -> [ConfigurationSource] {
        guard let json, !OptionsJSON.isBlank(json) else { throw OptionsJSON.invalid("sources are missing: expected a JSON array of sources") }
        let root = try OptionsJSON.parse(json, what: "sources")
        guard case .array(let items) = root.kind else {
            throw OptionsJSON.invalid("sources must be a JSON array, found \(root.typeName)")
        }
        guard !items.isEmpty else { throw OptionsJSON.invalid("sources are empty: a loader needs at least one source") }
        return try items.enumerated().map { index, item throws(ConfigurationError) in try source(item, index: index) }
    }

    private static let shapes = "{\"file\": PATH}, {\"data\": TEXT, \"name\": NAME} or {\"server\": URL, \"headers\": {NAME: VALUE}}"

    private static func source(_ item: JSONNode, index: Int) throws(ConfigurationError) -> ConfigurationSource {
        func invalid(_ message: String) -> ConfigurationError { OptionsJSON.invalid("source \(index): \(message)") }
        guard case .object(let members) = item.kind else { throw invalid("must be an object, one of \(shapes); found \(item.typeName)") }
        var seen: [String: JSONNode] = [:]
        for m in members {
            guard ["file", "data", "name", "server", "headers"].contains(m.key) else {
                throw invalid("unknown key \(JSONWriter.quoted(m.key)); expected \(shapes)")
            }
            guard seen[m.key] == nil else { throw invalid("\(JSONWriter.quoted(m.key)) is repeated") }
            seen[m.key] = m.value
        }
        let kinds = ["file", "data", "server"].filter { seen[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first, let node = seen[kind] else {
            throw invalid(kinds.isEmpty ? "names no source; expected \(shapes)" : "has both \(kinds.map(JSONWriter.quoted).joined(separator: " and ")); one source per object")
        }
        func string(_ key: String, _ node: JSONNode) throws(ConfigurationError) -> String {
            guard case .string(let s) = node.kind else { throw invalid("\(JSONWriter.quoted(key)) must be a string, found \(node.typeName)") }
            return s
        }
        if seen["name"] != nil, kind != "data" { throw invalid("\"name\" goes with \"data\" only") }
        if seen["headers"] != nil, kind != "server" { throw invalid("\"headers\" goes with \"server\" only") }
        switch kind {
        case "file":
            let path = try string("file", node)
            guard OptionsJSON.isPath(path) else { throw invalid("\"file\" must be a non-empty path without U+0000") }
            return .file(path)
        case "data":
            let text = try string("data", node)
            let name = try seen["name"].map { n throws(ConfigurationError) in try string("name", n) } ?? "data"
            return .data(Array(text.utf8), name: name)
        default:
            let url = try string("server", node)
            guard let h = seen["headers"] else { return .server(url) }
            guard case .object(let pairs) = h.kind else { throw invalid("\"headers\" must be an object of strings, found \(h.typeName)") }
            return .server(url, headers: try pairs.map { pair throws(ConfigurationError) in
                guard case .string(let value) = pair.value.kind else {
                    throw invalid("header \(JSONWriter.quoted(pair.key)) must be a string, found \(pair.value.typeName)")
                }
                return (pair.key, value)
            })
        }
    }
}
