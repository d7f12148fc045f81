#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes straight to file descriptors 1 and 2, so output needs no shared
/// `FILE *` state (which Swift 6 flags as not concurrency-safe).
enum StandardStreams {
    /// Writes `text` to standard error.
    static func error(_ text: String) { write(fd: 2, Array(text.utf8)) }

    /// Writes `bytes` to standard output.
    static func output(_ bytes: [UInt8]) { write(fd: 1, bytes) }

    private static func write(fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #else
                let n = Darwin.write(fd, raw.baseAddress! + offset, raw.count - offset)
                #endif
                if n < 0 { if errno == EINTR { continue } else { return } }
                offset += n
            }
        }
    }
}
