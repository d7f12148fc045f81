import PathConfigCore

/// Checks the sources a loader is created with, so that a bad URL or header
/// is an error at creation instead of a failure at every download.
enum SourceValidation {
    /// Throws `.invalidOption` for an empty list, a URL that is not absolute
    /// http(s), or a header that could not be sent as written.
    static func check(_ sources: [ConfigurationSource], _ options: LoaderOptions) throws(ConfigurationError) {
        guard !sources.isEmpty else { throw OptionsJSON.invalid("a loader needs at least one source") }
        guard options.maxBodyBytes > 0 else { throw OptionsJSON.invalid("maxBodyBytes must be positive") }
        guard options.timeout > .zero else { throw OptionsJSON.invalid("the timeout must be positive") }
        if let interval = options.refreshInterval, interval <= .zero { throw OptionsJSON.invalid("the refresh interval must be positive") }
        for (index, source) in sources.enumerated() {
            guard case .server(let url, let headers) = source else { continue }
            func invalid(_ why: String) -> ConfigurationError { OptionsJSON.invalid("source \(index): \(why)") }
            let lower = url.lowercased()
            guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else {
                throw invalid("\(JSONWriter.quoted(url)) is not an http:// or https:// URL")
            }
            guard let first = lower.dropFirst(scheme.count).first, first != "/", first != "?", first != "#" else {
                throw invalid("\(JSONWriter.quoted(url)) has no host")
            }
            if url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
                throw invalid("\(JSONWriter.quoted(url)) contains spaces or control characters; percent-encode them")
            }
            for header in headers {
                // A field name is a token, as a method is (RFC 9110).
                guard !header.name.isEmpty, header.name.utf8.allSatisfy(HTTPMethod.isTokenByte) else {
                    throw invalid("\(JSONWriter.quoted(header.name)) is not a valid header name")
                }
                guard isSendable(header.value) else {
                    throw invalid("the value of header \(JSONWriter.quoted(header.name)) contains a line break or a NUL")
                }
            }
        }
    }

    /// Whether `value` can go into a request header as written: no line
    /// break (which would end the line, or start another header) and no NUL.
    static func isSendable(_ value: String) -> Bool {
        !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 })
    }
}
