/// Reads one fuzz input front to back: selector bytes, then NUL-separated
/// fields. Past the end every byte reads as 0 and every field as empty, so
/// any input decodes to something.
public struct FuzzReader {
    private let bytes: [UInt8]
    private var index = 0

    /// Reads `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte (0 past the end).
    public mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    /// The bytes up to the next NUL, which is consumed; the rest when there is none.
    public mutating func field() -> [UInt8] {
        guard index < bytes.count else { return [] }
        let end = bytes[index...].firstIndex(of: 0) ?? bytes.count
        defer { index = end + 1 }
        return Array(bytes[index..<end])
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] {
        guard index < bytes.count else { return [] }
        defer { index = bytes.count }
        return Array(bytes[index...])
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { index >= bytes.count }
}

/// Building fuzz inputs (seeds, tests) in the layout `FuzzReader` reads.
public enum FuzzInputBuilder {
    /// `selectors`, then each field followed by a NUL (the last one without).
    public static func encode(_ selectors: [UInt8], fields: [[UInt8]]) -> [UInt8] {
        var out = selectors
        for (i, field) in fields.enumerated() {
            if i > 0 { out.append(0) }
            out += field
        }
        return out
    }
}

extension String {
    /// `bytes` as the C layer would refuse them and Swift callers repair
    /// them: invalid UTF-8 becomes U+FFFD.
    init(repairing bytes: [UInt8]) { self = String(decoding: bytes, as: UTF8.self) }
}
