/// Java's case-insensitivity, written out: literal runs (`JavaCaseFolding`
/// says what each character matches, alone or in a run), and back
/// references, which PCRE2 folds itself where that is exact.
extension PatternTranslator {
    /// The back references of a Java pattern, and what the capture groups
    /// may capture, for `finishJavaBackReferences`.
    struct JavaBackReferences {
        /// A group as a back reference names it.
        enum Group {
            case number(Int)
            case name(String)
        }

        /// One back reference.
        struct Reference {
            let group: Group
            let caseless: Bool
            /// Its text in the output.
            let output: Range<Int>
            let source: Int
            /// The capture groups open around it, which capture what it matches.
            let inside: [Int]
        }

        var references: [Reference] = []
        /// Named groups' numbers.
        var numbers: [String: Int] = [:]
        /// The groups that may capture a character whose case-insensitive
        /// back reference PCRE2 compares otherwise than the JDK
        /// (`JavaCaseFolding.isBackReferenceMismatch`).
        var mayCaptureMismatch: Set<Int> = []
    }

    /// Writes the pending run of Java case-insensitive literals. As the JDK
    /// reads them (`Pattern.atom`): one literal alone is a `single`, two or
    /// more a slice, except that before a quantifier the last stands alone
    /// (and so does the first, when only two).
    mutating func writeJavaRun(beforeQuantifier: Bool) {
        let run = javaRun
        javaRun.removeAll()
        for (k, literal) in run.enumerated() {
            let alone = run.count == 1 || (beforeQuantifier && (k == run.count - 1 || run.count == 2))
            let values = alone ? JavaCaseFolding.single(literal.value) : JavaCaseFolding.inSlice(literal.value)
            noteItem(matching: Self.set(of: values))
            foldLast()
            atom = .item(out.count)
            if values == [literal.value] {
                out.emitLiteral(literal.value, from: literal.source)
            } else {
                out.emit(CharSetEmitter.emit(Self.set(of: values), caseless: false), from: literal.source)
            }
            lastNullable = false
        }
    }

    /// Records that an item matching `set` (nil: anything) is written: the
    /// capture groups open around it may capture what it matches.
    mutating func noteItem(matching set: CharSet?) {
        guard dialect == .java, frames.contains(where: { $0.capture != nil }) else { return }
        if let set, !set.mayHoldBackReferenceMismatch { return }
        for frame in frames { if let group = frame.capture { javaBackReferences.mayCaptureMismatch.insert(group) } }
    }

    /// Records a Java back reference written at `output`.
    mutating func noteBackReference(to group: JavaBackReferences.Group, caseless: Bool, output: Range<Int>, at source: Int) {
        javaBackReferences.references.append(.init(group: group, caseless: caseless, output: output, source: source,
                                                   inside: frames.compactMap(\.capture)))
    }

    /// Once every group is known: a back reference to a group the pattern
    /// does not have never matches in the JDK (its slot stays unset; PCRE2
    /// refuses the pattern), so it becomes `(?!)`; a case-insensitive one
    /// to a group that may capture a character PCRE2 folds otherwise than
    /// the JDK is refused.
    mutating func finishJavaBackReferences() throws(TranslationError) {
        var refs = javaBackReferences
        func number(_ group: JavaBackReferences.Group) -> Int? {
            switch group {
            case .number(let n): return n <= captures ? n : nil
            case .name(let name): return refs.numbers[name]
            }
        }
        // A group holding a back reference captures what that one matches.
        var changed = true
        while changed {
            changed = false
            for ref in refs.references {
                guard let target = number(ref.group), refs.mayCaptureMismatch.contains(target) else { continue }
                for group in ref.inside where refs.mayCaptureMismatch.insert(group).inserted { changed = true }
            }
        }
        for ref in refs.references.reversed() {
            guard let target = number(ref.group) else {
                if case .number = ref.group { out.replace(ref.output, with: "(?!)", from: ref.source) }
                continue
            }
            if ref.caseless && refs.mayCaptureMismatch.contains(target) {
                throw .refused(dialect, "back reference under (?i) to a group that may capture I, i, \u{130}, \u{131}, "
                               + "a letter outside the BMP or one Unicode 14 gave a case",
                               because: "the JDK's case-insensitive back reference compares those otherwise than PCRE2's",
                               at: ref.source)
            }
        }
        refs.references.removeAll()
        javaBackReferences = refs
    }
}

extension CharSet {
    /// Whether the set may hold a code point whose case-insensitive back
    /// reference PCRE2 compares otherwise than the JDK
    /// (`JavaCaseFolding.isBackReferenceMismatch`): false only where that is
    /// certain (a property, or a complement, may hold any).
    var mayHoldBackReferenceMismatch: Bool {
        switch self {
        case .items(let items):
            return items.contains { item in
                switch item {
                case .scalar(let v): return JavaCaseFolding.isBackReferenceMismatch(v)
                case .range(let low, let high):
                    return high >= 0x10000 || JavaCaseFolding.backReferenceMismatches.contains { (low...high).contains($0) }
                case .property: return true
                }
            }
        case .union(let parts): return parts.contains(where: \.mayHoldBackReferenceMismatch)
        case .intersection(let a, let b): return a.mayHoldBackReferenceMismatch && b.mayHoldBackReferenceMismatch
        case .difference(let a, _): return a.mayHoldBackReferenceMismatch
        case .complement: return true
        case .caseExact(let inner): return inner.mayHoldBackReferenceMismatch
        }
    }
}
