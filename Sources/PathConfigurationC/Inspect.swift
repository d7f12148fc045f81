import CPathConfigHeader
import PathConfigLoading
import PathConfigCore

// What a loaded configuration says about itself and about one lookup:
// explain, the matched string, settings, options, warnings, rule counts.

@_cdecl("pathconfig_explain")
public func pathconfig_explain(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                               _ err: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CChar>? {
    boundary(err, or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        let config = try ConfigHandle.handle(cfg).configuration
        let input = try hostString(urlOrPath, "url_or_path")
        let method = try optionalHostString(method, "method")
        return try mallocCString(try resolving { () throws(ResolveError) in try config.explain(input, method: method) }.json)
    }
}

@_cdecl("pathconfig_matched_string")
public func pathconfig_matched_string(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?,
                                      _ err: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<CChar>? {
    boundary(err, or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        let config = try ConfigHandle.handle(cfg).configuration
        let input = try hostString(urlOrPath, "url_or_path")
        return try mallocCString(try resolving { () throws(ResolveError) in try config.checkedMatchedString(for: input) })
    }
}

@_cdecl("pathconfig_settings")
public func pathconfig_settings(_ cfg: OpaquePointer?) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in try ConfigHandle.handle(cfg).settingsText }
}

@_cdecl("pathconfig_options")
public func pathconfig_options(_ cfg: OpaquePointer?) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in try ConfigHandle.handle(cfg).optionsText }
}

@_cdecl("pathconfig_warning_count")
public func pathconfig_warning_count(_ cfg: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in UInt(try ConfigHandle.handle(cfg).configuration.warnings.count) }
}

@_cdecl("pathconfig_warning_get")
public func pathconfig_warning_get(_ cfg: OpaquePointer?, _ i: UInt, _ out: UnsafeMutableRawPointer?) -> Int32 {
    status { () throws(CFailure) in
        let handle = try ConfigHandle.handle(cfg)
        guard let out else { throw .argument("out is NULL") }
        let asked = out.load(as: Int32.self)
        guard asked >= 1 else { throw .argument("out->version is \(asked); set it to PATHCONFIG_WARNING_VERSION") }
        let warnings = handle.configuration.warnings
        let index = try Catalog.index(i, below: warnings.count, "warnings")
        let text = try handle.warningMessage(at: index), warning = warnings[index]
        func int(_ n: Int?, or none: Int32) -> Int32 { n.map { Int32(clamping: $0) } ?? none }
        // Version 1 is every field this library has, so it fills them all.
        out.assumingMemoryBound(to: pathconfig_warning.self).pointee = pathconfig_warning(
            version: PATHCONFIG_WARNING_VERSION, kind: Catalog.number(of: warning.kind), line: int(warning.location?.line, or: 0),
            column: int(warning.location?.column, or: 0), rule_index: int(warning.ruleIndex, or: -1),
            pattern_index: int(warning.patternIndex, or: -1), message: text)
    }
}

@_cdecl("pathconfig_rule_count")
public func pathconfig_rule_count(_ cfg: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in
        let config = try ConfigHandle.handle(cfg).configuration
        return UInt(config.rules.count + config.addedRuleCount)
    }
}

@_cdecl("pathconfig_document_rule_count")
public func pathconfig_document_rule_count(_ cfg: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in UInt(try ConfigHandle.handle(cfg).configuration.documentRuleCount) }
}
