/// A JSON syntax tree whose every value and key remembers where it starts.
///
/// The decoder walks this tree to build the model, so that a schema error can
/// say "line 12, column 7" and not only "invalid JSON". Public so that tools
/// reading other JSON files of their own (the command line's cases files)
/// point at lines and columns the same way: `JSONNode.parse` reads one, and
/// `SourceText.location(_:)` turns an `offset` into a line and column.
public struct JSONNode: Sendable {
    /// One member of an object, with the offset of its key.
    public struct Member: Sendable {
        /// The key, unescaped.
        public let key: String
        /// Byte offset of the key's opening quote.
        public let keyOffset: Int
        /// The value.
        public let value: JSONNode
    }

    /// What the value is; an object keeps every member, repeated keys included, in document order.
    public enum Kind: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, as its literal text.
        case number(JSONNumber)
        /// A string, unescaped.
        case string(String)
        /// An array's elements.
        case array([JSONNode])
        /// An object's members.
        case object([Member])
    }

    /// What the value is.
    public let kind: Kind
    /// Byte offset of the value's first character.
    public let offset: Int

    /// The JSON type name, as in `JSONValue.typeName`.
    public var typeName: String {
        switch kind {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// The first member named `key` (a repeated key keeps its first value).
    public func member(_ key: String) -> Member? {
        guard case .object(let members) = kind else { return nil }
        return members.first { $0.key == key }
    }

    /// The plain value: positions dropped, the first of repeated keys kept.
    public var value: JSONValue { value(canonicalKeys: false) }

    /// The plain value, where keys are repeated when their code points are
    /// the same, or, with `canonicalKeys`, when they are canonically
    /// equivalent (as JSONSerialization's Swift dictionaries take them:
    /// `DocumentReading.keysAreCanonical`); the first of each is kept.
    func value(canonicalKeys: Bool) -> JSONValue {
        switch kind {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n): return .number(n)
        case .string(let s): return .string(s)
        case .array(let items): return .array(items.map { $0.value(canonicalKeys: canonicalKeys) })
        case .object(let members):
            var object = JSONObject(minimumCapacity: members.count)
            guard canonicalKeys else {
                for m in members where !object.contains(key: m.key) { object[m.key] = m.value.value(canonicalKeys: false) }
                return .object(object)
            }
            var seen = Set<String>()
            for m in members where seen.insert(m.key).inserted { object[m.key] = m.value.value(canonicalKeys: true) }
            return .object(object)
        }
    }
}

/// An error found by `JSONReader`, at a byte offset.
package struct JSONSyntaxError: Error, Sendable {
    /// What kind of error: the bytes are not JSON, or nest deeper than allowed.
    enum Kind: Sendable { case syntax, depthLimit }

    var kind: Kind = .syntax
    let offset: Int
    let message: String

    /// The error as a load error, located in `bytes` (the document it was found in).
    package func configurationError(in bytes: UnsafeBufferPointer<UInt8>) -> ConfigurationError {
        ConfigurationError(code: kind == .depthLimit ? .limit : .invalidJSON, message: message,
                           location: SourceLocation(offset: offset, in: bytes))
    }
}

/// A repeated key inside one object (`JSONNode.value` keeps the first value).
public struct JSONDuplicateKey: Sendable {
    /// The repeated key.
    public let key: String
    /// Byte offset of the repeat's opening quote.
    public let offset: Int
    /// Byte offset of the first occurrence's opening quote.
    public let firstOffset: Int
}

/// Reads RFC 8259 JSON into a `JSONNode` tree, tracking positions.
///
/// How the iOS apps (JSONSerialization) read a configuration, in UTF-8
/// (`DocumentText` converts UTF-16 and UTF-32 first); the Android apps' Gson
/// reads with `GsonReader`. Deliberate extensions, because the iOS apps
/// accept them and the seed documents contain them: a trailing comma before `]` or `}` (each one
/// recorded, for lint; the record is made only where one is found, so the
/// common path does no extra work), and a leading UTF-8 byte-order mark.
/// Everything else is strict: invalid UTF-8, control characters in strings, lone surrogates, leading zeros, and nesting
/// deeper than `maxDepth` are errors that name their offset.
package struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos = 0
    private let maxDepth: Int
    private var depth = 0
    /// Repeated keys seen while reading, in document order.
    private(set) var duplicateKeys: [JSONDuplicateKey] = []
    /// Trailing commas seen while reading, in document order.
    private(set) var trailingCommas: [JSONTrailingComma] = []
    /// Offsets of the numbers whose `Double` is infinite, in document order.
    private(set) var numbersBeyondDouble: [Int] = []

    /// Parses one JSON document from `bytes`, with everything the reader
    /// noticed on the way (repeated keys, trailing commas).
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONSyntaxError) -> JSONReadResult {
        var reader = JSONReader(bytes: bytes, maxDepth: maxDepth)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.pos = 3 }
        reader.skipWhitespace()
        let node = try reader.readValue()
        reader.skipWhitespace()
        if reader.pos < bytes.count {
            throw JSONSyntaxError(offset: reader.pos, message: "unexpected \(bytes.describe(at: reader.pos)) after the end of the document")
        }
        return JSONReadResult(root: node, duplicateKeys: reader.duplicateKeys, trailingCommas: reader.trailingCommas,
                              numbersBeyondDouble: reader.numbersBeyondDouble)
    }

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x0A, 0x0D, 0x09: pos += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws(JSONSyntaxError) -> JSONNode {
        guard pos < bytes.count else { throw JSONSyntaxError(offset: pos, message: "unexpected end of input, expected a value") }
        let start = pos
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return JSONNode(kind: .string(try readString()), offset: start)
        case UInt8(ascii: "t"): try readLiteral("true"); return JSONNode(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try readLiteral("false"); return JSONNode(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try readLiteral("null"); return JSONNode(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(kind: .number(try readNumber()), offset: start)
        default: throw JSONSyntaxError(offset: pos, message: "unexpected \(bytes.describe(at: pos)), expected a value")
        }
    }

    private mutating func readLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let start = pos
        let utf8 = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for expected in utf8 {
            guard pos < bytes.count, bytes[pos] == expected else {
                throw JSONSyntaxError(offset: start, message: "invalid literal, expected '\(word)'")
            }
            pos += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > maxDepth { throw JSONSyntaxError(kind: .depthLimit, offset: pos, message: "nesting deeper than \(maxDepth) levels") }
    }

    private mutating func readArray() throws(JSONSyntaxError) -> JSONNode {
        let start = pos
        try enter()
        pos += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; depth -= 1; return JSONNode(kind: .array(items), offset: start) }
        repeat {
            skipWhitespace()
            items.append(try readValue())
        } while try continues(closing: UInt8(ascii: "]"), openedAt: start)
        depth -= 1
        return JSONNode(kind: .array(items), offset: start)
    }

    /// After an element of the array or object whose opening bracket is at
    /// `start`: whether another element follows its `,`. A `close` after
    /// the element, or after a `,` (a trailing comma, recorded), ends it.
    @inline(__always)
    private mutating func continues(closing close: UInt8, openedAt start: Int) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard pos < bytes.count else {
            throw JSONSyntaxError(offset: pos, message: "unexpected end of input, expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
        if bytes[pos] == UInt8(ascii: ",") {
            let comma = pos
            pos += 1
            skipWhitespace()
            guard pos < bytes.count, bytes[pos] == close else { return true }
            trailingCommas.append(JSONTrailingComma(offset: comma, containerOffset: start))
        } else if bytes[pos] != close {
            throw JSONSyntaxError(offset: pos, message: "unexpected \(bytes.describe(at: pos)), expected ',' or '\(Character(Unicode.Scalar(close)))'")
        }
        pos += 1
        return false
    }

    /// Members an object may have before its keys are indexed.
    static let linearKeyScanLimit = 16

    /// Where `key` first is among `members` (an object's members so far),
    /// or nil, keys being the same when canonically equivalent, as
    /// JSONSerialization's Swift dictionaries take them, or, `exact`, when
    /// their code points are, as Gson's Java maps (`String.sameBytes`); a
    /// scan while the object is small, as most are, then `index` (by Swift's
    /// hashing: the first of keys canonically equivalent), which this keeps
    /// up to date with the member the caller appends next.
    static func position(of key: String, in members: [JSONNode.Member], index: inout [String: Int]?, exact: Bool) -> Int? {
        guard members.count >= linearKeyScanLimit else {
            return members.firstIndex { exact ? String.sameBytes($0.key, key) : $0.key == key }
        }
        if index == nil { index = Dictionary(members.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first }) }
        if let i = index![key] {
            // An equivalent key spelt otherwise: scanned for, rare.
            return !exact || String.sameBytes(members[i].key, key) ? i : members.firstIndex { String.sameBytes($0.key, key) }
        }
        index![key] = members.count
        return nil
    }

    private mutating func readObject() throws(JSONSyntaxError) -> JSONNode {
        let start = pos
        try enter()
        pos += 1
        var members: [JSONNode.Member] = []
        // Where each key first appeared, for duplicates: found by a scan of
        // `members` while the object is small (most are: a rule has two or
        // three keys), by this index once it is not.
        var keyIndex: [String: Int]?
        skipWhitespace()
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; depth -= 1; return JSONNode(kind: .object(members), offset: start) }
        repeat {
            skipWhitespace()
            guard pos < bytes.count else { throw JSONSyntaxError(offset: pos, message: "unexpected end of input, expected a key") }
            guard bytes[pos] == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(offset: pos, message: "unexpected \(bytes.describe(at: pos)), expected a string key")
            }
            let keyOffset = pos
            let key = try readString()
            skipWhitespace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else {
                throw JSONSyntaxError(offset: pos, message: "unexpected \(bytes.describe(at: pos)), expected ':' after key \(JSONWriter.quoted(key))")
            }
            pos += 1
            skipWhitespace()
            let value = try readValue()
            if let first = Self.position(of: key, in: members, index: &keyIndex, exact: false) {
                duplicateKeys.append(JSONDuplicateKey(key: key, offset: keyOffset, firstOffset: members[first].keyOffset))
            }
            members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
        } while try continues(closing: UInt8(ascii: "}"), openedAt: start)
        depth -= 1
        return JSONNode(kind: .object(members), offset: start)
    }

    private mutating func readNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = pos
        func digits(_ r: inout JSONReader) -> Int {
            let s = r.pos
            while r.pos < r.bytes.count, r.bytes[r.pos] >= 0x30, r.bytes[r.pos] <= 0x39 { r.pos += 1 }
            return r.pos - s
        }
        if bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        let integerStart = pos
        guard pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 else {
            throw JSONSyntaxError(offset: start, message: "invalid number: expected a digit after '-'")
        }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 {
                throw JSONSyntaxError(offset: start, message: "invalid number: leading zeros are not allowed")
            }
        } else {
            _ = digits(&self)
        }
        let integerDigits = pos - integerStart
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            if digits(&self) == 0 { throw JSONSyntaxError(offset: pos, message: "invalid number: expected a digit after '.'") }
        }
        var hasExponent = false
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            hasExponent = true
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            if digits(&self) == 0 { throw JSONSyntaxError(offset: pos, message: "invalid number: expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        // Below 10^308 without an exponent, a number is a finite Double:
        // only the others are converted to find out.
        if hasExponent || integerDigits > 308, Self.isBeyondDouble(text) { numbersBeyondDouble.append(start) }
        return JSONNumber(literal: text)
    }

    /// Whether `literal`, a JSON number, is too large for a `Double`: the
    /// `Double` that Swift's `Double(_:)` (correctly rounded) makes of it is
    /// infinite. That is the number swift-corelibs-foundation's
    /// `JSONSerialization` refuses (`NSNumber.fromJSONNumber` in
    /// JSONSerialization.swift: an integer that fits Int64 or UInt64, or a
    /// long mantissa that fits a Decimal, is read as such, but both hold
    /// less than a Double, so neither saves a number beyond one; then
    /// `Double(string)`, refused unless finite). A number too small for a
    /// Double is `0` there, and accepted.
    static func isBeyondDouble(_ literal: String) -> Bool { Double(literal)?.isInfinite ?? false }

    private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw JSONSyntaxError(offset: pos, message: "unexpected end of input in \\u escape") }
        var v: UInt32 = 0
        for i in 0..<4 {
            guard let h = bytes[pos + i].hexDigitValue.map(UInt32.init) else {
                throw JSONSyntaxError(offset: pos + i, message: "invalid \\u escape: expected four hex digits")
            }
            v = v << 4 | h
        }
        pos += 4
        return v
    }

    /// Reads a string starting at the opening quote.
    private mutating func readString() throws(JSONSyntaxError) -> String {
        let open = pos
        pos += 1
        // Fast path: no escapes, ASCII or valid UTF-8 without control characters.
        let contentStart = pos
        var simple = true
        while pos < bytes.count {
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") { simple = false; break }
            if b < 0x20 { throw JSONSyntaxError(offset: pos, message: "control character in string (escape it as \\u\(String(format4: b)))") }
            pos += 1
        }
        if simple {
            guard pos < bytes.count else { throw JSONSyntaxError(offset: open, message: "unterminated string") }
            let raw = UnsafeBufferPointer(rebasing: bytes[contentStart..<pos])
            guard let s = String(validatingUTF8Bytes: raw) else {
                throw JSONSyntaxError(offset: Self.firstInvalidUTF8(raw) + contentStart, message: "invalid UTF-8 in string")
            }
            pos += 1
            return s
        }
        var out: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<pos]))
        while true {
            guard pos < bytes.count else { throw JSONSyntaxError(offset: open, message: "unterminated string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") { pos += 1; break }
            if b < 0x20 { throw JSONSyntaxError(offset: pos, message: "control character in string (escape it as \\u\(String(format4: b)))") }
            if b != UInt8(ascii: "\\") { out.append(b); pos += 1; continue }
            let escapeStart = pos
            pos += 1
            guard pos < bytes.count else { throw JSONSyntaxError(offset: open, message: "unterminated string") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try readHex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                        throw JSONSyntaxError(offset: escapeStart, message: "lone high surrogate in \\u escape")
                    }
                    pos += 2
                    let low = try readHex4()
                    guard low >= 0xDC00 && low < 0xE000 else {
                        throw JSONSyntaxError(offset: escapeStart, message: "high surrogate not followed by a low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw JSONSyntaxError(offset: escapeStart, message: "lone low surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw JSONSyntaxError(offset: escapeStart, message: "invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        guard let s = out.withUnsafeBufferPointer({ String(validatingUTF8Bytes: $0) }) else {
            throw JSONSyntaxError(offset: open, message: "invalid UTF-8 in string")
        }
        return s
    }

    /// The index of the first byte that makes `raw` invalid UTF-8.
    private static func firstInvalidUTF8(_ raw: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0
        while i < raw.count {
            var n = i + 1
            while n < raw.count, raw[n] & 0xC0 == 0x80 { n += 1 }
            if String(validatingUTF8Bytes: UnsafeBufferPointer(rebasing: raw[i..<n])) == nil { return i }
            i = n
        }
        return 0
    }
}

/// A comma before the `]` or `}` that closes an array or object: what each
/// app does with it is `DocumentReading.trailingCommaEffect`'s to say.
package struct JSONTrailingComma: Sendable, Hashable {
    /// Byte offset of the comma.
    package let offset: Int
    /// Byte offset of the `[` or `{` that opens the array or object.
    package let containerOffset: Int
}

/// What `JSONReader.read` returns: the tree and what was noticed on the way.
package struct JSONReadResult: Sendable {
    /// The document's value.
    package let root: JSONNode
    /// Repeated keys, in document order.
    let duplicateKeys: [JSONDuplicateKey]
    /// Trailing commas, in document order.
    package let trailingCommas: [JSONTrailingComma]
    /// Offsets of the numbers too large for a `Double`
    /// (`JSONReader.isBeyondDouble`), in document order.
    let numbersBeyondDouble: [Int]

    package init(root: JSONNode, duplicateKeys: [JSONDuplicateKey], trailingCommas: [JSONTrailingComma], numbersBeyondDouble: [Int] = []) {
        self.root = root
        self.duplicateKeys = duplicateKeys
        self.trailingCommas = trailingCommas
        self.numbersBeyondDouble = numbersBeyondDouble
    }

    /// The first number, in document order, that JSONSerialization converts
    /// and finds too large for a `Double`, or nil. It parses the whole
    /// document, a repeated key keeping its last value (`object[key] = value`
    /// in `JSONParser.parseObject`), and only then converts the values it
    /// kept: a number in a value a later repeat of its key replaces is never
    /// converted.
    func firstNumberBeyondDouble() -> JSONNode? {
        guard !numbersBeyondDouble.isEmpty else { return nil }
        let offsets = Set(numbersBeyondDouble)
        func find(_ node: JSONNode) -> JSONNode? {
            switch node.kind {
            case .number: return offsets.contains(node.offset) ? node : nil
            case .array(let items): return items.lazy.compactMap(find).first
            case .object(let members):
                let lastIndex = Dictionary(members.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { _, last in last })
                return members.enumerated().lazy.filter { lastIndex[$1.key] == $0 }.compactMap { find($1.value) }.first
            default: return nil
            }
        }
        return find(root)
    }
}

extension String {
    /// A string from bytes that must be valid UTF-8 (nil otherwise).
    init?(validatingUTF8Bytes bytes: UnsafeBufferPointer<UInt8>) {
        // Most strings of a configuration are ASCII, which is valid UTF-8 as
        // it stands: String(validating:as:) is generic and costs two metadata
        // lookups per call, a loop over the bytes costs less.
        if bytes.allSatisfy({ $0 < 0x80 }) {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        guard let s = String(validating: bytes, as: UTF8.self) else { return nil }
        self = s
    }

    /// A byte as four hex digits, for `\uXXXX` hints.
    fileprivate init(format4 byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// What a reader found at `offset`, for a syntax error: `end of input`,
    /// `character 'x'` (printable ASCII) or `byte 0xNN`.
    func describe(at offset: Int) -> String {
        guard offset < count else { return "end of input" }
        let b = self[offset]
        if b >= 0x21 && b < 0x7F { return "character '\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }
}
