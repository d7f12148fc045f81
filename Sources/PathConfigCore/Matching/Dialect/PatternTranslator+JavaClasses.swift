/// A Java class as the JDK builds it: the characters it matches, those on
/// which its search throws instead (nil: none), and whether its predicate
/// is one the JDK does not keep as BMP-only (`wide`).
struct JavaClass {
    var set: CharSet
    var throwing: CharSet?
    /// Whether the JDK builds a predicate that is not a `BmpCharPredicate`
    /// (a union or intersection is one only where both sides are), so that
    /// compiling the class sets `hasSupplementary` (`JavaSearchStart`).
    var wide = false
}

/// A Java class's set, built as OpenJDK 17's `Pattern.clazz` builds it from
/// what `PatternReader.javaClass` reads:
///
/// - Characters below U+0100 (but, case-insensitively, `I i S s K k Å å ÿ
///   µ`) go into one bit set per class level, which every reference to it
///   sees complete, whatever was added after the reference: in `[a&&&]`
///   the third `&` is a literal added to the set after `a&&` took it, so the
///   class is `a` and `&`.
/// - An `&&` with nothing after it, after a character of the bit set, is
///   intersected with null: `[[b]a&&]` compiles, and its search throws a
///   NullPointerException wherever the left side holds and the search asks
///   (`JavaClass.throwing`).
struct JavaClassBuilder: JavaClassSink {
    /// A class as `clazz` builds it, with the level's bit set as a
    /// reference (`bits`), resolved when the level ends.
    indirect enum Node {
        case set(JavaClass)
        case bits
        case union(Node, Node)
        case and(Node, Node)
        /// JDK 17's `prev.and(null)`: matches nothing, and throws wherever
        /// its left side holds.
        case andNull(Node)

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
                var operands: [Node] = []
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
                return JavaClass(set: .union(of: resolved.map(\.set)), throwing: throwing.isEmpty ? nil : .union(of: throwing),
                                 wide: resolved.contains(where: \.wide))
            case .and(let a, let b):
                let (left, right) = (a.resolved(bits: bits), b.resolved(bits: bits))
                let throwing = [left.throwing, right.throwing.map { .intersection(left.set, $0) }].compactMap { $0 }
                return JavaClass(set: .intersection(left.set, right.set), throwing: throwing.isEmpty ? nil : .union(of: throwing),
                                 wide: left.wide || right.wide)
            case .andNull(let a):
                // `and(null)` is no `BmpCharPredicate`.
                let left = a.resolved(bits: bits)
                return JavaClass(set: .items([]), throwing: .union(of: [left.throwing, left.set].compactMap { $0 }), wide: true)
            }
        }
    }

    /// How many `&&` with nothing after it one class may intersect with
    /// null (JDK 17): each adds a set to what the class throws on.
    static let maximumNullIntersections = 8

    /// Case-insensitive (`(?i)`): characters and ranges match what
    /// `JavaCaseFolding` says, written out.
    let caseless: Bool
    /// Each open level's bit set.
    private var levels: [[CharSet]] = []
    private var nullIntersections = 0

    init(caseless: Bool) { self.caseless = caseless }

    func escaped(_ value: UInt32, at source: Int) throws(TranslationError) {
        try PatternTranslator.checkScalar(value, .java, at: source)
    }

    mutating func beginLevel(nested: Bool) { levels.append([]) }

    mutating func character(_ value: UInt32, _ spelling: PatternSyntax.Spelling) -> Node? {
        // `bitsOrSingle`: the bit set, or `single`.
        let wide = PatternTranslator.isWideJavaSingle(value, caseless: caseless)
        if caseless, !JavaCaseFolding.isBitClassCharacter(value) {
            return .set(JavaClass(set: Self.character(value, caseless: true), wide: wide))
        }
        guard value < 0x100 else { return .set(JavaClass(set: .scalar(value), wide: wide)) }
        levels[levels.count - 1].append(Self.character(value, caseless: caseless))
        return nil
    }

    func range(_ low: UInt32, _ lowSpelling: PatternSyntax.Spelling, _ high: UInt32, _ highSpelling: PatternSyntax.Spelling) -> Node {
        // `CIRangeU` is wide; `Range` unless below the surrogates, or between them and U+10000.
        guard caseless else { return .set(JavaClass(set: .range(low, high), wide: high >= 0xD800 && (low <= 0xDFFF || high > 0xFFFF))) }
        return .set(JavaClass(set: PatternTranslator.set(of: JavaCaseFolding.range(low, high)), wide: true))
    }

    func shorthand(_ letter: UInt32) -> Node {
        .set(JavaClass(set: StandardClasses.set(for: letter, dialect: .java), wide: PatternTranslator.isWideJavaShorthand(letter)))
    }

    func property(_ name: String, negated: Bool, at source: Int) throws(TranslationError) -> Node {
        let set = try PatternTranslator.property(name, negated: negated, inClass: true, dialect: .java, caseless: caseless, at: source)
        return .set(JavaClass(set: set, wide: PatternTranslator.isWideJavaProperty(set)))
    }

    func bits() -> Node { .bits }

    func union(_ a: Node, _ b: Node) -> Node { .union(a, b) }

    mutating func intersectionRead() {}

    mutating func intersection(_ left: Node, _ right: Node?, at source: Int) throws(TranslationError) -> Node {
        if let right { return .and(left, right) }
        // Each one adds its left side, as a set of its own, to the class's
        // `throwing`.
        nullIntersections += 1
        if nullIntersections > Self.maximumNullIntersections {
            throw .unjudged(.java, "class with more than \(Self.maximumNullIntersections) && that intersect with null",
                            because: "JDK 17 compiles it; the translation finds where its search throws for at most \(Self.maximumNullIntersections)",
                            at: source)
        }
        return .andNull(left)
    }

    mutating func endLevel(_ node: Node, negated: Bool) -> Node {
        let bits = levels.removeLast()
        var body = node.resolved(bits: bits.isEmpty ? .items([]) : .union(of: bits))
        if negated {
            // `negate()` is no `BmpCharPredicate`.
            body.set = .complement(body.set)
            body.wide = true
        }
        return .set(body)
    }

    /// What one class character matches.
    static func character(_ value: UInt32, caseless: Bool) -> CharSet {
        caseless ? PatternTranslator.set(of: JavaCaseFolding.inClass(value)) : .scalar(value)
    }
}
