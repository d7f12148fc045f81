/// Java classes, read as OpenJDK 17's `Pattern.clazz` reads them, step for
/// step, each element handed to a `JavaClassSink`, which makes the class's
/// nodes: the translation a set, as the JDK builds it
/// (`JavaClassBuilder`), the syntax tree its items. The JDK's intersection
/// has quirks no grammar states:
///
/// - `&&` takes as its right operand the union of the nested classes and
///   the class characters up to the next `]` or `&` (a run of characters is
///   read by a nested `clazz(false)`, which has its own `&&`). With no right
///   operand (`[x&&]`, `[x&&&&y]`) it intersects with the last element
///   read: `[x&&]` is `[x]`; with nothing on the left, the right operand is
///   the class (`[&&x]` is `[x]`); with neither, "Bad class syntax". When
///   the last element read went into the level's bit set, JDK 17
///   intersects with null (the sink's `character` returned nil).
/// - After a class character, `-` and any character but `[` or `]` make a
///   range, `&` included: `[a-&&b]` is out of order, `[!-&&b]` is `!-&`,
///   `&` and `b`.
/// - `^` negates only right after `[`.
protocol JavaClassSink: ClassSink {
    /// A class, or a part of one, as the sink makes it.
    associatedtype Node

    /// A level of `clazz` opens: a class of its own (`nested`), or the run
    /// of characters after `&&`, whose elements are its class's.
    mutating func beginLevel(nested: Bool)
    /// A class character that starts no range: its node, or nil where it
    /// went into the level's bit set.
    mutating func character(_ value: UInt32, _ spelling: PatternSyntax.Spelling) -> Node?
    /// `low-high`, in order.
    mutating func range(_ low: UInt32, _ lowSpelling: PatternSyntax.Spelling, _ high: UInt32, _ highSpelling: PatternSyntax.Spelling) -> Node
    /// `\d \D \s \S \w \W \h \H \v \V` (the letter).
    mutating func shorthand(_ letter: UInt32) -> Node
    /// `\p{NAME}`, `\P{NAME}` or `\pL`, whose `\` is at `source`.
    mutating func property(_ name: String, negated: Bool, at source: Int) throws(TranslationError) -> Node
    /// The level's bit set, as it is when the level ends.
    func bits() -> Node
    /// `a` or `b`, the JDK trying `a` first.
    func union(_ a: Node, _ b: Node) -> Node
    /// An `&&` was read; its right operand is next.
    mutating func intersectionRead()
    /// `left && right`, the `&&` at `source`; with `right` nil, JDK 17's
    /// intersection with null.
    mutating func intersection(_ left: Node, _ right: Node?, at source: Int) throws(TranslationError) -> Node
    /// The level ends, as `node`: its class, negated by a `^`.
    mutating func endLevel(_ node: Node, negated: Bool) -> Node
}

extension PatternReader {
    /// `clazz(consume)`: the class whose first character (or `^`) is at the
    /// reader's position, its `[` at `openedAt`; `consume` takes its `]` (a
    /// right operand of `&&` leaves it to the class around it).
    mutating func javaClass<Sink: JavaClassSink>(openedAt: Int, consume: Bool, depth: Int = 1, into sink: inout Sink)
        throws(TranslationError) -> Sink.Node {
        try checkClassDepth(depth, at: openedAt)
        sink.beginLevel(nested: consume)
        var prev: Sink.Node?
        var curr: Sink.Node?
        var hasBits = false
        var negated = false
        var operators = 0
        var ch = peekSignificant()
        if ch == 0x5E, position > 0, self[position - 1] == 0x5B { // ^ right after [
            position += 1
            ch = peekSignificant()
            negated = true
        }
        func union(_ a: Sink.Node?, _ b: Sink.Node) -> Sink.Node { a.map { sink.union($0, b) } ?? b }
        while true {
            guard let c = ch else { throw .syntax("missing terminating ] for character class", at: count) }
            let at = position
            switch c {
            case 0x5B: // [
                position += 1
                let nested = try javaClass(openedAt: at, consume: true, depth: depth + 1, into: &sink)
                curr = nested
                prev = union(prev, nested)
                ch = peekSignificant()
                continue
            case 0x26: // &
                position += 1
                guard peekSignificant() == 0x26 else {
                    // A literal &: the JDK steps back one character, which
                    // is the & unless free spacing skipped a space after it
                    // (then the & is lost, as there).
                    position -= 1
                    break
                }
                operators += 1
                try checkOperatorCount(operators, at: at)
                position += 1
                sink.intersectionRead()
                ch = peekSignificant()
                var right: Sink.Node?
                while let r = ch, r != 0x5D, r != 0x26 {
                    // A nested class, or (abc&&def) the characters, read as a class of their own up to `]` or `&&`.
                    let start = position
                    if r == 0x5B { position += 1 }
                    right = union(right, try javaClass(openedAt: start, consume: r == 0x5B, depth: depth + 1, into: &sink))
                    ch = peekSignificant()
                }
                if ch == nil { throw .syntax("missing terminating ] for character class", at: count) }
                if hasBits {
                    // The bits read so far: union binds tighter.
                    if prev == nil { curr = sink.bits() }
                    prev = union(prev, sink.bits())
                    hasBits = false
                }
                if let right { curr = right }
                if let left = prev {
                    // The JDK intersects with the last element read; with
                    // none (`[[b]a&&]`), JDK 17 with null (later JDKs:
                    // "Bad intersection syntax").
                    prev = try sink.intersection(left, curr, at: at)
                } else {
                    guard let right else { throw .invalid(dialect, "bad class syntax (&& with nothing on either side)", at: at) }
                    prev = right
                }
                continue
            case 0x5D where prev != nil || hasBits: // ]
                if consume { position += 1 }
                return sink.endLevel(hasBits ? union(prev, sink.bits()) : prev!, negated: negated)
            default:
                break
            }
            if let element = try javaClassRange(into: &sink) {
                curr = element
                prev = union(prev, element)
            } else {
                hasBits = true
                curr = nil
            }
            ch = peekSignificant()
        }
    }

    /// `Pattern.range`: one class element at the reader's position, a
    /// range when `-` and a character other than `[` or `]` follow it; nil
    /// where it went into the level's bit set.
    private mutating func javaClassRange<Sink: JavaClassSink>(into sink: inout Sink) throws(TranslationError) -> Sink.Node? {
        _ = peekSignificant()
        let at = position
        let low: UInt32
        let lowSpelling: PatternSyntax.Spelling
        switch try classElement(into: &sink) {
        case .character(let value, let spelling): (low, lowSpelling) = (value, spelling)
        case .shorthand(let letter): return sink.shorthand(letter)
        case .property(let name, let negated): return try sink.property(name, negated: negated, at: at)
        default: throw .invalid(dialect, "escape not allowed in a class", at: at) // `classElement` returns none other
        }
        if peekSignificant() == 0x2D, let end = peek(1), end != 0x5B, end != 0x5D { // -
            let dash = position
            position += 1
            guard peekSignificant() != nil else { throw .syntax("missing terminating ] for character class", at: count) }
            let highAt = position
            switch try classElement(into: &sink) {
            case .character(let high, let highSpelling):
                guard low <= high else { throw .invalid(dialect, "illegal character range (out of order)", at: dash) }
                return sink.range(low, lowSpelling, high, highSpelling)
            case .property(let name, let negated):
                // An unknown property is refused before the range is.
                _ = try sink.property(name, negated: negated, at: highAt)
            default:
                break
            }
            throw .invalid(dialect, "a range must end in a single character", at: dash)
        }
        return sink.character(low, lowSpelling)
    }

    /// One element of a class at the reader's position: a character, as
    /// itself or escaped (`.character`), or a class escape (`.shorthand`,
    /// `.property`).
    private mutating func classElement<Sink: ClassSink>(into sink: inout Sink) throws(TranslationError) -> EscapeToken {
        let source = position
        // Java's free spacing can end the pattern where a literal `&` stepped
        // back (`(?x)[a& `).
        guard let c = next() else { throw .syntax("missing terminating ] for character class", at: count) }
        guard c == 0x5C else { return .character(c, .plain) }
        let token = try escape(at: source, inClass: true)
        switch token {
        case .character(let value, _):
            try sink.escaped(value, at: source)
            return token
        case .shorthand, .property:
            return token
        case .quote, .assertion, .graphemeBoundary, .sequence, .backReference, .namedReference:
            // Read outside a class only (`escape`); never a trap in the library.
            throw .invalid(dialect, "escape not allowed in a class", at: source)
        }
    }
}
