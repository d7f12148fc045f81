/// The library version; include/pathconfig.h's PATHCONFIG_VERSION_* macros
/// say the same (Tests/CTests checks that they agree).
enum LibraryVersion {
    static let major: Int32 = 0
    static let minor: Int32 = 1
    static let patch: Int32 = 0
    static let string: StaticString = "0.1.0"
    /// major * 1000000 + minor * 1000 + patch, as PATHCONFIG_VERSION_NUMBER.
    static var number: Int32 { major * 1_000_000 + minor * 1_000 + patch }
}

@_cdecl("pathconfig_version")
public func pathconfig_version() -> UnsafePointer<CChar> {
    staticCString(LibraryVersion.string)
}

@_cdecl("pathconfig_version_number")
public func pathconfig_version_number() -> Int32 {
    LibraryVersion.number
}
