import PathConfiguration

/// The files a command reads besides configurations (a cases file, a
/// `--check` list): `-` is standard input.
enum FileBytes {
    /// How messages name `path`: `<stdin>` for `-`.
    static func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// The bytes of `path`, or of standard input for `-`: at most a
    /// configuration's limit (64 MiB), so that an endless input (/dev/zero)
    /// fails instead of taking all memory.
    static func read(_ path: String) throws(ConfigurationError) -> [UInt8] {
        let limit = Limits().maxDocumentBytes
        return path == "-" ? try FileReader.read(fd: 0, name: name(path), limit: limit) : try FileReader.read(path, limit: limit)
    }
}
