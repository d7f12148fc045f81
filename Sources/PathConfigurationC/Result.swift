#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CPathConfigHeader
import PathConfigLoading
import PathConfigCore

/// What a `pathconfig_result *` points at: the core's `PathProperties`
/// itself, one reference of it held by the host.
///
/// A `PathProperties` is shared and immutable: the configuration's caches hand
/// the same one to every lookup that matches the same rules, and it does not
/// refer back to the configuration, so a result outlives its configuration's
/// release. Handing one out allocates nothing: the host's handle is a
/// retained reference, and `pathconfig_result_release` releases it. What C
/// reads from it (`CAnswer`) is made once per answer, on the first read, and
/// kept with the answer.
enum ResultHandle {
    /// A new +1 handle for the host.
    static func pass(_ properties: PathProperties) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(properties).toOpaque())
    }

    /// The result behind a host handle, unmanaged (NULL is an argument
    /// error): for a read that counts no reference.
    static func unmanaged(_ handle: OpaquePointer?) throws(CFailure) -> Unmanaged<PathProperties> { try unmanagedHandle(handle, "res") }

    /// The C view of the result behind a host handle, made on the answer's
    /// first read. Unretained: the host's reference on the result keeps the
    /// result, its answer and the view alive for the call and for as long as
    /// it holds the result, which is what "borrowed from res" promises.
    @inline(__always)
    static func view(_ handle: OpaquePointer?) throws(CFailure) -> Unmanaged<CAnswer> {
        let address = try unmanaged(handle)._withUnsafeGuaranteedRef { properties in
            properties.unretainedAnswer._withUnsafeGuaranteedRef { answer in answer.attachment { CAnswer(properties, answer) } }
        }
        return Unmanaged<CAnswer>.fromOpaque(address)
    }
}

/// Everything C reads from one answer, worked out at once on its first read
/// and kept with the answer (`Answer.attachment`): each key, each value
/// (its type, the scalar it holds, its text and its JSON) and each typed
/// value. Every C string lives in one allocation freed with the view, so a
/// read is a table lookup: no lock, no allocation, nothing counted.
final class CAnswer: @unchecked Sendable {
    /// One value, as the getters give it.
    struct Value {
        /// A `PATHCONFIG_TYPE_*` constant.
        var type: Int32
        var string: UnsafePointer<CChar>?
        var length: Int = 0
        var json: UnsafePointer<CChar>
        var int64: Int64?
        var double: Double?
        var bool: Bool?
    }

    let keys: [UnsafePointer<CChar>]
    let keyLengths: [Int]
    let values: [Value]
    /// By `PATHCONFIG_KEY_*`: a string or enum key's value (nil: none, or a bool key).
    let typedStrings: [UnsafePointer<CChar>?]
    /// By `PATHCONFIG_KEY_*`: a bool key's value (0 for the other kinds).
    let typedBools: [Int32]
    /// By `PATHCONFIG_KEY_*`: where the app crashes reading the key, the
    /// exception; nil when it crashes on none (most answers).
    let typedCrashes: [String?]?
    private let storage: UnsafeMutableRawPointer

    init(_ properties: PathProperties, _ answer: Answer) {
        // Every string, NUL-terminated, at its offset in one arena.
        var arena: [UInt8] = []
        func add(_ s: String) -> Int {
            let offset = arena.count
            arena.append(contentsOf: s.utf8)
            arena.append(0)
            return offset
        }
        var keyOffsets: [Int] = [], keyLengths: [Int] = []
        var entries: [(type: Int32, string: Int?, length: Int, json: Int, int64: Int64?, double: Double?, bool: Bool?)] = []
        for (key, value) in properties.object {
            keyOffsets.append(add(key))
            keyLengths.append(key.utf8.count)
            let type: Int32
            var string: Int?
            var length = 0
            switch value {
            case .null: type = PATHCONFIG_TYPE_NULL
            case .bool: type = PATHCONFIG_TYPE_BOOL
            case .number: type = value.int64Value != nil ? PATHCONFIG_TYPE_INT : PATHCONFIG_TYPE_DOUBLE
            case .string(let s):
                type = PATHCONFIG_TYPE_STRING
                string = add(s)
                length = s.utf8.count
            case .array: type = PATHCONFIG_TYPE_ARRAY
            case .object: type = PATHCONFIG_TYPE_OBJECT
            }
            entries.append((type, string, length, add(JSONWriter.compact(value)), value.int64Value, value.doubleValue, value.boolValue))
        }
        let typedOffsets = TypedKey.allCases.map { key in key.kind == .boolean ? nil : answer.typed[key.index].stringValue.map(add) }
        typedBools = TypedKey.allCases.map { key in key.kind == .boolean && answer.flag(key) ? 1 : 0 }
        let crashes = TypedKey.allCases.map(answer.crash)
        typedCrashes = crashes.contains { $0 != nil } ? crashes : nil

        let block = UnsafeMutableRawPointer.allocate(byteCount: max(arena.count, 1), alignment: 1)
        arena.withUnsafeBytes { if let from = $0.baseAddress { block.copyMemory(from: from, byteCount: $0.count) } }
        storage = block
        let base = UnsafePointer<CChar>(block.assumingMemoryBound(to: CChar.self))
        keys = keyOffsets.map { base + $0 }
        self.keyLengths = keyLengths
        values = entries.map { e in
            Value(type: e.type, string: e.string.map { base + $0 }, length: e.length, json: base + e.json,
                  int64: e.int64, double: e.double, bool: e.bool)
        }
        typedStrings = typedOffsets.map { $0.map { base + $0 } }
    }

    deinit { storage.deallocate() }

    /// The index of the host's `key` (compared byte for byte, length
    /// included, so a key holding U+0000 is not found by its prefix); nil
    /// when absent.
    func index(of key: UnsafePointer<CChar>) -> Int? {
        let n = strlen(key)
        for i in keys.indices where keyLengths[i] == n && memcmp(keys[i], key, n) == 0 { return i }
        return nil
    }
}

// MARK: - Lookup

/// The lookup of the host's `urlOrPath` for `method` (NULL: GET): a path or
/// plain URL of printable ASCII straight from its bytes
/// (`PathConfiguration.resolveFromBytes`, no string made), anything else
/// checked as UTF-8 and resolved as a string.
private func lookUp(_ config: PathConfiguration, _ urlOrPath: UnsafePointer<CChar>?,
                    method: UnsafePointer<CChar>?) throws(CFailure) -> PathProperties {
    let bytes = try hostBytes(urlOrPath, "url_or_path")
    let method = try optionalHostString(method, "method")
    if let result = try resolving({ () throws(ResolveError) in try config.resolveFromBytes(utf8: bytes, method: method) }) { return result }
    let input = try hostString(urlOrPath, "url_or_path")
    return try resolving { () throws(ResolveError) in try config.resolveString(input, method: method) }
}

@_cdecl("pathconfig_resolve")
public func pathconfig_resolve(_ cfg: OpaquePointer?, _ urlOrPath: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
                               _ err: UnsafeMutableRawPointer?) -> OpaquePointer? {
    boundary(err, or: nil) { () throws(CFailure) -> OpaquePointer? in
        try ConfigHandle.withConfiguration(cfg) { config throws(CFailure) in
            ResultHandle.pass(try lookUp(config, urlOrPath, method: method))
        }
    }
}

@_cdecl("pathconfig_result_release")
public func pathconfig_result_release(_ res: OpaquePointer?) {
    guard let res else { return }
    Unmanaged<PathProperties>.fromOpaque(UnsafeRawPointer(res)).release()
}

@_cdecl("pathconfig_result_retain")
public func pathconfig_result_retain(_ res: OpaquePointer?) -> OpaquePointer? {
    boundary(or: nil) { () throws(CFailure) -> OpaquePointer? in
        _ = try ResultHandle.unmanaged(res).retain()
        return res
    }
}

@_cdecl("pathconfig_result_id")
public func pathconfig_result_id(_ res: OpaquePointer?) -> UInt64 {
    boundary(or: 0) { () throws(CFailure) -> UInt64 in
        try ResultHandle.unmanaged(res)._withUnsafeGuaranteedRef { $0.id }
    }
}

@_cdecl("pathconfig_result_json")
public func pathconfig_result_json(_ res: OpaquePointer?) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        try ResultHandle.unmanaged(res)._withUnsafeGuaranteedRef { $0.unretainedAnswer._withUnsafeGuaranteedRef { $0.cString } }
    }
}

@_cdecl("pathconfig_result_count")
public func pathconfig_result_count(_ res: OpaquePointer?) -> UInt {
    boundary(or: 0) { () throws(CFailure) -> UInt in
        UInt(try ResultHandle.unmanaged(res)._withUnsafeGuaranteedRef { $0.count })
    }
}

/// `i` as an index of a key of the result behind `view`.
private func keyIndex(_ i: UInt, in view: Unmanaged<CAnswer>) throws(CFailure) -> Int {
    try Catalog.index(i, below: view._withUnsafeGuaranteedRef { $0.keys.count }, "keys in the result")
}

@_cdecl("pathconfig_result_key")
public func pathconfig_result_key(_ res: OpaquePointer?, _ index: UInt) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let view = try ResultHandle.view(res)
        let i = try keyIndex(index, in: view)
        return view._withUnsafeGuaranteedRef { $0.keys[i] }
    }
}

@_cdecl("pathconfig_result_type")
public func pathconfig_result_type(_ res: OpaquePointer?, _ index: UInt) -> Int32 {
    boundary(or: 0) { () throws(CFailure) -> Int32 in
        let view = try ResultHandle.view(res)
        let i = try keyIndex(index, in: view)
        return view._withUnsafeGuaranteedRef { $0.values[i].type }
    }
}

// MARK: - Raw values

/// Runs a value getter: `read` of the value of `key` in the result behind
/// `res` and PATHCONFIG_OK when the key is present, PATHCONFIG_NOT_FOUND
/// when it is absent (the last error cleared either way), the code of a
/// failure (recorded as the last error). A key that is not UTF-8 is an
/// argument error, checked only when it is not found (a key found is one
/// of ours, so valid).
private func getter(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                    _ read: (CAnswer.Value) throws(CFailure) -> Void) -> Int32 {
    var found = false
    let code = status { () throws(CFailure) in
        let view = try ResultHandle.view(res)
        guard let key else { throw .argument("key is NULL") }
        if let value = view._withUnsafeGuaranteedRef({ v in v.index(of: key).map { v.values[$0] } }) {
            try read(value)
            found = true
        } else {
            _ = try hostString(key, "key")
        }
    }
    return code == CCode.ok.rawValue && !found ? CCode.notFound : code
}

private func typeMismatch(_ key: UnsafePointer<CChar>?, _ value: CAnswer.Value, expected: String) -> CFailure {
    let name = key.map { String(cString: $0) } ?? ""
    let found = switch value.type {
    case PATHCONFIG_TYPE_NULL: "null"
    case PATHCONFIG_TYPE_BOOL: "a boolean"
    case PATHCONFIG_TYPE_INT, PATHCONFIG_TYPE_DOUBLE: "a number"
    case PATHCONFIG_TYPE_STRING: "a string"
    case PATHCONFIG_TYPE_ARRAY: "an array"
    default: "an object"
    }
    return CFailure(.type, "property \(JSONWriter.quoted(name)) is \(found), not \(expected)")
}

@_cdecl("pathconfig_result_get_string")
public func pathconfig_result_get_string(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                         _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
                                         _ len: UnsafeMutablePointer<UInt>?) -> Int32 {
    out?.pointee = nil
    len?.pointee = 0
    return getter(res, key) { value throws(CFailure) in
        guard let s = value.string else { throw typeMismatch(key, value, expected: "a string") }
        out?.pointee = s
        len?.pointee = UInt(value.length)
    }
}

@_cdecl("pathconfig_result_get_bool")
public func pathconfig_result_get_bool(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                       _ out: UnsafeMutablePointer<Int32>?) -> Int32 {
    getter(res, key) { value throws(CFailure) in
        guard let b = value.bool else { throw typeMismatch(key, value, expected: "a boolean") }
        out?.pointee = b ? 1 : 0
    }
}

@_cdecl("pathconfig_result_get_int64")
public func pathconfig_result_get_int64(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                        _ out: UnsafeMutablePointer<Int64>?) -> Int32 {
    getter(res, key) { value throws(CFailure) in
        guard let n = value.int64 else {
            if value.type == PATHCONFIG_TYPE_DOUBLE {
                throw CFailure(.type, "property \(JSONWriter.quoted(String(cString: key!))) is the number \(String(cString: value.json)), not an integer that fits in 64 bits")
            }
            throw typeMismatch(key, value, expected: "an integer")
        }
        out?.pointee = n
    }
}

@_cdecl("pathconfig_result_get_double")
public func pathconfig_result_get_double(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                         _ out: UnsafeMutablePointer<Double>?) -> Int32 {
    getter(res, key) { value throws(CFailure) in
        guard let d = value.double else { throw typeMismatch(key, value, expected: "a number") }
        out?.pointee = d
    }
}

@_cdecl("pathconfig_result_get_json")
public func pathconfig_result_get_json(_ res: OpaquePointer?, _ key: UnsafePointer<CChar>?,
                                       _ out: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32 {
    out?.pointee = nil
    return getter(res, key) { value throws(CFailure) in out?.pointee = value.json }
}

// MARK: - Typed values

/// The typed key numbered `key` (`PATHCONFIG_KEY_*`; out of range is an
/// argument error). `TypedKey(index:)`, not the catalog's array: a typed
/// read then touches no global.
@inline(__always)
func typedKey(_ key: Int32) throws(CFailure) -> TypedKey {
    guard let k = TypedKey(index: Int(key)) else {
        throw .argument("\(key) is not a typed key (PATHCONFIG_KEY_* runs from 0 to \(Catalog.keys.count - 1))")
    }
    return k
}

/// What `pick` reads for typed key `key` of the result behind `res`, the
/// key checked to be a boolean one or not (`bool`); PATHCONFIG_E_CRASH
/// where the profile's app throws reading the key.
@inline(__always)
private func typedValue<T>(_ res: OpaquePointer?, _ key: Int32, bool: Bool, _ pick: (CAnswer) -> T) throws(CFailure) -> T {
    let view = try ResultHandle.view(res)
    let k = try typedKey(key)
    guard (k.kind == .boolean) == bool else {
        throw CFailure(.type, bool ? "\"\(k.rawValue)\" is not a boolean key; use pathconfig_result_typed_string"
                                   : "\"\(k.rawValue)\" is a boolean key; use pathconfig_result_typed_bool")
    }
    let (value, crash) = view._withUnsafeGuaranteedRef { v in (pick(v), v.typedCrashes.flatMap { $0[Int(key)] }) }
    if let crash { throw CFailure(.crash, "the app crashes reading \"\(k.rawValue)\": \(crash)") }
    return value
}

@_cdecl("pathconfig_result_typed_string")
public func pathconfig_result_typed_string(_ res: OpaquePointer?, _ key: Int32) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        try typedValue(res, key, bool: false) { $0.typedStrings[Int(key)] }
    }
}

@_cdecl("pathconfig_result_typed_bool")
public func pathconfig_result_typed_bool(_ res: OpaquePointer?, _ key: Int32) -> Int32 {
    boundary(or: 0) { () throws(CFailure) -> Int32 in
        try typedValue(res, key, bool: true) { $0.typedBools[Int(key)] }
    }
}
