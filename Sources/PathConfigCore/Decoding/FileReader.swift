#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with POSIX calls, so the core needs no Foundation.
package enum FileReader {
    /// The bytes of the file at `path`, at most `limit` of them.
    package static func read(_ path: String, limit: Int) throws(ConfigurationError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ioError("cannot open \(path)") }
        defer { close(fd) }
        return try read(fd: fd, name: path, limit: limit)
    }

    /// The bytes of the open file descriptor `fd` up to its end, at most
    /// `limit` of them; `path` names it in errors.
    package static func read(fd: Int32, name path: String, limit: Int) throws(ConfigurationError) -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read \(path)")
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit {
                throw ConfigurationError(code: .limit, message: "\(path) is larger than the limit of \(limit) bytes")
            }
        }
        return out
    }

    private static func ioError(_ what: String) -> ConfigurationError {
        let number = errno
        return ConfigurationError(code: .io, message: "\(what): \(String(cString: strerror(number)))", osError: number)
    }
}
