/// Java's case-insensitivity, written out: literal runs (`JavaCaseFolding`
/// says what each character matches, alone or in a run), and back
/// references, which PCRE2 folds itself where that is exact.
extension PatternTranslator {
    /// The back references of a Java pattern, and what the capture groups
    /// may capture, for `finishJavaBackReferences`.
    struct JavaBackReferences {
        struct Reference {
            let group: Int
            let caseless: Bool
            /// Its text in the output (`TranslationBuilder.mark`).
            let mark: Int
            let source: Int
            /// The capture groups open around it, which capture what it matches.
            let inside: [Int]
        }

        var references: [Reference] = []
        /// The groups that may capture a character whose case-insensitive
        /// back reference PCRE2 compares otherwise than the JDK
        /// (`JavaCaseFolding.isBackReferenceMismatch`).
        var mayCaptureMismatch: Set<Int> = []
        /// The groups the JDK may leave holding what they captured after the
        /// search backtracked out of them: inside a repeated group, an
        /// atomic group or a lookaround, or repeated possessively.
        var notRestored: Set<Int> = []
        /// The groups repeated from zero (`*`, `{0,n}`), greedy or lazy, as
        /// a `GroupCurly` whose body can match the empty string: the JDK
        /// forgets what an empty iteration captured.
        var forgetsEmptyIteration: Set<Int> = []
    }

    /// Writes the pending run of Java case-insensitive literals. As the JDK
    /// reads them (`Pattern.atom`): one literal alone is a `single`, two or
    /// more a slice, except that before a quantifier the last stands alone
    /// (and so does the first, when only two).
    ///
    /// PCRE2 holds at most 64 KB of compiled code (`countRepeat`), so the run
    /// is written compactly, meaning exactly the same: `k` and `s`, whose
    /// sets are what PCRE2's own case-insensitive matching matches
    /// (`pcre2Caseless`), as the letter under `(?i)` (`k` is 4 bytes of
    /// code, `[Kk\x{212A}]` 41; a letter with two cases, `[Ee]`, is 2 bytes
    /// either way, and stays a class), and the same item four or more times over as `X{n}`. The last
    /// literal before a quantifier is one item of its own, `(?i:k)`.
    mutating func writeJavaRun(beforeQuantifier: Bool) {
        let run = javaRun
        javaRun.removeAll()
        repeatRun = nil
        // Each literal's PCRE2 atom, and whether it is written under (?i);
        // worked out once for each character, alone or not, of the run (no
        // group opens or closes within it, so noting it once is enough).
        var atoms: [(text: String, caseless: Bool, source: Int)] = []
        atoms.reserveCapacity(run.count)
        var known: [UInt64: (text: String, caseless: Bool)] = [:]
        // Each literal is an item that cannot match a surrogate; after the
        // second, another changes nothing (a call a literal cost 2% of
        // loading 800 KB of literals).
        for _ in 0..<min(run.count, 2) { noteSearchItem(mayMatchSurrogate: false, nullable: false) }
        for (k, literal) in run.enumerated() {
            let alone = run.count == 1 || (beforeQuantifier && (k == run.count - 1 || run.count == 2))
            let key = UInt64(literal.value) << 1 | (alone ? 1 : 0)
            if let atom = known[key] {
                atoms.append((atom.text, atom.caseless, literal.source))
                continue
            }
            let values = alone ? JavaCaseFolding.single(literal.value) : JavaCaseFolding.inSlice(literal.value)
            noteItem(matching: Self.set(of: values), at: literal.source)
            // Alone, `single`.
            if alone && Self.isWideJavaSingle(literal.value, caseless: true) { searchStart.stepsByCodePoint = true }
            let byPCRE2 = values.count > 2 && values == Self.pcre2Caseless(literal.value)
            let text = values == [literal.value] || byPCRE2
                ? CharSetEmitter.literal(literal.value) : CharSetEmitter.emit(Self.set(of: values), caseless: false)
            let atom = (text: text, caseless: byPCRE2)
            known[key] = atom
            atoms.append((atom.text, atom.caseless, literal.source))
        }
        foldLast()
        let quantified = beforeQuantifier ? atoms.popLast() : nil
        var caseless = false
        var k = 0
        while k < atoms.count {
            var n = 1
            while k + n < atoms.count, atoms[k + n].text == atoms[k].text, atoms[k + n].caseless == atoms[k].caseless { n += 1 }
            let (text, wantsCaseless, source) = atoms[k]
            if wantsCaseless != caseless {
                out.emit(wantsCaseless ? "(?i)" : "(?-i)", from: source)
                caseless = wantsCaseless
            }
            atom = .item(out.count)
            out.emit(n >= 4 ? text + "{\(n)}" : String(repeating: text, count: n), from: source)
            k += n
        }
        if caseless { out.emit("(?-i)", from: atoms[atoms.count - 1].source) }
        if !atoms.isEmpty {
            // Counted into the group's alternative before a quantifier on the last one.
            lastNullable = false
            foldLast()
        }
        if let (text, wantsCaseless, source) = quantified {
            atom = .item(out.count)
            out.emit(wantsCaseless ? "(?i:" + text + ")" : text, from: source)
        }
        lastNullable = false
    }

    /// The code points PCRE2 10.42's own case-insensitive matching (UTF
    /// mode) matches for an ASCII letter: the letter and its other case,
    /// with the Kelvin sign for `k` and the long s for `s` (Unicode's case
    /// folding; `i` does not take `İ` or `ı` there, as the JDK does). Nil
    /// for any other character. The JDK's set for a letter is compared with
    /// it before PCRE2's `(?i)` stands for it (`writeJavaRun`), and each is
    /// checked against PCRE2 itself (PatternSizeTests).
    static func pcre2Caseless(_ c: UInt32) -> [UInt32]? {
        let lower = c | 0x20
        guard lower >= 0x61, lower <= 0x7A else { return nil }
        let extra: [UInt32] = lower == 0x6B ? [0x212A] : lower == 0x73 ? [0x17F] : []
        return [lower - 0x20, lower] + extra  // in order
    }

    /// Records that an item matching `set` (nil: anything) is written at
    /// `source`: the capture groups open around it may capture what it
    /// matches. In a lookbehind the JDK tries by UTF-16 unit
    /// (`Frame.stepsByUnit`), an item that may match a character above
    /// U+FFFF, or a surrogate, is refused (`byUnitRefusal`): there the JDK
    /// counts such a character as one unit and may start inside it, so
    /// `(?<=\p{L})z` does not find "𝐀z" (it tests the trail surrogate, no
    /// letter) and `(?<=..)` nothing after "a𝐀" (two units hold 𝐀 alone);
    /// elsewhere both read code points alike.
    mutating func noteItem(matching set: @autoclosure () -> CharSet?, at source: Int) {
        guard dialect == .java else { return }
        let captured = frames.contains { $0.capture != nil }
        let byUnit = frames.contains(where: \.stepsByUnit)
        guard captured || byUnit else { return }
        let set = set()
        if byUnit, byUnitRefusal == nil, set?.mayHoldSurrogateUnits ?? true {
            byUnitRefusal = .refused(dialect, "lookbehind holding an item that may match a character above U+FFFF",
                                     because: "with no such character written from the lookbehind on, the JDK measures and tries it by "
                                         + "UTF-16 unit, and may start it inside a surrogate pair", at: source)
        }
        guard captured else { return }
        if let set, !set.mayHoldBackReferenceMismatch { return }
        for frame in frames { if let group = frame.capture { javaBackReferences.mayCaptureMismatch.insert(group) } }
    }

    /// Once every group is known: a back reference to a group the pattern
    /// does not have never matches in the JDK (its slot stays unset; PCRE2
    /// refuses the pattern), so it becomes `(?!)`; a case-insensitive one
    /// to a group that may capture a character PCRE2 folds otherwise than
    /// the JDK is refused, and so is one to a group the JDK may not restore
    /// (`JavaBackReferences.notRestored`) or forgets
    /// (`JavaBackReferences.forgetsEmptyIteration`).
    mutating func finishJavaBackReferences() throws(TranslationError) {
        var refs = javaBackReferences
        func number(_ group: Int) -> Int? { group <= reader.captures ? group : nil }
        // A group holding a back reference captures what that one matches.
        var changed = true
        while changed {
            changed = false
            for ref in refs.references {
                guard let target = number(ref.group), refs.mayCaptureMismatch.contains(target) else { continue }
                for group in ref.inside where refs.mayCaptureMismatch.insert(group).inserted { changed = true }
            }
        }
        var missing: [(mark: Int, text: String, source: Int)] = []
        for ref in refs.references.reversed() {
            guard let target = number(ref.group) else {
                missing.append((ref.mark, "(?!)", ref.source))
                continue
            }
            if refs.notRestored.contains(target) {
                throw .refused(dialect, "back reference to a group inside a repeated group, an atomic group or a lookaround, "
                               + "or repeated possessively",
                               because: "the JDK keeps what such a group captured after the search backtracked out of it "
                               + "(^(?:(.)-)*\\1 finds \"a-b\" in \"a-b-a\", (?>(a))b|\\1 finds \"a\" in \"ax\")", at: ref.source)
            }
            if refs.forgetsEmptyIteration.contains(target) {
                throw .refused(dialect, "back reference to a group repeated from zero (* or {0,n}) that can match the empty "
                               + "string, with no |, ? or varying repeat inside",
                               because: "the JDK forgets what such a group captured in an empty iteration "
                               + "((^)*\\1 and (^){0,2}\\1 never match)", at: ref.source)
            }
            if ref.caseless && refs.mayCaptureMismatch.contains(target) {
                throw .refused(dialect, "back reference under (?i) to a group that may capture I, i, \u{130}, \u{131}, "
                               + "a letter outside the BMP or one Unicode 14 gave a case",
                               because: "the JDK's case-insensitive back reference compares those otherwise than PCRE2's",
                               at: ref.source)
            }
        }
        out.replaceMarks(missing)
    }
}

extension CharSet {
    /// Whether the set may hold a code point whose case-insensitive back
    /// reference PCRE2 compares otherwise than the JDK
    /// (`JavaCaseFolding.isBackReferenceMismatch`).
    var mayHoldBackReferenceMismatch: Bool {
        mayHold { low, high in high >= 0x10000 || JavaCaseFolding.backReferenceMismatches.contains { (low...high).contains($0) } }
    }

    /// Whether the set may hold a code point the JDK reads in UTF-16 units
    /// otherwise than PCRE2 reads UTF-8 (`noteItem`): one above U+FFFF (two
    /// units) or a surrogate (a unit alone, as the JDK reads half a pair).
    var mayHoldSurrogateUnits: Bool {
        mayHold { low, high in high > 0xFFFF || (high >= 0xD800 && low <= 0xDFFF) }
    }

    /// Whether the set may hold a surrogate, as the JDK reads half a pair
    /// (`JavaSearchStart`).
    var mayHoldSurrogate: Bool {
        mayHold { low, high in high >= 0xD800 && low <= 0xDFFF }
    }

    /// Whether the set may hold a code point of a range `inRange` takes (a
    /// code point is a range of one): false only where that is certain (a
    /// property, or a complement, may hold any).
    private func mayHold(_ inRange: (UInt32, UInt32) -> Bool) -> Bool {
        switch self {
        case .items(let items):
            return items.contains { item in
                switch item {
                case .scalar(let v): return inRange(v, v)
                case .range(let low, let high): return inRange(low, high)
                case .property: return true
                }
            }
        case .union(let parts): return parts.contains { $0.mayHold(inRange) }
        case .intersection(let a, let b): return a.mayHold(inRange) && b.mayHold(inRange)
        case .difference(let a, _): return a.mayHold(inRange)
        case .complement: return true
        case .caseExact(let inner): return inner.mayHold(inRange)
        }
    }
}
