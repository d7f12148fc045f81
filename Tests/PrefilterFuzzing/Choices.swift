/// Where the pattern grammar's decisions come from: a seeded generator for
/// the deterministic test and the random loop, or the fuzzer's bytes.
public protocol Choices {
    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int
}

extension Choices {
    /// True about once in `n` calls.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// One element of `items` (not empty).
    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// SplitMix64: small, fast, and the same sequence on every platform for a seed.
public struct SeededChoices: Choices {
    private var state: UInt64

    /// Starts the sequence for `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Decisions read from a fuzzer's input, one or two bytes each; zeros once
/// it runs out, so every input decodes to something and short inputs to
/// simple patterns.
public struct ByteChoices: Choices {
    private let bytes: [UInt8]
    private var index = 0

    /// Reads decisions from `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been used.
    public var isExhausted: Bool { index >= bytes.count }

    private mutating func byte() -> Int {
        defer { index += 1 }
        return index < bytes.count ? Int(bytes[index]) : 0
    }

    public mutating func below(_ bound: Int) -> Int {
        bound <= 256 ? byte() % bound : (byte() << 8 | byte()) % bound
    }
}
