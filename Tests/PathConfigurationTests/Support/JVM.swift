import Foundation
import Testing

/// Runs the Java programs in Tests/JVM on a JDK 17, the reference for the
/// Android profiles (`java.net.URL`, `java.util.regex`, and Gson for their
/// documents): one JVM start per program, inputs as lines on standard input
/// (hex or base64, as each program reads them).
///
/// The JDK is Debian's `openjdk-17-jdk-headless` (scripts/install-deps.sh);
/// `JAVA_HOME` picks another, and the test fails when what runs is not 17.
enum JVM {
    /// The `java` to run: `$JAVA_HOME/bin/java`, else the one on the PATH.
    static var java: String {
        if let home = ProcessInfo.processInfo.environment["JAVA_HOME"], !home.isEmpty { return home + "/bin/java" }
        return "/usr/bin/env"
    }

    /// Runs `Tests/JVM/<program>` (a single source file, with the jars of
    /// `classPath` and the JVM's `options`) with `lines` on its standard
    /// input, and returns the lines it wrote after its first (`java 17`,
    /// checked here).
    static func run(_ program: String, lines inputs: [String], classPath: [String] = [], options: [String] = [],
                    arguments: [String] = []) throws -> [Substring] {
        for jar in classPath where !FileManager.default.fileExists(atPath: jar) {
            throw Failure("\(jar) is missing: install its Debian package (scripts/install-deps.sh does)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pathconfig-jvm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputFile = directory.appendingPathComponent("in.txt"), errorFile = directory.appendingPathComponent("err.txt")
        try Data(inputs.joined(separator: "\n").utf8 + [0x0A]).write(to: inputFile)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: java)
        let source = Conformance.repositoryRoot + "/Tests/JVM/" + program
        process.arguments = (java == "/usr/bin/env" ? ["java"] : []) + ["-Xshare:auto"] + options
            + (classPath.isEmpty ? [] : ["-cp", classPath.joined(separator: ":")]) + [source] + arguments
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        let out = Pipe()
        process.standardOutput = out
        do { try process.run() } catch {
            throw Failure("cannot run java (\(error)): install a JDK 17 (openjdk-17-jdk-headless, scripts/install-deps.sh) or set JAVA_HOME")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure("java \(program) exited with \(process.terminationStatus): \(errors.prefix(2000))")
        }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        guard let first = lines.first, first == "java 17" else {
            throw Failure("\(program) ran on \(lines.first ?? "nothing"), not Java 17 (set JAVA_HOME to a JDK 17): \(errors.prefix(500))")
        }
        return Array(lines.dropFirst())
    }

    /// The UTF-8 bytes of `s` in hex.
    static func hex(_ s: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 2)
        for b in s.utf8 {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text whose UTF-8 `hex` is, after the `x` the programs put first
    /// (so that an empty string is a word).
    static func unhex(_ hex: Substring) -> String {
        var bytes: [UInt8] = []
        var digits = hex.utf8.dropFirst().makeIterator()
        func value(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10 }
        while let high = digits.next(), let low = digits.next() { bytes.append(value(high) << 4 | value(low)) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An error with its message.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

}
