/// An ICU class's set, built as ICU's regex compiler builds it from what
/// `PatternReader.icuClass` reads: a stack of sets and a stack of pending
/// operators (`setEval`, `setPushOp`, regexcmp.cpp).
///
/// Under `(?i)` each class, nested or not, is closed over case when it
/// ends, after its operators ran on what it holds. PCRE2 folds each
/// character before, so an operator on directly written characters with
/// other cases is refused.
struct ICUSetBuilder: ICUClassSink {
    /// A set on ICU's set stack: what was added to it, and which code
    /// points were written directly and not yet closed over case.
    private struct Operand {
        var members: [CharSet] = []
        var bare: [ClosedRange<UInt32>] = []

        var set: CharSet { members.count == 1 ? members[0] : .union(members) }

        mutating func add(_ low: UInt32, _ high: UInt32) {
            members.append(low == high ? .scalar(low) : .range(low, high))
            bare.append(low...high)
        }

        /// Adds `low` to `high`, in place of `low` alone when that was the
        /// last thing added (`[a-z]` is one range, not `a` and a range).
        mutating func addRange(_ low: UInt32, _ high: UInt32) {
            if members.last == .scalar(low) && bare.last == low...low {
                members.removeLast()
                bare.removeLast()
            }
            add(low, high)
        }
    }

    let caseless: Bool
    let openedAt: Int
    private var sets: [Operand] = []
    private var operators: [ICUSetOperator] = []

    init(caseless: Bool, openedAt: Int) {
        self.caseless = caseless
        self.openedAt = openedAt
    }

    /// The class, once it has ended.
    var set: CharSet { sets[0].set }

    /// `setEval`: runs the pending operators that bind at least as tightly
    /// as `next`.
    private mutating func evaluate(_ next: ICUSetOperator) throws(TranslationError) {
        while let top = operators.last, top.precedence >= next.precedence {
            operators.removeLast()
            switch top {
            case .negation:
                sets[sets.count - 1] = Operand(members: [.complement(sets[sets.count - 1].set)])
            case .union:
                let right = sets.removeLast()
                sets[sets.count - 1].members.append(right.set)
                sets[sets.count - 1].bare += right.bare
            case .difference, .legacyDifference, .intersection, .legacyIntersection:
                let right = sets.removeLast()
                let left = sets.removeLast()
                if caseless && (left.bare.contains(where: Self.caseSensitive) || right.bare.contains(where: Self.caseSensitive)) {
                    throw .refused(.icu, "set operation on cased characters under (?i)",
                                   because: "ICU applies case-insensitivity after the operation, PCRE2 to each character before", at: openedAt)
                }
                let difference = top == .difference || top == .legacyDifference
                sets.append(Operand(members: [difference ? .difference(left.set, right.set) : .intersection(left.set, right.set)]))
            case .start, .end:
                return
            }
        }
    }

    private static func caseSensitive(_ range: ClosedRange<UInt32>) -> Bool {
        if range.count > 0x3000 { return true }
        return range.contains { value in
            guard let scalar = Unicode.Scalar(value) else { return false }
            return scalar.properties.isCased || scalar.properties.changesWhenCaseMapped
        }
    }

    /// `setPushOp`.
    private mutating func push(_ op: ICUSetOperator) throws(TranslationError) {
        try evaluate(op)
        operators.append(op)
        sets.append(Operand())
    }

    func escaped(_ value: UInt32, at source: Int) throws(TranslationError) {
        try PatternTranslator.checkScalar(value, .icu, at: source)
    }

    mutating func begin(_ join: ICUSetOperator?, at source: Int) throws(TranslationError) {
        if let join { try push(join) } else { sets.append(Operand()) }
        operators.append(.start)
    }

    mutating func negate() { operators.append(.negation) }

    mutating func literal(_ value: UInt32, _ spelling: PatternSyntax.Spelling) throws(TranslationError) {
        try evaluate(.union)
        sets[sets.count - 1].add(value, value)
        addLaterPartners(value, value)
    }

    mutating func add(_ value: UInt32) { sets[sets.count - 1].add(value, value) }

    mutating func range(from low: UInt32, to high: UInt32, _ spelling: PatternSyntax.Spelling) {
        sets[sets.count - 1].addRange(low, high)
        addLaterPartners(low, high)
    }

    /// Under `(?i)`, the partners ICU 76 closes `low` to `high` over and
    /// PCRE2 does not (`CaseFolding.laterPartners`): `(?i)[xﬆ]` finds "ﬅ".
    private mutating func addLaterPartners(_ low: UInt32, _ high: UInt32) {
        guard caseless, high >= 0x80 else { return } // none in ASCII
        for (value, partner) in CaseFolding.laterPartners where low <= value && value <= high && !(low...high).contains(partner) {
            sets[sets.count - 1].add(partner, partner)
        }
    }

    mutating func shorthand(_ letter: UInt32) {
        sets[sets.count - 1].members.append(StandardClasses.set(for: letter, dialect: .icu))
    }

    mutating func property(_ name: String, negated: Bool, written: String?, at source: Int) throws(TranslationError) {
        sets[sets.count - 1].members.append(try PatternTranslator.property(name, negated: negated, inClass: true, dialect: .icu, caseless: caseless,
                                                                           written: written, at: source))
    }

    mutating func operation(_ op: ICUSetOperator, at source: Int) throws(TranslationError) { try push(op) }

    mutating func end() throws(TranslationError) {
        try evaluate(.end)
        operators.removeLast() // the class's .start
        sets[sets.count - 1].bare = []
    }
}
