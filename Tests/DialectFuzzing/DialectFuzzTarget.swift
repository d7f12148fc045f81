import EntryPointFuzzing
import PathConfiguration
#if canImport(Glibc)
import Glibc
#endif

/// What `Fuzz/Dialect/main.swift` runs on every input: the ICU side at
/// once, the Java side in batches.
///
/// The JVM takes a tenth of a second to start, so the Java cases (each
/// input's bytes and pcre2's answers, `DialectFuzzer.encode`) wait in a file
/// and go to the JDK together: once 2,000 are waiting, once the oldest has
/// waited 4 s, and at exit (libFuzzer exits through `exit` at the end of
/// `-max_total_time`, so the last batch runs then). A 20 s run (`make
/// fuzz-short`) so runs several batches. Without a JDK 17 the Java side is
/// skipped with one note on standard error, never failed.
///
/// A disagreement traps. For the ICU side libFuzzer keeps the input; for
/// the Java side the input that disagreed is an earlier one, so it is
/// written first where libFuzzer writes its artifacts (`-artifact_prefix`,
/// as `java-mismatch-<hash>`) and the message names the pattern, subject,
/// and that file.
///
/// `PATHCONFIG_FUZZ_DIALECT_LOG=FILE` (a survey): every violation is
/// appended to FILE, a line each with its input in hex, and the fuzzing
/// goes on instead.
public enum DialectFuzzTarget {
    /// Inputs checked (both sides), Java cases compared, and JVM batches run.
    public struct Counts: Sendable {
        public var inputs = 0
        public var javaCompared = 0
        public var batches = 0
    }

    struct State {
        var pending = 0
        var oldest = timespec()
        var file: CInt = -1
        var javaOff = false
        var started = false
        var counts = Counts()
    }

    static let state = Locked(State())

    static let batchSize = 2_000
    static let batchSeconds = 4

    /// Checks one input: traps on a violation of the ICU side, queues its
    /// Java side, and runs a JDK batch when one is due.
    public static func run(_ bytes: [UInt8]) {
        if let violation = DialectFuzzer.check(bytes) { fail("dialect: \(violation)", bytes) }
        let (javaCase, violation) = DialectFuzzer.javaCase(bytes)
        if let violation { fail("dialect: \(violation)", bytes) }
        let line = javaCase.map { DialectFuzzer.encode($0) + "\n" }
        let due: Bool = state.withLock { s in
            s.counts.inputs += 1
            if !s.started {
                s.started = true
                if let path = JDKOracle.scratchFile("pending") { s.file = open(path, O_RDWR | O_CREAT | O_TRUNC | O_APPEND, 0o600) }
                if s.file < 0 { s.javaOff = true }
                atexit { DialectFuzzTarget.flush(atExit: true) }
            }
            guard !s.javaOff, let line else { return false }
            _ = Array(line.utf8).withUnsafeBytes { Glibc.write(s.file, $0.baseAddress, $0.count) }
            let now = monotonic()
            if s.pending == 0 { s.oldest = now }
            s.pending += 1
            return s.pending >= batchSize || now.tv_sec - s.oldest.tv_sec >= batchSeconds
        }
        if due { flush() }
    }

    /// Runs the waiting Java cases through the JDK now.
    public static func flush(atExit: Bool = false) {
        let lines: [UInt8] = state.withLock { s in
            guard s.pending > 0, s.file >= 0 else { return [] }
            s.pending = 0
            let path = JDKOracle.scratchFile("pending")!
            defer { ftruncate(s.file, 0) }
            return JDKOracle.read(path)
        }
        let cases = lines.split(separator: 0x0A).compactMap { DialectFuzzer.decode(Substring(decoding: $0, as: UTF8.self)) }
        if !cases.isEmpty { compare(cases, atExit: atExit) }
        if atExit {
            JDKOracle.removeScratch()
            let counts = state.withLock { $0.counts }
            note("\(counts.inputs) inputs, \(counts.javaCompared) compared with the JDK in \(counts.batches) batches")
        }
    }

    private static func compare(_ cases: [DialectFuzzer.JavaCase], atExit: Bool) {
        switch DialectFuzzer.compare(cases) {
        case .failure(.noJDK(let why)):
            state.withLock { $0.javaOff = true }
            note("note: the Java side is skipped: \(why)")
        case .failure(.failed(let why)):
            // Not a disagreement: said, and the fuzzing goes on.
            note("note: a JDK batch of \(cases.count) patterns gave no answers: \(why)")
        case .success(let violations):
            state.withLock {
                $0.counts.javaCompared += cases.count
                $0.counts.batches += 1
            }
            if surveyLog != nil {
                for (violation, bytes) in violations { fail("dialect: \(violation)", bytes) }
                return
            }
            guard let (violation, bytes) = violations.first else { return }
            let saved = save(bytes)
            JDKOracle.removeScratch()
            fatalError("dialect: \(violation) (\(violations.count) of this batch disagree; the input is \(saved)"
                       + "\(atExit ? "" : ", not the one libFuzzer stores with this crash"))")
        }
    }

    /// A survey's log (`PATHCONFIG_FUZZ_DIALECT_LOG`); unset (as `make fuzz`
    /// runs it), the first violation traps.
    static let surveyLog: String? = getenv("PATHCONFIG_FUZZ_DIALECT_LOG").map { String(cString: $0) }

    private static func fail(_ message: String, _ bytes: [UInt8]) {
        guard let log = surveyLog else { fatalError(message) }
        let line = message + "\t" + hex(bytes) + "\n"
        let fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { fatalError(message) }
        _ = Array(line.utf8).withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes `bytes` beside libFuzzer's artifacts; says where, or the bytes in hex.
    private static func save(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01B3 }
        let prefix = CommandLine.arguments.first { $0.hasPrefix("-artifact_prefix=") }.map { String($0.dropFirst(17)) } ?? "./"
        let path = prefix + "java-mismatch-" + String(hash, radix: 16)
        return JDKOracle.write(bytes, to: path) ? path : "(hex) " + hex(bytes.prefix(4_096))
    }

    /// A line on standard error.
    static func note(_ line: String) {
        let bytes = Array(("pathconfig-fuzz-dialect: " + line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    private static func monotonic() -> timespec {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return t
    }

    /// The counts so far.
    public static var counts: Counts { state.withLock { $0.counts } }
}
