/// ICU classes, read as ICU's regex compiler reads them, state for state:
/// the set states of its parse table (regexcst.txt) and their actions, with
/// a stack of sets and a stack of pending operators (`setEval`,
/// `setPushOp`, regexcmp.cpp). Its grammar has quirks that no summary
/// states, and a pattern ICU compiles must mean here what it means there:
///
/// - `&&` and `--` take as right operand what follows up to the next of
///   them; they bind looser than union, and run left to right.
/// - A single `-` or `&` between two nested sets (`[[a-z]-[k]]`,
///   `[\p{L}&[a]]`) is the old UnicodeSet difference or intersection, with
///   union's precedence; anywhere else a single `-` or `&` is a character.
/// - A range starts at the last character a class added as itself, kept
///   from one class to the next: `-` and `&` added as characters, and range
///   ends, never set it. So `[a&-z]` is `a` to `z` and `&` (no `-`), and
///   `[&-z]` is an error unless an earlier class set it.
/// - After `[a-`, an escape ICU's scanner leaves to the parser ends the
///   range at its letter: `[a-\p{Lu}]` is `a` to `p` and `{`, `L`, `u`,
///   `}`; `\d`, `\s` and `\w` there are errors.
/// - `-`, `&`, a property or `\d` added where a single-operator right
///   operand is pending joins that operand.
/// - Under `(?i)` each class, nested or not, is closed over case when it
///   ends, after its operators ran on what it holds. PCRE2 folds each
///   character before, so an operator on directly written characters with
///   other cases is refused.
extension PatternTranslator {
    /// An operator on ICU's operator stack (`setStart`...`setIntersection1`,
    /// regexcmp.h).
    private enum ICUSetOperator: Equatable {
        case start, end, negation, caseClose
        /// `--` and `&&`.
        case difference, intersection
        /// Union of adjacent items, and the single `-` and `&` between sets.
        case union, legacyDifference, legacyIntersection

        var precedence: Int {
            switch self {
            case .start: return 0
            case .end: return 1
            case .negation, .caseClose: return 2
            case .difference, .intersection: return 3
            case .union, .legacyDifference, .legacyIntersection: return 4
            }
        }
    }

    /// A set on ICU's set stack: what was added to it, and which code
    /// points were written directly and not yet closed over case.
    private struct ICUSetOperand {
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

    /// The parse states of a class (regexcst.txt, `set-open` to
    /// `set-escape`).
    private enum ICUSetState {
        case open, open2, posix, start, startDash, startAmp
        case afterLiteral, afterSet, afterRange, afterOperator
        case setAmp, literalAmp, setDash, rangeDash, rangeAmp, literalDash, literalDashEscape, escape
    }

    /// One character as ICU's scanner (`nextChar`) hands it to the parser:
    /// `quoted` when it came from `\Q...\E` or an escape the scanner itself
    /// reads (`\x41`), which no row for a specific character matches; nil
    /// at the end.
    private struct ICUSetCharacter {
        let value: UInt32?
        let quoted: Bool
        let at: Int

        /// Whether it is `c`, unquoted.
        func `is`(_ c: UInt32) -> Bool { !quoted && value == c }
    }

    /// The scanner's state between characters.
    private struct ICUSetScanner {
        /// Inside `\Q...\E`.
        var quoting = false
        /// Just after a `\` the scanner left to the parser: the next
        /// character is taken as it is.
        var afterBackslash = false
    }

    /// The class whose `[` was just taken, at `openedAt`.
    mutating func icuClass(openedAt: Int) throws(TranslationError) -> CharSet {
        var scan = ICUSetScanner()
        var sets: [ICUSetOperand] = []
        var operators: [ICUSetOperator] = []
        var returns: [ICUSetState] = []
        var operatorCount = 0
        let caseless = flags.caseless
        let dialect = self.dialect

        func caseSensitive(_ range: ClosedRange<UInt32>) -> Bool {
            if range.count > 0x3000 { return true }
            return range.contains { value in
                guard let scalar = Unicode.Scalar(value) else { return false }
                return scalar.properties.isCased || scalar.properties.changesWhenCaseMapped
            }
        }
        /// `setEval`: runs the pending operators that bind at least as
        /// tightly as `next`.
        func evaluate(_ next: ICUSetOperator, at source: Int) throws(TranslationError) {
            while let top = operators.last, top.precedence >= next.precedence {
                operators.removeLast()
                switch top {
                case .negation:
                    sets[sets.count - 1] = ICUSetOperand(members: [.complement(sets[sets.count - 1].set)])
                case .caseClose:
                    sets[sets.count - 1].bare = []
                case .union:
                    let right = sets.removeLast()
                    sets[sets.count - 1].members.append(right.set)
                    sets[sets.count - 1].bare += right.bare
                case .difference, .legacyDifference, .intersection, .legacyIntersection:
                    let right = sets.removeLast()
                    let left = sets.removeLast()
                    if caseless && (left.bare.contains(where: caseSensitive) || right.bare.contains(where: caseSensitive)) {
                        throw .refused(dialect, "set operation on cased characters under (?i)",
                                       because: "ICU applies case-insensitivity after the operation, PCRE2 to each character before", at: openedAt)
                    }
                    let difference = top == .difference || top == .legacyDifference
                    sets.append(ICUSetOperand(members: [difference ? .difference(left.set, right.set) : .intersection(left.set, right.set)]))
                case .start, .end:
                    return
                }
            }
        }
        /// `setPushOp`.
        func push(_ op: ICUSetOperator, at source: Int) throws(TranslationError) {
            if op != .union { operatorCount += 1 }
            if operatorCount > Self.maximumOperators {
                throw .refused(dialect, "a class with more than \(Self.maximumOperators) set operators", because: "the translation's limit", at: source)
            }
            try evaluate(op, at: source)
            operators.append(op)
            sets.append(ICUSetOperand())
        }
        /// `doSetBegin` and the `doSetBegin...1` actions: a class opens,
        /// nested when `op` says how it joins the one around it.
        func begin(_ op: ICUSetOperator?, at source: Int) throws(TranslationError) {
            if let op { try push(op, at: source) } else { sets.append(ICUSetOperand()) }
            operators.append(.start)
            if operators.count(where: { $0 == .start }) > Self.maximumClassDepth {
                throw .refused(dialect, "a class nested more than \(Self.maximumClassDepth) deep", because: "the translation's limit", at: source)
            }
            if caseless { operators.append(.caseClose) }
        }

        var state = ICUSetState.open
        try begin(nil, at: openedAt)
        var c = try icuNextCharacter(&scan)
        while true {
            if c.value == nil { throw .syntax("missing terminating ] for character class", at: reader.count) }
            let at = c.at
            /// `doSetLiteral`: the character joins the class, after any
            /// pending union or single-character operator.
            func literal(_ value: UInt32) throws(TranslationError) {
                try evaluate(.union, at: at)
                sets[sets.count - 1].add(value, value)
                icuLastSetLiteral = value
            }
            /// `doSetRange`: from the last character added to `high`.
            func range(to high: UInt32) throws(TranslationError) {
                guard let low = icuLastSetLiteral, low <= high else {
                    throw .invalid(dialect, "range out of order in character class", at: at)
                }
                sets[sets.count - 1].addRange(low, high)
            }
            /// `doSetAddDash`, `doSetAddAmp`: the character joins the set on
            /// top, with nothing evaluated and nothing remembered.
            func add(_ value: UInt32) { sets[sets.count - 1].add(value, value) }

            switch state {
            case .open:
                if c.is(0x5E) { // ^
                    if operators.last == .caseClose {
                        operators.removeLast()
                        operators += [.negation, .caseClose]
                    } else {
                        operators.append(.negation)
                    }
                    c = try icuNextCharacter(&scan)
                    state = .open2
                } else if c.is(0x3A) { // :
                    if let (set, next) = try icuPosixProperty(&scan, openedAt: at) {
                        sets[sets.count - 1].members.append(set)
                        c = next
                    }
                    state = .posix
                } else {
                    state = .open2
                }
                continue
            case .open2:
                if c.is(0x5D) {
                    try literal(0x5D)
                    c = try icuNextCharacter(&scan)
                    state = .afterLiteral
                } else {
                    state = .start
                }
                continue
            case .posix:
                if c.is(0x3A) {
                    state = .start
                    continue
                }
                guard c.is(0x5D) else { throw .invalid(dialect, "bad [:property:]", at: at) }
            case .startDash, .startAmp:
                let operatorCharacter: UInt32 = state == .startDash ? 0x2D : 0x26
                if c.is(operatorCharacter) { throw .invalid(dialect, "a class cannot start with -- or &&", at: at) }
                add(operatorCharacter)
                state = .afterLiteral
                continue
            case .setAmp, .literalAmp, .rangeAmp, .setDash, .rangeDash:
                // After one `&` or `-`: a second makes `&&` or `--`; after a
                // set, a `[` makes the old single-character operator;
                // anything else leaves the `&` or `-` a character.
                let amp = state == .setAmp || state == .literalAmp || state == .rangeAmp
                let operatorCharacter: UInt32 = amp ? 0x26 : 0x2D
                if c.is(operatorCharacter) {
                    try push(amp ? .intersection : .difference, at: at)
                    state = .afterOperator
                } else if (state == .setAmp || state == .setDash) && c.is(0x5B) {
                    try begin(amp ? .legacyIntersection : .legacyDifference, at: at)
                    returns.append(.afterSet)
                    state = .open
                } else {
                    add(operatorCharacter)
                    state = .afterLiteral
                    continue
                }
                c = try icuNextCharacter(&scan)
                continue
            case .literalDash:
                if c.is(0x2D) {
                    try push(.difference, at: at)
                    state = .afterOperator
                } else if c.is(0x5B) || c.is(0x5D) {
                    add(0x2D)
                    state = .afterLiteral
                    continue
                } else if c.is(0x5C) {
                    state = .literalDashEscape
                } else {
                    try range(to: c.value!)
                    state = .afterRange
                }
                c = try icuNextCharacter(&scan)
                continue
            case .literalDashEscape:
                let letter = c.value!
                if [0x73, 0x53, 0x77, 0x57, 0x64, 0x44].contains(letter) { // s S w W d D
                    throw .invalid(dialect, "a range cannot end in \\\(Unicode.Scalar(letter)!)", at: at)
                }
                if letter == 0x4E { // \N{NAME}
                    let high = try reader.namedCharacter(at: at - 1)
                    guard let low = icuLastSetLiteral, low <= high else {
                        throw .invalid(dialect, "range out of order in character class", at: at)
                    }
                    sets[sets.count - 1].addRange(low, high)
                    icuLastSetLiteral = high
                } else {
                    try range(to: letter)
                }
                c = try icuNextCharacter(&scan)
                state = .afterRange
                continue
            case .escape:
                let letter = c.value!
                switch letter {
                case 0x70, 0x50: // \p \P
                    sets[sets.count - 1].members.append(try property(reader.propertyName(at: at - 1), negated: letter == 0x50, inClass: true, at: at - 1))
                    state = .afterSet
                case 0x4E: // \N{NAME}
                    try literal(try reader.namedCharacter(at: at - 1))
                    state = .afterLiteral
                case _ where StandardClasses.shorthandLetters.contains(letter):
                    sets[sets.count - 1].members.append(StandardClasses.set(for: letter, dialect: dialect))
                    state = .afterRange
                default:
                    try literal(letter)
                    state = .afterLiteral
                }
                c = try icuNextCharacter(&scan)
                continue
            case .start, .afterLiteral, .afterSet, .afterRange, .afterOperator:
                let afterOperator = state == .afterOperator
                if c.is(0x5D) {
                    if afterOperator { throw .invalid(dialect, "set operator with nothing after it", at: at) }
                    break
                }
                if c.is(0x5B) {
                    try begin(.union, at: at)
                    returns.append(.afterSet)
                    state = .open
                } else if c.is(0x5C) {
                    state = .escape
                } else if c.is(0x2D) && !afterOperator {
                    state = state == .start ? .startDash : state == .afterLiteral ? .literalDash : state == .afterSet ? .setDash : .rangeDash
                } else if c.is(0x26) && !afterOperator {
                    state = state == .start ? .startAmp : state == .afterLiteral ? .literalAmp : state == .afterSet ? .setAmp : .rangeAmp
                } else {
                    try literal(c.value!)
                    state = .afterLiteral
                }
                c = try icuNextCharacter(&scan)
                continue
            }
            // `doSetEnd`: the `]` in `c` closes the innermost class.
            try evaluate(.end, at: at)
            operators.removeLast() // its .start
            sets[sets.count - 1].bare = []
            guard let next = returns.popLast() else { return sets[0].set }
            state = next
            c = try icuNextCharacter(&scan)
        }
    }

    /// ICU's scanner inside a class (`nextChar`): free-spacing white space
    /// and comments skipped, `\Q...\E` quoted, and the escapes it reads
    /// itself (`\a \c \e \f \n \r \t \u \U \x` and `\0`) as one quoted
    /// character; any other `\` is handed on, and the character after it
    /// taken as it is.
    private mutating func icuNextCharacter(_ scan: inout ICUSetScanner) throws(TranslationError) -> ICUSetCharacter {
        while true {
            if scan.quoting {
                let at = reader.position
                guard let c = reader.next() else {
                    scan.quoting = false
                    continue
                }
                if c == 0x5C && reader.peek() == 0x45 {
                    reader.position += 1
                    scan.quoting = false
                    continue
                }
                return ICUSetCharacter(value: c, quoted: true, at: at)
            }
            if scan.afterBackslash {
                scan.afterBackslash = false
                let at = reader.position
                return ICUSetCharacter(value: reader.next(), quoted: false, at: at)
            }
            reader.skipInsignificant()
            let at = reader.position
            guard let c = reader.next() else { return ICUSetCharacter(value: nil, quoted: false, at: at) }
            guard c == 0x5C else { return ICUSetCharacter(value: c, quoted: false, at: at) }
            switch reader.peek() {
            case 0x61, 0x63, 0x65, 0x66, 0x6E, 0x72, 0x74, 0x75, 0x55, 0x78, 0x30:
                guard case .character(let value) = try classEscape(at: at) else {
                    throw .invalid(dialect, "bad escape", at: at)
                }
                return ICUSetCharacter(value: value, quoted: true, at: at)
            case 0x51: // \Q
                reader.position += 1
                scan.quoting = true
            default:
                scan.afterBackslash = true
                return ICUSetCharacter(value: 0x5C, quoted: false, at: at)
            }
        }
    }

    /// ICU's `[:name:]` and `[:^name:]` (`scanPosixProp`), the `:` just
    /// read: the name runs to the first `:`, whatever it holds, and is a
    /// property only when `]` follows that `:`; otherwise (an escape the
    /// scanner read, or the end, first) nothing is taken and the class is
    /// an ordinary one. On success, the set and the `]` after the `:` (a
    /// quoted one too, which then closes nothing).
    private mutating func icuPosixProperty(_ scan: inout ICUSetScanner, openedAt: Int)
        throws(TranslationError) -> (CharSet, ICUSetCharacter)? {
        let saved = (reader.position, scan)
        var c = try icuNextCharacter(&scan)
        var negated = false
        if c.value == 0x5E {
            negated = true
            c = try icuNextCharacter(&scan)
        }
        var name = ""
        var terminated = false
        while true {
            if let value = c.value, let scalar = Unicode.Scalar(value) { name.unicodeScalars.append(scalar) }
            c = try icuNextCharacter(&scan)
            if c.quoted || c.value == nil { break }
            if c.value == 0x3A {
                c = try icuNextCharacter(&scan)
                terminated = c.value == 0x5D
                break
            }
        }
        guard terminated else {
            (reader.position, scan) = saved
            return nil
        }
        let written = "[:" + (negated ? "^" : "") + name + ":]"
        switch PropertyNames.icu(name) {
        case .set(let set, let caseClosed):
            if flags.caseless && !caseClosed {
                throw .refused(dialect, written + " under (?i)", because: "ICU adds the other cases of its members, PCRE2 never case-folds a property", at: openedAt)
            }
            return (negated ? .complement(set) : set, c)
        case .block(let range):
            if flags.caseless { throw Self.blockInCaselessClass(dialect, written, at: openedAt) }
            let set = CharSet.range(range.lowerBound, range.upperBound)
            return (negated ? .complement(set) : set, c)
        case .refused(let why):
            throw .refused(dialect, written, because: why, at: openedAt)
        case .unknown:
            throw .unknownName(dialect, written, because: "not in the dialect table, whose properties and blocks are Unicode \(UnicodeBlocks.unicodeVersion)'s", at: openedAt)
        }
    }
}
