/// Where a character of a JSON string value sits in the document.
///
/// A pattern `"/file\\.pdf$"` is the text `/file\.pdf$`: its characters and
/// the document's bytes differ wherever the JSON has an escape or a
/// multi-byte character. Lint points at a character inside a pattern (the
/// `.`, the `$`, where the engine stopped), so it walks the JSON text.
enum JSONStringOffsets {
    /// The byte offset in `bytes` of Unicode scalar `scalar` (0-based) of the
    /// string whose opening quote is at `quote` (`"`, or `'` as Gson reads
    /// it); the closing quote's offset when `scalar` is past the end. A
    /// string Gson read without quotes, or a number it read as a string,
    /// starts at `quote` and holds its characters as they are.
    static func byteOffset(ofScalar scalar: Int, inStringAt quote: Int, in bytes: [UInt8]) -> Int {
        guard bytes.indices.contains(quote), scalar >= 0 else { return max(0, min(quote, bytes.count)) }
        let mark = bytes[quote]
        guard mark == UInt8(ascii: "\"") || mark == UInt8(ascii: "'") else {
            var pos = quote
            for _ in 0..<scalar where pos < bytes.count { pos += width(at: pos, in: bytes) }
            return min(pos, bytes.count)
        }
        var pos = quote + 1
        var remaining = scalar
        while pos < bytes.count, bytes[pos] != mark {
            if remaining == 0 { return pos }
            remaining -= 1
            pos += width(at: pos, in: bytes)
        }
        return min(pos, bytes.count)
    }

    /// The bytes taken by the scalar starting at `pos`: an escape (`\n`,
    /// `\uXXXX`, a surrogate pair as one), or one UTF-8 sequence.
    private static func width(at pos: Int, in bytes: [UInt8]) -> Int {
        let b = bytes[pos]
        if b == UInt8(ascii: "\\") {
            guard pos + 1 < bytes.count, bytes[pos + 1] == UInt8(ascii: "u") else { return 2 }
            // A high surrogate's escape is followed by its low surrogate's.
            if pos + 11 < bytes.count, isHighSurrogateEscape(at: pos, in: bytes),
               bytes[pos + 6] == UInt8(ascii: "\\"), bytes[pos + 7] == UInt8(ascii: "u") { return 12 }
            return 6
        }
        var n = 1
        while pos + n < bytes.count, bytes[pos + n] & 0xC0 == 0x80 { n += 1 }
        return n
    }

    private static func isHighSurrogateEscape(at pos: Int, in bytes: [UInt8]) -> Bool {
        guard pos + 5 < bytes.count, bytes[pos + 2] | 0x20 == UInt8(ascii: "d") else { return false }
        // D800 to DBFF: the second digit is 8, 9, A or B (in either case).
        return [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[pos + 3] | 0x20)
    }
}
