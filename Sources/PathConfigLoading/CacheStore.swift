#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import PathConfigCore

/// The cache directory: one file per server URL, named by a stable hash of
/// the whole URL (so versioned URLs never share a copy), replaced atomically.
struct CacheStore: Sendable {
    let directory: String

    /// The cache file of `url`.
    func path(for url: String) -> String {
        directory + "/pathconfig-" + StableHash.hex(StableHash.fnv1a64(url.utf8)) + ".cache"
    }

    /// The cached copy of `url`, nil when there is none, or why the file
    /// there is unusable. Bodies above `maxBodyBytes` count as corrupt.
    func read(url: String, maxBodyBytes: Int) throws(CacheError) -> CachedCopy? {
        let file = path(for: url)
        func ignored(_ why: String, _ code: CacheError.Code = .corrupt) -> CacheError {
            CacheError(code: code, message: "cache file \(file) ignored: \(why)", path: file)
        }
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(file, limit: maxBodyBytes + 65_536)
        } catch {
            if error.osError == ENOENT { return nil }
            throw ignored(error.message, error.code == .limit ? .corrupt : .unreadable)
        }
        let copy: CachedCopy
        do { copy = try CachedCopy.decode(bytes) } catch { throw ignored(error.reason) }
        guard copy.url == url else { throw ignored("it holds \(copy.url), not \(url)") }
        guard copy.body.count <= maxBodyBytes else { throw ignored("its body is \(copy.body.count) bytes, over the limit of \(maxBodyBytes)") }
        return copy
    }

    /// Stores `copy` as the cache file of its URL, atomically, creating the
    /// directory when missing. On failure the previous file is unchanged.
    func write(_ copy: CachedCopy) throws(CacheError) {
        let file = path(for: copy.url)
        do {
            try AtomicFile.createDirectories(directory)
            try AtomicFile.write(copy.encoded(), to: file)
        } catch {
            throw CacheError(code: .unwritable, message: "cache file \(file) not updated: \(error.message)", path: file)
        }
    }
}
