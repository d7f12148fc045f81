/// Java classes, read as OpenJDK 17's `Pattern.clazz` reads them, step for
/// step: its intersection has quirks no grammar states, and a pattern the
/// JDK compiles must mean here what it means there.
///
/// - `&&` takes as its right operand the union of the nested classes and
///   the class characters up to the next `]` or `&` (a run of characters is
///   read by a nested `clazz(false)`, which has its own `&&`). With no right operand
///   (`[x&&]`, `[x&&&&y]`) it intersects with the last element read:
///   `[x&&]` is `[x]`; with nothing on the left, the right operand is the
///   class (`[&&x]` is `[x]`); with neither, "Bad class syntax". When the
///   last element read went into the bit set, JDK 17 intersects with null:
///   `[[b]a&&]` compiles, and its search throws a NullPointerException
///   wherever the left side holds and the search asks (`JavaClass.throwing`).
/// - Characters below U+0100 (but, case-insensitively, `I i S s K k Å å ÿ
///   µ`) go into one bit set per class level, which every reference to it
///   sees complete, whatever was added after the reference: in `[a&&&]`
///   the third `&` is a literal added to the set after `a&&` took it, so the
///   class is `a` and `&`.
/// - After a class character, `-` and any character but `[` or `]` make a
///   range, `&` included: `[a-&&b]` is out of order, `[!-&&b]` is `!-&`,
///   `&` and `b`.
/// - `^` negates only right after `[`.
extension PatternTranslator {
    /// A class as `clazz` builds it, with the level's bit set as a
    /// reference (`bits`), resolved when the level ends.
    private indirect enum JavaClassNode {
        case set(JavaClass)
        case bits
        case union(JavaClassNode, JavaClassNode)
        case and(JavaClassNode, JavaClassNode)
        /// JDK 17's `prev.and(null)`: matches nothing, and throws wherever
        /// its left side holds.
        case andNull(JavaClassNode)

        /// The class, the level's bit set filled in. The JDK evaluates a
        /// union's operands left to right until one holds, an
        /// intersection's until one fails; a node throws where it is
        /// evaluated and an operand inside it throws.
        func resolved(bits: CharSet) -> JavaClass {
            switch self {
            case .set(let set): return set
            case .bits: return JavaClass(set: bits)
            case .union:
                // A level of n elements is a chain of unions n deep, each
                // new element on the right: one flat union of its operands,
                // left to right, so that reading it is linear (a deep
                // union made the emitter's work cubic in the class's size).
                var operands: [JavaClassNode] = []
                var node = self
                while case .union(let a, let b) = node {
                    operands.append(b)
                    node = a
                }
                operands.append(node)
                let resolved = operands.reversed().map { $0.resolved(bits: bits) }
                var throwing: [CharSet] = []
                for (k, operand) in resolved.enumerated() {
                    guard let t = operand.throwing else { continue }
                    throwing.append(k == 0 ? t : .difference(t, .union(of: resolved[..<k].map(\.set))))
                }
                return JavaClass(set: .union(of: resolved.map(\.set)), throwing: throwing.isEmpty ? nil : .union(of: throwing))
            case .and(let a, let b):
                let (left, right) = (a.resolved(bits: bits), b.resolved(bits: bits))
                let throwing = [left.throwing, right.throwing.map { .intersection(left.set, $0) }].compactMap { $0 }
                return JavaClass(set: .intersection(left.set, right.set), throwing: throwing.isEmpty ? nil : .union(of: throwing))
            case .andNull(let a):
                let left = a.resolved(bits: bits)
                return JavaClass(set: .items([]), throwing: .union(of: [left.throwing, left.set].compactMap { $0 }))
            }
        }
    }

    /// A Java class as the JDK builds it: the characters it matches, and
    /// those on which its search throws instead (nil: none).
    struct JavaClass {
        var set: CharSet
        var throwing: CharSet?
    }

    /// What `range` read: a set of its own, or a character for the level's
    /// bit set (`bitsOrSingle` said bits).
    private enum JavaClassElement {
        case predicate(CharSet)
        case bits([CharSet])
    }

    /// `clazz(consume)`: the class whose first character (or `^`) is at the
    /// reader's position; `consume` takes its `]` (a right operand of `&&`
    /// leaves it to the class around it).
    mutating func javaClass(openedAt: Int, consume: Bool) throws(TranslationError) -> JavaClass {
        classDepth += 1
        defer { classDepth -= 1 }
        if classDepth > Self.maximumClassDepth {
            throw .refused(dialect, "a class nested more than \(Self.maximumClassDepth) deep", because: "the translation's limit", at: openedAt)
        }
        var prev: JavaClassNode?
        var curr: JavaClassNode?
        var bits: [CharSet] = []
        var hasBits = false
        var negated = false
        var operators = 0
        var ch = reader.peekSignificant()
        if ch == 0x5E, reader.position > 0, reader[reader.position - 1] == 0x5B { // ^ right after [
            reader.position += 1
            ch = reader.peekSignificant()
            negated = true
        }
        func union(_ a: JavaClassNode?, _ b: JavaClassNode) -> JavaClassNode { a.map { .union($0, b) } ?? b }
        while true {
            guard let c = ch else { throw .syntax("missing terminating ] for character class", at: reader.count) }
            let at = reader.position
            switch c {
            case 0x5B: // [
                reader.position += 1
                let nested = JavaClassNode.set(try javaClass(openedAt: at, consume: true))
                curr = nested
                prev = union(prev, nested)
                ch = reader.peekSignificant()
                continue
            case 0x26: // &
                reader.position += 1
                guard reader.peekSignificant() == 0x26 else {
                    // A literal &: the JDK steps back one character, which
                    // is the & unless free spacing skipped a space after it
                    // (then the & is lost, as there).
                    reader.position -= 1
                    break
                }
                operators += 1
                if operators > Self.maximumOperators {
                    throw .refused(dialect, "a class with more than \(Self.maximumOperators) set operators", because: "the translation's limit", at: at)
                }
                reader.position += 1
                ch = reader.peekSignificant()
                var right: JavaClassNode?
                while let r = ch, r != 0x5D, r != 0x26 {
                    if r == 0x5B {
                        let start = reader.position
                        reader.position += 1
                        let nested = JavaClassNode.set(try javaClass(openedAt: start, consume: true))
                        right = union(right, nested)
                    } else { // abc&&def: the characters, read as a class of their own up to `]` or `&&`
                        right = union(right, .set(try javaClass(openedAt: reader.position, consume: false)))
                    }
                    ch = reader.peekSignificant()
                }
                if ch == nil { throw .syntax("missing terminating ] for character class", at: reader.count) }
                if hasBits {
                    // The bits read so far: union binds tighter.
                    if prev == nil { curr = .bits }
                    prev = union(prev, .bits)
                    hasBits = false
                }
                if let right { curr = right }
                if let left = prev {
                    // The JDK intersects with the last element read; with
                    // none (`[[b]a&&]`), JDK 17 with null (later JDKs:
                    // "Bad intersection syntax").
                    if let curr {
                        prev = .and(left, curr)
                    } else {
                        // Each one adds its left side, as a set of its
                        // own, to the class's `throwing`.
                        nullIntersections += 1
                        if nullIntersections > Self.maximumNullIntersections {
                            throw .unjudged(dialect, "class with more than \(Self.maximumNullIntersections) && that intersect with null",
                                            because: "JDK 17 compiles it; the translation finds where its search throws for at most \(Self.maximumNullIntersections)", at: at)
                        }
                        prev = .andNull(left)
                    }
                } else {
                    guard let right else { throw .invalid(dialect, "bad class syntax (&& with nothing on either side)", at: at) }
                    prev = right
                }
                continue
            case 0x5D where prev != nil || hasBits: // ]
                if consume { reader.position += 1 }
                var node = prev ?? .bits
                if prev != nil && hasBits { node = .union(node, .bits) }
                let bitSet: CharSet = bits.isEmpty ? .items([]) : .union(of: bits)
                var body = node.resolved(bits: bitSet)
                if negated { body.set = .complement(body.set) }
                return body
            default:
                break
            }
            switch try javaClassRange() {
            case .predicate(let set):
                let node = JavaClassNode.set(JavaClass(set: set))
                curr = node
                prev = union(prev, node)
            case .bits(let added):
                bits += added
                hasBits = true
                curr = nil
            }
            ch = reader.peekSignificant()
        }
    }

    /// `Pattern.range`: one class element at the reader's position, a
    /// range when `-` and a character other than `[` or `]` follow it.
    private mutating func javaClassRange() throws(TranslationError) -> JavaClassElement {
        _ = reader.peekSignificant()
        let at = reader.position
        let low: UInt32
        switch try classElement(at: at) {
        case .set(let set): return .predicate(set)
        case .characters(let values):
            // `\Q...\E`: each a class character (the JDK escapes them before
            // it reads the class).
            return .bits(values.map { Self.javaClassCharacter($0, caseless: javaCaseless) })
        case .character(let value): low = value
        }
        if reader.peekSignificant() == 0x2D, let end = reader.peek(1), end != 0x5B, end != 0x5D { // -
            let dash = reader.position
            reader.position += 1
            guard reader.peekSignificant() != nil else { throw .syntax("missing terminating ] for character class", at: reader.count) }
            guard case .character(let high) = try classElement(at: reader.position) else {
                throw .invalid(dialect, "a range must end in a single character", at: dash)
            }
            guard low <= high else { throw .invalid(dialect, "illegal character range (out of order)", at: dash) }
            return .predicate(javaCaseless ? Self.set(of: JavaCaseFolding.range(low, high)) : .range(low, high))
        }
        if javaCaseless, !JavaCaseFolding.isBitClassCharacter(low) {
            return .predicate(Self.javaClassCharacter(low, caseless: true))
        }
        return low < 0x100 ? .bits([Self.javaClassCharacter(low, caseless: javaCaseless)]) : .predicate(.scalar(low))
    }

    /// What one class character matches.
    static func javaClassCharacter(_ value: UInt32, caseless: Bool) -> CharSet {
        caseless ? set(of: JavaCaseFolding.inClass(value)) : .scalar(value)
    }
}
