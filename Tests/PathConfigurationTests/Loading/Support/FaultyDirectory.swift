import Foundation
import PathConfiguration
@testable import PathConfigCore
@testable import PathConfigLoading

/// A directory made read-only or full for a test, the most real way this
/// machine allows, and restored by `restore()`:
///
/// - full: a tmpfs of `size` KiB mounted over it, then filled with a file
///   until a write fails (`mount -t tmpfs`, root with CAP_SYS_ADMIN);
/// - read-only: a read-only bind mount of it over itself (the same), or, for
///   a user other than root, mode 0500 (root ignores permission bits);
/// - otherwise AtomicFile's debug-build seam, which fails the loader's writes
///   into the directory with ENOSPC or EROFS as the kernel would.
///
/// `PATHCONFIG_TEST_NO_MOUNT=1` forces the seam (to test it where mounting works).
final class FaultyDirectory {
    /// Why the fault could not be made; fails the test.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// How the fault was made.
    enum Method: String {
        case mount, chmod, seam
    }

    let path: String
    let method: Method
    private var mounted = false

    /// Makes `path` (an existing directory, holding what it holds) read-only.
    static func readOnly(_ path: String) throws -> FaultyDirectory {
        if canMount, mount(["--bind", path, path]) {
            if mount(["-o", "remount,ro,bind", path]) { return FaultyDirectory(path, .mount, mounted: true) }
            _ = unmount(path)
        }
        if geteuid() != 0 {
            guard chmod(path, 0o500) == 0 else { throw Failure(description: "chmod \(path): \(String(cString: strerror(errno)))") }
            return FaultyDirectory(path, .chmod, mounted: false)
        }
        AtomicFile.simulatedFailures.withLock { $0[path] = EROFS }
        return FaultyDirectory(path, .seam, mounted: false)
    }

    /// Mounts a tmpfs of `sizeKiB` over `path` (an empty or missing
    /// directory) and runs `fill` with it empty; then fills it.
    static func full(_ path: String, sizeKiB: Int, beforeFilling fill: () throws -> Void) throws -> FaultyDirectory {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard canMount, mount(["-t", "tmpfs", "-o", "size=\(sizeKiB)k,mode=0700", "tmpfs", path]) else {
            try fill()
            AtomicFile.simulatedFailures.withLock { $0[path] = ENOSPC }
            return FaultyDirectory(path, .seam, mounted: false)
        }
        let directory = FaultyDirectory(path, .mount, mounted: true)
        try fill()
        // Fill it: one file, written until the file system says no.
        let fd = open(path + "/filler", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw Failure(description: "cannot create \(path)/filler") }
        defer { close(fd) }
        let block = [UInt8](repeating: 0x2A, count: 512)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        guard errno == ENOSPC else { throw Failure(description: "filling \(path): \(String(cString: strerror(errno)))") }
        return directory
    }

    private init(_ path: String, _ method: Method, mounted: Bool) {
        self.path = path
        self.method = method
        self.mounted = mounted
    }

    deinit { restore() }

    /// Frees space (removes the filler) without unmounting.
    func makeRoom() {
        if method == .seam { AtomicFile.simulatedFailures.withLock { _ = $0.removeValue(forKey: path) } }
        else { unlink(path + "/filler") }
    }

    /// Undoes the fault. Idempotent.
    func restore() {
        switch method {
        case .mount where mounted:
            mounted = !Self.unmount(path)
        case .chmod:
            chmod(path, 0o700)
        case .seam:
            AtomicFile.simulatedFailures.withLock { _ = $0.removeValue(forKey: path) }
        default:
            break
        }
    }

    /// Whether mounting is worth trying: root, and not turned off.
    static var canMount: Bool {
        geteuid() == 0 && ProcessInfo.processInfo.environment["PATHCONFIG_TEST_NO_MOUNT"] != "1"
    }

    private static func mount(_ arguments: [String]) -> Bool { run("/bin/mount", arguments) }

    private static func unmount(_ path: String) -> Bool { run("/bin/umount", [path]) || run("/bin/umount", ["-l", path]) }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
