/// The library's version; one place for the CLI, the C ABI and the
/// PATHCONFIG_VERSION_* macros of include/pathconfig/common.h (the C tests
/// check that the header and the library agree).
public enum PathConfigurationVersion {
    /// Major version: changes break the C ABI or the Swift API.
    public static let major: Int32 = 1
    /// Minor version: additions.
    public static let minor: Int32 = 1
    /// Patch version: fixes.
    public static let patch: Int32 = 0
    /// "MAJOR.MINOR.PATCH", static so the C ABI can hand out its pointer.
    public static let string: StaticString = "1.1.0"
    /// MAJOR * 1000000 + MINOR * 1000 + PATCH, as PATHCONFIG_VERSION_NUMBER.
    public static var number: Int32 { major * 1_000_000 + minor * 1_000 + patch }
}
