import Foundation
import PathConfiguration

/// Files the fuzz targets and their regression tests read: the repository's
/// examples, fixtures and bench corpora, and stored inputs.
public enum FuzzFiles {
    /// The repository root, from this file's path.
    public static let repositoryRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3) // Tests/EntryPointFuzzing/FuzzFiles.swift
        return parts.joined(separator: "/")
    }()

    /// `path` relative to the repository root.
    public static func inRepository(_ path: String) -> String { repositoryRoot + "/" + path }

    /// The contents of `path`, or nil when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// The contents of a file a check cannot do without, relative to the
    /// repository; a violation naming it when it is missing (a broken
    /// checkout: the target traps on it like on any other).
    static func required(_ path: String) throws(Violation) -> [UInt8] {
        guard let bytes = read(inRepository(path)) else {
            throw Violation("cannot read \(inRepository(path)): the fuzz targets read files of the repository")
        }
        return bytes
    }

    /// The regular files in directory `path` (sorted, hidden files left out),
    /// or `path` itself when it is a file; none when it does not exist.
    public static func inputs(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    /// A new private directory under the system's temporary directory, named
    /// after `prefix`, removed when the process exits; nil when none can be made.
    static func scratchDirectory(_ prefix: String) -> String? {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) }) else { return nil }
        scratch.withLock { $0.append(made) }
        _ = removeScratchAtExit
        return made
    }

    private static let scratch = Locked<[String]>([])
    private static let removeScratchAtExit: Void = {
        atexit { FuzzFiles.scratch.withLock { $0.forEach { try? FileManager.default.removeItem(atPath: $0) } } }
    }()
}
