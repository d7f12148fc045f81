/// A class's items as its dialect's reader reads them (`PatternReader`'s
/// `icuClass` and `javaClass`), for the syntax tree: what each element is
/// and how it was written, in the order written, and no set built.
struct ClassItemRecorder: ICUClassSink, JavaClassSink {
    typealias Node = Void

    /// The tree's classes, this one and those nested in it appended.
    private(set) var classes: [PatternSyntax.CharacterClass]
    /// The innermost class open, whose items come next (-1: none).
    private var current = -1
    /// The classes open around it, innermost last (a run of characters
    /// after Java's `&&` is its class's, so that class's index again): one
    /// array for nested classes only, not one for every class.
    private var outer: [Int] = []

    init(classes: [PatternSyntax.CharacterClass]) { self.classes = classes }

    private mutating func append(_ item: PatternSyntax.ClassItem) { classes[current].items.append(item) }

    /// A class of its own opens, as an item of the one around it.
    private mutating func openClass() {
        let index = classes.count
        if current >= 0 {
            append(.nested(Int32(index)))
            outer.append(current)
        }
        classes.append(PatternSyntax.CharacterClass())
        current = index
    }

    /// The tree takes any code point (port names a surrogate).
    func escaped(_ value: UInt32, at source: Int) {}

    // MARK: ICU

    mutating func begin(_ join: ICUSetOperator?, at source: Int) {
        switch join {
        case .legacyDifference?: append(.difference)
        case .legacyIntersection?: append(.intersection)
        default: break
        }
        openClass()
    }

    mutating func negate() { classes[current].negated = true }

    /// ICU's `[:name:]` too is read as the property it names, as `\p{..}` is.
    mutating func property(_ name: String, negated: Bool, written: String?, at source: Int) { property(name, negated: negated, at: source) }

    mutating func literal(_ value: UInt32, _ spelling: PatternSyntax.Spelling) { append(.character(value, spelling)) }

    mutating func add(_ value: UInt32) { append(.character(value, .plain)) }

    /// A range from the character just added takes its place; from an
    /// earlier one (ICU's `[a&-z]`), it is an item of its own.
    mutating func range(from low: UInt32, to high: UInt32, _ spelling: PatternSyntax.Spelling) {
        if case .character(low, let lowSpelling)? = classes[current].items.last {
            classes[current].items[classes[current].items.count - 1] = .range(low, lowSpelling, high, spelling)
        } else {
            append(.range(low, .plain, high, spelling))
        }
    }

    mutating func shorthand(_ letter: UInt32) { append(.escape(.shorthand(UInt8(letter)))) }

    mutating func property(_ name: String, negated: Bool, at source: Int) { append(.escape(.other(negated ? 0x50 : 0x70))) }

    mutating func operation(_ op: ICUSetOperator, at source: Int) { append(op == .difference ? .difference : .intersection) }

    /// The class around the innermost one is next.
    mutating func end() { current = outer.popLast() ?? -1 }

    // MARK: Java

    mutating func beginLevel(nested: Bool) {
        if nested { openClass() } else { outer.append(current) }
    }

    mutating func character(_ value: UInt32, _ spelling: PatternSyntax.Spelling) -> Void? {
        literal(value, spelling)
        return ()
    }

    mutating func range(_ low: UInt32, _ lowSpelling: PatternSyntax.Spelling, _ high: UInt32, _ highSpelling: PatternSyntax.Spelling) {
        append(.range(low, lowSpelling, high, highSpelling))
    }

    func bits() {}

    func union(_ a: Void, _ b: Void) {}

    mutating func intersectionRead() { append(.intersection) }

    func intersection(_ left: Void, _ right: Void?, at source: Int) {}

    mutating func endLevel(_ node: Void, negated: Bool) {
        if negated { classes[current].negated = true }
        end()
    }
}
