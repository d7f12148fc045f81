import PathConfigLoading
import PathConfigCore

private func loadOptions(_ options: UnsafePointer<CChar>?) throws(CFailure) -> LoadOptions {
    let text = try optionalHostString(options, "options_json")
    return try configuring { () throws(ConfigurationError) in try LoadOptions(json: text) }
}

@_cdecl("pathconfig_load_json")
public func pathconfig_load_json(_ json: UnsafePointer<CChar>?, _ len: UInt, _ options: UnsafePointer<CChar>?,
                                 _ err: UnsafeMutableRawPointer?) -> OpaquePointer? {
    boundary(err, or: nil) { () throws(CFailure) -> OpaquePointer? in
        guard let json else { throw .argument("json is NULL") }
        guard len <= UInt(Int.max) else { throw .argument("len \(len) is not a valid length") }
        let opts = try loadOptions(options)
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(json).assumingMemoryBound(to: UInt8.self), count: Int(len))
        return try configuring { () throws(ConfigurationError) in ConfigHandle.pass(try PathConfiguration(json: bytes, options: opts)) }
    }
}

@_cdecl("pathconfig_load_file")
public func pathconfig_load_file(_ path: UnsafePointer<CChar>?, _ options: UnsafePointer<CChar>?,
                                 _ err: UnsafeMutableRawPointer?) -> OpaquePointer? {
    boundary(err, or: nil) { () throws(CFailure) -> OpaquePointer? in
        let file = try hostString(path, "path")
        let opts = try loadOptions(options)
        return try configuring { () throws(ConfigurationError) in ConfigHandle.pass(try PathConfiguration(contentsOfFile: file, options: opts)) }
    }
}
