import Foundation

/// `java.util.regex` itself, on the JDK that scripts/install-deps.sh installs
/// (OpenJDK 17, the version the Java dialect follows): Tests/JVM/RegexOracle.java,
/// run once per batch of questions (`JVM.run`).
///
/// Strings cross as code points in hex (`61,301`), so that nothing in a
/// pattern or subject needs quoting. Patterns compile as the Android apps'
/// Kotlin `Regex(pattern, IGNORE_CASE)` does when `caseInsensitive`
/// (`CASE_INSENSITIVE | UNICODE_CASE`), else with no flags.
enum JavaOracle {
    /// One question.
    enum Question {
        /// Does `find()` succeed?
        case finds(pattern: String, subject: String, caseInsensitive: Bool)
        /// The start of every match `find()` returns in turn, in code points.
        case matchStarts(pattern: String, subject: String)
        /// The same in UTF-16 units, which can fall inside a surrogate pair.
        case utf16MatchStarts(pattern: String, subject: String)
        /// `Character.getType(c)`, for each code point of `text`.
        case types(String)
    }

    /// The answers, one line of text each, in order (Tests/JVM/RegexOracle.java,
    /// through `JVM.run`); throws when `java` cannot run it.
    static func ask(_ questions: [Question]) throws -> [String] {
        let answers = try JVM.run("RegexOracle.java", lines: questions.map(line))
        guard answers.count == questions.count else { throw JVM.Failure("java answered \(answers.count) of \(questions.count)") }
        return answers.map(String.init)
    }

    private static func hex(_ s: String) -> String {
        s.isEmpty ? "-" : s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",")
    }

    private static func line(_ q: Question) -> String {
        switch q {
        case let .finds(pattern, subject, caseInsensitive): return "F \(caseInsensitive ? 1 : 0) \(hex(pattern)) \(hex(subject))"
        case let .matchStarts(pattern, subject): return "S 0 \(hex(pattern)) \(hex(subject))"
        case let .utf16MatchStarts(pattern, subject): return "U 0 \(hex(pattern)) \(hex(subject))"
        case let .types(text): return "T 0 - \(hex(text))"
        }
    }
}
