import PathConfiguration

/// Writes straight to file descriptors 1 and 2, so output needs no shared
/// `FILE *` state (which Swift 6 flags as not concurrency-safe). A write
/// that fails stops there: there is nowhere left to report it.
enum StandardStreams {
    static func error(_ text: String) { try? AtomicFile.writeAll(2, Array(text.utf8), path: "standard error") }

    static func output(_ bytes: [UInt8]) { try? AtomicFile.writeAll(1, bytes, path: "standard output") }

    static func outputLine(_ text: String) { output(Array((text + "\n").utf8)) }
}
