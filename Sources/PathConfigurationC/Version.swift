import PathConfigLoading
import PathConfigCore

@_cdecl("pathconfig_version")
public func pathconfig_version() -> UnsafePointer<CChar> {
    staticCString(PathConfigurationVersion.string)
}

@_cdecl("pathconfig_version_number")
public func pathconfig_version_number() -> Int32 {
    PathConfigurationVersion.number
}
