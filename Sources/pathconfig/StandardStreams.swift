#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import PathConfiguration

/// Writes straight to file descriptors 1 and 2, so output needs no shared
/// `FILE *` state (which Swift 6 flags as not concurrency-safe).
enum StandardStreams {
    /// A write to standard error that fails is dropped: there is nowhere
    /// left to report it.
    static func error(_ text: String) { try? AtomicFile.writeAll(2, Array(text.utf8), path: "standard error") }

    /// A write to standard output that fails (a full disk, a closed
    /// descriptor) ends the command at once with exit code 1, saying why on
    /// standard error, as coreutils do: a script must not take a cut-short
    /// answer for a whole one.
    static func output(_ bytes: [UInt8]) {
        do throws(AtomicFile.Failure) {
            try AtomicFile.writeAll(1, bytes, path: "standard output")
        } catch {
            Diagnostics.error(error.message)
            PathConfigCommand.exit(withError: ExitCode(1))
        }
    }

    static func outputLine(_ text: String) { output(Array((text + "\n").utf8)) }
}

/// The lines of standard input (file descriptor 0), read 64 KiB at a time,
/// each without its line ending (LF, or CR LF; a last line's CR too); bytes
/// that are not UTF-8 read as U+FFFD, as `readLine` reads them.
/// `beforeWaiting` runs whenever no whole line is left and the next read may
/// wait for more: a command flushes there what it has printed, so a person
/// typing, or a program writing one URL and waiting for its answer, gets
/// each answer at once, while a file's lines are answered in 64 KiB writes.
struct StandardInputLines {
    /// The longest line read: the limit of a document (64 MiB), a thousand
    /// times any URL a lookup takes (`max_url_bytes`). A longer one ends the
    /// command, so that input without line breaks (/dev/zero) cannot take
    /// all memory.
    static let maxLineBytes = Limits().maxDocumentBytes

    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    /// How many bytes from `start` on are known to hold no LF.
    private var scanned = 0
    private var ended = false
    /// How many lines `next` has returned: the last one's number.
    private(set) var count = 0

    /// The next line, or nil at the end of the input. A read that fails (a
    /// directory given as standard input) or a line over `maxLineBytes` ends
    /// the command with exit code 1, as a failed write to standard output
    /// does.
    mutating func next(beforeWaiting: () -> Void) -> String? {
        while true {
            let from = start + scanned
            let newline = buffer.withUnsafeBytes { bytes -> Int? in
                guard from < bytes.count, let base = bytes.baseAddress else { return nil }
                return memchr(base + from, 0x0A, bytes.count - from).map { base.distance(to: $0) }
            }
            scanned = (newline ?? buffer.count) - start
            if scanned > Self.maxLineBytes {
                Diagnostics.error("the line is longer than \(Self.maxLineBytes) bytes, the most a line may hold", at: "<stdin>:\(count + 1)")
                PathConfigCommand.exit(withError: ExitCode(1))
            }
            if newline != nil || (ended && start < buffer.count) {
                let next = newline.map { $0 + 1 } ?? buffer.count
                var end = newline ?? buffer.count
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                defer { start = next; scanned = 0; count += 1 }
                return String(decoding: buffer[start..<end], as: UTF8.self)
            }
            if ended { return nil }
            buffer.removeFirst(start)
            start = 0
            beforeWaiting()
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            let failure = n < 0 ? errno : 0
            buffer += chunk[..<max(n, 0)]
            if failure != 0 && failure != EINTR {
                Diagnostics.error("cannot read standard input: \(String(cString: strerror(failure)))")
                PathConfigCommand.exit(withError: ExitCode(1))
            }
            if n == 0 { ended = true }
        }
    }
}
