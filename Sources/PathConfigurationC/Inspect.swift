import PathConfiguration

// What a loaded configuration says about itself and about one lookup:
// explain, warnings, settings, the matched string, rule counts, the profile.

@_cdecl("pathconfig_explain")
public func pathconfig_explain(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        let config = try ConfigHandle.borrow(cfg)
        let input = try hostString(urlOrPath, "url_or_path")
        return try mallocCString(config.explain(input).json)
    }
}

@_cdecl("pathconfig_matched_string")
public func pathconfig_matched_string(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        let config = try ConfigHandle.borrow(cfg)
        let input = try hostString(urlOrPath, "url_or_path")
        return try mallocCString(config.matchedString(for: input))
    }
}

@_cdecl("pathconfig_settings")
public func pathconfig_settings(_ cfg: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        try mallocCString(JSONWriter.compact(try ConfigHandle.borrow(cfg).settings))
    }
}

@_cdecl("pathconfig_warnings")
public func pathconfig_warnings(_ cfg: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        let config = try ConfigHandle.borrow(cfg)
        return try mallocCString(JSONWriter.compact(.array(config.warnings.map { .object($0.jsonObject) })))
    }
}

@_cdecl("pathconfig_rule_count")
public func pathconfig_rule_count(_ cfg: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in UInt(try ConfigHandle.borrow(cfg).rules.count) }
}

@_cdecl("pathconfig_document_rule_count")
public func pathconfig_document_rule_count(_ cfg: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in UInt(try ConfigHandle.borrow(cfg).documentRuleCount) }
}

/// Profile names as C strings, made once and kept for the life of the process.
private let profileNames: [Profile: OwnedCString] = {
    var names: [Profile: OwnedCString] = [:]
    for p in Profile.allCases { names[p] = try? OwnedCString(p.rawValue) }
    return names
}()

@_cdecl("pathconfig_profile")
public func pathconfig_profile(_ cfg: OpaquePointer?) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let profile = try ConfigHandle.borrow(cfg).profile
        guard let name = profileNames[profile] else { throw .noMemory }
        return name.borrowed
    }
}
