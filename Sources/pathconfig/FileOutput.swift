import ArgumentParser
import PathConfiguration
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files a command writes (`port --output`): replaced atomically, so that
/// an interrupted run leaves the old file or the new one, never half.
enum FileOutput {
    /// Writes each text to its path, all or none: every file is first
    /// written in full beside its target (`.NAME.port-PID-N`), then each
    /// is renamed over its target, an existing target kept aside until all
    /// are in place; when a step fails, every target is left as it was (the
    /// ones already replaced get their old file back), the temporaries are
    /// removed, and the command exits 1 saying why.
    static func writeAll(_ files: [(text: String, path: String)]) throws {
        var staged: [(temporary: String, path: String)] = []
        var replaced: [(path: String, backup: String?)] = []
        func fail(_ message: String) -> ExitCode {
            // Undo, newest first: the old file back, or none where there was none.
            for (path, backup) in replaced.reversed() {
                if let backup { rename(backup, path) } else { unlink(path) }
            }
            for (temporary, _) in staged { unlink(temporary) }
            Diagnostics.error("\(message); nothing was written")
            return ExitCode(1)
        }
        for (i, file) in files.enumerated() {
            let temporary = sibling(file.path, "port-\(getpid())-\(i)")
            do { try AtomicFile.write(Array(file.text.utf8), to: temporary, mode: 0o644) } catch {
                throw fail(error.message)
            }
            staged.append((temporary, file.path))
        }
        for (i, (temporary, path)) in staged.enumerated() {
            var backup: String?
            var status = stat()
            if lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
                let aside = sibling(path, "old-\(getpid())-\(i)")
                guard rename(path, aside) == 0 else { throw fail("cannot move \(path) aside: \(String(cString: strerror(errno)))") }
                backup = aside
            }
            guard rename(temporary, path) == 0 else {
                let why = String(cString: strerror(errno))
                if let backup { rename(backup, path) }
                throw fail("cannot rename \(temporary) to \(path): \(why)")
            }
            replaced.append((path, backup))
        }
        for case let (_, backup?) in replaced { unlink(backup) }
    }

    /// A hidden name beside `path`: `dir/.NAME.TAG`.
    private static func sibling(_ path: String, _ tag: String) -> String {
        let name = path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex
        return "\(path[..<name]).\(path[name...]).\(tag)"
    }

    /// `path` with `.part` before its extension: `paths.json` and
    /// `hotwire-ios` give `paths.hotwire-ios.json`; `paths` gives `paths.hotwire-ios`.
    static func name(_ path: String, inserting part: String) -> String {
        let slash = path.lastIndex(of: "/")
        if let dot = path.lastIndex(of: "."), slash.map({ dot > $0 }) ?? true, dot != path.startIndex {
            return path[..<dot] + "." + part + path[dot...]
        }
        return path + "." + part
    }
}
