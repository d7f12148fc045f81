#if canImport(Glibc)
import Glibc
#endif
import PathConfigurationC

/// The C ABI as a C host calls it (`@_cdecl` exports of PathConfigurationC,
/// called directly): NUL-terminated strings, handles, `pathconfig_error`.
enum CABI {
    /// What `struct pathconfig_error` says after a failed call.
    struct Failure: Equatable, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "\(String(cString: pathconfig_error_name(code))) \(message)" }
    }

    /// The layout of `struct pathconfig_error` (include/pathconfig/common.h).
    static let errorSize = 536, errorMessageOffset = 12, errorMessageCapacity = 512

    /// `PATHCONFIG_E_ARGUMENT`: NULL or invalid UTF-8 from the host.
    static let argumentCode: Int32 = 8
    /// `PATHCONFIG_E_URL`: a URL the profile's app crashes on.
    static let urlCode: Int32 = 16
    static let typeCode: Int32 = 11
    /// `PATHCONFIG_E_CRASH`: a typed read the profile's app crashes on.
    static let crashCode: Int32 = 17

    /// Calls `body` with a zeroed `pathconfig_error`, then reads it.
    static func withError<T>(_ body: (UnsafeMutableRawPointer) -> T) -> (T, Failure?) {
        let err = UnsafeMutableRawPointer.allocate(byteCount: errorSize, alignment: 8)
        defer { err.deallocate() }
        err.initializeMemory(as: UInt8.self, repeating: 0, count: errorSize)
        let value = body(err)
        let code = err.load(as: Int32.self)
        guard code != 0 else { return (value, nil) }
        let text = String(cString: (err + errorMessageOffset).assumingMemoryBound(to: CChar.self))
        return (value, Failure(code: code, message: text))
    }

    /// `bytes` cut at the first NUL, as a C string: what a C host passing
    /// them would hand the library.
    static func withCString<T>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        var copy = Array(bytes.prefix(while: { $0 != 0 }))
        copy.append(0)
        return copy.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// An optional C string (nil gives NULL).
    static func withOptionalCString<T>(_ bytes: [UInt8]?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let bytes else { return body(nil) }
        return withCString(bytes) { body($0) }
    }

    /// A malloc'd string from the library, copied and freed.
    static func take(_ p: UnsafeMutablePointer<CChar>?) -> String? {
        guard let p else { return nil }
        defer { pathconfig_string_free(p) }
        return String(cString: p)
    }

    /// Whether a C message is what the library makes of `message`: cut at
    /// a NUL and to the buffer (on a character boundary).
    static func isTruncation(_ cMessage: String, of message: String) -> Bool {
        var utf8 = Array(message.utf8.prefix(while: { $0 != 0 }))
        var n = min(utf8.count, errorMessageCapacity - 1)
        while n > 0, n < utf8.count, utf8[n] & 0xC0 == 0x80 { n -= 1 }
        utf8.removeSubrange(n...)
        return Array(cMessage.utf8) == utf8
    }
}
