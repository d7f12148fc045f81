/// Reads a document as the Android apps' Gson does: `Gson.fromJson` runs a
/// lenient `JsonReader` over the text, then asserts, no longer lenient, that
/// nothing but whitespace follows the value (com.google.gson.Gson
/// `fromJson(JsonReader, TypeToken)` and `assertFullConsumption`; the
/// grammar is com.google.gson.stream.JsonReader's `doPeek`, `peekKeyword`,
/// `peekNumber`, `nextQuotedValue`, `nextUnquotedValue`, `nextNonWhitespace`
/// and `consumeNonExecutePrefix`, alike in Gson 2.10.1 and 2.12.1 but for the
/// nesting limit 2.11 added).
///
/// What lenient reading accepts, beyond JSON: `//`, `#` and `/* */`
/// comments; strings in single quotes; names and string values without
/// quotes (a run of characters other than `/ \ ; # = { } [ ] : ,`, space,
/// tab, form feed, CR and LF); `=` or `=>` after a name; `;` between
/// members or elements; `true`, `false` and `null` in any case; raw control
/// characters in strings and `\'` and an escaped line break; the prefix
/// `)]}'` and a line break before the value; a leading U+FEFF. In an array, a
/// comma (or `;`) with no value before it, after `[` or another comma or
/// before `]`, is a `null` element: `[1,]` is `[1, null]`. A trailing comma
/// in an object is an error ("Expected name").
///
/// It reads the bytes the app decodes with `String(bytes)` (UTF-8, each
/// maximal ill-formed subsequence replaced with U+FFFD): every character the
/// grammar looks at is ASCII, so it reads the bytes as they are and makes
/// each string with `String(decoding:as:)`, which replaces alike, and every
/// offset stays the document's.
///
/// The tree it builds is `JSONReader`'s (`JSONNode`, offsets into the
/// bytes): quoted and unquoted strings are strings, numbers keep their
/// literal (Gson's number grammar is JSON's; a longer run of characters is an
/// unquoted string), keywords are booleans and null. A `null` element a comma
/// made is recorded, at that comma. What the reader found wrong is a
/// `GsonRefusal`: the app gets an exception and ignores the file.
package struct GsonReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos = 0
    private let maxDepth: Int
    private let nestingLimit: Int?
    private var depth = 0
    /// Offsets of the `null` elements commas made (each at its comma, or at
    /// the `,` or `]` where a missing value stood when no comma preceded it).
    private(set) var commaNulls: Set<Int> = []
    /// Array trailing commas (a comma, then `]`), each also a comma null.
    private(set) var trailingCommas: [JSONTrailingComma] = []
    /// The strings holding a `\u` escape of a lone surrogate, each by its
    /// offset, with its first such escape's.
    private(set) var loneSurrogates: [Int: Int] = [:]

    /// What `read` found: the value (nil for an empty document, which
    /// `fromJson` reads as null), the nulls commas made, and the strings
    /// with a lone surrogate. A Java string holds one, a Swift string cannot:
    /// such a string is read with the escape as text (`\uD800`, so that two
    /// strings the app tells apart stay apart), for the caller to refuse
    /// once it knows the app reads the document and keeps the string.
    package struct Result {
        package let root: JSONNode?
        let commaNulls: Set<Int>
        package let trailingCommas: [JSONTrailingComma]
        let loneSurrogates: [Int: Int]
    }

    /// Reads `bytes` (UTF-8, ill-formed sequences read as U+FFFD).
    /// `nestingLimit` is Gson's (255 from 2.11 on; nil before), `maxDepth`
    /// this library's own limit.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, nestingLimit: Int?) throws(GsonRefusal) -> Result {
        var reader = GsonReader(bytes: bytes, maxDepth: maxDepth, nestingLimit: nestingLimit)
        // JsonReader.fillBuffer skips a U+FEFF that starts the text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { reader.pos = 3 }
        // consumeNonExecutePrefix: whitespace and comments, then ")]}'\n".
        let prefix = ")]}'\n".utf8
        if try reader.peekNonWhitespace() != nil, bytes[reader.pos...].starts(with: prefix) { reader.pos += prefix.count }
        guard try reader.peekNonWhitespace() != nil else { return Result(root: nil, commaNulls: [], trailingCommas: [], loneSurrogates: [:]) }
        let root = try reader.readValue()
        // assertFullConsumption, on a reader no longer lenient: whitespace
        // alone may follow (a comment is "malformed JSON"), unless the value
        // was null (fromJson returned null and nothing is checked). It runs
        // once the classes are filled: `partial` is the whole value.
        if case .null = root.kind {} else {
            while reader.pos < bytes.count {
                switch bytes[reader.pos] {
                case 0x20, 0x09, 0x0A, 0x0D: reader.pos += 1
                case UInt8(ascii: "/"), UInt8(ascii: "#"):
                    throw GsonRefusal(offset: reader.pos, what: "a comment after the document", gson: nil, partial: root)
                default:
                    throw GsonRefusal(offset: reader.pos, what: "\(bytes.describe(at: reader.pos)) after the document", gson: nil, partial: root)
                }
            }
        }
        return Result(root: root, commaNulls: reader.commaNulls, trailingCommas: reader.trailingCommas, loneSurrogates: reader.loneSurrogates)
    }

    /// JsonReader.isLiteral: whether `b` may be part of an unquoted name or value.
    private static func isLiteral(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: "#"), UInt8(ascii: "="),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"),
             UInt8(ascii: ","), 0x20, 0x09, 0x0C, 0x0D, 0x0A:
            return false
        default:
            return true
        }
    }

    /// JsonReader.nextNonWhitespace, lenient: skips space, tab, CR, LF and
    /// comments and leaves `pos` on the next character, which it returns
    /// (nil at the end of input).
    private mutating func peekNonWhitespace() throws(GsonRefusal) -> UInt8? {
        while pos < bytes.count {
            let b = bytes[pos]
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D:
                pos += 1
            case UInt8(ascii: "/"):
                guard pos + 1 < bytes.count else { return b }
                if bytes[pos + 1] == UInt8(ascii: "*") {
                    let start = pos
                    var p = pos + 2
                    while p + 1 < bytes.count, !(bytes[p] == UInt8(ascii: "*") && bytes[p + 1] == UInt8(ascii: "/")) { p += 1 }
                    guard p + 1 < bytes.count else { throw GsonRefusal(offset: start, what: "a /* comment without */", gson: "Unterminated comment") }
                    pos = p + 2
                } else if bytes[pos + 1] == UInt8(ascii: "/") {
                    skipToEndOfLine()
                } else {
                    return b
                }
            case UInt8(ascii: "#"):
                skipToEndOfLine()
            default:
                return b
            }
        }
        return nil
    }

    private mutating func skipToEndOfLine() {
        while pos < bytes.count {
            let b = bytes[pos]
            pos += 1
            if b == 0x0A || b == 0x0D { return }
        }
    }

    private mutating func enter() throws(GsonRefusal) {
        if let nestingLimit, depth >= nestingLimit {
            throw GsonRefusal(offset: pos, what: "nesting deeper than \(nestingLimit) levels", gson: "Nesting limit \(nestingLimit) reached")
        }
        depth += 1
        if depth > maxDepth {
            throw GsonRefusal(offset: pos, what: "nesting deeper than \(maxDepth) levels", kind: .depthLimit)
        }
    }

    /// Reads the value at `pos` (which `peekNonWhitespace` left on its first character).
    private mutating func readValue() throws(GsonRefusal) -> JSONNode {
        guard let c = try peekNonWhitespace() else { throw GsonRefusal(offset: pos, what: "the end of input where a value belongs", gson: "End of input") }
        let start = pos
        switch c {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            pos += 1
            do {
                return JSONNode(kind: .string(try readQuoted(c, open: start)), offset: start)
            } catch {
                // Gson knew it for a string when it peeked at the quote.
                throw error.within(JSONNode(kind: .string(""), offset: start))
            }
        case UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ";"):
            // In an array these are nulls (readArray handles them first).
            throw GsonRefusal(offset: start, what: "\(bytes.describe(at: pos)) where a value belongs", gson: "Unexpected value")
        default:
            if let keyword = peekKeyword() { return JSONNode(kind: keyword, offset: start) }
            if let number = peekNumber() { return JSONNode(kind: .number(number), offset: start) }
            guard Self.isLiteral(c) else { throw GsonRefusal(offset: start, what: "\(bytes.describe(at: pos)) where a value belongs", gson: "Expected value") }
            return JSONNode(kind: .string(readUnquoted()), offset: start)
        }
    }

    /// JsonReader.peekKeyword: `true`, `false` or `null`, each letter in
    /// either case, not followed by a literal character; consumed when found.
    private mutating func peekKeyword() -> JSONNode.Kind? {
        let word: StaticString, kind: JSONNode.Kind
        switch bytes[pos] | 0x20 {
        case UInt8(ascii: "t"): (word, kind) = ("true", .bool(true))
        case UInt8(ascii: "f"): (word, kind) = ("false", .bool(false))
        case UInt8(ascii: "n"): (word, kind) = ("null", .null)
        default: return nil
        }
        let count = word.utf8CodeUnitCount
        guard pos + count <= bytes.count else { return nil }
        for i in 0..<count {
            let letter = word.utf8Start[i], b = bytes[pos + i]
            if b != letter && b != letter - 0x20 { return nil }
        }
        if pos + count < bytes.count, Self.isLiteral(bytes[pos + count]) { return nil }
        pos += count
        return kind
    }

    /// JsonReader.peekNumber: a JSON number literal followed by a character
    /// that is not literal (or the end), shorter than JsonReader's buffer of
    /// 1024 characters; consumed when found. Anything else is an unquoted string.
    private mutating func peekNumber() -> JSONNumber? {
        enum Last { case none, sign, digit, decimal, fraction, expE, expSign, expDigit }
        var last = Last.none
        var leadingZero = false
        var i = pos
        scan: while i < bytes.count {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "-"):
                if last == .none { last = .sign } else if last == .expE { last = .expSign } else { return nil }
            case UInt8(ascii: "+"):
                if last == .expE { last = .expSign } else { return nil }
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                if last == .digit || last == .fraction { last = .expE } else { return nil }
            case UInt8(ascii: "."):
                if last == .digit { last = .decimal } else { return nil }
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                switch last {
                case .none, .sign: last = .digit; leadingZero = c == UInt8(ascii: "0")
                case .digit: if leadingZero { return nil }  // "Leading '0' prefix is not allowed"
                case .decimal: last = .fraction
                case .expE, .expSign: last = .expDigit
                case .fraction, .expDigit: break
                }
            default:
                if Self.isLiteral(c) { return nil }
                break scan
            }
            i += 1
            // Longer than JsonReader's buffer: "let the application handle this as an unquoted literal".
            if i - pos >= 1024 { return nil }
        }
        guard last == .digit || last == .fraction || last == .expDigit else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[pos..<i]), as: UTF8.self)
        pos = i
        return JSONNumber(literal: text)
    }

    /// JsonReader.nextUnquotedValue: the run of literal characters at `pos`.
    private mutating func readUnquoted() -> String {
        let start = pos
        while pos < bytes.count, Self.isLiteral(bytes[pos]) { pos += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
    }

    /// JsonReader.nextQuotedValue: the text up to `quote`, escapes read;
    /// `pos` is past the opening quote at `open`.
    private mutating func readQuoted(_ quote: UInt8, open: Int) throws(GsonRefusal) -> String {
        let contentStart = pos
        while pos < bytes.count, bytes[pos] != quote, bytes[pos] != UInt8(ascii: "\\") { pos += 1 }
        guard pos < bytes.count else { throw GsonRefusal(offset: open, what: "a string without its closing quote", gson: "Unterminated string") }
        if bytes[pos] == quote {
            defer { pos += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[contentStart..<pos]), as: UTF8.self)
        }
        var out = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<pos]))
        while true {
            guard pos < bytes.count else { throw GsonRefusal(offset: open, what: "a string without its closing quote", gson: "Unterminated string") }
            let b = bytes[pos]
            if b == quote { pos += 1; break }
            if b != UInt8(ascii: "\\") { out.append(b); pos += 1; continue }
            let escape = pos
            pos += 1
            guard pos < bytes.count else { throw GsonRefusal(offset: escape, what: "an escape at the end of input", gson: "Unterminated escape sequence") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "f"): out.append(0x0C)
            case 0x0A, UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "u"):
                var scalar = try readHex4(escape: escape)
                if scalar >= 0xD800 && scalar < 0xE000 {
                    if scalar < 0xDC00, pos + 1 < bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") {
                        let second = pos
                        pos += 2
                        let low = try readHex4(escape: second)
                        if low >= 0xDC00 && low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
                            continue
                        }
                        pos = second  // not a pair: the next escape is read on its own
                    }
                    if loneSurrogates[open] == nil { loneSurrogates[open] = escape }
                    out.append(contentsOf: "\\u\(String(scalar, radix: 16, uppercase: true))".utf8)
                    continue
                }
                out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                throw GsonRefusal(offset: escape, what: "an invalid escape '\\\(Character(Unicode.Scalar(e)))'", gson: "Invalid escape sequence")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func readHex4(escape: Int) throws(GsonRefusal) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw GsonRefusal(offset: escape, what: "a \\u escape cut short by the end of input", gson: "Unterminated escape sequence") }
        var v: UInt32 = 0
        for i in 0..<4 {
            guard let digit = bytes[pos + i].hexDigitValue.map(UInt32.init) else {
                throw GsonRefusal(offset: escape, what: "a \\u escape without four hex digits", gson: nil)
            }
            v = v << 4 | digit
        }
        pos += 4
        return v
    }

    /// doPeek in an array: after `[` or a separator, `]`, `,` or `;` stand
    /// for a null element (the character stays to be read again); `]` after
    /// an element ends the array, `,` or `;` separates. A refusal inside
    /// carries the array as read so far (`GsonRefusal.partial`).
    private mutating func readArray() throws(GsonRefusal) -> JSONNode {
        let start = pos
        var items: [JSONNode] = []
        do {
            return try readArray(start, into: &items)
        } catch {
            if let value = error.partial { items.append(value) }
            throw error.within(JSONNode(kind: .array(items), offset: start))
        }
    }

    /// `readArray`'s work, the elements read so far in `items`.
    @inline(__always)
    private mutating func readArray(_ start: Int, into items: inout [JSONNode]) throws(GsonRefusal) -> JSONNode {
        try enter()
        pos += 1
        var separator: Int?  // the comma before the element being read, if any
        while true {
            if !items.isEmpty {
                guard let c = try peekNonWhitespace() else { throw GsonRefusal(offset: pos, what: "the end of input inside an array", gson: "End of input") }
                if c == UInt8(ascii: "]") { pos += 1; break }
                guard c == UInt8(ascii: ",") || c == UInt8(ascii: ";") else {
                    throw GsonRefusal(offset: pos, what: "\(bytes.describe(at: pos)) where ',' or ']' belongs", gson: "Unterminated array")
                }
                separator = pos
                pos += 1
            }
            guard let c = try peekNonWhitespace() else { throw GsonRefusal(offset: pos, what: "the end of input inside an array", gson: "End of input") }
            if c == UInt8(ascii: "]"), items.isEmpty, separator == nil { pos += 1; break }
            if c == UInt8(ascii: "]") || c == UInt8(ascii: ",") || c == UInt8(ascii: ";") {
                let at = c == UInt8(ascii: "]") ? separator ?? pos : pos
                if c == UInt8(ascii: "]"), let separator { trailingCommas.append(JSONTrailingComma(offset: separator, containerOffset: start)) }
                commaNulls.insert(at)
                items.append(JSONNode(kind: .null, offset: at))
                continue
            }
            items.append(try readValue())
        }
        depth -= 1
        return JSONNode(kind: .array(items), offset: start)
    }

    /// doPeek in an object: a name (double- or single-quoted, or unquoted),
    /// `:`, `=` or `=>`, a value; `,` or `;` between members; `}` ends it,
    /// but not right after a separator ("Expected name"). A refusal inside
    /// carries the object as read so far (`GsonRefusal.partial`).
    private mutating func readObject() throws(GsonRefusal) -> JSONNode {
        let start = pos
        var members: [JSONNode.Member] = []
        var key: (String, Int)?
        do {
            return try readObject(start, into: &members, key: &key)
        } catch {
            if let (name, offset) = key, let value = error.partial { members.append(JSONNode.Member(key: name, keyOffset: offset, value: value)) }
            throw error.within(JSONNode(kind: .object(members), offset: start))
        }
    }

    /// `readObject`'s work, the members read so far in `members`; `key` is
    /// the name whose value is being read.
    @inline(__always)
    private mutating func readObject(_ start: Int, into members: inout [JSONNode.Member], key pending: inout (String, Int)?) throws(GsonRefusal) -> JSONNode {
        try enter()
        pos += 1
        var separator: Int?
        while true {
            if !members.isEmpty {
                guard let c = try peekNonWhitespace() else { throw GsonRefusal(offset: pos, what: "the end of input inside an object", gson: "End of input") }
                if c == UInt8(ascii: "}") { pos += 1; break }
                guard c == UInt8(ascii: ",") || c == UInt8(ascii: ";") else {
                    throw GsonRefusal(offset: pos, what: "\(bytes.describe(at: pos)) where ',' or '}' belongs", gson: "Unterminated object")
                }
                separator = pos
                pos += 1
            }
            guard let c = try peekNonWhitespace() else { throw GsonRefusal(offset: pos, what: "the end of input inside an object", gson: "End of input") }
            let keyOffset = pos
            let key: String
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                pos += 1
                key = try readQuoted(c, open: keyOffset)
            case UInt8(ascii: "}") where separator == nil:
                pos += 1
                depth -= 1
                return JSONNode(kind: .object(members), offset: start)
            case UInt8(ascii: "}"):
                throw GsonRefusal(offset: separator!, what: "trailing comma before \"}\"", gson: "Expected name")
            default:
                guard Self.isLiteral(c) else { throw GsonRefusal(offset: pos, what: "\(bytes.describe(at: pos)) where a name belongs", gson: "Expected name") }
                key = readUnquoted()
            }
            guard let colon = try peekNonWhitespace() else { throw GsonRefusal(offset: pos, what: "the end of input after a name", gson: "End of input") }
            guard colon == UInt8(ascii: ":") || colon == UInt8(ascii: "=") else {
                throw GsonRefusal(offset: pos, what: "\(bytes.describe(at: pos)) after the name \(JSONWriter.quoted(key))", gson: "Expected ':'")
            }
            pos += 1
            if colon == UInt8(ascii: "="), pos < bytes.count, bytes[pos] == UInt8(ascii: ">") { pos += 1 }
            pending = (key, keyOffset)
            let value = try readValue()
            members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
            pending = nil
        }
        depth -= 1
        return JSONNode(kind: .object(members), offset: start)
    }
}

/// Why a document cannot be read as the Android app reads it: what is
/// wrong, where, and whose limit it is.
package struct GsonRefusal: Error, Sendable {
    enum Kind: Sendable {
        /// Gson throws: the app ignores the file. The message of Gson's
        /// exception, without its location, where both versions word it alike.
        case gson(String?)
        /// This library's `maxNestingDepth`.
        case depthLimit
    }

    let offset: Int
    /// What the document has there, for a person: `trailing comma before "}"`.
    let what: String
    let kind: Kind
    /// What Gson had read when it threw, for a type error there to come
    /// first (`GsonBinding.truncatedBy`): the values before the error, each
    /// container around it with the members read so far, and the string
    /// it was in (as ""); nil when it threw before the first value.
    var partial: JSONNode?
    /// The values in `partial` that the error cut short, by offset.
    var incomplete: Set<Int> = []
}

extension GsonRefusal {
    init(offset: Int, what: String, gson: String?, partial: JSONNode? = nil) {
        self.init(offset: offset, what: what, kind: .gson(gson), partial: partial)
    }

    /// This refusal, thrown inside `node` (a container holding what was read, or a string).
    func within(_ node: JSONNode) -> GsonRefusal {
        var refusal = self
        refusal.partial = node
        refusal.incomplete.insert(node.offset)
        return refusal
    }
}
