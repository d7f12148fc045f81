/// Reads a pattern for `RequiredLiteral`, accepting only what it fully
/// understands in all three dialects the pattern may be compiled in: ICU
/// (iOS profiles, the `foundation` backend), `java.util.regex` (Android
/// profiles) and PCRE2 (the default backend, directly or after translation).
///
/// Understood, and read for the text they require:
/// - printable ASCII characters that are literal everywhere, and `\` before
///   ASCII punctuation or a space; `\xHH`, `\x{H..}`, `\uHHHH`, `\UHHHHHHHH`
///   naming a printable ASCII character;
/// - groups `(...)`, `(?:...)`, `(?>...)`, `(?|...)`, named groups and
///   `(?flags:...)`; alternation; the quantifiers `*`, `+`, `?`, `{n}`,
///   `{n,}`, `{n,m}` with a lazy `?` or possessive `+`.
///
/// Understood as requiring nothing of the text they cover: `.`, anchors,
/// classes `[...]` without nested brackets, other escapes (`\d`, `\b`,
/// `\p{..}`, `\pL`, backreferences and octal escapes with all the digits
/// that follow, `\cX`, `\N{..}`, `\k<..>`, `\g..`, `\o{..}`, `\K`, ...),
/// control and non-ASCII characters, lookarounds (their contents need not be
/// in the subject's matched text), `(?flags)` and `(?#...)`.
///
/// Everything else makes the whole pattern require nothing: backtracking
/// verbs and start options `(*...)` (`(*ACCEPT)` ends a match early),
/// callouts, conditionals, recursion and subroutine calls written `(?...)`,
/// `\Q...\E` and a lone `\E`, extended mode `(?x)`, unknown flags, a `{` that
/// is not a plain `{n}`, `{n,}` or `{n,m}` (`a{,3}` and `\b{g}` differ by
/// engine), a class containing `[` or `{` or opening with `]` (nested sets in
/// ICU and Java, POSIX classes in PCRE2), a quantifier with nothing to repeat
/// or after another quantifier, an unbalanced parenthesis, and nesting deeper
/// than `maxDepth`.
///
/// Case: under case-insensitive matching ASCII letters are lower-cased (the
/// prefilter folds ASCII subjects the same way and does not filter others).
/// Under case-sensitive matching, once any flag group mentions `i` every
/// later letter requires nothing: scoping rules differ between engines, so
/// case-insensitivity is assumed from there to the end of the pattern.
/// Characters other than letters match only themselves under any case
/// folding, so they stay required.
struct RequiredLiteralReader {
    /// Deepest group nesting read; deeper patterns require nothing.
    static let maxDepth = 200

    /// Why reading stopped: the pattern holds something outside the whitelist.
    struct Unsupported: Error {}

    private let p: [UInt8]
    private var i = 0
    private var depth = 0
    /// The whole pattern is compiled case-insensitively.
    private let foldCase: Bool
    /// A flag group mentioning `i` has been seen (case-sensitive patterns only).
    private var caselessFromHere = false

    private init(_ pattern: String, caseInsensitive: Bool) {
        p = Array(pattern.utf8)
        foldCase = caseInsensitive
    }

    /// What every match of `pattern` contains, or nil when the pattern holds
    /// something outside the whitelist.
    static func read(_ pattern: String, caseInsensitive: Bool) -> LiteralFacts? {
        var reader = RequiredLiteralReader(pattern, caseInsensitive: caseInsensitive)
        do throws(Unsupported) {
            let facts = try reader.alternation()
            // A `)` with no group to close.
            return reader.i == reader.p.count ? facts : nil
        } catch {
            return nil
        }
    }

    // MARK: Structure

    private mutating func alternation() throws(Unsupported) -> LiteralFacts {
        var branches = [try sequence()]
        while i < p.count, p[i] == UInt8(ascii: "|") {
            i += 1
            branches.append(try sequence())
        }
        return .anyOf(branches)
    }

    private mutating func sequence() throws(Unsupported) -> LiteralFacts {
        var facts = LiteralFacts.empty
        while i < p.count, p[i] != UInt8(ascii: "|"), p[i] != UInt8(ascii: ")") {
            // Most of a pattern is characters matched literally, one at a
            // time: those not repeated grow the facts in place (what
            // `append(literal(c))` does, without a one-byte array each).
            if !(i + 1 < p.count && Self.isQuantifierStart(p[i + 1])), let b = plainLiteral(p[i]) {
                facts.append(byte: b)
                i += 1
                continue
            }
            let (atom, quantifiable) = try self.atom()
            var piece = atom
            if let (min, max) = try quantifier() {
                // `a(?i)*` or `a(?#c)*`: engines disagree on what is repeated.
                guard quantifiable else { throw Unsupported() }
                piece = atom.repeated(min: min, max: max)
            }
            facts.append(piece)
        }
        return facts
    }

    /// One item and whether a quantifier may follow it.
    private mutating func atom() throws(Unsupported) -> (LiteralFacts, Bool) {
        let c = p[i]
        switch c {
        case UInt8(ascii: "("):
            return try group()
        case UInt8(ascii: "["):
            i = try classEnd(from: i)
            return (.unknown, true)
        case UInt8(ascii: "\\"):
            let (end, value) = try escape(at: i)
            i = end
            return (value.map(literal) ?? .unknown, true)
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
            // Nothing to repeat (Java reads a leading `{2}` as text).
            throw Unsupported()
        case UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            i += 1
            return (.unknown, true)
        default:
            i += Self.scalarLength(c)
            return (literal(c), true)
        }
    }

    /// `literalByte(c)` when `c` is a character `atom()` reads as itself;
    /// else nil.
    private func plainLiteral(_ c: UInt8) -> UInt8? {
        Self.isMetacharacter(c) ? nil : literalByte(c)
    }

    /// The characters `atom()` does not read as themselves (and `|`, `)`,
    /// which end a sequence).
    private static func isMetacharacter(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "|"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"),
             UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "]"), UInt8(ascii: "}"):
            return true
        default:
            return false
        }
    }

    /// The facts for one character `c` matched literally.
    private func literal(_ c: UInt8) -> LiteralFacts {
        literalByte(c).map { .literal([$0]) } ?? .unknown
    }

    /// The byte the prefilter searches for a character `c` matched
    /// literally (lower-cased when the whole pattern folds case), or nil
    /// when nothing is known of it: a control or non-ASCII byte, or a letter
    /// after `(?i)` in a case-sensitive pattern.
    private func literalByte(_ c: UInt8) -> UInt8? {
        guard c >= 0x20, c < 0x7F else { return nil }
        let isLetter = (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
        guard isLetter else { return c }
        if foldCase { return c | 0x20 }
        return caselessFromHere ? nil : c
    }

    /// Reads a quantifier at `i`, if there is one: its minimum and maximum.
    private mutating func quantifier() throws(Unsupported) -> (Int, Int?)? {
        guard i < p.count else { return nil }
        let bounds: (Int, Int?)
        switch p[i] {
        case UInt8(ascii: "*"): bounds = (0, nil); i += 1
        case UInt8(ascii: "+"): bounds = (1, nil); i += 1
        case UInt8(ascii: "?"): bounds = (0, 1); i += 1
        case UInt8(ascii: "{"): bounds = try braces()
        default: return nil
        }
        if i < p.count, p[i] == UInt8(ascii: "?") || p[i] == UInt8(ascii: "+") { i += 1 } // lazy, possessive
        if i < p.count, Self.isQuantifierStart(p[i]) { throw Unsupported() } // Java accepts `a{2}{3}`
        return bounds
    }

    /// `{n}`, `{n,}` or `{n,m}`, digits only; any other `{` is read
    /// differently by each engine (text in PCRE2, an error or more in others).
    private mutating func braces() throws(Unsupported) -> (Int, Int?) {
        var j = i + 1
        func number() -> Int? {
            let start = j
            while j < p.count, Self.isDigit(p[j]), j - start < 6 { j += 1 }
            guard j > start, j - start < 6, j >= p.count || !Self.isDigit(p[j]) else { return nil }
            return p[start..<j].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard let min = number(), j < p.count else { throw Unsupported() }
        var max: Int? = min
        if p[j] == UInt8(ascii: ",") {
            j += 1
            max = j < p.count && Self.isDigit(p[j]) ? number() : nil
            if max == nil, j < p.count, Self.isDigit(p[j]) { throw Unsupported() }
        }
        guard j < p.count, p[j] == UInt8(ascii: "}") else { throw Unsupported() }
        i = j + 1
        return (min, max)
    }

    // MARK: Groups

    private mutating func group() throws(Unsupported) -> (LiteralFacts, Bool) {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth, i + 1 < p.count else { throw Unsupported() }
        i += 1
        switch p[i] {
        case UInt8(ascii: "*"):
            throw Unsupported() // verbs, start options, alpha assertions
        case UInt8(ascii: "?"):
            i += 1
            return try extendedGroup()
        default:
            return (try contents(), true)
        }
    }

    /// A group opening with `(?`; `i` is just past the `?`.
    private mutating func extendedGroup() throws(Unsupported) -> (LiteralFacts, Bool) {
        guard i < p.count else { throw Unsupported() }
        switch p[i] {
        case UInt8(ascii: ":"), UInt8(ascii: ">"), UInt8(ascii: "|"):
            i += 1
            return (try contents(), true)
        case UInt8(ascii: "="), UInt8(ascii: "!"):
            i += 1
            _ = try contents()
            return (.unknown, true)
        case UInt8(ascii: "<"):
            if i + 1 < p.count, p[i + 1] == UInt8(ascii: "=") || p[i + 1] == UInt8(ascii: "!") {
                i += 2
                _ = try contents()
                return (.unknown, true)
            }
            i = try name(from: i + 1, close: UInt8(ascii: ">"))
            return (try contents(), true)
        case UInt8(ascii: "P"):
            guard i + 1 < p.count, p[i + 1] == UInt8(ascii: "<") else { throw Unsupported() } // (?P=n), (?P>n)
            i = try name(from: i + 2, close: UInt8(ascii: ">"))
            return (try contents(), true)
        case UInt8(ascii: "'"):
            i = try name(from: i + 1, close: UInt8(ascii: "'"))
            return (try contents(), true)
        case UInt8(ascii: "#"):
            // A comment runs to the first `)` in PCRE2 and ICU (Java rejects it).
            guard let close = p[i...].firstIndex(of: UInt8(ascii: ")")) else { throw Unsupported() }
            i = close + 1
            return (.unknown, false)
        default:
            return try flagGroup()
        }
    }

    /// `(?flags)` or `(?flags:...)`; `i` is at the first flag.
    private mutating func flagGroup() throws(Unsupported) -> (LiteralFacts, Bool) {
        while i < p.count, p[i] != UInt8(ascii: ")"), p[i] != UInt8(ascii: ":") {
            switch p[i] {
            case UInt8(ascii: "i"):
                if !foldCase { caselessFromHere = true }
            case UInt8(ascii: "m"), UInt8(ascii: "s"), UInt8(ascii: "n"), UInt8(ascii: "J"), UInt8(ascii: "U"),
                 UInt8(ascii: "d"), UInt8(ascii: "u"), UInt8(ascii: "w"), UInt8(ascii: "-"), UInt8(ascii: "^"):
                break // do not change what a literal character matches
            default:
                throw Unsupported() // `x` (whitespace and `#` become insignificant), conditionals, calls, callouts
            }
            i += 1
        }
        guard i < p.count else { throw Unsupported() }
        if p[i] == UInt8(ascii: ")") {
            i += 1
            return (.unknown, false)
        }
        i += 1
        return (try contents(), true)
    }

    /// A group's alternation and its closing `)`.
    private mutating func contents() throws(Unsupported) -> LiteralFacts {
        let facts = try alternation()
        guard i < p.count, p[i] == UInt8(ascii: ")") else { throw Unsupported() }
        i += 1
        return facts
    }

    /// Skips a group name of ASCII letters, digits and `_` starting at `from`
    /// and its `close`; returns the index after `close`.
    private func name(from: Int, close: UInt8) throws(Unsupported) -> Int {
        var j = from
        while j < p.count, Self.isAlphanumeric(p[j]) || p[j] == UInt8(ascii: "_") { j += 1 }
        guard j > from, j < p.count, p[j] == close else { throw Unsupported() }
        return j + 1
    }

    // MARK: Escapes and classes

    /// The escape at `at` (a `\`): the index after it, and the printable ASCII
    /// character it stands for when it is one literal character in every dialect.
    private func escape(at: Int) throws(Unsupported) -> (Int, UInt8?) {
        guard at + 1 < p.count else { throw Unsupported() }
        let e = p[at + 1]
        if e >= 0x80 { return (at + 1 + Self.scalarLength(e), nil) }
        if !Self.isAlphanumeric(e) { return (at + 2, e) } // `\.`, `\/`, `\ `: the character itself everywhere
        var j = at + 2
        switch e {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Backreferences and octal escapes take a different number of
            // digits in each engine: cover them all.
            while j < p.count, Self.isDigit(p[j]) { j += 1 }
            return (j, nil)
        case UInt8(ascii: "x"):
            if j < p.count, p[j] == UInt8(ascii: "{") {
                guard let close = p[j...].firstIndex(of: UInt8(ascii: "}")),
                      let value = Self.hex(p[(j + 1)..<close], digits: 1...8) else { throw Unsupported() }
                return (close + 1, Self.ascii(value))
            }
            var n = 0
            while n < 2, j + n < p.count, Self.isHexDigit(p[j + n]) { n += 1 }
            // All three read at most two digits; with fewer they disagree (Java rejects).
            return (j + n, n == 2 ? Self.hex(p[j..<(j + 2)], digits: 2...2).flatMap(Self.ascii) : nil)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let n = e == UInt8(ascii: "u") ? 4 : 8
            guard j + n <= p.count, let value = Self.hex(p[j..<(j + n)], digits: n...n) else { throw Unsupported() }
            return (j + n, Self.ascii(value))
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            if j < p.count, p[j] == UInt8(ascii: "{") { return (try closing(UInt8(ascii: "}"), after: j), nil) }
            // `\pL`: one letter names the property.
            guard j < p.count, Self.isAlphanumeric(p[j]), !Self.isDigit(p[j]) else { throw Unsupported() }
            return (j + 1, nil)
        case UInt8(ascii: "N"), UInt8(ascii: "o"):
            // `\N{name}` (ICU, Java), `\N{U+41}` (PCRE2), `\o{101}` (PCRE2; `o{101}` in ICU).
            if j < p.count, p[j] == UInt8(ascii: "{") { return (try closing(UInt8(ascii: "}"), after: j), nil) }
            return (j, nil)
        case UInt8(ascii: "k"):
            guard j < p.count, let close = Self.closer(of: p[j]) else { throw Unsupported() }
            return (try closing(close, after: j), nil)
        case UInt8(ascii: "g"):
            if j < p.count, let close = Self.closer(of: p[j]) { return (try closing(close, after: j), nil) }
            if j < p.count, p[j] == UInt8(ascii: "+") || p[j] == UInt8(ascii: "-") { j += 1 }
            while j < p.count, Self.isDigit(p[j]) { j += 1 }
            return (j, nil)
        case UInt8(ascii: "c"):
            guard j < p.count else { throw Unsupported() }
            return (j + Self.scalarLength(p[j]), nil)
        case UInt8(ascii: "Q"), UInt8(ascii: "E"):
            // Quoting changes how everything up to `\E` reads, and PCRE2
            // ignores an empty `\Q\E` or a lone `\E` (so `ab\E?` is `ab?`).
            throw Unsupported()
        default:
            return (j, nil) // `\d`, `\b`, `\t`, `\K`, `\R`, ... (ICU reads unknown letters as text)
        }
    }

    /// The index after the first `close` following the opener at `after`.
    private func closing(_ close: UInt8, after: Int) throws(Unsupported) -> Int {
        guard let end = p[(after + 1)...].firstIndex(of: close) else { throw Unsupported() }
        return end + 1
    }

    /// The index after the `]` closing the class that opens at `start`.
    /// The class must end at the same `]` in every dialect: no `[` inside
    /// (nested sets in ICU and Java, POSIX classes in PCRE2), no `{` (ICU set
    /// strings), no `]` first (read differently by each).
    private func classEnd(from start: Int) throws(Unsupported) -> Int {
        var j = start + 1
        if j < p.count, p[j] == UInt8(ascii: "^") { j += 1 }
        if j < p.count, p[j] == UInt8(ascii: "]") { throw Unsupported() }
        while j < p.count {
            switch p[j] {
            case UInt8(ascii: "\\"): j = try escape(at: j).0
            case UInt8(ascii: "["), UInt8(ascii: "{"): throw Unsupported()
            case UInt8(ascii: "]"): return j + 1
            default: j += Self.scalarLength(p[j])
            }
        }
        throw Unsupported()
    }

    // MARK: Characters

    private static func closer(of opener: UInt8) -> UInt8? {
        switch opener {
        case UInt8(ascii: "{"): return UInt8(ascii: "}")
        case UInt8(ascii: "<"): return UInt8(ascii: ">")
        case UInt8(ascii: "'"): return UInt8(ascii: "'")
        default: return nil
        }
    }

    /// The value of `digits` hexadecimal digits, or nil when they are not.
    private static func hex(_ s: ArraySlice<UInt8>, digits: ClosedRange<Int>) -> UInt32? {
        guard digits.contains(s.count), s.allSatisfy(isHexDigit) else { return nil }
        return s.reduce(0) { acc, d in
            let v = isDigit(d) ? d - 0x30 : (d | 0x20) - UInt8(ascii: "a") + 10
            return acc << 4 | UInt32(v)
        }
    }

    /// `value` as a byte when it is ASCII.
    private static func ascii(_ value: UInt32) -> UInt8? { value < 0x80 ? UInt8(value) : nil }

    private static func isQuantifierStart(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "*") || b == UInt8(ascii: "+") || b == UInt8(ascii: "?") || b == UInt8(ascii: "{")
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private static func isHexDigit(_ b: UInt8) -> Bool {
        isDigit(b) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f"))
    }

    private static func isAlphanumeric(_ b: UInt8) -> Bool {
        isDigit(b) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z"))
    }

    /// Bytes in the UTF-8 sequence that `lead` starts.
    private static func scalarLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}
