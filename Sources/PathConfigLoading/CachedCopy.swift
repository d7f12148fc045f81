import PathConfigCore

/// One server response kept on disk: the body with the validators that let
/// the next request ask "has it changed?".
///
/// Stored as ONE file, so that replacing it is one atomic rename:
///
/// ```
/// pathconfig-cache 1
/// url https://example.com/path-configuration.json
/// etag "64f1c2a9-1d3"
/// last-modified Fri, 01 Sep 2023 10:00:00 GMT
/// body-length 467
/// body-fnv1a64 0123456789abcdef
///
/// <the body, exactly body-length bytes>
/// ```
///
/// The URL detects two URLs whose names hash alike; the length and checksum
/// detect a file cut short or edited by hand.
struct CachedCopy: Sendable, Hashable {
    /// The URL the body was downloaded from.
    var url: String
    /// The response body, as received.
    var body: [UInt8]
    /// The `ETag` response header, when there was one.
    var etag: String?
    /// The `Last-Modified` response header, when there was one.
    var lastModified: String?

    static let magic = "pathconfig-cache 1"

    /// The file contents.
    func encoded() -> [UInt8] {
        var header = Self.magic + "\n"
        header += "url \(url)\n"
        if let etag = etag.flatMap(Self.headerSafe) { header += "etag \(etag)\n" }
        if let lastModified = lastModified.flatMap(Self.headerSafe) { header += "last-modified \(lastModified)\n" }
        header += "body-length \(body.count)\n"
        header += "body-fnv1a64 \(StableHash.hex(StableHash.fnv1a64(body)))\n\n"
        return Array(header.utf8) + body
    }

    /// A value that fits on one header line, or nil.
    private static func headerSafe(_ value: String) -> String? {
        value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) ? nil : value
    }

    /// Parses file contents, or says what is wrong with them.
    static func decode(_ bytes: [UInt8]) throws(DecodeFailure) -> CachedCopy {
        func failure(_ reason: String) -> DecodeFailure { DecodeFailure(reason: reason) }
        var fields: [String: String] = [:]
        var lines: [String] = []
        var position = 0
        // The header: lines up to an empty line.
        while true {
            guard let newline = bytes[position...].firstIndex(of: 0x0A) else { throw failure("the header has no end") }
            guard let line = String(validating: bytes[position..<newline], as: UTF8.self) else { throw failure("the header is not UTF-8") }
            position = newline + 1
            if line.isEmpty { break }
            lines.append(line)
        }
        guard lines.first == magic else { throw failure("it does not start with \(JSONWriter.quoted(magic))") }
        for line in lines.dropFirst() {
            // The first space byte, not the first " " Character: a value
            // starting with a combining mark (an ETag may hold any text) forms
            // one grapheme with the space before it.
            let utf8 = line.utf8
            guard let space = utf8.firstIndex(of: 0x20) else { throw failure("bad header line \(JSONWriter.quoted(line))") }
            fields[String(decoding: utf8[..<space], as: UTF8.self)] = String(decoding: utf8[utf8.index(after: space)...], as: UTF8.self)
        }
        guard let url = fields["url"] else { throw failure("it names no URL") }
        guard let length = fields["body-length"].flatMap({ Int($0) }), length >= 0 else { throw failure("it has no valid body-length") }
        let body = Array(bytes[position...])
        guard body.count == length else { throw failure("the body is \(body.count) bytes, the header says \(length)") }
        guard fields["body-fnv1a64"] == StableHash.hex(StableHash.fnv1a64(body)) else { throw failure("the body does not match its checksum") }
        return CachedCopy(url: url, body: body, etag: fields["etag"], lastModified: fields["last-modified"])
    }

    /// Why bytes are not a cache entry.
    struct DecodeFailure: Error {
        let reason: String
    }
}
