#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if DEBUG
import PathConfigCore
#endif

/// Replaces a file's contents so that readers, and a crash, see either the
/// old contents or the new ones, never a mix: write a temporary file in the
/// same directory, fsync it, rename it over the target, fsync the directory.
package enum AtomicFile {
    /// Why a write failed; the target is unchanged.
    package struct Failure: Error {
        package let message: String
    }

    /// Writes `bytes` to `path` atomically, creating the file with `mode`.
    package static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws(Failure) {
        let (directory, name) = split(path)
        let temporary = "\(directory)/.\(name).tmp-\(getpid())-\(StableHash.hex(UInt64.random(in: .min ... .max)))"
        let simulated = simulatedFailure(directory)
        let fd: Int32
        if let simulated, simulated != ENOSPC {
            errno = simulated
            fd = -1
        } else {
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        }
        guard fd >= 0 else { throw failure("cannot create \(temporary)") }
        var written = false
        defer { if !written { unlink(temporary) } }
        do {
            defer { close(fd) }
            if simulated == ENOSPC {
                errno = ENOSPC
                throw failure("cannot write \(temporary)")
            }
            try writeAll(fd, bytes, path: temporary)
            guard fsync(fd) == 0 else { throw failure("cannot fsync \(temporary)") }
        }
        guard rename(temporary, path) == 0 else { throw failure("cannot rename \(temporary) to \(path)") }
        written = true
        settle(name, in: directory)
    }

    #if DEBUG
    /// A test seam, in debug builds only, for machines where a test cannot
    /// mount a full or read-only file system: writes into a directory listed
    /// here fail as the kernel would fail them, ENOSPC at the first write,
    /// any other errno (EROFS, EACCES) at the creation of the temporary file.
    static let simulatedFailures = Locked<[String: Int32]>([:])

    private static func simulatedFailure(_ directory: String) -> Int32? {
        simulatedFailures.withLock { $0[directory] }
    }
    #else
    @inline(__always) private static func simulatedFailure(_ directory: String) -> Int32? { nil }
    #endif

    /// Creates `path` and its missing parents with mode 0700 (like `mkdir -p`).
    static func createDirectories(_ path: String) throws(Failure) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { throw failure("cannot create directory \(prefix)") }
        }
    }

    /// Writes all of `bytes` to `fd`, again where a signal cut a write short;
    /// `path` names the file in the failure.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in systemWrite(fd, raw.baseAddress! + offset, raw.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write \(path)")
            }
            offset += n
        }
    }

    /// Makes the rename of `name` durable (fsync of its directory), then
    /// removes the temporary files of `name` that a writer killed mid-write
    /// (SIGKILL, power loss) left, those untouched for an hour: a write takes
    /// seconds at most. Were a stalled writer's file removed, its rename
    /// would fail and leave the target as it was. A failure here leaves the
    /// new file in place, so it is not reported.
    private static func settle(_ name: String, in directory: String) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        _ = fsync(dirfd(dir))
        let prefix = Array(".\(name).tmp-".utf8)
        let hourAgo = time(nil) - 3600
        while let entry = readdir(dir) {
            // The entry's own bytes, never decoded: a name is any bytes.
            withUnsafeBytes(of: entry.pointee.d_name) { raw in
                guard raw.starts(with: prefix) else { return }
                let file = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
                var status = stat()
                guard fstatat(dirfd(dir), file, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
                #if canImport(Darwin)
                let modified = status.st_mtimespec.tv_sec
                #else
                let modified = status.st_mtim.tv_sec
                #endif
                if modified < hourAgo { unlinkat(dirfd(dir), file, 0) }
            }
        }
    }

    /// The directory and file name of `path`.
    private static func split(_ path: String) -> (String, String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = String(path[..<slash])
        return (directory.isEmpty ? "/" : directory, String(path[path.index(after: slash)...]))
    }

    private static func failure(_ what: String) -> Failure {
        Failure(message: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// write(2), which `AtomicFile.write` hides inside the type.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(fd, bytes, count) }
