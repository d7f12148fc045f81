/// A JSON value that keeps everything the document said.
///
/// Integers stay integers, numbers keep their literal text (so `1.50` and
/// `1e3` round-trip byte for byte), and object keys keep their order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// `n` as a JSON number.
    public static func integer(_ n: Int) -> JSONValue { .number(JSONNumber(Int64(n))) }

    /// `n` as a JSON number, or `null` when there is none.
    public static func integer(_ n: Int?) -> JSONValue { n.map { integer($0) } ?? .null }

    /// The string, when this is a JSON string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The boolean, when this is `true` or `false` (a string `"true"` is not a bool).
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }

    /// The integer, when this is a number written without fraction or exponent
    /// that fits in 64 bits.
    public var int64Value: Int64? { if case .number(let n) = self { n.int64Value } else { nil } }

    /// The number as a double, when this is a number.
    public var doubleValue: Double? { if case .number(let n) = self { n.doubleValue } else { nil } }

    /// The object, when this is a JSON object.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// The elements, when this is a JSON array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }

    /// Equal when of one type and equal as written: strings by their code
    /// points, as a C host and the Android apps compare them (Swift's `==`
    /// takes `"é"` and `"e\u{301}"` as one string), numbers by their
    /// literal text, arrays element by element, objects as `JSONObject`
    /// compares them.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return String.sameBytes(a, b)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): s.hashBytes(into: &hasher)
        case .array(let a): hasher.combine(a)
        case .object(let o): hasher.combine(o)
        }
    }

    /// The JSON type name used in error messages: `null`, `boolean`, `number`,
    /// `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON number, kept as the literal text of the document.
///
/// Keeping the text makes values lossless: integers beyond 64 bits, `1.0`
/// versus `1`, and exponents all serialise exactly as they were read.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal, as written in the document (always valid JSON number syntax).
    public let text: String

    /// Creates a number from JSON literal text. The caller guarantees the syntax.
    init(literal: String) { self.text = literal }

    /// Creates an integer number.
    public init(_ value: Int64) { self.text = String(value) }

    /// Creates a number from a double. Non-finite values have no JSON form and become `0`.
    public init(_ value: Double) {
        self.text = value.isFinite ? "\(value)" : "0"
    }

    /// True when the literal has no fraction and no exponent.
    public var isInteger: Bool {
        !text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") })
    }

    /// The value as a 64-bit integer, when it is an integer literal that fits.
    public var int64Value: Int64? { isInteger ? Int64(text) : nil }

    /// The value as a double (nearest representable).
    public var doubleValue: Double { Double(text) ?? 0 }

    public var description: String { text }
}

/// A JSON object that keeps its keys in document order.
///
/// The members are one array, in order. An object of more than
/// `indexedAbove` keys also has an index of their positions, for O(1)
/// lookup by key; a smaller one is searched (a few comparisons cost no more
/// than hashing the key, and a rule's properties, two or three keys, took
/// 296 bytes as an ordered key list and a dictionary, 112 as one array).
/// When a document repeats a key, the decoder keeps the first occurrence and
/// reports the repeat as a warning.
///
/// Keys are the same when their code points are (as JSON readers in C,
/// Python, Rust and Java compare them), not by Swift's canonical
/// equivalence: `"café"` spelt with U+00E9 and with `e` and U+0301 are two
/// keys, as Gson keeps them (`mergeCanonically` merges the other way, as
/// the iOS apps' dictionaries do).
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One key and its value.
    public typealias Element = (key: String, value: JSONValue)

    /// The members in order; written only here.
    private var members: [Element] = []
    /// Each key's position in `members`, when there are more than
    /// `indexedAbove`: by Swift's string hashing, so a key canonically
    /// equivalent to one indexed before it is not indexed, and is found by a
    /// scan (rare: such keys are spelt apart on purpose). A dictionary keyed
    /// by a type of its own comparing code points cost the first load of a
    /// process 116,000 instructions of runtime type instantiation.
    private var positions: [String: Int]?

    /// The most keys an object has without an index.
    static let indexedAbove = 8

    /// An empty object.
    public init() {}

    /// An empty object with room for `minimumCapacity` keys.
    public init(minimumCapacity: Int) {
        members.reserveCapacity(minimumCapacity)
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (k, v) in elements { self[k] = v }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }
    /// The number of keys.
    public var count: Int { members.count }
    /// True when the object has no key.
    public var isEmpty: Bool { members.isEmpty }
    public subscript(position: Int) -> Element { members[position] }

    /// The keys, in document order.
    public var keys: [String] { members.map(\.key) }

    /// The position of `key` in `members`, or nil.
    private func position(of key: String) -> Int? {
        if let positions {
            guard let i = positions[key] else { return nil }
            return String.sameBytes(members[i].key, key) ? i : members.firstIndex { String.sameBytes($0.key, key) }
        }
        return members.firstIndex { String.sameBytes($0.key, key) }
    }

    /// The value for `key`, or nil. Setting a new key appends it; setting an
    /// existing key replaces the value in place; setting nil removes the key.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let newValue {
                if let i = position(of: key) {
                    members[i].value = newValue
                } else {
                    members.append((key, newValue))
                    if positions != nil {
                        if positions![key] == nil { positions![key] = members.count - 1 }
                    } else if members.count > Self.indexedAbove {
                        index()
                    }
                }
            } else if let i = position(of: key) {
                members.remove(at: i)
                if positions != nil { index() }
            }
        }
    }

    /// Makes `positions` anew (nil when there are too few keys for one).
    private mutating func index() {
        guard members.count > Self.indexedAbove else { positions = nil; return }
        var made: [String: Int] = [:]
        made.reserveCapacity(members.count)
        // Backwards, so that of keys canonically equivalent the first is indexed.
        for (i, m) in members.enumerated().reversed() { made[m.key] = i }
        positions = made
    }

    /// True when the object has `key`.
    public func contains(key: String) -> Bool { position(of: key) != nil }

    /// Shallow merge: every key of `other` replaces or appends to this object,
    /// later keys winning; a nested object is replaced whole.
    public mutating func merge(_ other: JSONObject) {
        for (k, v) in other { self[k] = v }
    }

    /// Shallow merge where keys canonically equivalent are one, as the iOS
    /// apps merge `[String: AnyHashable]` dictionaries: a key of `other`
    /// replaces the value of the first such key, which keeps its spelling,
    /// or is appended.
    mutating func mergeCanonically(_ other: JSONObject) {
        for (k, v) in other {
            if let i = canonicalPosition(of: k) { members[i].value = v } else { self[k] = v }
        }
    }

    /// The value the iOS apps' dictionaries find for `key`: its own, else
    /// that of the first key canonically equivalent to it.
    package func value(canonicallyMatching key: String) -> JSONValue? {
        canonicalPosition(of: key).map { members[$0].value }
    }

    /// The position of `key`, else of the first key canonically equivalent to it.
    private func canonicalPosition(of key: String) -> Int? {
        position(of: key) ?? members.firstIndex { $0.key == key }
    }

    /// The same keys in the same order, with equal values.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { String.sameBytes($0.key, $1.key) && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for m in members { m.key.hashBytes(into: &hasher) }
        for m in members { hasher.combine(m.value) }
    }
}
