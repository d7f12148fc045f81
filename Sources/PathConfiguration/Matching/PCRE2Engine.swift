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
/// Patterns are not JIT-compiled. PCRE2 10.42 (Debian 12's) has JIT bugs
/// that miss matches its interpreter finds (`(1|)b*1` on `/12`, PCRE2 issue
/// #336, fixed in 10.43), and behind the prefilter the interpreter answers
/// as fast (make bench: 2.9 against 4.2 µs per lookup at 10,000 rules, 1.7
/// against 1.8 at 1,000, the same at 10 and 100) and loads twice as fast.
public struct PCRE2Engine: RegexEngine {
    /// Creates the engine.
    public init() {}

    public var name: String { "pcre2" }

    public func compile(_ pattern: String, options: RegexOptions, limits: Limits) throws(RegexCompileError) -> any CompiledPattern {
        var flags = UInt32(PCRE2_UTF)
        // Java's case-insensitivity is written out by the translation.
        if options.caseInsensitive && options.dialect == .icu { flags |= UInt32(PCRE2_CASELESS) }
        if options.unicodeClasses { flags |= UInt32(PCRE2_UCP) }
        let translation: PatternTranslation
        do {
            translation = try PatternTranslator.translate(pattern, dialect: options.dialect, caseInsensitive: options.caseInsensitive)
        } catch {
            throw RegexCompileError(message: error.message, offset: error.offset)
        }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let bytes = translation.bytes
        let code = bytes.withUnsafeBufferPointer { buf in
            pcre2_compile_8(buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, buf.count, flags, &errorCode, &errorOffset, nil)
        }
        guard let code else {
            var message = [UInt8](repeating: 0, count: 256)
            let n = message.withUnsafeMutableBufferPointer { pcre2_get_error_message_8(errorCode, $0.baseAddress, $0.count) }
            let text = n > 0 ? String(decoding: message[0..<Int(n)], as: UTF8.self) : "error \(errorCode)"
            throw RegexCompileError(message: DialectMessages.pcre2Error(text, dialect: options.dialect),
                                    offset: translation.originalOffset(forByte: errorOffset))
        }
        return PCRE2Pattern(code: code, context: PCRE2MatchContext.shared(for: limits))
    }
}

/// A compiled PCRE2 pattern. The code is immutable once compiled, and PCRE2
/// documents it as shareable between threads.
final class PCRE2Pattern: CompiledPattern, @unchecked Sendable {
    private let code: OpaquePointer
    private let context: PCRE2MatchContext

    init(code: OpaquePointer, context: PCRE2MatchContext) {
        self.code = code
        self.context = context
    }

    deinit { pcre2_code_free_8(code) }

    func search(_ subject: MatchSubject) -> MatchOutcome {
        // PCRE2 keeps a search's backtracking frames in its match data and
        // checks the heap limit only when they grow: a long subject gets
        // match data of its own, freed after, so that its frames are neither
        // kept by the thread nor lent to a later search with a smaller limit.
        guard subject.utf8Count <= PCRE2ThreadState.reusedUpToBytes else {
            let matchData = pcre2_match_data_create_8(1, nil)!
            defer { pcre2_match_data_free_8(matchData) }
            return search(subject, with: matchData)
        }
        return search(subject, with: PCRE2ThreadState.current.matchData)
    }

    private func search(_ subject: MatchSubject, with matchData: OpaquePointer) -> MatchOutcome {
        let rc = subject.withUTF8 { buf in
            pcre2_match_8(code, buf.baseAddress ?? UnsafePointer(bitPattern: 1)!, buf.count, 0,
                          UInt32(PCRE2_NO_UTF_CHECK), matchData, context.pointer)
        }
        if rc >= 0 { return .match }
        switch rc {
        case PCRE2_ERROR_MATCHLIMIT, PCRE2_ERROR_DEPTHLIMIT, PCRE2_ERROR_HEAPLIMIT:
            return .limitExceeded
        default:
            return .noMatch
        }
    }
}

/// A PCRE2 match context holding the search limits; read-only once made, so
/// one per distinct `Limits` is shared by all patterns and threads.
final class PCRE2MatchContext: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(limits: Limits) {
        pointer = pcre2_match_context_create_8(nil)!
        pcre2_set_match_limit_8(pointer, limits.matchLimit)
        pcre2_set_heap_limit_8(pointer, limits.heapLimitKiB)
    }

    deinit { pcre2_match_context_free_8(pointer) }

    private static let cache = LockedCache<Limits, PCRE2MatchContext>()

    static func shared(for limits: Limits) -> PCRE2MatchContext {
        cache.value(for: limits) { PCRE2MatchContext(limits: limits) }
    }
}
