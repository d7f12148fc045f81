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
        let line = 1 + bytes[..<end].count { $0 == 0x0A }
        let lineStart = bytes[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        self.init(line: line, column: 1 + bytes[lineStart..<end].count { $0 & 0xC0 != 0x80 }, offset: end)
    }

    public var description: String { "\(line):\(column)" }
}

/// A document's bytes, kept so that a byte offset can become a line and
/// column when a message needs one, and only then.
///
/// Loading records byte offsets alone; the first location asked for builds
/// an index in one linear pass (the start of every line, and the count of
/// Unicode scalars before every 256-byte block), after which each location
/// costs a binary search and a scan of at most one block. A minified
/// document (one long line) therefore costs no more than a pretty-printed
/// one, however many locations are asked for.
public final class SourceText: @unchecked Sendable, Hashable {
    /// The document's bytes (a copy of them when this text only borrows
    /// them: `init(borrowing:)`).
    public var bytes: [UInt8] { kept ?? Array(lent) }
    /// The bytes, when this text holds them.
    private let kept: [UInt8]?
    /// The bytes, when this text borrows them (empty otherwise).
    private let lent: UnsafeBufferPointer<UInt8>
    private let index = Locked<SourceIndex?>(nil)

    /// Keeps a copy of `bytes`.
    public convenience init(_ bytes: UnsafeBufferPointer<UInt8>) { self.init(Array(bytes)) }

    /// Keeps `bytes`.
    public init(_ bytes: [UInt8]) {
        kept = bytes
        lent = UnsafeBufferPointer(start: nil, count: 0)
    }

    /// Reads `bytes` where they are, without a copy: for a document decoded
    /// and compiled while its caller holds the bytes (`PathConfiguration`'s
    /// loads), which must not outlive them (`kept()` makes one that may).
    /// A copy of a large document was most of a load's transient memory.
    package init(borrowing bytes: UnsafeBufferPointer<UInt8>) {
        kept = nil
        lent = bytes
    }

    /// This text, holding its bytes: itself when it does, a copy otherwise.
    func keptCopy() -> SourceText { kept != nil ? self : SourceText(Array(lent)) }

    /// The number of bytes.
    package var count: Int { kept?.count ?? lent.count }

    /// `body` of the bytes, where they are.
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let kept { return try kept.withUnsafeBufferPointer(body) }
        return try body(lent)
    }

    /// The line and column of byte `offset` (clamped to the document).
    public func location(_ offset: Int) -> SourceLocation {
        withBytes { bytes in
            let built = index.withLock { cached in
                if let cached { return cached }
                let made = SourceIndex(bytes)
                cached = made
                return made
            }
            return built.location(min(max(offset, 0), bytes.count), in: bytes)
        }
    }

    /// Whether a location has been asked for (the index is built then);
    /// tests use it to check that a clean load asks for none.
    var isIndexed: Bool { index.withLock { $0 != nil } }

    public static func == (a: SourceText, b: SourceText) -> Bool {
        a === b || a.withBytes { x in b.withBytes { y in x.elementsEqual(y) } }
    }

    public func hash(into hasher: inout Hasher) {
        // As `[UInt8]` hashes: the count, then every element.
        withBytes { bytes in
            hasher.combine(bytes.count)
            for b in bytes { hasher.combine(b) }
        }
    }
}

/// Line starts and scalar counts of a document (see `SourceText`).
private struct SourceIndex: Sendable {
    static let blockShift = 8
    /// Byte offset of the start of every line.
    let lineStarts: [Int]
    /// Unicode scalars before byte `i << blockShift`, for every block.
    let scalarsBefore: [Int]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        var starts = [0]
        var scalars: [Int] = []
        scalars.reserveCapacity(bytes.count >> Self.blockShift + 1)
        var count = 0
        let mask = (1 << Self.blockShift) - 1
        for i in 0..<bytes.count {
            if i & mask == 0 { scalars.append(count) }
            let b = bytes[i]
            if b & 0xC0 != 0x80 { count += 1 }
            if b == 0x0A { starts.append(i + 1) }
        }
        scalars.append(count)
        lineStarts = starts
        scalarsBefore = scalars
    }

    /// Scalars in `bytes[0..<offset]`.
    func scalars(before offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let block = offset >> Self.blockShift
        return scalarsBefore[min(block, scalarsBefore.count - 1)] + bytes[(block << Self.blockShift)..<offset].count { $0 & 0xC0 != 0x80 }
    }

    func location(_ offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) >> 1
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        let column = scalars(before: offset, in: bytes) - scalars(before: lineStarts[lo], in: bytes) + 1
        return SourceLocation(line: lo + 1, column: column, offset: offset)
    }
}
