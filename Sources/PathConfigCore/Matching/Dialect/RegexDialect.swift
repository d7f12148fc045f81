/// The regular-expression language a configuration's patterns are written in.
///
/// The apps compile patterns with their platform's engine, so a pattern means
/// what that engine says it means. PCRE2 reads a different language: an
/// engine that is not the app's own translates the pattern first
/// (`PatternTranslator`), and refuses what has no exact equivalent. The
/// Foundation engine *is* ICU and compiles the pattern as written.
public enum RegexDialect: String, Sendable, Hashable, CaseIterable {
    /// ICU, as `NSRegularExpression` compiles it on iOS.
    case icu
    /// `java.util.regex` (OpenJDK), as the Android libraries' unit tests run
    /// it: ASCII `\d`, `\w`, `\s` and POSIX classes, Java line terminators.
    case java

    /// How messages name the dialect ("ICU", "Java").
    package var displayName: String { self == .icu ? "ICU" : "Java" }
}
