/// ICU classes, read as ICU's regex compiler reads them, state for state:
/// the set states of its parse table (regexcst.txt) and the actions they
/// take (regexcmp.cpp), each handed to an `ICUClassSink` in the order ICU
/// takes it. The translation evaluates them into a set, as ICU's stack of
/// sets and of pending operators does (`ICUSetBuilder`); the syntax tree
/// records them as items. ICU's grammar has quirks that no summary states:
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
protocol ICUClassSink: ClassSink {
    /// `doSetBegin`: a class opens; `join` is how a nested one joins the
    /// class around it (nil: the outermost).
    mutating func begin(_ join: ICUSetOperator?, at source: Int) throws(TranslationError)
    /// `doSetNegate`: a `^` first.
    mutating func negate()
    /// `doSetLiteral`: a character the class adds as itself.
    mutating func literal(_ value: UInt32, _ spelling: PatternSyntax.Spelling) throws(TranslationError)
    /// `doSetAddDash`, `doSetAddAmp`: a `-` or `&` the class adds, with
    /// nothing evaluated.
    mutating func add(_ value: UInt32)
    /// `doSetRange`: from `low`, the last character added as itself, to
    /// `high`, written with `spelling`.
    mutating func range(from low: UInt32, to high: UInt32, _ spelling: PatternSyntax.Spelling)
    /// `\d \D \s \S \w \W \h \H \v \V` (the letter).
    mutating func shorthand(_ letter: UInt32)
    /// `\p{NAME}` or `\P{NAME}`, whose `\` is at `source`; or, `written`,
    /// `[:name:]` or `[:^name:]` at a class's start, whose `:` is at `source`.
    mutating func property(_ name: String, negated: Bool, written: String?, at source: Int) throws(TranslationError)
    /// `&&` or `--`.
    mutating func operation(_ op: ICUSetOperator, at source: Int) throws(TranslationError)
    /// `doSetEnd`: the innermost class closes.
    mutating func end() throws(TranslationError)
}

/// An operator on ICU's operator stack (`setStart`...`setIntersection1`,
/// regexcmp.h): those the grammar writes, and those that mark where a class
/// starts and ends or negate it. ICU's `setCaseClose` has none: where it
/// closes a class over case, the class has ended (`ICUSetBuilder.end`).
enum ICUSetOperator: Equatable {
    case start, end, negation
    /// `--` and `&&`.
    case difference, intersection
    /// Union of adjacent items, and the single `-` and `&` between sets.
    case union, legacyDifference, legacyIntersection

    var precedence: Int {
        switch self {
        case .start: return 0
        case .end: return 1
        case .negation: return 2
        case .difference, .intersection: return 3
        case .union, .legacyDifference, .legacyIntersection: return 4
        }
    }
}

extension PatternReader {
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
    struct ICUScannedCharacter {
        let value: UInt32?
        let quoted: Bool
        let spelling: PatternSyntax.Spelling
        let at: Int

        /// Whether it is `c`, unquoted.
        func `is`(_ c: UInt32) -> Bool { !quoted && value == c }
    }

    /// The scanner's state between characters.
    struct ICUScanner {
        /// Inside `\Q...\E`.
        var quoting = false
        /// Just after a `\` the scanner left to the parser: the next
        /// character is taken as it is.
        var afterBackslash = false
    }

    /// Reads the class whose `[` was just taken, at `openedAt`, into `sink`.
    mutating func icuClass<Sink: ICUClassSink>(openedAt: Int, into sink: inout Sink) throws(TranslationError) {
        var scan = ICUScanner()
        var returns: [ICUSetState] = []
        var operatorCount = 0
        var depth = 0
        let dialect = self.dialect

        /// `setPushOp`'s count, before the sink evaluates.
        func countOperator(_ op: ICUSetOperator, at source: Int) throws(TranslationError) {
            if op != .union { operatorCount += 1 }
            try checkOperatorCount(operatorCount, at: source)
        }
        /// `doSetBegin` and the `doSetBegin...1` actions: a class opens,
        /// nested when `op` says how it joins the one around it.
        func begin(_ op: ICUSetOperator?, at source: Int) throws(TranslationError) {
            if let op { try countOperator(op, at: source) }
            try sink.begin(op, at: source)
            depth += 1
            try checkClassDepth(depth, at: source)
            try holdICULevels(icuOpenGroups + depth, at: source)
        }

        var state = ICUSetState.open
        try begin(nil, at: openedAt)
        var c = try icuNextCharacter(&scan, &sink)
        while true {
            if c.value == nil { throw .syntax("missing terminating ] for character class", at: self.count) }
            let at = c.at
            /// `doSetLiteral`: the character joins the class, and a range
            /// written next starts at it.
            func literal(_ value: UInt32, _ spelling: PatternSyntax.Spelling) throws(TranslationError) {
                try sink.literal(value, spelling)
                icuLastSetLiteral = value
            }
            /// `doSetRange`: from the last character added to `high`.
            func range(to high: UInt32, _ spelling: PatternSyntax.Spelling) throws(TranslationError) {
                guard let low = icuLastSetLiteral, low <= high else {
                    throw .invalid(dialect, "range out of order in character class", at: at)
                }
                sink.range(from: low, to: high, spelling)
            }

            switch state {
            case .open:
                if c.is(0x5E) { // ^
                    sink.negate()
                    c = try icuNextCharacter(&scan, &sink)
                    state = .open2
                } else if c.is(0x3A) { // :
                    if let (name, negated, next) = try icuPosixName(&scan, &sink) {
                        try sink.property(name, negated: negated, written: "[:" + (negated ? "^" : "") + name + ":]", at: at)
                        c = next
                    }
                    state = .posix
                } else {
                    state = .open2
                }
                continue
            case .open2:
                if c.is(0x5D) {
                    try literal(0x5D, .plain)
                    c = try icuNextCharacter(&scan, &sink)
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
            case .startDash, .startAmp, .setAmp, .literalAmp, .rangeAmp, .setDash, .rangeDash, .literalDash:
                // After one `&` or `-`: a second makes `&&` or `--` (an error
                // first in a class); after a set, a `[` makes the old
                // single-character operator; after a character, a `-` and
                // anything but `[` or `]` make a range; anything else leaves
                // the `&` or `-` a character.
                let amp = state == .startAmp || state == .setAmp || state == .literalAmp || state == .rangeAmp
                let operatorCharacter: UInt32 = amp ? 0x26 : 0x2D
                if c.is(operatorCharacter) {
                    if state == .startDash || state == .startAmp { throw .invalid(dialect, "a class cannot start with -- or &&", at: at) }
                    let op: ICUSetOperator = amp ? .intersection : .difference
                    try countOperator(op, at: at)
                    try sink.operation(op, at: at)
                    state = .afterOperator
                } else if (state == .setAmp || state == .setDash) && c.is(0x5B) {
                    try begin(amp ? .legacyIntersection : .legacyDifference, at: at)
                    returns.append(.afterSet)
                    state = .open
                } else if state == .literalDash && !c.is(0x5B) && !c.is(0x5D) {
                    if c.is(0x5C) {
                        state = .literalDashEscape
                    } else {
                        try range(to: c.value!, c.spelling)
                        state = .afterRange
                    }
                } else {
                    sink.add(operatorCharacter)
                    state = .afterLiteral
                    continue
                }
                c = try icuNextCharacter(&scan, &sink)
                continue
            case .literalDashEscape:
                let letter = c.value!
                if [0x73, 0x53, 0x77, 0x57, 0x64, 0x44].contains(letter) { // s S w W d D
                    throw .invalid(dialect, "a range cannot end in \\\(Unicode.Scalar(letter)!)", at: at)
                }
                if letter == 0x4E { // \N{NAME}
                    let high = try namedCharacter(at: at - 1)
                    try range(to: high, .named)
                    icuLastSetLiteral = high
                } else {
                    try range(to: letter, Self.escapedSpelling(letter))
                }
                c = try icuNextCharacter(&scan, &sink)
                state = .afterRange
                continue
            case .escape:
                let letter = c.value!
                switch letter {
                case 0x70, 0x50: // \p \P
                    try sink.property(propertyName(at: at - 1), negated: letter == 0x50, written: nil, at: at - 1)
                    state = .afterSet
                case 0x4E: // \N{NAME}
                    try literal(try namedCharacter(at: at - 1), .named)
                    state = .afterLiteral
                case _ where StandardClasses.shorthandLetters.contains(letter):
                    sink.shorthand(letter)
                    state = .afterRange
                default:
                    try literal(letter, Self.escapedSpelling(letter))
                    state = .afterLiteral
                }
                c = try icuNextCharacter(&scan, &sink)
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
                    try literal(c.value!, c.spelling)
                    state = .afterLiteral
                }
                c = try icuNextCharacter(&scan, &sink)
                continue
            }
            // `doSetEnd`: the `]` in `c` closes the innermost class.
            try sink.end()
            depth -= 1
            guard let next = returns.popLast() else { return }
            state = next
            c = try icuNextCharacter(&scan, &sink)
        }
    }

    /// ICU's scanner inside a class or a `(?#...)` comment (`nextChar`):
    /// free-spacing white space and comments skipped, `\Q...\E` quoted, and
    /// the escapes it reads itself (`\a \c \e \f \n \r \t \u \U \x` and
    /// `\0`) as one quoted character; any other `\` is handed on, and the
    /// character after it taken as it is.
    mutating func icuNextCharacter<Sink: ClassSink>(_ scan: inout ICUScanner, _ sink: inout Sink) throws(TranslationError) -> ICUScannedCharacter {
        while true {
            if scan.quoting {
                let at = position
                guard let c = next() else {
                    scan.quoting = false
                    continue
                }
                if c == 0x5C && peek() == 0x45 {
                    position += 1
                    scan.quoting = false
                    continue
                }
                return ICUScannedCharacter(value: c, quoted: true, spelling: .quoted, at: at)
            }
            if scan.afterBackslash {
                scan.afterBackslash = false
                let at = position
                return ICUScannedCharacter(value: next(), quoted: false, spelling: .plain, at: at)
            }
            skipInsignificant()
            let at = position
            guard let c = next() else { return ICUScannedCharacter(value: nil, quoted: false, spelling: .plain, at: at) }
            guard c == 0x5C else { return ICUScannedCharacter(value: c, quoted: false, spelling: .plain, at: at) }
            switch peek() {
            case 0x61, 0x63, 0x65, 0x66, 0x6E, 0x72, 0x74, 0x75, 0x55, 0x78, 0x30:
                guard case .character(let value, let spelling) = try escape(at: at, inClass: true) else {
                    throw .invalid(dialect, "bad escape", at: at)
                }
                try sink.escaped(value, at: at)
                return ICUScannedCharacter(value: value, quoted: true, spelling: spelling, at: at)
            case 0x51: // \Q
                position += 1
                scan.quoting = true
            default:
                scan.afterBackslash = true
                return ICUScannedCharacter(value: 0x5C, quoted: false, spelling: .plain, at: at)
            }
        }
    }

    /// ICU's `[:name:]` and `[:^name:]` (`scanPosixProp`), the `:` just
    /// read: the name runs to the first `:`, whatever it holds, and is a
    /// property only when `]` follows that `:`; otherwise (an escape the
    /// scanner read, or the end, first) nothing is taken and the class is
    /// an ordinary one. On success, the name, and the `]` after the `:` (a
    /// quoted one too, which then closes nothing).
    private mutating func icuPosixName<Sink: ClassSink>(_ scan: inout ICUScanner, _ sink: inout Sink)
        throws(TranslationError) -> (name: String, negated: Bool, next: ICUScannedCharacter)? {
        let saved = (position, scan)
        var c = try icuNextCharacter(&scan, &sink)
        var negated = false
        if c.value == 0x5E {
            negated = true
            c = try icuNextCharacter(&scan, &sink)
        }
        var name = ""
        var terminated = false
        while true {
            if let value = c.value, let scalar = Unicode.Scalar(value) { name.unicodeScalars.append(scalar) }
            c = try icuNextCharacter(&scan, &sink)
            if c.quoted || c.value == nil { break }
            if c.value == 0x3A {
                c = try icuNextCharacter(&scan, &sink)
                terminated = c.value == 0x5D
                break
            }
        }
        guard terminated else {
            (position, scan) = saved
            return nil
        }
        return (name, negated, c)
    }
}
