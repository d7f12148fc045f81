/// The one pass behind `PatternSyntax.read`, over the pattern's Unicode
/// scalars (`PatternReader`, whose escapes, group openers and repeat counts
/// the translator reads too); the nodes it makes say where they are in
/// UTF-8 bytes.
struct PatternSyntaxReader {
    typealias Unsupported = PatternSyntax.Unsupported

    private(set) var syntax: PatternSyntax
    private var r: PatternReader
    /// For a pattern that is not ASCII, the UTF-8 offset of each scalar
    /// offset (one past the end included).
    private let byteOffsets: [Int32]?
    /// The open groups' node indices.
    private var open: [Int] = []
    /// For each open group, whether free-spacing mode was on before it (its
    /// flags end with it).
    private var extendedBefore: [Bool] = []
    /// Capture groups opened so far (how many digits a back reference takes).
    private var captures = 0
    /// Whether a quantifier may follow what was read last.
    private var repeatable = false

    init(_ pattern: String, dialect: RegexDialect) {
        r = PatternReader(pattern, dialect: dialect)
        syntax = PatternSyntax(text: r.bytes)
        if r.bytes.count == r.count {
            byteOffsets = nil
        } else {
            var offsets: [Int32] = [0]
            offsets.reserveCapacity(r.count + 1)
            for k in 0..<r.count {
                let c = r[k]
                offsets.append(offsets.last! + Int32(c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4))
            }
            byteOffsets = offsets
        }
        // About a node per byte for most patterns.
        syntax.nodes.reserveCapacity(r.bytes.count)
    }

    mutating func readAll() throws(Unsupported) {
        while r.peekSignificant() != nil { try readNode() }
        guard open.isEmpty else { throw unsupported("a group without its )", at: r.count) }
    }

    /// The UTF-8 offset of the scalar offset `k`.
    @inline(__always)
    private func byte(_ k: Int) -> Int32 { byteOffsets?[k] ?? Int32(k) }

    private func unsupported(_ construct: String, at k: Int) -> Unsupported {
        Unsupported(construct: construct, offset: Int(byte(k)))
    }

    @inline(__always)
    private mutating func add(_ kind: PatternSyntax.Kind, from start: Int, repeatable: Bool) {
        syntax.nodes.append(PatternSyntax.Node(kind: kind, start: byte(start), end: byte(r.position)))
        self.repeatable = repeatable
    }

    private mutating func readNode() throws(Unsupported) {
        let start = r.position
        let c = r.next()!
        switch c {
        case 0x5C: // \
            if try escape(at: start, inClass: false) == .quote {
                for (value, at) in r.quoted() {
                    syntax.nodes.append(PatternSyntax.Node(kind: .character(value, .quoted), start: byte(at), end: byte(at + 1)))
                    repeatable = true
                }
            }
        case 0x5B: // [
            let index = try characterClass(at: start)
            add(.characterClass(Int32(index)), from: start, repeatable: true)
        case 0x28: // (
            try group(at: start)
        case 0x29: // )
            guard let opened = open.popLast() else { throw unsupported("an unmatched )", at: start) }
            r.extended = extendedBefore.removeLast()
            if case .group(let kind, _) = syntax.nodes[opened].kind {
                syntax.nodes[opened].kind = .group(kind, close: Int32(syntax.nodes.count))
            }
            add(.groupClose, from: start, repeatable: true)
        case 0x7C: add(.alternation, from: start, repeatable: false)
        case 0x2E: add(.dot, from: start, repeatable: true)
        case 0x5E: add(.caret, from: start, repeatable: true)
        case 0x24: add(.dollar, from: start, repeatable: true)
        case 0x2A, 0x2B, 0x3F, 0x7B: // * + ? {
            try quantifier(c, at: start)
        default:
            add(.character(c, .plain), from: start, repeatable: true)
        }
    }

    // MARK: Quantifiers

    private mutating func quantifier(_ c: UInt32, at start: Int) throws(Unsupported) {
        if c == 0x7B, !repeatable, r.dialect == .java {
            // The JDK reads a `{` where no item is, or after a quantifier
            // (`{2}a`, `a{2}{3}`), as a repeat of nothing: it matches the
            // empty string, and has no node.
            _ = try counts(at: start)
            if r.peekQuantifierMode() != nil { r.position += 1 }
            return
        }
        guard repeatable else {
            throw unsupported("a quantifier \(Character(Unicode.Scalar(c)!)) with nothing to repeat", at: start)
        }
        let min: Int, max: Int?
        switch c {
        case 0x2A: (min, max) = (0, nil)
        case 0x2B: (min, max) = (1, nil)
        case 0x3F: (min, max) = (0, 1)
        default: (min, max) = try counts(at: start)
        }
        var mode = PatternSyntax.Mode.greedy
        if let suffix = r.peekQuantifierMode() {
            mode = suffix == 0x3F ? .lazy : .possessive
            r.position += 1
        }
        add(.quantifier(min: Int32(min), max: max.map(Int32.init), mode), from: start, repeatable: false)
        // Only Java takes a quantifier here, a `{` (a repeat of nothing).
        if let next = r.peekSignificant(), Self.startsQuantifier(next), next != 0x7B || r.dialect != .java {
            throw unsupported("a quantifier after a quantifier", at: r.position)
        }
    }

    /// The bounds after the `{` at `start`, as the dialect reads them.
    private mutating func counts(at start: Int) throws(Unsupported) -> (Int, Int?) {
        do { return try r.repeatCount(at: start) } catch { throw unsupported(error.message, at: error.offset) }
    }

    // MARK: Groups

    private mutating func group(at start: Int) throws(Unsupported) {
        guard open.count < PatternSyntax.maxDepth else {
            throw unsupported("groups nested deeper than \(PatternSyntax.maxDepth)", at: start)
        }
        let opener: GroupOpener
        do { opener = try r.groupOpener(at: start) } catch { throw unsupported(error.message, at: error.offset) }
        switch opener {
        case .capturing:
            captures += 1
            opened(.capturing, at: start)
        case .named:
            captures += 1
            opened(.named, at: start)
        case .nonCapturing: opened(.nonCapturing, at: start)
        case .atomic: opened(.atomic, at: start)
        case .lookahead(let negative): opened(negative ? .negativeLookahead : .lookahead, at: start)
        case .lookbehind(let negative): opened(negative ? .negativeLookbehind : .lookbehind, at: start)
        case .comment:
            break // read as nothing, as ICU reads it: a quantifier after it repeats what came before
        case .flags(let group):
            var extended = r.extended
            let end: UInt32
            do {
                end = try group.read(r.dialect, at: start) { (flag, on, _) throws(TranslationError) in
                    if flag == .extended { extended = on }
                }
            } catch { throw unsupported(error.message, at: error.offset) }
            if end == 0x3A {
                opened(.flags, at: start)
            } else {
                add(.flags, from: start, repeatable: false)
            }
            r.extended = extended
        }
    }

    private mutating func opened(_ kind: PatternSyntax.Group, at start: Int) {
        open.append(syntax.nodes.count)
        extendedBefore.append(r.extended)
        add(.group(kind, close: -1), from: start, repeatable: false)
    }

    // MARK: Escapes

    /// What an escape reads as.
    enum EscapeRead: Equatable {
        case character(UInt32, PatternSyntax.Spelling)
        case escape(PatternSyntax.Escape)
        /// `\Q`: the caller reads what it quotes.
        case quote
    }

    /// The escape whose `\` is at `start` (just taken), as the dialect
    /// reads it (`PatternReader.escape`); outside a class, a node for all
    /// but `\Q`.
    @discardableResult
    private mutating func escape(at start: Int, inClass: Bool) throws(Unsupported) -> EscapeRead {
        let token: EscapeToken
        do { token = try r.escape(at: start, inClass: inClass, captures: captures) } catch {
            throw unsupported(error.message, at: error.offset)
        }
        let read: EscapeRead
        switch token {
        case .character(let value, let spelling): read = .character(value, spelling)
        case .quote: return .quote
        case .shorthand(let letter): read = .escape(.shorthand(UInt8(letter)))
        case .assertion(let letter): read = .escape(.assertion(UInt8(letter)))
        case .sequence(let letter): read = .escape(.other(UInt8(letter)))
        case .graphemeBoundary: read = .escape(.other(0x62))
        case .property(_, let negated): read = .escape(.other(negated ? 0x50 : 0x70))
        case .backReference: read = .escape(.other(UInt8(r[start + 1])))
        case .namedReference: read = .escape(.other(0x6B))
        }
        if !inClass {
            switch read {
            case .character(let value, let spelling): add(.character(value, spelling), from: start, repeatable: true)
            case .escape(let e): add(.escape(e), from: start, repeatable: true)
            case .quote: break
            }
        }
        return read
    }

    // MARK: Classes

    /// The class whose `[` is at `start`, read as ICU and Java nest classes:
    /// its index in `classes`.
    private mutating func characterClass(at start: Int, depth: Int = 1) throws(Unsupported) -> Int {
        guard depth <= PatternSyntax.maxDepth else {
            throw unsupported("classes nested deeper than \(PatternSyntax.maxDepth)", at: start)
        }
        let index = syntax.classes.count
        syntax.classes.append(PatternSyntax.CharacterClass())
        var set = PatternSyntax.CharacterClass()
        // In free-spacing mode both dialects skip white space and comments
        // between a class's items too.
        r.skipInsignificant()
        if r.peek() == 0x5E { // ^
            set.negated = true
            r.position += 1
        }
        if r.peek() == 0x5D { set.opensWithBracket = true } // ]
        var first = true
        while true {
            r.skipInsignificant()
            let itemStart = r.position
            guard let c = r.next() else { throw unsupported("a class without its ]", at: start) }
            if c == 0x5D && !first { break }
            first = false
            let lower: (UInt32, PatternSyntax.Spelling)
            switch c {
            case 0x5B: // [
                set.items.append(.nested(Int32(try characterClass(at: itemStart, depth: depth + 1))))
                continue
            case 0x5C: // \
                switch try escape(at: itemStart, inClass: true) {
                case .escape(let e):
                    set.items.append(.escape(e))
                    continue
                case .quote:
                    set.items += r.quoted().map { .character($0.0, .quoted) }
                    continue
                case .character(let value, let spelling):
                    lower = (value, spelling)
                }
            default:
                lower = (c, .plain)
            }
            // A range `a-z`, not `a-]`, `a-[` or `a-\d`.
            if r.peek() == 0x2D, let after = r.peek(1), after != 0x5D, after != 0x5B {
                let mark = r.position
                r.position += 1
                let upperStart = r.position
                var upper: (UInt32, PatternSyntax.Spelling)?
                if r.next() == 0x5C {
                    if case .character(let value, let spelling) = try escape(at: upperStart, inClass: true) { upper = (value, spelling) }
                } else {
                    upper = (after, .plain)
                }
                if let upper {
                    set.items.append(.range(lower.0, lower.1, upper.0, upper.1))
                    continue
                }
                r.position = mark
            }
            set.items.append(.character(lower.0, lower.1))
        }
        syntax.classes[index] = set
        return index
    }

    private static func startsQuantifier(_ c: UInt32) -> Bool {
        c == 0x2A || c == 0x2B || c == 0x3F || c == 0x7B
    }
}
