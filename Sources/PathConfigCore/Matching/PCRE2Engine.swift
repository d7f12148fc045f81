import CPCRE2

/// The default engine: PCRE2, run by its interpreter.
///
/// A pattern is first translated from its dialect (`RegexOptions.dialect`)
/// by `PatternTranslator`, which refuses what PCRE2 cannot match the same
/// way; error offsets point into the pattern as written. Patterns are
/// compiled in UTF mode; `unicodeClasses` maps to `PCRE2_UCP` and, for
/// ICU, `caseInsensitive` to `PCRE2_CASELESS` (Java's case rules are the
/// JDK's own, written out by the translation: `JavaCaseFolding`). Searches run under a match
/// context carrying the `Limits`, so a catastrophic pattern stops with
/// `.limitExceeded` instead of spinning.
///
/// ICU's and the JDK's `\b` and `\B` are callouts (`WordBoundaries`): a
/// pattern with one is a `PCRE2BoundaryPattern`, which runs under the match
/// context's second form, the one with the callout function; every other
/// pattern is a `PCRE2Pattern`.
///
/// Patterns are not JIT-compiled: PCRE2 10.42's JIT misses matches its
/// interpreter finds (`(1|)b*1` on `/12`), and gains nothing behind the
/// prefilter (docs/ARCHITECTURE.md).
public struct PCRE2Engine: RegexEngine {
    /// Creates the engine.
    public init() {}

    public var name: String { Backend.pcre2.rawValue }

    public func compile(_ pattern: String, options: RegexOptions, limits: Limits) throws(RegexCompileError) -> any CompiledPattern {
        var flags = UInt32(PCRE2_UTF)
        // Java's case-insensitivity is written out by the translation.
        if options.caseInsensitive && options.dialect == .icu { flags |= UInt32(PCRE2_CASELESS) }
        if options.unicodeClasses { flags |= UInt32(PCRE2_UCP) }
        let translation: PatternTranslation
        do {
            translation = try PatternTranslator.translate(pattern, dialect: options.dialect, caseInsensitive: options.caseInsensitive)
        } catch {
            throw RegexCompileError(message: error.message, offset: error.offset, isUnsupported: error.isRefusal)
        }
        if let offset = translation.firstWordBoundary, !WordBoundaries.isAvailable(for: options.dialect) {
            throw RegexCompileError(message: DialectMessages.refusal("\\b (this PCRE2 lacks the Unicode properties it needs)", dialect: options.dialect),
                                    offset: offset, isUnsupported: true)
        }
        if translation.firstWordBoundary != nil { flags |= WordBoundaries.compileOptions }
        // PCRE2 10.42 (and its source at 10.48-dev) makes an item
        // possessive before an atomic group that can match the empty
        // string: `a?(?:,)?+a`, compiled as `a?(?>(?:,)?)a`, finds nothing
        // in "ba". Looking at what may follow the item, it steps into the
        // group and, past its optional part (in a check of its own), reaches
        // the group's end, which it takes for the end of an atomic group
        // around the item, where an item may always be possessive
        // (compare_opcodes, pcre2_auto_possess.c).
        if translation.hasAtomicGroup { flags |= UInt32(PCRE2_NO_AUTO_POSSESS) }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = translation.bytes
        func compile(_ flags: UInt32) -> OpaquePointer? {
            bytes.withUnsafeBufferPointer { buf in
                pcre2_compile_8(buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, buf.count, flags, &errorCode, &errorOffset, nil)
            }
        }
        var code = compile(flags)
        if let compiled = code, Self.mayTakeAssertedFirstUnitTwice(compiled, translation: bytes) {
            pcre2_code_free_8(compiled)
            code = compile(flags | UInt32(PCRE2_NO_START_OPTIMIZE))
        }
        guard let code else {
            var message = [UInt8](repeating: 0, count: 256)
            let n = message.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(errorCode, $0.baseAddress, $0.count) }
            let text = n > 0 ? String(decoding: message[0..<Int(n)], as: UTF8.self) : "error \(errorCode)"
            let (wording, isRefusal) = DialectMessages.pcre2Error(text, dialect: options.dialect)
            throw RegexCompileError(message: wording, offset: translation.originalOffset(forByte: errorOffset), isUnsupported: isRefusal)
        }
        if let offset = translation.multilineCaret, !Self.noMatchStartsWithLineFeed(code) {
            pcre2_code_free_8(code)
            throw RegexCompileError(
                message: DialectMessages.refusal(
                    "the ICU construct ^ under (?m), where a match could start with a line feed (ICU's search may or may not try the position"
                        + " between CR and LF, by the pattern's shape)", dialect: options.dialect),
                offset: offset, isUnsupported: true)
        }
        let context = PCRE2MatchContext.shared(for: limits)
        if translation.firstWordBoundary != nil { return PCRE2BoundaryPattern(code: code, context: context) }
        return PCRE2Pattern(code: code, context: context)
    }

    /// Whether `code` may meet a fault of PCRE2 10.42's start-of-match
    /// analysis (fixed in 10.45, PCRE2Project/pcre2#444): where nothing
    /// before a lookahead fixes the first code unit (`b{0}(?=x)x`,
    /// `(?=a)b?a`), it takes the lookahead's first unit as the pattern's,
    /// and when that is also the last unit every match needs, the search
    /// wants two of it and misses "x" and "a". The first and last units
    /// alike and a `(?=` in the text cover every such pattern; those are
    /// compiled again without the start-of-match optimisations, which
    /// changes no answer.
    static func mayTakeAssertedFirstUnitTwice(_ code: OpaquePointer, translation: [UInt8]) -> Bool {
        guard info(code, PCRE2_INFO_FIRSTCODETYPE) == 1, info(code, PCRE2_INFO_LASTCODETYPE) == 1,
              let first = info(code, PCRE2_INFO_FIRSTCODEUNIT), first == info(code, PCRE2_INFO_LASTCODEUNIT) else { return false }
        return translation.indices.contains { translation[$0...].starts(with: "(?=".utf8) }
    }

    /// Whether PCRE2's own analysis of `code` proves that every match is
    /// at least one character long and starts with a character other than
    /// LF: a fixed first code unit, or a bitmap of first bytes without LF's.
    /// (PCRE2 skips start positions by this analysis, so it holds for every
    /// match.) Then no match starts between CR and LF, the one place ICU's
    /// `(?m)^` and its search disagree.
    static func noMatchStartsWithLineFeed(_ code: OpaquePointer) -> Bool {
        guard let minLength = info(code, PCRE2_INFO_MINLENGTH), minLength > 0,
              let firstType = info(code, PCRE2_INFO_FIRSTCODETYPE) else { return false }
        if firstType == 1 { return info(code, PCRE2_INFO_FIRSTCODEUNIT).map { $0 != 0x0A } ?? false }
        var bitmap: UnsafePointer<UInt8>?
        guard pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_FIRSTBITMAP), &bitmap) == 0, let bitmap else { return false }
        return bitmap[0x0A / 8] & (1 << (0x0A % 8)) == 0
    }

    /// A 32-bit item of `pcre2_pattern_info`, nil where PCRE2 gives none.
    private static func info(_ code: OpaquePointer, _ what: some BinaryInteger) -> UInt32? {
        var value: UInt32 = 0
        return pcre2_pattern_info_8(code, UInt32(what), &value) == 0 ? value : nil
    }
}

/// A compiled PCRE2 pattern's code, which it frees, and its match context.
/// The code is immutable once compiled, and PCRE2 documents it as shareable
/// between threads.
class PCRE2Code: @unchecked Sendable {
    fileprivate let code: OpaquePointer
    fileprivate let context: PCRE2MatchContext

    init(code: OpaquePointer, context: PCRE2MatchContext) {
        self.code = code
        self.context = context
    }

    deinit { pcre2_code_free_8(code) }
}

final class PCRE2Pattern: PCRE2Code, CompiledPattern, @unchecked Sendable {
    func search(_ subject: MatchSubject) -> MatchOutcome {
        pcre2Search(code, subject, context.pointer)
    }
}

/// One search of `code` in `subject` under `context`, with match data of its
/// own, freed after: a search's backtracking frames are neither kept nor lent
/// to a later search with a smaller limit. A limit reached is
/// `.limitExceeded`; any other failure, `PCRE2_ERROR_CALLOUT` among them
/// (which the boundary callout returns only for what a checked UTF-8
/// subject never has), is `.noMatch`.
private func pcre2Search(_ code: OpaquePointer, _ subject: MatchSubject, _ context: OpaquePointer) -> MatchOutcome {
    let matchData = pcre2_match_data_create_8(1, nil)!
    defer { pcre2_match_data_free_8(matchData) }
    let rc = subject.withUTF8 { buf in
        pcre2_match_8(code, buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, buf.count, 0,
                      UInt32(PCRE2_NO_UTF_CHECK), matchData, context)
    }
    if rc >= 0 { return .match }
    switch rc {
    case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT:
        return .limitExceeded
    default:
        return .noMatch
    }
}

/// A compiled PCRE2 pattern with `\b` or `\B` callouts (`WordBoundaries`):
/// searched as `PCRE2Pattern` is, but under the match context's callout
/// form, with the thread's boundary table reset before and after each search
/// (the next search's subject may lie where this one's did). A class of its
/// own, so that other patterns' searches test nothing for it.
final class PCRE2BoundaryPattern: PCRE2Code, CompiledPattern, @unchecked Sendable {
    func search(_ subject: MatchSubject) -> MatchOutcome {
        let boundaries = BoundaryTable.current
        boundaries.reset()
        defer { boundaries.reset() }
        return pcre2Search(code, subject, context.withWordBoundaries)
    }
}

/// A PCRE2 match context holding the search limits; read-only once made, so
/// one per distinct `Limits` is shared by all patterns and threads. It comes
/// in two forms, alike but for the callout function, which only the second
/// has: patterns without `\b` or `\B` never run with one.
final class PCRE2MatchContext: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The same limits, with `WordBoundaries.callout` as the callout function.
    let withWordBoundaries: OpaquePointer

    private init(limits: Limits) {
        pointer = pcre2_match_context_create_8(nil)!
        pcre2_set_match_limit_8(pointer, limits.matchLimit)
        pcre2_set_heap_limit_8(pointer, limits.heapLimitKiB)
        withWordBoundaries = pcre2_match_context_copy_8(pointer)!
        pcre2_set_callout_8(withWordBoundaries, WordBoundaries.callout, nil)
    }

    deinit {
        pcre2_match_context_free_8(pointer)
        pcre2_match_context_free_8(withWordBoundaries)
    }

    private static let cache = Locked<[Limits: PCRE2MatchContext]>([:])

    /// The context for `limits`, made the first time.
    static func shared(for limits: Limits) -> PCRE2MatchContext {
        cache.withLock { contexts in
            if let context = contexts[limits] { return context }
            let context = PCRE2MatchContext(limits: limits)
            contexts[limits] = context
            return context
        }
    }
}
