import PathConfiguration
import Synchronization

/// What a `pathconfig_result *` points at: the core's `PathProperties`
/// itself, one reference of it held by the host.
///
/// A `PathProperties` is shared and immutable: the configuration's caches hand
/// the same one to every lookup that matches the same rules, and it does not
/// refer back to the configuration, so a result outlives its configuration's
/// release. Handing one out allocates nothing: the host's handle is a
/// retained reference, and `pathconfig_result_free` releases it. The JSON
/// text is kept by the result itself (`PathProperties.jsonCString`, read
/// without a lock); the other C strings made from a result (`ResultStrings`)
/// are attached to it, made on first request, per key, and freed with the
/// last reference, so every handle of the same result shares them and a host
/// asking for one key pays for that key once.
struct ResultHandle {
    let properties: PathProperties

    /// A new +1 handle for the host.
    static func pass(_ properties: PathProperties) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(properties).toOpaque())
    }

    /// The result behind a host handle (NULL is an argument error).
    static func borrow(_ handle: OpaquePointer?) throws(CFailure) -> ResultHandle {
        ResultHandle(properties: try unmanaged(handle).takeUnretainedValue())
    }

    /// The result behind a host handle, unmanaged (NULL is an argument
    /// error): for a read that counts no reference.
    static func unmanaged(_ handle: OpaquePointer?) throws(CFailure) -> Unmanaged<PathProperties> {
        guard let handle else { throw .argument("res is NULL") }
        return Unmanaged<PathProperties>.fromOpaque(UnsafeRawPointer(handle))
    }

    /// Drops the host's reference.
    static func release(_ handle: OpaquePointer) {
        Unmanaged<PathProperties>.fromOpaque(UnsafeRawPointer(handle)).release()
    }

    private var strings: ResultStrings { properties.attachment { ResultStrings() } }

    /// The `i`th key (document order of first appearance), all keys made on first use.
    func key(at i: UInt) throws(CFailure) -> UnsafePointer<CChar> {
        let keys = properties.object.keys
        guard i < UInt(keys.count) else { throw .argument("index \(i) is out of range (the result has \(keys.count) keys)") }
        return try strings.state.withLock { s throws(CFailure) -> OwnedCString in
            if let made = s.keys { return made[Int(i)] }
            var made: [OwnedCString] = []
            made.reserveCapacity(keys.count)
            do throws(CFailure) {
                for k in keys { made.append(try OwnedCString(k)) }
            } catch {
                made.forEach { $0.deallocate() }
                throw error
            }
            s.keys = made
            return made[Int(i)]
        }.borrowed
    }

    /// The C string for (`slot`, `key`), made by `make` the first time.
    func cached(_ slot: ResultStrings.Slot, _ key: String, _ make: () -> String) throws(CFailure) -> UnsafePointer<CChar> {
        try strings.state.withLock { s throws(CFailure) -> OwnedCString in
            if let hit = s.byKey[slot]?[key] { return hit }
            let made = try OwnedCString(make())
            s.byKey[slot, default: [:]][key] = made
            return made
        }.borrowed
    }
}

/// The C strings made from one result, freed with it. The lock makes a
/// result safe to read from several threads.
final class ResultStrings: Sendable {
    let state = Mutex(Strings())

    /// The C strings made so far.
    struct Strings {
        var keys: [OwnedCString]?
        /// By slot (raw string, value JSON, typed value), then key.
        var byKey: [Slot: [String: OwnedCString]] = [:]
    }

    enum Slot: Hashable { case string, json, typed }

    deinit {
        state.withLock { s in
            s.keys?.forEach { $0.deallocate() }
            for table in s.byKey.values { table.values.forEach { $0.deallocate() } }
        }
    }
}

// MARK: - Lookup

/// The lookup of the host's `urlOrPath` for `method` (NULL: GET): a path or
/// plain URL of printable ASCII straight from its bytes
/// (`PathConfiguration.resolveFromBytes`, no string made), anything else
/// checked as UTF-8 and resolved as a string.
private func lookUp(_ config: PathConfiguration, _ urlOrPath: UnsafePointer<CChar>?,
                    method: UnsafePointer<CChar>? = nil) throws(CFailure) -> PathProperties {
    let bytes = try hostBytes(urlOrPath, "url_or_path")
    let method = try optionalHostString(method, "method")
    if let result = try resolving({ () throws(ResolveError) in try config.resolveFromBytes(utf8: bytes, method: method) }) { return result }
    let input = try hostString(urlOrPath, "url_or_path")
    return try resolving { () throws(ResolveError) in try config.resolveString(input, method: method) }
}

@_cdecl("pathconfig_properties")
public func pathconfig_properties(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafeMutablePointer<CChar>? in
        try ConfigHandle.withConfiguration(cfg) { config throws(CFailure) in
            try mallocCString(try lookUp(config, urlOrPath).json)
        }
    }
}

@_cdecl("pathconfig_resolve")
public func pathconfig_resolve(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?,
                               _ err: UnsafeMutableRawPointer?) -> OpaquePointer? {
    boundary(err, or: nil) { () throws(CFailure) -> OpaquePointer? in
        try ConfigHandle.withConfiguration(cfg) { config throws(CFailure) in
            ResultHandle.pass(try lookUp(config, urlOrPath))
        }
    }
}

@_cdecl("pathconfig_resolve_request")
public func pathconfig_resolve_request(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                                       _ err: UnsafeMutableRawPointer?) -> OpaquePointer? {
    boundary(err, or: nil) { () throws(CFailure) -> OpaquePointer? in
        try ConfigHandle.withConfiguration(cfg) { config throws(CFailure) in
            ResultHandle.pass(try lookUp(config, urlOrPath, method: method))
        }
    }
}

@_cdecl("pathconfig_lookup")
public func pathconfig_lookup(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?,
                              _ method: UnsafePointer<CChar>?) -> OpaquePointer? {
    boundary(or: nil) { () throws(CFailure) -> OpaquePointer? in
        try ConfigHandle.withConfiguration(cfg) { config throws(CFailure) in
            LentResult.lend(try lookUp(config, urlOrPath, method: method))
        }
    }
}

@_cdecl("pathconfig_result_free")
public func pathconfig_result_free(_ res: OpaquePointer?) {
    guard let res else { return }
    ResultHandle.release(res)
}

@_cdecl("pathconfig_result_retain")
public func pathconfig_result_retain(_ res: OpaquePointer?) -> OpaquePointer? {
    boundary(or: nil) { () throws(CFailure) -> OpaquePointer? in
        _ = try ResultHandle.unmanaged(res).retain()
        return res
    }
}

@_cdecl("pathconfig_result_json")
public func pathconfig_result_json(_ res: OpaquePointer?) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        // Kept by the result (`PathProperties.jsonCString`), read without a
        // lock, lent without counting a reference (see ConfigHandle.withConfiguration).
        try ResultHandle.unmanaged(res)._withUnsafeGuaranteedRef { $0.jsonCString }
    }
}

@_cdecl("pathconfig_result_count")
public func pathconfig_result_count(_ res: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in
        UInt(try ResultHandle.borrow(res).properties.count)
    }
}

@_cdecl("pathconfig_result_key")
public func pathconfig_result_key(_ res: OpaquePointer?, _ index: UInt) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        try ResultHandle.borrow(res).key(at: index)
    }
}

// MARK: - Raw values

/// Runs a getter that answers PATHCONFIG_FOUND / PATHCONFIG_NOT_FOUND, or a
/// negated code on failure.
private func status(_ body: () throws(CFailure) -> Bool) -> Int32 {
    do throws(CFailure) {
        let found = try body()
        LastError.set(nil)
        return found ? 1 : 0
    } catch {
        LastError.set(error)
        return -error.code.rawValue
    }
}

/// The raw value of `key` in `res`: nil when absent.
private func rawValue(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?) throws(CFailure) -> (ResultHandle, String, JSONValue?) {
    let result = try ResultHandle.borrow(res)
    let name = try hostString(key, "key")
    return (result, name, result.properties[name])
}

private func typeMismatch(_ key: String, _ value: JSONValue, expected: String) -> CFailure {
    CFailure(.type, "property \"\(key)\" is \(value.typeName == "array" || value.typeName == "object" ? "an" : "a") \(value.typeName), not \(expected)")
}

@_cdecl("pathconfig_result_get_string")
public func pathconfig_result_get_string(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                         _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    pathconfig_result_get_string_len(res, key, out, nil)
}

@_cdecl("pathconfig_result_get_string_len")
public func pathconfig_result_get_string_len(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                             _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                             _ len: UnsafeMutablePointer<UInt>?) -> Int32 {
    out?.pointee = nil
    len?.pointee = 0
    return status { () throws(CFailure) -> Bool in
        let (result, name, value) = try rawValue(res, key)
        guard let value else { return false }
        guard case .string(let s) = value else { throw typeMismatch(name, value, expected: "a string") }
        // The cached copy holds every byte of `s`, U+0000 included.
        let p = try result.cached(.string, name) { s }
        out?.pointee = p
        len?.pointee = UInt(s.utf8.count)
        return true
    }
}

@_cdecl("pathconfig_result_get_bool")
public func pathconfig_result_get_bool(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                       _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    status { () throws(CFailure) -> Bool in
        let (_, name, value) = try rawValue(res, key)
        guard let value else { return false }
        guard case .bool(let b) = value else { throw typeMismatch(name, value, expected: "a boolean") }
        out?.pointee = b ? 1 : 0
        return true
    }
}

@_cdecl("pathconfig_result_get_int64")
public func pathconfig_result_get_int64(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                        _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    status { () throws(CFailure) -> Bool in
        let (_, name, value) = try rawValue(res, key)
        guard let value else { return false }
        guard let n = value.int64Value else {
            if case .number(let number) = value {
                throw CFailure(.type, "property \"\(name)\" is the number \(number.text), not an integer that fits in 64 bits")
            }
            throw typeMismatch(name, value, expected: "an integer")
        }
        out?.pointee = n
        return true
    }
}

@_cdecl("pathconfig_result_get_double")
public func pathconfig_result_get_double(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                         _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    status { () throws(CFailure) -> Bool in
        let (_, name, value) = try rawValue(res, key)
        guard let value else { return false }
        guard let d = value.doubleValue else { throw typeMismatch(name, value, expected: "a number") }
        out?.pointee = d
        return true
    }
}

@_cdecl("pathconfig_result_get_json")
public func pathconfig_result_get_json(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                       _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return status { () throws(CFailure) -> Bool in
        let (result, name, value) = try rawValue(res, key)
        guard let value else { return false }
        out?.pointee = try result.cached(.json, name) { JSONWriter.compact(value) }
        return true
    }
}

// MARK: - Typed accessors

/// The well-known key named `key` (an unknown name is an argument error).
private func typedKey(_ key: UnsafePointer<CChar>?) throws(CFailure) -> TypedKey {
    let name = try hostString(key, "key")
    guard let k = TypedKey(rawValue: name) else {
        throw .argument("\"\(name)\" is not a typed key; typed keys: \(TypedKey.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return k
}

/// The typed string value of `key` (enumeration or string kind), or NULL when
/// it has no value and no default.
private func typedString(_ res: OpaquePointer?, _ key: TypedKey) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let result = try ResultHandle.borrow(res)
        guard key.kind != .boolean else {
            throw CFailure(.type, "\"\(key.rawValue)\" is a boolean key; use pathconfig_result_typed_bool")
        }
        guard case .string(let s) = result.properties.typed(key) else { return nil }
        return try result.cached(.typed, key.rawValue) { s }
    }
}

/// The typed boolean value of `key`: 1 or 0, or a negated code.
private func typedBool(_ res: OpaquePointer?, _ key: TypedKey) -> Int32 {
    do throws(CFailure) {
        let result = try ResultHandle.borrow(res)
        guard key.kind == .boolean else {
            throw CFailure(.type, "\"\(key.rawValue)\" is not a boolean key; use pathconfig_result_typed_string")
        }
        LastError.set(nil)
        return result.properties.typed(key).boolValue == true ? 1 : 0
    } catch {
        LastError.set(error)
        return -error.code.rawValue
    }
}

@_cdecl("pathconfig_result_typed_string")
public func pathconfig_result_typed_string(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> UnsafePointer<CChar>? {
    do throws(CFailure) {
        return typedString(res, try typedKey(key))
    } catch {
        LastError.set(error)
        return nil
    }
}

@_cdecl("pathconfig_result_typed_bool")
public func pathconfig_result_typed_bool(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Int32 {
    do throws(CFailure) {
        return typedBool(res, try typedKey(key))
    } catch {
        LastError.set(error)
        return -error.code.rawValue
    }
}

@_cdecl("pathconfig_result_context")
public func pathconfig_result_context(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .context) }

@_cdecl("pathconfig_result_presentation")
public func pathconfig_result_presentation(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .presentation) }

@_cdecl("pathconfig_result_modal_style")
public func pathconfig_result_modal_style(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .modalStyle) }

@_cdecl("pathconfig_result_query_string_presentation")
public func pathconfig_result_query_string_presentation(_ res: OpaquePointer?) -> UnsafePointer<CChar>? {
    typedString(res, .queryStringPresentation)
}

@_cdecl("pathconfig_result_view_controller")
public func pathconfig_result_view_controller(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .viewController) }

@_cdecl("pathconfig_result_title")
public func pathconfig_result_title(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .title) }

@_cdecl("pathconfig_result_uri")
public func pathconfig_result_uri(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .uri) }

@_cdecl("pathconfig_result_fallback_uri")
public func pathconfig_result_fallback_uri(_ res: OpaquePointer?) -> UnsafePointer<CChar>? { typedString(res, .fallbackURI) }

@_cdecl("pathconfig_result_pull_to_refresh_enabled")
public func pathconfig_result_pull_to_refresh_enabled(_ res: OpaquePointer?) -> Int32 { typedBool(res, .pullToRefreshEnabled) }

@_cdecl("pathconfig_result_modal_dismiss_gesture_enabled")
public func pathconfig_result_modal_dismiss_gesture_enabled(_ res: OpaquePointer?) -> Int32 {
    typedBool(res, .modalDismissGestureEnabled)
}

@_cdecl("pathconfig_result_animated")
public func pathconfig_result_animated(_ res: OpaquePointer?) -> Int32 { typedBool(res, .animated) }

@_cdecl("pathconfig_result_historical_location")
public func pathconfig_result_historical_location(_ res: OpaquePointer?) -> Int32 { typedBool(res, .historicalLocation) }
