/// A place in a document: 1-based line and column, and the 0-based byte offset.
///
/// Columns count Unicode scalars, as editors do, so a message points at the
/// right character on a line with non-ASCII text.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number.
    public let line: Int
    /// 1-based column, in Unicode scalars.
    public let column: Int
    /// 0-based offset in bytes from the start of the document.
    public let offset: Int

    /// Creates a location from its parts.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Computes the line and column of byte `offset` in `bytes`.
    public init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = 0
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        for i in lineStart..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        self.init(line: line, column: column, offset: end)
    }

    public var description: String { "\(line):\(column)" }
}

/// The start offset of every line of a document, so that many offsets can be
/// turned into line and column without rescanning from the start.
struct LineIndex {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let lineStarts: [Int]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var starts = [0]
        for i in 0..<bytes.count where bytes[i] == 0x0A { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The location of byte `offset`.
    func location(_ offset: Int) -> SourceLocation {
        let end = min(max(offset, 0), bytes.count)
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if lineStarts[mid] <= end { lo = mid } else { hi = mid - 1 }
        }
        var column = 1
        for i in lineStarts[lo]..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        return SourceLocation(line: lo + 1, column: column, offset: end)
    }
}
