import Foundation

/// `java.util.regex` itself, on the JDK that scripts/install-deps.sh installs
/// (OpenJDK 17, the version the Java dialect follows): a single-file Java
/// program, run once per batch of questions with `java Oracle.java`.
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

    /// The answers, one line of text each, in order; throws when `java`
    /// cannot run the program (install it with scripts/install-deps.sh).
    static func ask(_ questions: [Question]) throws -> [String] {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("pathconfig-java-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("Oracle.java")
        try source.write(to: program, atomically: true, encoding: .utf8)
        let input = directory.appendingPathComponent("questions.txt")
        try questions.map(line).joined(separator: "\n").appending("\n").write(to: input, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["java", program.path, input.path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let answer = out.fileHandleForReading.readDataToEndOfFile()
        let problem = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(message: "java exited \(process.terminationStatus) (scripts/install-deps.sh installs the JDK): "
                + String(decoding: problem, as: UTF8.self))
        }
        let lines = String(decoding: answer, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count == questions.count + 1 else { throw Failure(message: "java answered \(lines.count - 1) of \(questions.count)") }
        return Array(lines.dropLast())
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
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

    private static let source = #"""
        import java.nio.file.*;
        import java.util.*;
        import java.util.regex.*;

        public class Oracle {
            static String text(String hex) {
                if (hex.equals("-")) return "";
                StringBuilder b = new StringBuilder();
                for (String h : hex.split(",")) b.appendCodePoint(Integer.parseInt(h, 16));
                return b.toString();
            }

            public static void main(String[] args) throws Exception {
                StringBuilder out = new StringBuilder();
                for (String line : Files.readAllLines(Path.of(args[0]))) {
                    String[] f = line.split(" ");
                    String subject = text(f[3]);
                    switch (f[0]) {
                    case "F": {
                        int flags = f[1].equals("1") ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
                        out.append(Pattern.compile(text(f[2]), flags).matcher(subject).find() ? "1" : "0");
                        break;
                    }
                    case "S": {
                        Matcher m = Pattern.compile(text(f[2])).matcher(subject);
                        StringJoiner starts = new StringJoiner(" ");
                        int index = 0, count = 0;
                        while (m.find()) {
                            count += subject.codePointCount(index, m.start());
                            index = m.start();
                            starts.add(Integer.toString(count));
                        }
                        out.append(starts.toString());
                        break;
                    }
                    case "U": {
                        Matcher m = Pattern.compile(text(f[2])).matcher(subject);
                        StringJoiner starts = new StringJoiner(" ");
                        while (m.find()) starts.add(Integer.toString(m.start()));
                        out.append(starts.toString());
                        break;
                    }
                    case "T": {
                        StringJoiner types = new StringJoiner(" ");
                        subject.codePoints().forEach(c -> types.add(Integer.toString(Character.getType(c))));
                        out.append(types.toString());
                        break;
                    }
                    }
                    out.append('\n');
                }
                System.out.print(out);
            }
        }
        """#
}
