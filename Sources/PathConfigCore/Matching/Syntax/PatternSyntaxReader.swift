/// The one pass behind `PatternSyntax.read`: the pattern's constructs as
/// `PatternReader.token` reads them, which the translator takes too, made
/// into nodes that say where they are in UTF-8 bytes.
struct PatternSyntaxReader {
    private(set) var syntax: PatternSyntax
    private var r: PatternReader
    /// For a pattern that is not ASCII or is read rewritten, the UTF-8
    /// offset as written of each scalar read (one past the end included);
    /// nil where it is the scalar's offset.
    private let byteOffsets: [Int32]?
    /// The same for where the scalar read before each offset ends: for a
    /// rewritten pattern (`PatternReader.javaUnquoted`), not the same.
    private let endOffsets: [Int32]?
    /// The open groups: each one's node index, and the scan's modes before
    /// it (its flags end with it).
    private var open: [(node: Int, modesBefore: PatternReader.Modes)] = []
    /// Whether a quantifier may follow what was read last.
    private var repeatable = false

    init(_ pattern: String, dialect: RegexDialect) {
        r = PatternReader(pattern, dialect: dialect)
        let bytes = r.bytes
        syntax = PatternSyntax(text: bytes)
        // Each scalar starts at a byte that does not continue one.
        let written = bytes.count == r.sourceCount ? nil : bytes.indices.filter { bytes[$0] & 0xC0 != 0x80 }.map(Int32.init) + [Int32(bytes.count)]
        if r.isRewritten {
            let r = r
            byteOffsets = (0...r.count).map { written?[r.sourceOffset($0)] ?? Int32(r.sourceOffset($0)) }
            endOffsets = (0...r.count).map { written?[r.sourceEnd($0)] ?? Int32(r.sourceEnd($0)) }
        } else {
            (byteOffsets, endOffsets) = (written, written)
        }
        // About a node per byte for most patterns.
        syntax.nodes.reserveCapacity(r.bytes.count)
    }

    mutating func readAll() throws(PatternSyntax.Unsupported) {
        do throws(TranslationError) {
            try r.refuseICUEmptyQuote()
            while let (token, start) = try r.token() {
                // Most constructs are characters: their node is made here.
                if case .character(let c) = token {
                    add(.character(c, .plain), from: start, repeatable: true)
                } else {
                    try read(token, at: start)
                }
            }
            guard open.isEmpty else { throw .syntax("a group without its )", at: r.count) }
        } catch {
            throw PatternSyntax.Unsupported(construct: error.message, offset: Int(byte(error.offset)))
        }
    }

    /// The UTF-8 offset, as written, of the scalar read at `k`; with
    /// `end`, of the end of the scalar read before it.
    @inline(__always)
    private func byte(_ k: Int, end: Bool = false) -> Int32 {
        (end ? endOffsets : byteOffsets)?[k] ?? Int32(k)
    }

    @inline(__always)
    private mutating func add(_ kind: PatternSyntax.Kind, from start: Int, repeatable: Bool) {
        syntax.nodes.append(PatternSyntax.Node(kind: kind, start: byte(start), end: byte(r.position, end: true)))
        self.repeatable = repeatable
    }

    private mutating func read(_ token: PatternToken, at start: Int) throws(TranslationError) {
        switch token {
        case .escape:
            switch try r.escape(at: start, inClass: false) {
            case .character(let value, let spelling): add(.character(value, spelling), from: start, repeatable: true)
            case .quote:
                for (value, at) in r.quoted() {
                    syntax.nodes.append(PatternSyntax.Node(kind: .character(value, .quoted), start: byte(at), end: byte(at + 1, end: true)))
                    repeatable = true
                }
            case .shorthand(let letter): add(.escape(.shorthand(UInt8(letter))), from: start, repeatable: true)
            case .assertion(let letter): add(.escape(.assertion(UInt8(letter))), from: start, repeatable: true)
            // The letter after the `\` (`b` of `\b{g}`, `p` or `P`, `k`), or a back reference's first digit.
            case .sequence, .graphemeBoundary, .property, .backReference, .namedReference:
                add(.escape(.other(UInt8(r[start + 1]))), from: start, repeatable: true)
            }
        case .classOpen:
            // Read as its dialect reads it (the translation reads it so too);
            // the classes nested in it follow it in `classes`.
            let index = syntax.classes.count
            var recorder = ClassItemRecorder(classes: syntax.classes)
            syntax.classes = []
            switch r.dialect {
            case .icu: try r.icuClass(openedAt: start, into: &recorder)
            case .java: try r.javaClass(openedAt: start, consume: true, into: &recorder)
            }
            syntax.classes = recorder.classes
            add(.characterClass(Int32(index)), from: start, repeatable: true)
        case .groupOpen:
            try group(at: start)
        case .groupClose:
            guard let (opened, modesBefore) = open.popLast() else { throw .syntax("an unmatched )", at: start) }
            r.modes = modesBefore
            if case .group(let kind, _) = syntax.nodes[opened].kind {
                syntax.nodes[opened].kind = .group(kind, close: Int32(syntax.nodes.count))
            }
            add(.groupClose, from: start, repeatable: true)
        case .alternation: add(.alternation, from: start, repeatable: false)
        case .dot: add(.dot, from: start, repeatable: true)
        case .caret: add(.caret, from: start, repeatable: true)
        case .dollar: add(.dollar, from: start, repeatable: true)
        case .quantifier(let quantifier):
            try self.quantifier(quantifier, at: start)
        case .character(let c):
            add(.character(c, .plain), from: start, repeatable: true)
        }
    }

    private mutating func quantifier(_ quantifier: Quantifier, at start: Int) throws(TranslationError) {
        if quantifier.symbol == 0x7B, !repeatable, r.dialect == .java {
            // The JDK reads a `{` where no item is, or after a quantifier
            // (`{2}a`, `a{2}{3}`), as a repeat of nothing: it matches the
            // empty string, and has no node.
            return
        }
        guard repeatable else {
            throw .syntax(syntax.nodes.last?.isQuantifier == true ? "a quantifier after a quantifier"
                                    : "a quantifier \(Character(Unicode.Scalar(quantifier.symbol)!)) with nothing to repeat", at: start)
        }
        add(.quantifier(min: Int32(quantifier.min), max: quantifier.max.map(Int32.init), quantifier.mode), from: start, repeatable: false)
    }

    private mutating func group(at start: Int) throws(TranslationError) {
        guard open.count < PatternSyntax.maxDepth else {
            throw .syntax("groups nested deeper than \(PatternSyntax.maxDepth)", at: start)
        }
        let opener = try r.groupOpener(at: start)
        switch opener {
        case .capturing, .named: opened(opener == .capturing ? .capturing : .named, at: start)
        case .nonCapturing: opened(.nonCapturing, at: start)
        case .atomic: opened(.atomic, at: start)
        case .lookahead(let negative): opened(negative ? .negativeLookahead : .lookahead, at: start)
        case .lookbehind(let negative): opened(negative ? .negativeLookbehind : .lookbehind, at: start)
        case .flags(let group):
            var modes = r.modes
            let end = try group.read(r.dialect, at: start) { (flag, on, _) throws(TranslationError) in
                modes.set(flag, on)
            }
            if end == 0x3A {
                opened(.flags, at: start)
            } else {
                add(.flags, from: start, repeatable: false)
            }
            r.modes = modes
        }
    }

    private mutating func opened(_ kind: PatternSyntax.Group, at start: Int) {
        open.append((syntax.nodes.count, r.modes))
        add(.group(kind, close: -1), from: start, repeatable: false)
    }
}
