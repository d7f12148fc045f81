#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Strings across the boundary: host text in (checked, never repaired) and
/// library text out (malloc'd or owned by a handle).

/// The host's NUL-terminated `p` as a String; NULL or invalid UTF-8 is an
/// argument error naming the parameter.
func hostString(_ p: UnsafePointer<CChar>?, _ name: StaticString) throws(CFailure) -> String {
    guard let p else { throw .argument("\(name) is NULL") }
    // String(validatingCString:) is the standard library's specialised UTF-8
    // check; String(validating:as:) is generic and costs two metadata lookups a call.
    guard let s = String(validatingCString: p) else { throw .argument("\(name) is not valid UTF-8") }
    return s
}

/// The object behind the host's handle `p`, unmanaged; NULL is an argument
/// error naming the parameter.
@inline(__always)
func unmanagedHandle<T: AnyObject>(_ p: OpaquePointer?, _ name: StaticString, as type: T.Type = T.self) throws(CFailure) -> Unmanaged<T> {
    guard let p else { throw .argument("\(name) is NULL") }
    return Unmanaged<T>.fromOpaque(UnsafeRawPointer(p))
}

/// The bytes of the host's NUL-terminated `p`, not yet checked as UTF-8
/// (`hostString` checks them); NULL is an argument error naming the parameter.
func hostBytes(_ p: UnsafePointer<CChar>?, _ name: StaticString) throws(CFailure) -> UnsafeBufferPointer<UInt8> {
    guard let p else { throw .argument("\(name) is NULL") }
    return UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))
}

/// The host's optional NUL-terminated `p` (NULL gives nil).
func optionalHostString(_ p: UnsafePointer<CChar>?, _ name: StaticString) throws(CFailure) -> String? {
    guard p != nil else { return nil }
    return try hostString(p, name)
}

/// A malloc'd NUL-terminated copy of `s`, for the host to free with
/// `pathconfig_string_free` (or a handle to free in its deinit).
/// Every byte of `s` is copied, U+0000 included: a C reader stops at the
/// first one, a reader given the length does not.
func mallocCString(_ s: String) throws(CFailure) -> UnsafeMutablePointer<CChar> {
    var s = s
    let result: UnsafeMutablePointer<CChar>? = s.withUTF8 { utf8 in
        guard let p = malloc(utf8.count + 1) else { return nil }
        if let base = utf8.baseAddress { p.copyMemory(from: base, byteCount: utf8.count) }
        p.storeBytes(of: 0, toByteOffset: utf8.count, as: UInt8.self)
        return p.assumingMemoryBound(to: CChar.self)
    }
    guard let result else { throw .noMemory }
    return result
}

/// A NUL-terminated string a handle owns and frees when it dies; shared
/// under a lock, hence the unchecked Sendable (the pointee never changes).
struct OwnedCString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ s: String) throws(CFailure) { pointer = try mallocCString(s) }

    /// The borrowed pointer handed to hosts.
    var borrowed: UnsafePointer<CChar> { UnsafePointer(pointer) }

    /// Frees the string; the handle calls this once, in its deinit.
    func deallocate() { free(pointer) }
}

/// A C string literal the library keeps for the life of the process.
func staticCString(_ s: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(s.utf8Start).assumingMemoryBound(to: CChar.self)
}

@_cdecl("pathconfig_string_free")
public func pathconfig_string_free(_ s: UnsafeMutablePointer<CChar>?) {
    free(s)
}
