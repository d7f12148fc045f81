import ArgumentParser
import PathConfiguration

/// Files a command writes (`port --output`): replaced atomically, so that
/// an interrupted run leaves the old file or the new one, never half.
enum FileOutput {
    /// Writes `text` to `path` (mode 0644), or exits 1 saying why.
    static func write(_ text: String, to path: String) throws {
        do { try AtomicFile.write(Array(text.utf8), to: path, mode: 0o644) } catch {
            StandardStreams.error("pathconfig: error: \(error.message)\n")
            throw ExitCode(1)
        }
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
