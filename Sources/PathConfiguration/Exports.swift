// The `PathConfiguration` module: what Swift users import. It holds no code of
// its own; it re-exports the role targets below it (Package.swift draws the
// graph), so `import PathConfiguration` gives the whole public API.
@_exported import PathConfigCore
@_exported import PathConfigLoading
@_exported import PathConfigLint
@_exported import PathConfigPort
