import EntryPointFuzzing
import PathConfiguration
#if canImport(Glibc)
import Glibc
#endif

/// `java.util.regex` itself: Tests/DialectFuzzing/DialectOracle.java, run
/// by the JDK on the PATH (or `$JAVA_HOME/bin/java`) once per batch of
/// questions, which cross as hex in files.
///
/// The process is started with `posix_spawnp`, not Foundation's `Process`
/// (whose weak-reference side tables LeakSanitizer reports as leaks in the
/// fuzz build; Tests/Sanitizers/lsan.supp says why), with a time limit. The
/// oracle is compiled once per process by `javac` into a scratch directory,
/// or run from source when there is no `javac`.
public enum JDKOracle {
    /// What the JDK said about one pattern.
    public enum Answer: Sendable, Equatable {
        /// It compiled; for each subject, whether `find()` succeeded (nil
        /// where it threw or overflowed its stack).
        case compiled([Bool?])
        /// `Pattern.compile` threw a `PatternSyntaxException` (or the
        /// pattern cannot be searched at all), with its description.
        case rejected(String)
        /// The JVM failed on it otherwise (a `StackOverflowError` while
        /// compiling): no answer.
        case failed(String)
    }

    /// Why there are no answers.
    public enum Unavailable: Error, Sendable {
        /// No JDK 17 runs here (not installed, or another version): the
        /// Java side is skipped.
        case noJDK(String)
        /// The JVM ran but failed or took too long on this batch.
        case failed(String)
    }

    /// The answers to `questions` (a pattern and its subjects each), in order.
    public static func ask(_ questions: [(pattern: String, subjects: [String])], timeoutSeconds: Int = 25) -> Result<[Answer], Unavailable> {
        let command: [String]
        switch launcher() {
        case .success(let c): command = c
        case .failure(let error): return .failure(error)
        }
        guard let directory = scratch else { return .failure(.failed("cannot make a scratch directory")) }
        var input: [UInt8] = []
        for (pattern, subjects) in questions {
            append(hex: pattern, to: &input)
            for subject in subjects {
                input.append(0x20)
                append(hex: subject, to: &input)
            }
            input.append(0x0A)
        }
        let inPath = directory + "/questions", outPath = directory + "/answers", errPath = directory + "/errors"
        guard write(input, to: inPath) else { return .failure(.failed("cannot write \(inPath)")) }
        let status = run(command, stdin: inPath, stdout: outPath, stderr: errPath, timeoutSeconds: timeoutSeconds)
        let errors = String(decoding: read(errPath).prefix(2_000), as: UTF8.self)
        switch status {
        case .notFound: return .failure(.noJDK("no java on the PATH (JAVA_HOME unset)"))
        case .timedOut: return .failure(.failed("java ran for more than \(timeoutSeconds) s on \(questions.count) patterns"))
        case .exited(let code) where code != 0: return .failure(.failed("java exited with \(code): \(errors)"))
        case .exited: break
        }
        let lines = read(outPath).split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        guard let first = lines.first else { return .failure(.failed("java wrote nothing: \(errors)")) }
        guard first == "java 17" else { return .failure(.noJDK("\(first), not Java 17 (the version the Java dialect follows)")) }
        guard lines.count == questions.count + 1 else {
            return .failure(.failed("java answered \(lines.count - 1) of \(questions.count) questions: \(errors)"))
        }
        return .success(lines.dropFirst().map { line in
            if line.hasPrefix("E ") || line.hasPrefix("R ") { return .rejected(String(line.dropFirst(2))) }
            if line.hasPrefix("X ") { return .failed(String(line.dropFirst(2))) }
            return .compiled(line.utf8.map { $0 == UInt8(ascii: "X") ? nil : $0 == UInt8(ascii: "1") })
        })
    }

    // MARK: The command

    /// The command that runs the oracle: decided once (javac runs then).
    private static func launcher() -> Result<[String], Unavailable> {
        launcherState.withLock { state in
            if let state { return state }
            let made = makeLauncher()
            state = made
            return made
        }
    }

    private static let launcherState = Locked<Result<[String], Unavailable>?>(nil)

    private static func makeLauncher() -> Result<[String], Unavailable> {
        let home = getenv("JAVA_HOME").map { String(cString: $0) } ?? ""
        let java = home.isEmpty ? "java" : home + "/bin/java"
        let javac = home.isEmpty ? "javac" : home + "/bin/javac"
        let source = FuzzFiles.inRepository("Tests/DialectFuzzing/DialectOracle.java")
        guard access(source, R_OK) == 0 else { return .failure(.failed("cannot read \(source)")) }
        let flags = ["-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
        guard let directory = scratch else { return .failure(.failed("cannot make a scratch directory")) }
        let classes = directory + "/classes"
        mkdir(classes, 0o700)
        let compiled = run([javac, "-d", classes, source], stdin: "/dev/null", stdout: directory + "/javac.out",
                           stderr: directory + "/javac.err", timeoutSeconds: 120)
        if case .exited(0) = compiled { return .success([java] + flags + ["-cp", classes, "DialectOracle"]) }
        return .success([java] + flags + [source])
    }

    /// A private directory for the batches' files (`removeScratch` removes it).
    private static let scratch: String? = {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/pathconfig-fuzz-dialect-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
        let path = String(cString: made)
        scratchToRemove.withLock { $0 = path }
        return path
    }()

    /// `name` in the scratch directory (nil when none can be made).
    public static func scratchFile(_ name: String) -> String? { scratch.map { $0 + "/" + name } }

    /// Removes the scratch directory, if one was made (at exit: after the
    /// last batch, which an `atexit` of its own could precede).
    public static func removeScratch() {
        guard let path = scratchToRemove.withLock({ $0 }) else { return }
        for name in ["questions", "answers", "errors", "javac.out", "javac.err", "pending"] { unlink(path + "/" + name) }
        let classes = path + "/classes"
        if let dir = opendir(classes) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(classes + "/" + name) }
            }
            closedir(dir)
        }
        rmdir(classes)
        rmdir(path)
    }

    private static let scratchToRemove = Locked<String?>(nil)

    // MARK: Processes and files

    enum Status { case exited(Int32), notFound, timedOut }

    /// Runs `command` (the first word found on the PATH) with its standard
    /// streams on files; kills it after `timeoutSeconds`.
    static func run(_ command: [String], stdin: String, stdout: String, stderr: String, timeoutSeconds: Int) -> Status {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, command[0], &actions, nil, &argv, environ)
        guard rc == 0 else { return .notFound }
        var status: Int32 = 0
        var waited = 0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return .exited(-1) }
            if waited >= timeoutSeconds * 200 {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return .timedOut
            }
            usleep(5_000)
            waited += 1
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
        if status & 0x7F == 0 {
            let code = (status >> 8) & 0xFF
            return code == 127 ? .notFound : .exited(code)
        }
        return .exited(128 + (status & 0x7F))
    }

    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    static func read(_ path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            out += buffer[0..<n]
        }
        return out
    }

    private static func append(hex s: String, to out: inout [UInt8]) {
        if s.isEmpty {
            out.append(UInt8(ascii: "-"))
            return
        }
        let digits = Array("0123456789abcdef".utf8)
        for b in s.utf8 {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
    }
}
