import Foundation
import PathConfiguration

/// The engine iOS apps use: `NSRegularExpression` (ICU), for exact iOS behaviour.
///
/// Slower than PCRE2 and it pulls in full Foundation, which is why it lives in
/// its own target and stays out of `libpathconfig.so`. ICU's `\d`, `\w` and
/// `\b` are always Unicode-aware, so `unicodeClasses: false` is not honoured;
/// ICU has no match budget, so `Limits.matchLimit` does not apply.
public struct FoundationEngine: RegexEngine {
    /// Creates the engine.
    public init() {}

    public var name: String { "foundation" }

    /// ICU, whatever the options say: `NSRegularExpression` reads every pattern as ICU does.
    public func dialect(for options: RegexOptions) -> RegexDialect { .icu }

    public func compile(_ pattern: String, options: RegexOptions, limits: Limits) throws(RegexCompileError) -> any CompiledPattern {
        var flags: NSRegularExpression.Options = []
        if options.caseInsensitive { flags.insert(.caseInsensitive) }
        do {
            return FoundationPattern(regex: try NSRegularExpression(pattern: pattern, options: flags))
        } catch {
            throw RegexCompileError(message: Self.message(for: error as NSError), offset: nil)
        }
    }

    private static func message(for error: NSError) -> String {
        if let detail = error.userInfo["NSInvalidValue"] as? String { return "ICU rejected \(JSONWriter.quoted(detail))" }
        return "ICU rejected the pattern (\(error.domain) \(error.code))"
    }
}

/// A compiled `NSRegularExpression`; documented as safe to use from several threads.
final class FoundationPattern: CompiledPattern, @unchecked Sendable {
    private let regex: NSRegularExpression

    init(regex: NSRegularExpression) { self.regex = regex }

    func search(_ subject: MatchSubject) -> MatchOutcome {
        let string: NSString
        if let cached = subject.engineScratch as? NSString {
            string = cached
        } else {
            string = NSString(string: subject.string)
            subject.engineScratch = string
        }
        let range = NSRange(location: 0, length: string.length)
        return regex.firstMatch(in: string as String, options: [], range: range) != nil ? .match : .noMatch
    }
}
