#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole file, or standard input for `-`, with POSIX calls.
enum FileBytes {
    /// A file that could not be read: the message names it and says why.
    struct Failure: Error, Sendable {
        let message: String
    }

    /// The bytes of `path` (standard input when `path` is `-`).
    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let fd = path == "-" ? 0 : open(path, O_RDONLY)
        guard fd >= 0 else { throw Failure(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { if fd != 0 { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.read(fd, buffer.baseAddress, buffer.count)
                #else
                Darwin.read(fd, buffer.baseAddress, buffer.count)
                #endif
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<n])
        }
    }
}
