/// Random path configuration documents in the JSON a lenient Gson
/// `JsonReader` reads, for `GsonOracleTests` to judge by the real Gson: the
/// shape the apps' classes bind (settings, rules of patterns and
/// properties), written with what lenient reading takes (comments, single
/// quotes, unquoted names and values, `=` and `=>`, `;`, keywords in any
/// case, empty array elements, the non-execute prefix, a byte-order mark),
/// values of every kind where the classes want another, repeated keys, and
/// one document in eight cut, doubled or spliced at a random byte, so that
/// the refusals are reached as often as the readings. `strict` writes JSON
/// (RFC 8259) but for one lenient spelling in a hundred.
struct LenientDocuments {
    private var random: SplitMix
    private let strict: Bool

    init(seed: UInt64, strict: Bool = false) {
        random = SplitMix(state: seed)
        self.strict = strict
    }

    /// The next document, as bytes (not always UTF-8).
    mutating func next() -> [UInt8] {
        var out: [UInt8] = []
        if chance(1, 40) { out += [0xEF, 0xBB, 0xBF] }
        if extra(1, 30) { out += gap() + Array(")]}'".utf8) + (chance(1, 2) ? [0x0A] : [0x0D, 0x0A]) }
        out += gap()
        out += chance(1, 40) ? value(depth: 2) : document()
        out += extra(1, 10) ? Array(pick([" // end", " x", "\n\t ", " /* c */", ",", " null", "#"]).utf8) : gap()
        if chance(1, 8) { mutate(&out) }
        return out
    }

    // MARK: - The shape

    private mutating func document() -> [UInt8] {
        var members: [[UInt8]] = []
        if !chance(1, 8) { members.append(member("settings", settings())) }
        if !chance(1, 10) { members.append(member("rules", rules())) }
        if chance(1, 8) { members.append(member(pick(["rules", "settings", "version", "x", "comment", "x"]), value(depth: 2))) }
        members.shuffle(using: &random)
        return object(members)
    }

    private mutating func settings() -> [UInt8] {
        switch int(24) {
        case 0: return keyword("null")
        case 1: return array((0..<int(3)).map { _ in array((0..<(chance(1, 8) ? 1 + 2 * int(2) : 2)).map { $0 == 0 ? (chance(1, 6) ? keyword("null") : string(name())) : value(depth: 1) }) })
        case 2: return value(depth: 2)
        default: return object((0..<int(4)).map { _ in member(name(), value(depth: chance(1, 8) ? 2 : 0)) })
        }
    }

    private mutating func rules() -> [UInt8] {
        switch int(28) {
        case 0: return keyword("null")
        case 1: return object([])
        default: return array((0..<int(5)).map { _ in chance(1, 25) ? value(depth: 1) : rule() })
        }
    }

    private mutating func rule() -> [UInt8] {
        var members: [[UInt8]] = []
        if !chance(1, 12) { members.append(member("patterns", patterns())) }
        if !chance(1, 12) { members.append(member("properties", properties())) }
        if chance(1, 8) { members.append(member(pick(["patterns", "properties", "comment", "title", "comment", "title"]), value(depth: 2))) }
        members.shuffle(using: &random)
        return object(members)
    }

    private mutating func patterns() -> [UInt8] {
        switch int(28) {
        case 0: return keyword("null")
        case 1: return string(pattern())
        default:
            return array((0..<1 + int(3)).map { _ in
                switch int(14) {
                case 0: return keyword("null")
                case 1: return value(depth: 1)
                case 2: return unquoted(pattern())
                default: return string(pattern())
                }
            })
        }
    }

    private mutating func properties() -> [UInt8] {
        switch int(28) {
        case 0: return keyword("null")
        case 1: return array((0..<int(3)).map { _ in array((0..<(chance(1, 8) ? 1 + 2 * int(2) : 2)).map { $0 == 0 ? (chance(1, 6) ? keyword("null") : string(name())) : value(depth: 1) }) })
        case 2: return value(depth: 1)
        default: return object((0..<int(4)).map { _ in member(name(), value(depth: chance(1, 8) ? 2 : 0)) })
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) -> [UInt8] {
        switch int(depth > 0 ? 9 : 7) {
        case 0, 1: return string(text())
        case 2: return number()
        case 3: return keyword(pick(["true", "false", "null"]))
        case 4: return unquoted(pick(["abc", "modal", "x.y", "-", "+1", "0x10", "1e5x", "a$b", "é", "007"]))
        case 5, 6: return chance(1, 2) ? string(pick(["modal", "default", "replace", "true", "1"])) : number()
        case 7: return array((0..<int(4)).map { _ in value(depth: depth - 1) })
        default: return object((0..<int(3)).map { _ in member(name(), value(depth: depth - 1)) })
        }
    }

    private mutating func number() -> [UInt8] {
        if strict && !extra(1, 1) { return Array(pick(["0", "1", "-0", "12", "-12", "1.5", "2.50", "1e5", "1E+2", "1e-3", "1e400", "-1e400",
                                                         "12345678901234567890", "9007199254740993", "0.1", "1.0", "0.000001", "1.0E7"]).utf8) }
        return Array(pick(["0", "1", "-0", "12", "-12", "1.5", "2.50", "1e5", "1E+2", "1e-3", "1e400", "-1e400", "12345678901234567890",
                    "9007199254740993", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "0.1", "1.0", ".5",
                    "1.", "01", "-", "1e", "1e+", "NaN", "Infinity", "-Infinity", "0.000001", "1.0E7"]).utf8)
    }

    private mutating func keyword(_ word: String) -> [UInt8] {
        // Gson's peekKeyword takes any case; a cut one is an unquoted string.
        var bytes = Array(word.utf8)
        for i in bytes.indices where extra(1, 5) { bytes[i] ^= 0x20 }
        if extra(1, 20) { bytes.removeLast() }
        return bytes
    }

    private mutating func name() -> String { pick(["a", "k", "x", "context", "presentation", "title", "tabs", "1", "", "a b", "k"]) }

    private mutating func pattern() -> String {
        pick(["/new$", "/new", "^/new$", ".*", "/a/b", "/A/B", "/zzz", "new", "/404$", "/x\\d+", "[", "(", "/a|/new", "\\?q=1", "^$"])
    }

    private mutating func text() -> String {
        pick(["", "modal", "x y", "it's", "a\"b", "tab\there", "line\nbreak", "é", "😀", "a/b", "#", "//", "a:b", "a=b", "a;b"])
    }

    // MARK: - Spelling

    /// A string as a quoted literal: double or single quotes, some
    /// characters escaped (validly or not), others written raw.
    private mutating func string(_ s: String) -> [UInt8] {
        let quote: UInt8 = extra(1, 5) ? 0x27 : 0x22
        var out: [UInt8] = [quote]
        for scalar in s.unicodeScalars {
            let c = scalar.value
            if c == UInt32(quote) || c == 0x5C { out += [0x5C, UInt8(c)]; continue }
            if strict, c < 0x20, !extra(1, 1) { out += Array((c == 0x0A ? "\\n" : "\\t").utf8); continue }
            switch int(16) {
            case 0 where c <= 0xFFFF: out += Array("\\u".utf8) + (0..<4).map { Array("0123456789abcdef".utf8)[Int(c >> (12 - 4 * $0)) & 15] }
            case 1 where c == 0x0A: out += [0x5C, 0x0A]  // an escaped line break
            case 1 where c == 0x09: out += Array("\\t".utf8)
            default: out += Array(String(scalar).utf8)
            }
        }
        if extra(1, 30) { out += Array(pick(["\\x", "\\u12", "\\'", "\\/", "\\b", "\\ud83d", "\\ude00x", "\\ud83d\\ude00", "\\U0041"]).utf8) }
        if extra(1, 40) { out += [0xFF] }
        out.append(quote)
        return out
    }

    /// A name or value without quotes (Gson reads it as a string when
    /// lenient), or quoted when it cannot be one.
    private mutating func unquoted(_ s: String) -> [UInt8] {
        if strict && !extra(1, 1) { return string(s) }
        let literal = Array(s.utf8)
        let ends: Set<UInt8> = Set("/\\;#={}[]:, \t\u{0C}\r\n'\"".utf8)
        return literal.isEmpty || literal.contains(where: ends.contains) ? string(s) : literal
    }

    private mutating func member(_ key: String, _ value: [UInt8]) -> [UInt8] {
        let name = extra(1, 5) ? unquoted(key) : string(key)
        return name + gap() + Array((extra(1, 3) ? pick(["=", "=>"]) : ":").utf8) + gap() + value
    }

    private mutating func object(_ members: [[UInt8]]) -> [UInt8] {
        [0x7B] + gap() + joined(members, emptyElements: false) + gap() + [0x7D]
    }

    private mutating func array(_ elements: [[UInt8]]) -> [UInt8] {
        [0x5B] + gap() + joined(elements, emptyElements: true) + gap() + [0x5D]
    }

    private mutating func joined(_ items: [[UInt8]], emptyElements: Bool) -> [UInt8] {
        var out: [UInt8] = []
        for (i, item) in items.enumerated() {
            if i > 0 { out += separator() + gap() }
            if emptyElements && extra(1, 15) { out += separator() + gap() }
            out += item
        }
        if chance(1, emptyElements ? 12 : 60) { out += separator() }
        return out
    }

    private mutating func separator() -> [UInt8] { extra(1, 8) ? [0x3B] : [0x2C] }

    /// Whitespace and comments, mostly nothing.
    private mutating func gap() -> [UInt8] {
        switch int(24) {
        case 0: return Array(" ".utf8)
        case 1: return Array("\n  ".utf8)
        case 2: return Array("\t\r\n".utf8)
        case 3 where extra(1, 1): return Array(" // c\n".utf8)
        case 4 where extra(1, 1): return Array("# h\n".utf8)
        case 5 where extra(1, 1): return Array("/* b */".utf8)
        case 6 where extra(1, 40): return Array("\u{0C}".utf8)
        case 3, 4, 5, 6: return Array(" ".utf8)
        default: return []
        }
    }

    // MARK: - Damage

    private mutating func mutate(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        let at = int(bytes.count)
        switch int(5) {
        case 0: bytes.removeSubrange(at...)
        case 1: bytes.remove(at: at)
        case 2: bytes.insert(pick(Array("{}[]:,;=\"'/#\\ \n0a".utf8)), at: at)
        case 3: bytes.insert(contentsOf: bytes[at...].prefix(1 + int(8)), at: at)
        default: bytes[at] = pick(Array("{}[]:,;=\"'/#\\ \n0a".utf8) + [0x00, 0x80, 0xC3])
        }
    }

    // MARK: - Chance

    private mutating func int(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
    private mutating func chance(_ k: Int, _ n: Int) -> Bool { int(n) < k }
    /// `chance(k, n)` for a lenient spelling: a hundred times rarer when `strict`.
    private mutating func extra(_ k: Int, _ n: Int) -> Bool { chance(k, strict ? 100 * n : n) }
    private mutating func pick<T>(_ choices: [T]) -> T { choices[int(choices.count)] }
}
