import CPCRE2

/// `\b` and `\B` as ICU and the JDK define them, for the pcre2 backend.
///
/// Both look back past a run of characters of any length: ICU skips the
/// combining marks and format characters before the position, the JDK looks
/// for the base of a run of non-spacing marks. PCRE2 10.42 cannot write that
/// as a pattern (its lookbehinds have one length per alternative), so the
/// translation writes each `\b` or `\B` as a callout, `(?C1)` to `(?C4)`
/// (`Kind`), and the pcre2 backend runs such a pattern under a match context
/// whose callout function is `callout`. PCRE2 treats a callout's answer as
/// an assertion's: 0, the boundary test holds and matching goes on; 1, it
/// fails here and matching backtracks. Its start-of-match optimizations
/// may skip a callout only where the match would fail anyway, which is
/// sound for a test that depends on nothing but the subject and the
/// position; auto-possessification is not, and is off for these patterns
/// (`compileOptions`).
///
/// The answers come from `BoundaryTable`: the subject's boundaries in one
/// pass, made on a search's first callout and read by its others. Characters
/// are classified with PCRE2's own Unicode tables, as the translation's `\w`
/// and `\p{...}` are: ASCII by rule, others by a small class pattern per
/// dialect (`Classifier`), matched at the character.
enum WordBoundaries {
    /// What a callout number tests.
    enum Kind: UInt32 {
        /// ICU's `\b` and `\B`, the JDK's `\b`.
        case icu = 1, icuNot = 2, java = 3
        /// The JDK's `\B`: the test is `\b`'s negation, but the translation
        /// refuses `\B` in the Java dialect (the JDK also tries it inside a
        /// surrogate pair), so no pattern holds this number today.
        case javaNot = 4

        init(dialect: RegexDialect, negated: Bool) {
            self = dialect == .icu ? (negated ? .icuNot : .icu) : (negated ? .javaNot : .java)
        }

        var dialect: RegexDialect { rawValue <= 2 ? .icu : .java }
        var negated: Bool { rawValue % 2 == 0 }

        /// The PCRE2 text the translation writes.
        var callout: String { "(?C\(rawValue))" }
    }

    /// The compile options a pattern holding the callouts needs:
    /// PCRE2_NO_AUTO_POSSESS. Auto-possessification steps over a callout
    /// when it checks what follows a repeat, so in `.+\b`, `[a-z]+\B` or
    /// `(.+)\b` it found nothing after the repeat that could fail and made
    /// it possessive: a boundary test that failed at the repeat's end never
    /// got the positions before it (`/users/.+\b` missed "/users/abc/").
    /// PCRE2's other optimizations that skip callouts (start-of-match
    /// checks, `.*` anchoring, PCRE2_NO_START_OPTIMIZE and
    /// PCRE2_NO_DOTSTAR_ANCHOR turn them off) only leave out start
    /// positions where no match can start whatever a callout answers, so
    /// they stay on.
    static let compileOptions = UInt32(PCRE2_NO_AUTO_POSSESS)

    /// PCRE2's callout function for the `Kind`s: 0 where the test holds, 1
    /// where it fails. Runs inside `pcre2_match`, so it never throws or
    /// traps: whatever it cannot answer (an unknown number, a position
    /// inside a character, which a UTF-8 search never gives) abandons the
    /// search with `PCRE2_ERROR_CALLOUT`.
    static let callout: @convention(c) (UnsafeMutablePointer<pcre2_callout_block_8>?, UnsafeMutableRawPointer?) -> Int32 = { block, _ in
        guard let block, let kind = Kind(rawValue: block.pointee.callout_number), let subject = block.pointee.subject,
              let holds = BoundaryTable.current.isBoundary(
                  at: Int(block.pointee.current_position), in: UnsafeBufferPointer(start: subject, count: Int(block.pointee.subject_length)),
                  dialect: kind.dialect)
        else { return PCRE2_ERROR_CALLOUT }
        return holds != kind.negated ? 0 : 1
    }

    /// Whether the classifier `dialect`'s boundaries need compiled with the
    /// linked PCRE2 (always, for PCRE2 10.40 and later, which have the
    /// binary properties): checked before a pattern using them compiles.
    static func isAvailable(for dialect: RegexDialect) -> Bool { Classifier.for(dialect).code != nil }

    // MARK: - Classes

    /// What a boundary needs to know of a character. ICU: `a` is
    /// Grapheme_Extend or Cf (skipped), `b` is a word character (ICU's `\w`).
    /// The JDK: `a` is Mn (a non-spacing mark), `b` is a letter or a digit
    /// (`Character.isLetterOrDigit`: L or Nd); its word characters add `_`.
    struct Classes {
        var a = false
        var b = false
    }

    /// The compiled class pattern of a dialect: at a character, group 1 is
    /// set when it has class `a`, group 2 when it has class `b`.
    final class Classifier: @unchecked Sendable {
        /// The compiled pattern; nil when the linked PCRE2 refuses it. Never
        /// freed: one per dialect, for the life of the process.
        let code: OpaquePointer?

        private init(_ a: String, _ b: String) {
            code = PCRE2Probe.compile("(?:(?=(\(a)))|)(?:(?=(\(b)))|)", options: UInt32(PCRE2_UTF))
        }

        private static let icu = Classifier("[\\p{Grapheme_Extend}\\p{Cf}]", CharSetEmitter.emit(StandardClasses.icuWord, caseless: false))
        private static let java = Classifier("\\p{Mn}", "[\\p{L}\\p{Nd}]")

        static func `for`(_ dialect: RegexDialect) -> Classifier { dialect == .icu ? icu : java }
    }

    /// The classes of the character `value`, which starts at `offset` of
    /// `subject`; `matchData` has room for three pairs of offsets.
    static func classes(of value: UInt32, at offset: Int, in subject: UnsafeBufferPointer<UInt8>, dialect: RegexDialect,
                        matchData: OpaquePointer) -> Classes {
        if value < 0x80 {
            // No ASCII character is a mark or a format character; the word
            // characters are letters, digits and, for ICU (Pc), `_`.
            return Classes(a: false, b: CharSetEmitter.isASCIIAlphanumeric(value) || (dialect == .icu && value == 0x5F))
        }
        guard let code = Classifier.for(dialect).code, let base = subject.baseAddress else { return Classes() }
        let rc = pcre2_match_8(code, base, subject.count, offset, UInt32(PCRE2_ANCHORED) | UInt32(PCRE2_NO_UTF_CHECK), matchData, nil)
        guard rc > 0, let ovector = pcre2_get_ovector_pointer_8(matchData) else { return Classes() }
        // rc is one more than the highest group set; an unset group's offsets
        // are PCRE2_UNSET, ~(size_t)0.
        return Classes(a: rc > 1 && ovector[2] != ~0, b: rc > 2)
    }

    /// The code point whose UTF-8 starts at `i`, and its length; nil for
    /// bytes that are not UTF-8 (never in a search, whose subject is checked).
    static func decode(_ s: UnsafeBufferPointer<UInt8>, at i: Int) -> (value: UInt32, length: Int)? {
        let b0 = s[i]
        if b0 < 0x80 { return (UInt32(b0), 1) }
        let length = b0 >= 0xF0 ? 4 : b0 >= 0xE0 ? 3 : b0 >= 0xC0 ? 2 : 0
        guard length > 0, length <= s.count - i else { return nil }
        var value = UInt32(b0) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length {
            let c = s[i + k]
            guard c & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(c & 0x3F)
        }
        return (value, length)
    }
}

/// One search's word boundaries, kept by the thread that searches
/// (`current`, freed when the thread ends): made on the search's first
/// callout, in one pass over the subject, and dropped by `reset()` before
/// the next.
final class BoundaryTable {
    /// The calling thread's table, made on its first search with `\b` or `\B`.
    @inline(__always)
    static var current: BoundaryTable { perThread.value { BoundaryTable() } }
    private static let perThread = ThreadLocal<BoundaryTable>()

    /// The longest subject, in bytes, whose table the thread keeps after
    /// its search; a longer one's is given back.
    static let keptUpToBytes = 2048

    /// For each byte offset of the subject, and one past its end, 1 where
    /// `\b` holds (only the offsets where a character starts are read).
    private var bits: [UInt8] = []
    /// The subject and dialect `bits` describes; `length` is -1 when none.
    private var subject: UnsafePointer<UInt8>?
    private var length = -1
    private var dialect = RegexDialect.icu
    /// Match data for the classifier, made on first use.
    private var classifierData: OpaquePointer?

    deinit {
        if let classifierData { pcre2_match_data_free_8(classifierData) }
    }

    /// Forgets the last search's boundaries (its subject's memory may be
    /// reused), and gives back a large table.
    func reset() {
        length = -1
        subject = nil
        if bits.count > Self.keptUpToBytes + 1 { bits = [] }
    }

    /// Whether `\b` holds at byte `offset` of `s` in `dialect`; nil when
    /// `offset` is not where a character starts or the subject is not UTF-8.
    func isBoundary(at offset: Int, in s: UnsafeBufferPointer<UInt8>, dialect: RegexDialect) -> Bool? {
        if subject != s.baseAddress || length != s.count || self.dialect != dialect {
            guard build(s, dialect) else { return nil }
        }
        guard offset >= 0, offset <= length else { return nil }
        return bits[offset] != 0
    }

    private func build(_ s: UnsafeBufferPointer<UInt8>, _ dialect: RegexDialect) -> Bool {
        if classifierData == nil { classifierData = pcre2_match_data_create_8(3, nil) }
        guard let matchData = classifierData else { return false }
        bits.removeAll(keepingCapacity: true)
        bits.append(contentsOf: repeatElement(0, count: s.count + 1))
        let built = dialect == .icu ? buildICU(s, matchData) : buildJava(s, matchData)
        if built {
            subject = s.baseAddress
            length = s.count
            self.dialect = dialect
        }
        return built
    }

    /// ICU's `RegexMatcher::isChunkWordBoundary` (rematch.cpp), which
    /// `NSRegularExpression` runs on its UTF-16 buffer: no boundary before
    /// a Grapheme_Extend or Cf character; elsewhere, a boundary where the
    /// character after the position (none at the end) and the last one
    /// before it that is neither Grapheme_Extend nor Cf (none at the start)
    /// differ in being word characters.
    private func buildICU(_ s: UnsafeBufferPointer<UInt8>, _ matchData: OpaquePointer) -> Bool {
        var previousIsWord = false
        var i = 0
        while i < s.count {
            guard let (value, length) = WordBoundaries.decode(s, at: i) else { return false }
            let c = WordBoundaries.classes(of: value, at: i, in: s, dialect: .icu, matchData: matchData)
            if !c.a {
                bits[i] = c.b != previousIsWord ? 1 : 0
                previousIsWord = c.b
            }
            i += length
        }
        bits[s.count] = previousIsWord ? 1 : 0
        return true
    }

    /// OpenJDK 17's `Pattern.Bound.check` without UNICODE_CHARACTER_CLASS,
    /// with `hasBaseCharacter` (Pattern.java): each side of the position is
    /// a word character (`_`, or `Character.isLetterOrDigit`), or a
    /// non-spacing mark (Mn) whose run of marks, read backwards one UTF-16
    /// unit at a time, starts after a letter or digit; a boundary where the
    /// two sides differ. Reading by UTF-16 unit, the JDK sees the low
    /// surrogate of a supplementary character it steps onto from the right,
    /// which is neither: so a run reaching back to one has no base, and a
    /// supplementary mark just before the position has none either.
    private func buildJava(_ s: UnsafeBufferPointer<UInt8>, _ matchData: OpaquePointer) -> Bool {
        // For the characters read so far: whether the last one is a word
        // character or a mark with a base (the left side of the next
        // position), and `hasBaseCharacter` from its last UTF-16 unit.
        var left = false
        var baseThroughLast = false
        var i = 0
        while i < s.count {
            guard let (value, length) = WordBoundaries.decode(s, at: i) else { return false }
            let c = WordBoundaries.classes(of: value, at: i, in: s, dialect: .java, matchData: matchData)
            let isWord = c.b || value == 0x5F
            // `hasBaseCharacter` from this character's first unit (the whole code point) ...
            let baseFromHere = c.b || (c.a && baseThroughLast)
            // ... and from its last unit (a low surrogate for a supplementary character).
            let baseFromLastUnit = value > 0xFFFF ? false : baseFromHere
            let right = isWord || (c.a && baseFromHere)
            bits[i] = left != right ? 1 : 0
            left = isWord || (c.a && baseFromLastUnit)
            baseThroughLast = baseFromLastUnit
            i += length
        }
        bits[s.count] = left ? 1 : 0
        return true
    }
}
