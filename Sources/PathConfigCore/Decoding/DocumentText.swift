/// The Unicode encodings a document may arrive in, and how each app tells
/// which one it is reading. The one place that turns a document's bytes into
/// the UTF-8 text the readers parse: a document in UTF-16 or UTF-32 is
/// converted once, at load, so that every reader, every offset and every
/// line and column afterwards concern UTF-8 text holding the same characters
/// (an editor's lines and columns, the byte-order mark left out).
/// Its raw value is the name messages use: `UTF-16LE`.
enum DocumentEncoding: String, Sendable, Hashable {
    case utf8 = "UTF-8"
    case utf16BigEndian = "UTF-16BE"
    case utf16LittleEndian = "UTF-16LE"
    case utf32BigEndian = "UTF-32BE"
    case utf32LittleEndian = "UTF-32LE"

    /// Bytes per code unit.
    var unitSize: Int {
        switch self {
        case .utf8: return 1
        case .utf16BigEndian, .utf16LittleEndian: return 2
        case .utf32BigEndian, .utf32LittleEndian: return 4
        }
    }

    /// What JSONSerialization decides, the rule the iOS apps and Siesta read
    /// with (swift-corelibs-foundation, Sources/Foundation/JSONSerialization.swift,
    /// `detectEncoding`, which follows Darwin's): with four bytes or more, a
    /// byte-order mark first (UTF-8 `EF BB BF`, UTF-32BE `00 00 FE FF`,
    /// UTF-32LE `FF FE 00 00`, UTF-16LE `FF FE`, UTF-16BE `FE FF`, in that
    /// order); else the zero bytes of the first four (`00 00 00 xx` UTF-32BE,
    /// `xx 00 00 00` UTF-32LE, `00 xx 00 xx` UTF-16BE, `xx 00 xx 00`
    /// UTF-16LE); with two or three bytes, `00 xx` UTF-16BE and `xx 00`
    /// UTF-16LE; UTF-8 otherwise. Returns the encoding and the length of the
    /// byte-order mark to skip.
    static func jsonSerialization(_ b: UnsafeBufferPointer<UInt8>) -> (encoding: DocumentEncoding, bomLength: Int) {
        if b.count >= 4 {
            if b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { return (.utf8, 3) }
            if b[0] == 0x00, b[1] == 0x00, b[2] == 0xFE, b[3] == 0xFF { return (.utf32BigEndian, 4) }
            if b[0] == 0xFF, b[1] == 0xFE, b[2] == 0x00, b[3] == 0x00 { return (.utf32LittleEndian, 4) }
            if b[0] == 0xFF, b[1] == 0xFE { return (.utf16LittleEndian, 2) }
            if b[0] == 0xFE, b[1] == 0xFF { return (.utf16BigEndian, 2) }
            switch (b[0], b[1], b[2], b[3]) {
            case (0, 0, 0, _): return (.utf32BigEndian, 0)
            case (_, 0, 0, 0): return (.utf32LittleEndian, 0)
            case (0, _, 0, _): return (.utf16BigEndian, 0)
            case (_, 0, _, 0): return (.utf16LittleEndian, 0)
            default: return (.utf8, 0)
            }
        }
        if b.count >= 2 {
            if b[0] == 0 { return (.utf16BigEndian, 0) }
            if b[1] == 0 { return (.utf16LittleEndian, 0) }
        }
        return (.utf8, 0)
    }

    /// The byte-order mark OkHttp's `ResponseBody.string()` honours (okhttp3
    /// `Util.readBomAsCharset`, options in this order: UTF-8, UTF-16BE,
    /// UTF-32LE, UTF-16LE, UTF-32BE), or nil: the Android apps' downloads.
    static func byteOrderMark(_ b: UnsafeBufferPointer<UInt8>) -> (encoding: DocumentEncoding, bomLength: Int)? {
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if b.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
        if b.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
        return nil
    }
}

/// Where a document's bytes came from, for the Android apps, which read a
/// bundled file and a download differently (iOS reads both alike).
package enum DocumentTransport: Sendable {
    /// Bytes or a file: an Android app's bundled asset, `String(bytes)`
    /// (UTF-8, ill-formed bytes replaced with U+FFFD; no byte-order mark
    /// honoured beyond UTF-8's, which Gson skips: see `GsonReader`).
    case file
    /// A download, and the cached copy of one: OkHttp's `body.string()`,
    /// which honours a byte-order mark and otherwise reads UTF-8.
    case download
}

/// A document's text as UTF-8, made once at load.
enum DocumentText {
    /// Converts `bytes` (after a byte-order mark of `bomLength` bytes) from
    /// `encoding` to UTF-8, or throws where a code unit is not valid there
    /// (an unpaired surrogate, a value past U+10FFFF, a truncated unit), with
    /// the line and column of that unit in the original text.
    static func utf8(from bytes: UnsafeBufferPointer<UInt8>, encoding: DocumentEncoding, bomLength: Int,
                     reader: String) throws(ConfigurationError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let size = encoding.unitSize
        var i = bomLength
        func unit(_ at: Int) -> UInt32 {
            switch encoding {
            case .utf16BigEndian: return UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1])
            case .utf16LittleEndian: return UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
            case .utf32BigEndian: return UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
            case .utf32LittleEndian: return UInt32(bytes[at + 3]) << 24 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at])
            case .utf8: return UInt32(bytes[at])
            }
        }
        func fail(_ what: String) -> ConfigurationError {
            // The converted text so far ends where the bad unit starts: its
            // line and column are the editor's for the original file.
            let location = out.withUnsafeBufferPointer { SourceLocation(offset: $0.count, in: $0) }
            return ConfigurationError(code: .invalidJSON,
                                      message: "the document is \(encoding.rawValue) but byte \(i) starts \(what), so \(reader) cannot convert it to text",
                                      location: location)
        }
        while i < bytes.count {
            guard i + size <= bytes.count else { throw fail("a truncated code unit") }
            var scalar = unit(i)
            var width = size
            if size == 2, scalar >= 0xD800, scalar < 0xDC00 {
                guard i + 4 <= bytes.count, case let low = unit(i + 2), low >= 0xDC00, low < 0xE000 else {
                    throw fail("an unpaired surrogate")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                width = 4
            }
            guard let s = Unicode.Scalar(scalar) else {
                throw fail(scalar >= 0xD800 && scalar < 0xE000 ? "an unpaired surrogate" : "a value past U+10FFFF")
            }
            out.append(contentsOf: UTF8.encode(s)!)
            i += width
        }
        return out
    }
}
