import CPathConfigHeader
import PathConfigLoading
import PathConfigCore

// What this library knows, listed for hosts so that none keeps a copy: the
// profiles, the backends built in, the typed keys (kind, allowed values and
// default per profile) and the warning kinds. The core's tables (`Profile`,
// `Backend`, `TypedKey`, `ConfigurationWarning.Kind`) are the only source;
// every C string is made once, on first use, and kept for the life of the
// process ("static" in the header).

/// The C side of the core's tables.
enum Catalog {
    static let profiles = Profile.allCases
    /// The backends built into this library, in `Backend` order (the default
    /// first): not `foundation`, which would link full Foundation and ICU.
    static let backends = Backend.allCases.filter { Backend.builtIn[$0.rawValue] != nil }
    static let keys = TypedKey.allCases
    /// Numbered from 1 in this order (`PATHCONFIG_WARNING_*`).
    static let warningKinds = ConfigurationWarning.Kind.allCases

    static let profileNames = profiles.map { permanent($0.rawValue) }
    static let platformNames = profiles.map { permanent($0.platform.rawValue) }
    static let backendNames = backends.map { permanent($0.rawValue) }
    static let keyNames = keys.map { permanent($0.rawValue) }
    static let warningKindNames = warningKinds.map { permanent($0.rawValue) }
    /// By key, then profile: the allowed values.
    static let keyValues: [[[OwnedCString?]]] = keys.map { key in
        profiles.map { profile in key.allowedValues(on: profile.platform).map(permanent) }
    }
    /// By key, then profile: the default of a string or enum key (nil: none).
    static let keyDefaults: [[OwnedCString?]] = keys.map { key in
        profiles.map { profile in key.defaultValue(on: profile.platform).stringValue.flatMap(permanent) }
    }

    /// A C string kept for the life of the process; nil when out of memory.
    private static func permanent(_ s: String) -> OwnedCString? { try? OwnedCString(s) }

    /// The pointer of a string made above; NOMEM when it could not be made.
    static func made(_ s: OwnedCString?) throws(CFailure) -> UnsafePointer<CChar> {
        guard let s else { throw .noMemory }
        return s.borrowed
    }

    /// `i` as an index into a list of `count` (what it lists named in the message).
    static func index(_ i: UInt, below count: Int, _ what: String) throws(CFailure) -> Int {
        guard i < UInt(count) else { throw .argument("index \(i) is out of range (there are \(count) \(what))") }
        return Int(i)
    }

    /// The index of the profile a host names (`APP` or `APP@VERSION`: the app's).
    static func profileIndex(_ name: UnsafePointer<CChar>?) throws(CFailure) -> Int {
        let text = try hostString(name, "profile")
        let profile: Profile
        do { profile = try Profile(name: text) } catch { throw .argument(error.message) }
        return profiles.firstIndex { $0.app == profile.app } ?? 0
    }

    /// By profile, then release line: the name `--profile` takes for the
    /// line (`hotwire-ios@1.2.0`, `hotwire-ios@main`), its tags
    /// (space-separated), its commit.
    static let releaseNames: [[OwnedCString?]] = profiles.map { p in
        p.app.releases.map { permanent(p.app.rawValue + "@" + ($0.tags.first ?? "main")) }
    }
    static let releaseTags: [[OwnedCString?]] = profiles.map { p in p.app.releases.map { permanent($0.tags.joined(separator: " ")) } }
    static let releaseCommits: [[OwnedCString?]] = profiles.map { p in p.app.releases.map { permanent($0.commit) } }

    /// The line the bare name reads as.
    static func bareRelease(_ i: Int) -> Int { profiles[i].app.releases.firstIndex(of: profiles[i].release) ?? 0 }

    static func number(of kind: ConfigurationWarning.Kind) -> Int32 {
        Int32((warningKinds.firstIndex(of: kind) ?? 0) + 1)
    }
}

/// `PATHCONFIG_TYPED_*`: how a typed key is read.
private func kindNumber(_ kind: TypedKey.Kind) -> Int32 {
    switch kind {
    case .string: return PATHCONFIG_TYPED_STRING
    case .boolean: return PATHCONFIG_TYPED_BOOL
    case .enumeration: return PATHCONFIG_TYPED_ENUM
    }
}

// MARK: - Profiles and backends

@_cdecl("pathconfig_profile_count")
public func pathconfig_profile_count() -> UInt { UInt(Catalog.profiles.count) }

/// Checks `i`, then reads the C string at `i` of `list` (of `what`).
private func listed(_ i: UInt, _ list: [OwnedCString?], _ what: String) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in try Catalog.made(list[Catalog.index(i, below: list.count, what)]) }
}

@_cdecl("pathconfig_profile_name")
public func pathconfig_profile_name(_ i: UInt) -> UnsafePointer<CChar>? { listed(i, Catalog.profileNames, "profiles") }

@_cdecl("pathconfig_profile_platform")
public func pathconfig_profile_platform(_ i: UInt) -> UnsafePointer<CChar>? { listed(i, Catalog.platformNames, "profiles") }

@_cdecl("pathconfig_profile_release_count")
public func pathconfig_profile_release_count(_ i: UInt) -> UInt {
    i < UInt(Catalog.profiles.count) ? UInt(Catalog.releaseNames[Int(i)].count) : 0
}

/// Checks `i` and `j`, then reads the release line's C string in `table`.
private func releaseString(_ i: UInt, _ j: UInt, _ table: [[OwnedCString?]]) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let p = try Catalog.index(i, below: Catalog.profiles.count, "profiles")
        return try Catalog.made(table[p][Catalog.index(j, below: table[p].count, "release lines of \(Catalog.profiles[p].rawValue)")])
    }
}

@_cdecl("pathconfig_profile_release_name")
public func pathconfig_profile_release_name(_ i: UInt, _ j: UInt) -> UnsafePointer<CChar>? { releaseString(i, j, Catalog.releaseNames) }

@_cdecl("pathconfig_profile_release_tags")
public func pathconfig_profile_release_tags(_ i: UInt, _ j: UInt) -> UnsafePointer<CChar>? { releaseString(i, j, Catalog.releaseTags) }

@_cdecl("pathconfig_profile_release_commit")
public func pathconfig_profile_release_commit(_ i: UInt, _ j: UInt) -> UnsafePointer<CChar>? { releaseString(i, j, Catalog.releaseCommits) }

@_cdecl("pathconfig_profile_default_release")
public func pathconfig_profile_default_release(_ i: UInt) -> UInt {
    i < UInt(Catalog.profiles.count) ? UInt(Catalog.bareRelease(Int(i))) : 0
}

@_cdecl("pathconfig_backend_count")
public func pathconfig_backend_count() -> UInt { UInt(Catalog.backends.count) }

@_cdecl("pathconfig_backend_name")
public func pathconfig_backend_name(_ i: UInt) -> UnsafePointer<CChar>? { listed(i, Catalog.backendNames, "backends built in") }

// MARK: - Typed keys (each numbered key checked by `typedKey`)

@_cdecl("pathconfig_typed_key_count")
public func pathconfig_typed_key_count() -> UInt { UInt(Catalog.keys.count) }

@_cdecl("pathconfig_typed_key_name")
public func pathconfig_typed_key_name(_ key: Int32) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in try Catalog.made(Catalog.keyNames[typedKey(key).index]) }
}

@_cdecl("pathconfig_typed_key_kind")
public func pathconfig_typed_key_kind(_ key: Int32) -> Int32 {
    boundary(or: 0) { () throws(CFailure) -> Int32 in kindNumber(try typedKey(key).kind) }
}

@_cdecl("pathconfig_typed_key_value_count")
public func pathconfig_typed_key_value_count(_ key: Int32, _ profile: UnsafePointer<CChar>?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in
        UInt(try Catalog.keyValues[typedKey(key).index][Catalog.profileIndex(profile)].count)
    }
}

@_cdecl("pathconfig_typed_key_value")
public func pathconfig_typed_key_value(_ key: Int32, _ profile: UnsafePointer<CChar>?, _ j: UInt) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let key = try typedKey(key)
        let p = try Catalog.profileIndex(profile)
        let value = try Catalog.index(j, below: Catalog.keyValues[key.index][p].count, "values of \"\(key.rawValue)\"")
        return try Catalog.made(Catalog.keyValues[key.index][p][value])
    }
}

@_cdecl("pathconfig_typed_key_default_string")
public func pathconfig_typed_key_default_string(_ key: Int32, _ profile: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let key = try typedKey(key)
        let p = try Catalog.profileIndex(profile)
        guard key.kind != .boolean else {
            throw CFailure(.type, "\"\(key.rawValue)\" is a boolean key; use pathconfig_typed_key_default_bool")
        }
        guard case .string = key.defaultValue(on: Catalog.profiles[p].platform) else { return nil }  // it has no default
        return try Catalog.made(Catalog.keyDefaults[key.index][p])
    }
}

@_cdecl("pathconfig_typed_key_default_bool")
public func pathconfig_typed_key_default_bool(_ key: Int32, _ profile: UnsafePointer<CChar>?) -> Int32 {
    boundary(or: 0) { () throws(CFailure) -> Int32 in
        let key = try typedKey(key)
        let p = try Catalog.profileIndex(profile)
        guard key.kind == .boolean else {
            throw CFailure(.type, "\"\(key.rawValue)\" is not a boolean key; use pathconfig_typed_key_default_string")
        }
        return key.defaultValue(on: Catalog.profiles[p].platform).boolValue == true ? 1 : 0
    }
}

// MARK: - Warning kinds

@_cdecl("pathconfig_warning_kind_name")
public func pathconfig_warning_kind_name(_ kind: Int32) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        guard kind >= 1, Int(kind) <= Catalog.warningKinds.count else {
            throw .argument("\(kind) is not a warning kind (there are \(Catalog.warningKinds.count), numbered from 1)")
        }
        return try Catalog.made(Catalog.warningKindNames[Int(kind) - 1])
    }
}
