/// How a pattern is compiled: the parts of regex semantics that differ between
/// the reference apps.
public struct RegexOptions: Sendable, Hashable {
    /// Case-insensitive matching (Android's `IGNORE_CASE`).
    public var caseInsensitive: Bool
    /// Unicode semantics for `\d`, `\w`, `\s` and `\b` (ICU's behaviour on iOS);
    /// off means ASCII classes (java.util.regex's default on Android).
    public var unicodeClasses: Bool
    /// The language the patterns are written in. An engine that is not the
    /// dialect's own translates them first, or refuses what it cannot match
    /// the same way (`PCRE2Engine`); the Foundation engine is ICU.
    public var dialect: RegexDialect

    /// Creates regex options.
    public init(caseInsensitive: Bool = false, unicodeClasses: Bool = true, dialect: RegexDialect = .icu) {
        self.caseInsensitive = caseInsensitive
        self.unicodeClasses = unicodeClasses
        self.dialect = dialect
    }
}

/// A pattern an engine could not compile.
public struct RegexCompileError: Error, Sendable, Hashable {
    /// The engine's message.
    public let message: String
    /// 0-based offset in the pattern, in Unicode scalars, where compilation
    /// stopped (nil when the engine does not say).
    public let offset: Int?
    /// The pattern is valid in its dialect, and the apps run it, but this
    /// engine cannot match it exactly as the dialect's own engine does (the
    /// pcre2 backend refuses such constructs rather than approximate them):
    /// a limit of the library, not a fault of the pattern. The message says
    /// what to do instead.
    public let isUnsupported: Bool

    /// Creates a compile error.
    public init(message: String, offset: Int?, isUnsupported: Bool = false) {
        self.message = message
        self.offset = offset
        self.isUnsupported = isUnsupported
    }
}

/// The result of one search.
public enum MatchOutcome: Sendable, Hashable {
    /// The pattern occurs in the subject.
    case match
    /// It does not.
    case noMatch
    /// The search ran out of its `Limits` budget; counted as no match.
    case limitExceeded
}

/// The string being matched, prepared once per lookup and shared by every
/// pattern that runs against it.
public final class MatchSubject {
    /// The matched string, in native (contiguous UTF-8) form.
    public let string: String
    /// One slot an engine may use to cache its own form of the subject
    /// (the Foundation engine keeps an `NSString` here). Subjects are used by
    /// one thread at a time.
    public var engineScratch: AnyObject?

    /// Prepares `string` for matching. A native Swift string (every string
    /// made on Linux, and most elsewhere) is used in place, not copied.
    public init(_ string: String) {
        var native = string
        native.makeContiguousUTF8()
        self.string = native
        isPrintableASCII = native.utf8.withContiguousStorageIfAvailable(ByteSet.allPrintable) ?? false
    }

    /// Whether every byte is a printable ASCII character (space to `~`): the
    /// subjects a `SmallPattern` may decide instead of the engine.
    let isPrintableASCII: Bool

    /// Calls `body` with the subject's UTF-8 bytes, valid for the call.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let r = try string.utf8.withContiguousStorageIfAvailable(body) { return r }
        return try ContiguousArray(string.utf8).withUnsafeBufferPointer(body)  // not reached: the string is native
    }
}

/// A compiled pattern, safe to search from many threads at once. A class, so
/// that a plan can refer to it without counting references on every search.
public protocol CompiledPattern: AnyObject, Sendable {
    /// Searches the whole subject, unanchored, for the pattern.
    func search(_ subject: MatchSubject) -> MatchOutcome
}

/// A regular expression engine: the one seam through which backends plug in.
public protocol RegexEngine: Sendable {
    /// The backend's name as options and the CLI spell it (`pcre2`, `foundation`).
    var name: String { get }
    /// Compiles `pattern`, or says why and where it is not valid.
    func compile(_ pattern: String, options: RegexOptions, limits: Limits) throws(RegexCompileError) -> any CompiledPattern
    /// The dialect the engine reads patterns compiled with `options` in,
    /// which the analyses of a pattern read it in too: `options.dialect`,
    /// unless the engine has a dialect of its own.
    func dialect(for options: RegexOptions) -> RegexDialect
}

extension RegexEngine {
    /// `options.dialect`: the engine reads every dialect as its own.
    public func dialect(for options: RegexOptions) -> RegexDialect { options.dialect }
}
