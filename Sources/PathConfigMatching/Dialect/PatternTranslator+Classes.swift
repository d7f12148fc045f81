/// Class expressions: `[...]` with nested classes, ranges, escapes and the
/// set operators (`&&` in both dialects, `--` in ICU), evaluated left to
/// right, the right operand running to the next operator.
extension PatternTranslator {
    /// A set operator.
    private enum Operator { case intersection, difference }

    /// How deep classes may nest, and how many operators one class may
    /// have: the translation recurses on both, so a hostile pattern must
    /// not reach the stack's end.
    static let maximumClassDepth = 32
    static let maximumOperators = 64

    /// The class opened by the `[` at `openedAt` (already taken). Java's
    /// classes are read as the JDK reads them (`javaClass`); this reads ICU's.
    mutating func classExpression(openedAt: Int) throws(TranslationError) -> CharSet {
        if dialect == .java { return try javaClass(openedAt: openedAt, consume: true) }
        if dialect == .icu, reader.peek() == 0x3A, let set = try posixProperty(openedAt: openedAt) { return set }
        classDepth += 1
        defer { classDepth -= 1 }
        if classDepth > Self.maximumClassDepth {
            throw .refused(dialect, "a class nested more than \(Self.maximumClassDepth) deep", because: "the translation's limit", at: openedAt)
        }
        var operators = 0
        var negated = false
        if reader.peekSignificant() == 0x5E {
            reader.position += 1
            negated = true
        }
        var left: CharSet?
        var pending: Operator?
        var operand: [CharSet] = []
        var bare: [ClosedRange<UInt32>] = []   // code points written directly in the operand
        var usesOperator = false
        var bareInOperands = false
        var first = true

        func combine(_ op: Operator?, _ left: CharSet?, _ right: CharSet) -> CharSet {
            guard let left, let op else { return right }
            return op == .intersection ? .intersection(left, right) : .difference(left, right)
        }

        while true {
            guard let c = reader.peekSignificant() else {
                throw .syntax("missing terminating ] for character class", at: reader.scalars.count)
            }
            let at = reader.position
            if c == 0x5D && !first { // ]
                reader.position += 1
                break
            }
            first = false
            if c == 0x5B { // nested class
                reader.position += 1
                operand.append(try classExpression(openedAt: at))
                continue
            }
            let op: Operator? = c == 0x26 && reader.peek(1) == 0x26 ? .intersection
                : (dialect == .icu && c == 0x2D && reader.peek(1) == 0x2D ? .difference : nil)
            if let op {
                operators += 1
                if operators > Self.maximumOperators {
                    throw .refused(dialect, "a class with more than \(Self.maximumOperators) set operators", because: "the translation's limit", at: at)
                }
                reader.position += 2
                guard !operand.isEmpty else { throw .invalid(dialect, "set operator with nothing before it", at: at) }
                left = combine(pending, left, .union(operand))
                if !bare.isEmpty { bareInOperands = true }
                pending = op
                usesOperator = true
                operand = []
                bare = []
                continue
            }
            switch try classElement(at: at) {
            case .character(let low):
                if let high = try rangeEnd(after: low) {
                    operand.append(.range(low, high))
                    bare.append(low...high)
                } else {
                    operand.append(.scalar(low))
                    bare.append(low...low)
                }
            case .characters(let values):
                operand.append(.items(values.map { .scalar($0) }))
                bare += values.map { $0...$0 }
            case .set(let set):
                operand.append(set)
            }
        }
        if pending != nil && operand.isEmpty {
            throw .invalid(dialect, "set operator with nothing after it", at: reader.position - 1)
        }
        if !bare.isEmpty { bareInOperands = true }
        let body = combine(pending, left, operand.count == 1 ? operand[0] : .union(operand))
        if dialect == .icu && flags.caseless && usesOperator && bareInOperands {
            try requireCaseless(body, at: openedAt)
        }
        return negated ? .complement(body) : body
    }

    /// Java, case-insensitive: characters and ranges match what
    /// `JavaCaseFolding` says, written out.
    var javaCaseless: Bool { dialect == .java && flags.caseless }

    /// Code points (sorted) as a set of ranges.
    static func set(of values: [UInt32]) -> CharSet { set(of: JavaCaseFolding.ranges(of: values)) }

    /// Ranges as a set.
    static func set(of ranges: [ClosedRange<UInt32>]) -> CharSet { .ranges(ranges.map { ($0.lowerBound, $0.upperBound) }) }

    /// ICU folds case over a class only when it is complete, after its
    /// operators have run on the characters written in it; PCRE2 folds each
    /// character before. The results differ when an operand has characters
    /// with other cases, so such a class is refused under `(?i)`.
    private func requireCaseless(_ set: CharSet, at source: Int) throws(TranslationError) {
        func caseSensitive(_ range: ClosedRange<UInt32>) -> Bool {
            if range.count > 0x3000 { return true }
            return range.contains { value in
                guard let scalar = Unicode.Scalar(value) else { return false }
                return scalar.properties.isCased || scalar.properties.changesWhenCaseMapped
            }
        }
        func check(_ set: CharSet) -> Bool {
            switch set {
            case .items: return set.bareCodePoints.contains(where: caseSensitive)
            case .union(let parts): return parts.contains { if case .items = $0 { return check($0) } else { return false } }
            case .intersection(let a, let b), .difference(let a, let b): return check(a) || check(b)
            case .complement, .caseExact: return false
            }
        }
        if check(set) {
            throw .refused(dialect, "set operation on cased characters under (?i)", because: "ICU applies case-insensitivity after && and --, PCRE2 to each character before", at: source)
        }
    }

    /// One element of a class: a character, an escape, or `\Q...\E`.
    mutating func classElement(at source: Int) throws(TranslationError) -> EscapeValue {
        let c = reader.next()!
        guard c == 0x5C else { return .character(c) }
        return try characterEscape(at: source, inClass: true)
    }

    /// The end of a range when a `-` and a character follow `low`; nil (and
    /// nothing taken) when the `-` is a literal: before `]`, `[`, or (ICU)
    /// another `-`.
    private mutating func rangeEnd(after low: UInt32) throws(TranslationError) -> UInt32? {
        let mark = reader.position
        guard reader.peekSignificant() == 0x2D else {
            reader.position = mark
            return nil
        }
        let dash = reader.position
        reader.position += 1
        guard let next = reader.peekSignificant(), next != 0x5D, next != 0x5B, !(dialect == .icu && next == 0x2D),
              !(next == 0x26 && reader.peek(1) == 0x26) else {
            reader.position = mark
            return nil
        }
        let at = reader.position
        guard case .character(let high) = try classElement(at: at) else {
            throw .invalid(dialect, "a range must end in a single character", at: dash)
        }
        guard low <= high else { throw .invalid(dialect, "range out of order in character class", at: dash) }
        return high
    }

    /// ICU's `[:name:]` and `[:^name:]` (after the `[`), as `\p{name}`; nil
    /// when no `:]` closes it (then it is an ordinary class).
    private mutating func posixProperty(openedAt: Int) throws(TranslationError) -> CharSet? {
        let scalars = reader.scalars
        var end = reader.position + 1
        while end + 1 < scalars.count, !(scalars[end] == 0x3A && scalars[end + 1] == 0x5D) {
            if scalars[end] == 0x5D || scalars[end] == 0x5B { return nil }
            end += 1
        }
        guard end + 1 < scalars.count else { return nil }
        var start = reader.position + 1
        let negated = scalars[start] == 0x5E
        if negated { start += 1 }
        let name = String(String.UnicodeScalarView(scalars[start..<end].compactMap(Unicode.Scalar.init)))
        reader.position = end + 2
        let written = "[:" + (negated ? "^" : "") + name + ":]"
        switch PropertyNames.icu(name) {
        case .set(let set, let caseClosed):
            if flags.caseless && !caseClosed {
                throw .refused(dialect, written + " under (?i)", because: "ICU adds the other cases of its members, PCRE2 never case-folds a property", at: openedAt)
            }
            return negated ? .complement(set) : set
        case .block(let range):
            if flags.caseless { throw Self.blockInCaselessClass(dialect, written, at: openedAt) }
            let set = CharSet.range(range.lowerBound, range.upperBound)
            return negated ? .complement(set) : set
        case .refused(let why):
            throw .refused(dialect, written, because: why, at: openedAt)
        case .unknown:
            throw .unknownName(dialect, written, because: "not in the dialect table, whose properties and blocks are Unicode \(UnicodeBlocks.unicodeVersion)'s", at: openedAt)
        }
    }
}
