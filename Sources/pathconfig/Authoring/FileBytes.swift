import PathConfiguration

/// The files a command reads besides configurations (a cases file, a
/// `--check` list): `-` is standard input.
enum FileBytes {
    /// How messages name `path`: `<stdin>` for `-`.
    static func name(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    /// The bytes of `path`, or of standard input for `-`.
    static func read(_ path: String) throws(ConfigurationError) -> [UInt8] {
        path == "-" ? try FileReader.read(fd: 0, name: name(path), limit: .max) : try FileReader.read(path, limit: .max)
    }
}
