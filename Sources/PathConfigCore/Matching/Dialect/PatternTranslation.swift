/// A pattern rewritten in PCRE2's syntax, and the way back from offsets in
/// the rewrite to offsets in the pattern as written.
struct PatternTranslation: Equatable {
    /// The PCRE2 pattern's bytes; ASCII only (every other character is
    /// `\x{...}`), so a PCRE2 byte offset is an index here.
    let bytes: [UInt8]
    /// For each byte of the pattern, and one past its end, the
    /// Unicode-scalar offset in the original pattern of the construct it
    /// came from.
    let sourceOffsets: [Int]
    /// Where the first `\b` or `\B` is in the original pattern, when it has
    /// one: the translation then holds `WordBoundaries` callouts.
    let firstWordBoundary: Int?
    /// Where the first ICU `^` under `(?m)` is, when the pattern has one: it
    /// is written as ICU's `^` reads (`(?:^|(?<=TERMINATOR)(?!\z))`, true
    /// between CR and LF too), which is ICU's answer unless a match can
    /// start with LF, between CR and LF, where ICU's search may not try
    /// (`PCRE2Engine` checks that no match can).
    let multilineCaret: Int?
    /// The pattern holds an atomic group (`(?>...)`, or a possessive
    /// quantifier on a group): `PCRE2Engine` then turns auto-possessification
    /// off, which PCRE2 gets wrong for an item before such a group.
    let hasAtomicGroup: Bool

    var pattern: String { String(decoding: bytes, as: UTF8.self) }

    /// The original offset for a PCRE2 error offset in `pattern`.
    func originalOffset(forByte offset: Int) -> Int {
        sourceOffsets[max(0, min(offset, sourceOffsets.count - 1))]
    }
}

/// Why a pattern could not be translated: not valid in its dialect, or valid
/// with no exact PCRE2 equivalent.
struct TranslationError: Error, Equatable {
    /// What went wrong, naming the construct.
    let message: String
    /// Where, in Unicode scalars of the original pattern.
    let offset: Int
    /// The pattern is valid in its dialect (the apps run it) and the limit
    /// is this library's: the pcre2 backend cannot match it exactly.
    var isRefusal = false

    /// A construct the dialect accepts and PCRE2 cannot match the same way;
    /// `why` follows the construct in parentheses.
    static func refused(_ dialect: RegexDialect, _ construct: String, because why: String, at offset: Int) -> TranslationError {
        TranslationError(message: DialectMessages.refusal("the \(dialect.displayName) construct \(construct) (\(why))", dialect: dialect),
                         offset: offset, isRefusal: true)
    }

    /// A name (of a property, a block) the translation does not know: the
    /// dialect may accept it or not, so the message claims neither.
    static func unknownName(_ dialect: RegexDialect, _ construct: String, because why: String, at offset: Int) -> TranslationError {
        refusal(dialect, construct, why, "is not a name libpathconfig's pcre2 backend translates (\(dialect.displayName) may reject it too: check the spelling)",
                at: offset)
    }

    /// A construct the translation does not judge, which the dialect may
    /// accept or reject: the message claims neither.
    static func unjudged(_ dialect: RegexDialect, _ construct: String, because why: String, at offset: Int) -> TranslationError {
        refusal(dialect, construct, why, "is beyond libpathconfig's pcre2 backend, valid \(dialect.displayName) or not", at: offset)
    }

    /// `the DIALECT construct CONSTRUCT (WHY) CLAIM; ADVICE`, as a refusal.
    private static func refusal(_ dialect: RegexDialect, _ construct: String, _ why: String, _ claim: String, at offset: Int) -> TranslationError {
        TranslationError(message: "the \(dialect.displayName) construct \(construct) (\(why)) \(claim); " + DialectMessages.advice(dialect),
                         offset: offset, isRefusal: true)
    }

    /// A syntax error PCRE2 would report too, in PCRE2's words (so the
    /// message does not change with the dialect layer).
    static func syntax(_ message: String, at offset: Int) -> TranslationError {
        TranslationError(message: message, offset: offset)
    }

    /// A pattern the dialect itself rejects.
    static func invalid(_ dialect: RegexDialect, _ what: String, at offset: Int) -> TranslationError {
        TranslationError(message: "not a valid \(dialect.displayName) pattern: \(what)", offset: offset)
    }
}

/// The PCRE2 text being written, each byte tagged with the original offset
/// it came from.
struct TranslationBuilder {
    private(set) var bytes: [UInt8] = []
    private var sources: [Int] = []
    /// Stretches of output that may be replaced once the whole pattern is
    /// read (`mark`), kept in step with every insertion and replacement.
    private(set) var marks: [Range<Int>] = []

    /// An empty builder with room for about `capacity` bytes.
    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
        sources.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    /// Appends ASCII `text` that stands for the construct at `source`.
    mutating func emit(_ text: String, from source: Int) {
        let before = bytes.count
        bytes.append(contentsOf: text.utf8)
        sources.append(contentsOf: repeatElement(source, count: bytes.count - before))
    }

    /// Appends a literal code point (`CharSetEmitter.literal`), letters and
    /// digits without building a string.
    mutating func emitLiteral(_ value: UInt32, from source: Int) {
        if CharSetEmitter.isASCIIAlphanumeric(value) {
            bytes.append(UInt8(value))
            sources.append(source)
        } else if value >= 0x21 && value < 0x7F {
            bytes.append(0x5C)
            bytes.append(UInt8(value))
            sources.append(source)
            sources.append(source)
        } else {
            emit(CharSetEmitter.literal(value), from: source)
        }
    }

    /// Inserts ASCII `text` before byte `index` (to wrap what follows it);
    /// no mark is empty, so every mark from `index` on moves with it.
    mutating func insert(_ text: String, at index: Int, from source: Int) { replace(index..<index, with: text, from: source) }

    /// Replaces the bytes at `range` with ASCII `text`. A mark after it
    /// moves with it; a mark that is `range` becomes the new text.
    mutating func replace(_ range: Range<Int>, with text: String, from source: Int) {
        let utf8 = Array(text.utf8)
        bytes.replaceSubrange(range, with: utf8)
        sources.replaceSubrange(range, with: Array(repeating: source, count: utf8.count))
        let delta = utf8.count - range.count
        for k in marks.indices {
            if marks[k] == range {
                marks[k] = range.lowerBound ..< range.lowerBound + utf8.count
            } else if marks[k].lowerBound >= range.upperBound {
                marks[k] = marks[k].lowerBound + delta ..< marks[k].upperBound + delta
            }
        }
    }

    /// Drops the last `count` bytes, a copy of the `count` bytes before
    /// them that the output counts instead (`PatternTranslator.countRepeat`),
    /// and traces those to `source`, the dropped copy's. No mark lies in them.
    mutating func dropCopy(_ count: Int, from source: Int) {
        bytes.removeLast(count)
        sources.removeLast(count)
        for k in (sources.count - count)..<sources.count { sources[k] = source }
    }

    /// Adds one to the decimal number whose last digit is at `index - 1`,
    /// in place, as an odometer turns (a digit more only when every digit
    /// was a 9). Returns how many bytes longer the output is (0 or 1).
    mutating func incrementNumber(endingAt index: Int) -> Int {
        var k = index - 1
        while bytes[k] == UInt8(ascii: "9") {
            bytes[k] = UInt8(ascii: "0")
            k -= 1
        }
        if bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "8") {
            bytes[k] += 1
            return 0
        }
        insert("1", at: k + 1, from: sources[k + 1])
        return 1
    }

    /// Replaces the text of each mark named in `edits` (its number in
    /// `marks`) with ASCII text from its source, in one pass over the
    /// output, not one for each (a pattern may hold 8,000 back references):
    /// the marks' last use, after which they are dropped.
    mutating func replaceMarks(_ edits: [(mark: Int, text: String, source: Int)]) {
        guard !edits.isEmpty else { return }
        let ordered = edits.map { (range: marks[$0.mark], text: $0.text, source: $0.source) }.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var newBytes: [UInt8] = [], newSources: [Int] = []
        newBytes.reserveCapacity(bytes.count + 4 * edits.count)
        newSources.reserveCapacity(bytes.count + 4 * edits.count)
        var next = 0
        for edit in ordered {
            newBytes.append(contentsOf: bytes[next..<edit.range.lowerBound])
            newSources.append(contentsOf: sources[next..<edit.range.lowerBound])
            newBytes.append(contentsOf: edit.text.utf8)
            newSources.append(contentsOf: repeatElement(edit.source, count: edit.text.utf8.count))
            next = edit.range.upperBound
        }
        newBytes.append(contentsOf: bytes[next...])
        newSources.append(contentsOf: sources[next...])
        bytes = newBytes
        sources = newSources
        marks = []
    }

    /// Remembers the output from `start` to the end, to `replace` later:
    /// returns its number in `marks`.
    mutating func mark(from start: Int) -> Int {
        marks.append(start ..< bytes.count)
        return marks.count - 1
    }

    /// The finished translation; `end` is the length read, and
    /// `sourceOffset`, for a pattern read as rewritten
    /// (`PatternReader.javaUnquoted`), takes offsets read to offsets as
    /// written.
    consuming func finish(end: Int, firstWordBoundary: Int?, multilineCaret: Int?, hasAtomicGroup: Bool,
                          sourceOffset: ((Int) -> Int)?) -> PatternTranslation {
        sources.append(end)
        let written = sourceOffset ?? { $0 }
        return PatternTranslation(bytes: bytes, sourceOffsets: sourceOffset.map { sources.map($0) } ?? sources,
                                  firstWordBoundary: firstWordBoundary.map(written), multilineCaret: multilineCaret.map(written), hasAtomicGroup: hasAtomicGroup)
    }
}
