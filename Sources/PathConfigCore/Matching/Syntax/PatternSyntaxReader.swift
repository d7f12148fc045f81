/// The one pass behind `PatternSyntax.read`, over the pattern's UTF-8 bytes.
struct PatternSyntaxReader {
    typealias Unsupported = PatternSyntax.Unsupported

    private(set) var syntax: PatternSyntax
    /// The pattern's bytes (`syntax.text`, the same storage).
    private let p: [UInt8]
    private var i = 0
    /// The open groups' node indices.
    private var open: [Int] = []
    /// Whether a quantifier may follow what was read last.
    private var repeatable = false

    init(_ bytes: [UInt8]) {
        p = bytes
        syntax = PatternSyntax(text: bytes)
        // About a node per byte for most patterns.
        syntax.nodes.reserveCapacity(bytes.count)
    }

    mutating func readAll() throws(Unsupported) {
        while i < p.count { try readNode() }
        guard open.isEmpty else { throw Unsupported(construct: "a group without its )", offset: p.count) }
    }

    private mutating func add(_ kind: PatternSyntax.Kind, from start: Int, repeatable: Bool) {
        syntax.nodes.append(PatternSyntax.Node(kind: kind, start: Int32(start), end: Int32(i)))
        self.repeatable = repeatable
    }

    private mutating func readNode() throws(Unsupported) {
        let start = i
        let c = p[i]
        i += 1
        switch c {
        case UInt8(ascii: "\\"):
            switch try escape(at: start, inClass: false) {
            case .character(let value, let spelling): add(.character(value, spelling), from: start, repeatable: true)
            case .escape(let e): add(.escape(e), from: start, repeatable: true)
            }
        case UInt8(ascii: "["):
            let index = try characterClass(at: start)
            add(.characterClass(Int32(index)), from: start, repeatable: true)
        case UInt8(ascii: "("):
            try group(at: start)
        case UInt8(ascii: ")"):
            guard let opened = open.popLast() else { throw Unsupported(construct: "an unmatched )", offset: start) }
            if case .group(let kind, _) = syntax.nodes[opened].kind {
                syntax.nodes[opened].kind = .group(kind, close: Int32(syntax.nodes.count))
            }
            add(.groupClose, from: start, repeatable: true)
        case UInt8(ascii: "|"): add(.alternation, from: start, repeatable: false)
        case UInt8(ascii: "."): add(.dot, from: start, repeatable: true)
        case UInt8(ascii: "^"): add(.caret, from: start, repeatable: true)
        case UInt8(ascii: "$"): add(.dollar, from: start, repeatable: true)
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
            try quantifier(c, at: start)
        case 0x80...:
            i = start
            add(.character(scalar(), .plain), from: start, repeatable: true)
        default:
            add(.character(UInt32(c), .plain), from: start, repeatable: true)
        }
    }

    // MARK: Quantifiers

    private mutating func quantifier(_ c: UInt8, at start: Int) throws(Unsupported) {
        guard repeatable else {
            throw Unsupported(construct: "a quantifier \(Character(Unicode.Scalar(c))) with nothing to repeat", offset: start)
        }
        let min: Int, max: Int?
        switch c {
        case UInt8(ascii: "*"): (min, max) = (0, nil)
        case UInt8(ascii: "+"): (min, max) = (1, nil)
        case UInt8(ascii: "?"): (min, max) = (0, 1)
        default: (min, max) = try counts(at: start)
        }
        var mode = PatternSyntax.Mode.greedy
        if i < p.count, p[i] == UInt8(ascii: "?") || p[i] == UInt8(ascii: "+") {
            mode = p[i] == UInt8(ascii: "?") ? .lazy : .possessive
            i += 1
        }
        add(.quantifier(min: Int32(min), max: max.map(Int32.init), mode), from: start, repeatable: false)
        // Java takes `a{2}{3}`; the others refuse a quantifier here.
        if i < p.count, Self.startsQuantifier(p[i]) {
            throw Unsupported(construct: "a quantifier after a quantifier", offset: i)
        }
    }

    /// `n}`, `n,}` or `n,m}` after `{`, digits only: any other `{` is read
    /// differently by each engine (text in PCRE2, an error or more in others).
    private mutating func counts(at start: Int) throws(Unsupported) -> (Int, Int?) {
        func number() -> Int? {
            let first = i
            while i < p.count, Self.isDigit(p[i]), i - first < 6 { i += 1 }
            guard i > first, i - first < 6 else { return nil }
            return p[first..<i].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        let notCount = Unsupported(construct: "a { that is not a quantifier {n}, {n,} or {n,m}", offset: start)
        guard let min = number() else { throw notCount }
        var max: Int? = min
        if i < p.count, p[i] == UInt8(ascii: ",") {
            i += 1
            max = nil
            if i < p.count, Self.isDigit(p[i]) {
                guard let m = number() else { throw notCount }
                max = m
            }
        }
        guard i < p.count, p[i] == UInt8(ascii: "}") else { throw notCount }
        i += 1
        return (min, max)
    }

    // MARK: Groups

    private mutating func group(at start: Int) throws(Unsupported) {
        guard open.count < PatternSyntax.maxDepth else {
            throw Unsupported(construct: "groups nested deeper than \(PatternSyntax.maxDepth)", offset: start)
        }
        guard i < p.count else { throw Unsupported(construct: "a group without its )", offset: start) }
        if p[i] == UInt8(ascii: "*") {
            throw Unsupported(construct: "a backtracking verb or start option (*...)", offset: start)
        }
        guard p[i] == UInt8(ascii: "?") else { return opened(.capturing, at: start) }
        i += 1
        guard i < p.count else { throw Unsupported(construct: "a group without its )", offset: start) }
        let c = p[i]
        i += 1
        switch c {
        case UInt8(ascii: ":"): opened(.nonCapturing, at: start)
        case UInt8(ascii: ">"): opened(.atomic, at: start)
        case UInt8(ascii: "|"): opened(.branchReset, at: start)
        case UInt8(ascii: "="): opened(.lookahead, at: start)
        case UInt8(ascii: "!"): opened(.negativeLookahead, at: start)
        case UInt8(ascii: "<") where i < p.count && p[i] == UInt8(ascii: "="):
            i += 1
            opened(.lookbehind, at: start)
        case UInt8(ascii: "<") where i < p.count && p[i] == UInt8(ascii: "!"):
            i += 1
            opened(.negativeLookbehind, at: start)
        case UInt8(ascii: "<"):
            try name(close: UInt8(ascii: ">"), at: start)
            opened(.named, at: start)
        case UInt8(ascii: "P") where i < p.count && p[i] == UInt8(ascii: "<"):
            i += 1
            try name(close: UInt8(ascii: ">"), at: start)
            opened(.named, at: start)
        case UInt8(ascii: "'"):
            try name(close: UInt8(ascii: "'"), at: start)
            opened(.named, at: start)
        case UInt8(ascii: "#"):
            // To the first `)` in PCRE2 and ICU (Java rejects it).
            guard let close = p[i...].firstIndex(of: UInt8(ascii: ")")) else {
                throw Unsupported(construct: "a comment (?#... without its )", offset: start)
            }
            i = close + 1
            add(.comment, from: start, repeatable: false)
        default:
            i -= 1
            try flags(at: start)
        }
    }

    private mutating func opened(_ kind: PatternSyntax.Group, at start: Int) {
        open.append(syntax.nodes.count)
        add(.group(kind, close: -1), from: start, repeatable: false)
    }

    /// A group name of ASCII letters, digits and `_`, and its `close`.
    private mutating func name(close: UInt8, at start: Int) throws(Unsupported) {
        let first = i
        while i < p.count, Self.isAlphanumeric(p[i]) || p[i] == UInt8(ascii: "_") { i += 1 }
        guard i > first, i < p.count, p[i] == close else {
            throw Unsupported(construct: "a group name that is not letters, digits and _", offset: start)
        }
        i += 1
    }

    /// `(?flags)` or `(?flags:...)`; `i` is at the first letter.
    private mutating func flags(at start: Int) throws(Unsupported) {
        while i < p.count, Self.isLetter(p[i]) || p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "^") {
            if p[i] == UInt8(ascii: "x") {
                throw Unsupported(construct: "the (?x) flag, which makes white space and # insignificant", offset: start)
            }
            i += 1
        }
        guard i < p.count, p[i] == UInt8(ascii: ")") || p[i] == UInt8(ascii: ":") else {
            throw Unsupported(construct: "a conditional, recursion or callout (?...)", offset: start)
        }
        i += 1
        if p[i - 1] == UInt8(ascii: ":") {
            opened(.flags, at: start)
        } else {
            add(.flags, from: start, repeatable: false)
        }
    }

    // MARK: Escapes

    /// What an escape reads as.
    enum EscapeRead {
        case character(UInt32, PatternSyntax.Spelling)
        case escape(PatternSyntax.Escape)
    }

    /// The escape whose `\` is at `start` (`i` just past it).
    private mutating func escape(at start: Int, inClass: Bool) throws(Unsupported) -> EscapeRead {
        guard i < p.count else { throw Unsupported(construct: "a \\ at the end of the pattern", offset: start) }
        let e = p[i]
        if e >= 0x80 {
            _ = scalar()
            return .escape(.other(0x80))
        }
        i += 1
        if !Self.isAlphanumeric(e) { return .character(UInt32(e), .escaped) }
        switch e {
        case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "S"):
            return .escape(.shorthand(e))
        case UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "G"):
            return .escape(inClass ? .other(e) : .assertion(e))
        case UInt8(ascii: "t"): return .character(0x09, .control)
        case UInt8(ascii: "n"): return .character(0x0A, .control)
        case UInt8(ascii: "r"): return .character(0x0D, .control)
        case UInt8(ascii: "f"): return .character(0x0C, .control)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            // Back references and octal escapes take a different number of
            // digits in each engine: all of them, here.
            while i < p.count, Self.isDigit(p[i]) { i += 1 }
            return .escape(.other(e))
        case UInt8(ascii: "x"):
            if i < p.count, p[i] == UInt8(ascii: "{") {
                guard let close = p[i...].firstIndex(of: UInt8(ascii: "}")), let value = Self.hex(p[(i + 1)..<close], digits: 1...8) else {
                    throw Unsupported(construct: "an escape \\x{...} without its hex digits", offset: start)
                }
                i = close + 1
                return .character(value, .hexBraced)
            }
            var n = 0
            while n < 2, i + n < p.count, Self.isHexDigit(p[i + n]) { n += 1 }
            // All read at most two digits; with fewer they disagree (Java refuses).
            guard n == 2, let value = Self.hex(p[i..<(i + 2)], digits: 2...2) else {
                i += n
                return .escape(.other(e))
            }
            i += 2
            return .character(value, .hex)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let n = e == UInt8(ascii: "u") ? 4 : 8
            guard i + n <= p.count, let value = Self.hex(p[i..<(i + n)], digits: n...n) else {
                throw Unsupported(construct: "an escape \\\(Character(Unicode.Scalar(e))) without its hex digits", offset: start)
            }
            i += n
            return .character(value, e == UInt8(ascii: "u") ? .unicode : .longUnicode)
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            if i < p.count, p[i] == UInt8(ascii: "{") {
                try skip(past: UInt8(ascii: "}"), at: start)
            } else {
                // `\pL`: one letter names the property.
                guard i < p.count, Self.isLetter(p[i]) else {
                    throw Unsupported(construct: "a property \\p without its name", offset: start)
                }
                i += 1
            }
        case UInt8(ascii: "N"), UInt8(ascii: "o"):
            // `\N{name}` (ICU, Java), `\N{U+41}` (PCRE2), `\o{101}` (PCRE2).
            if i < p.count, p[i] == UInt8(ascii: "{") { try skip(past: UInt8(ascii: "}"), at: start) }
        case UInt8(ascii: "k"):
            guard i < p.count, let close = Self.closer(of: p[i]) else {
                throw Unsupported(construct: "a reference \\k without its name", offset: start)
            }
            try skip(past: close, at: start)
        case UInt8(ascii: "g"):
            if i < p.count, let close = Self.closer(of: p[i]) {
                try skip(past: close, at: start)
            } else {
                if i < p.count, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
                while i < p.count, Self.isDigit(p[i]) { i += 1 }
            }
        case UInt8(ascii: "c"):
            guard i < p.count else { throw Unsupported(construct: "an escape \\c without its letter", offset: start) }
            _ = scalar()
        case UInt8(ascii: "Q"), UInt8(ascii: "E"):
            // Quoting changes how everything up to `\E` reads, and PCRE2
            // ignores an empty `\Q\E` or a lone `\E` (`ab\E?` is `ab?`).
            throw Unsupported(construct: "quoting \\Q...\\E", offset: start)
        default:
            break // `\K`, `\R`, `\h`, ... (ICU reads an unknown letter as itself)
        }
        return .escape(.other(e))
    }

    /// Moves past the first `close` after the opener at `i`.
    private mutating func skip(past close: UInt8, at start: Int) throws(Unsupported) {
        guard let end = p[(i + 1)...].firstIndex(of: close) else {
            throw Unsupported(construct: "an escape without its \(Character(Unicode.Scalar(close)))", offset: start)
        }
        i = end + 1
    }

    // MARK: Classes

    /// The class whose `[` is at `start`, read as ICU and Java nest classes:
    /// its index in `classes`.
    private mutating func characterClass(at start: Int, depth: Int = 1) throws(Unsupported) -> Int {
        guard depth <= PatternSyntax.maxDepth else {
            throw Unsupported(construct: "classes nested deeper than \(PatternSyntax.maxDepth)", offset: start)
        }
        let index = syntax.classes.count
        syntax.classes.append(PatternSyntax.CharacterClass())
        var set = PatternSyntax.CharacterClass()
        if i < p.count, p[i] == UInt8(ascii: "^") {
            set.negated = true
            i += 1
        }
        if i < p.count, p[i] == UInt8(ascii: "]") { set.opensWithBracket = true }
        var first = true
        while true {
            guard i < p.count else { throw Unsupported(construct: "a class without its ]", offset: start) }
            let itemStart = i
            let c = p[i]
            i += 1
            if c == UInt8(ascii: "]") && !first { break }
            first = false
            let lower: (UInt32, PatternSyntax.Spelling)
            switch c {
            case UInt8(ascii: "["):
                set.items.append(.nested(Int32(try characterClass(at: itemStart, depth: depth + 1))))
                continue
            case UInt8(ascii: "\\"):
                switch try escape(at: itemStart, inClass: true) {
                case .escape(let e):
                    set.items.append(.escape(e))
                    continue
                case .character(let value, let spelling):
                    lower = (value, spelling)
                }
            default:
                i = itemStart
                lower = (scalar(), .plain)
            }
            // A range `a-z`, not `a-]`, `a-[` or `a-\d`.
            if i + 1 < p.count, p[i] == UInt8(ascii: "-"), p[i + 1] != UInt8(ascii: "]"), p[i + 1] != UInt8(ascii: "[") {
                let mark = i
                i += 1
                let upperStart = i
                var upper: (UInt32, PatternSyntax.Spelling)?
                if p[i] == UInt8(ascii: "\\") {
                    i += 1
                    if case .character(let value, let spelling) = try escape(at: upperStart, inClass: true) { upper = (value, spelling) }
                } else {
                    upper = (scalar(), .plain)
                }
                if let upper {
                    set.items.append(.range(lower.0, lower.1, upper.0, upper.1))
                    continue
                }
                i = mark
            }
            set.items.append(.character(lower.0, lower.1))
        }
        syntax.classes[index] = set
        return index
    }

    // MARK: Characters

    /// The scalar at `i`, decoded from UTF-8 (the pattern is valid UTF-8).
    private mutating func scalar() -> UInt32 {
        let lead = p[i]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0x7F >> UInt32(length))
        for k in 1..<max(length, 1) where i + k < p.count { value = value << 6 | UInt32(p[i + k] & 0x3F) }
        i = min(i + length, p.count)
        return value
    }

    private static func startsQuantifier(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "*") || b == UInt8(ascii: "+") || b == UInt8(ascii: "?") || b == UInt8(ascii: "{")
    }

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
        return s.reduce(0) { acc, d in acc << 4 | UInt32(isDigit(d) ? d - 0x30 : (d | 0x20) - UInt8(ascii: "a") + 10) }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z") }
    static func isAlphanumeric(_ b: UInt8) -> Bool { isDigit(b) || isLetter(b) }
    static func isHexDigit(_ b: UInt8) -> Bool { isDigit(b) || ((b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "f")) }
}
