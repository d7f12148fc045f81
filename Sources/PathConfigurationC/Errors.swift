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
import Synchronization

/// The `PATHCONFIG_E_*` error codes of include/pathconfig/common.h (and
/// PATHCONFIG_OK), their numbers read from the header.
///
/// JSON to backend are a `ConfigurationError.Code`'s; argument to type
/// belong to the C boundary, download to misuse and forked to the loader,
/// callback to rules added from code, url and crash to lookups the app
/// crashes on.
enum CCode: CaseIterable {
    case ok, json, schema, regex, options, io, limit, backend, argument, noMemory, `internal`, type, download, cache, misuse
    case callback, url, crash, forked

    /// The constant's value and its name in the header.
    private var constant: (value: Int32, name: StaticString) {
        switch self {
        case .ok: (PATHCONFIG_OK, "PATHCONFIG_OK")
        case .json: (PATHCONFIG_E_JSON, "PATHCONFIG_E_JSON")
        case .schema: (PATHCONFIG_E_SCHEMA, "PATHCONFIG_E_SCHEMA")
        case .regex: (PATHCONFIG_E_REGEX, "PATHCONFIG_E_REGEX")
        case .options: (PATHCONFIG_E_OPTIONS, "PATHCONFIG_E_OPTIONS")
        case .io: (PATHCONFIG_E_IO, "PATHCONFIG_E_IO")
        case .limit: (PATHCONFIG_E_LIMIT, "PATHCONFIG_E_LIMIT")
        case .backend: (PATHCONFIG_E_BACKEND, "PATHCONFIG_E_BACKEND")
        case .argument: (PATHCONFIG_E_ARGUMENT, "PATHCONFIG_E_ARGUMENT")
        case .noMemory: (PATHCONFIG_E_NOMEM, "PATHCONFIG_E_NOMEM")
        case .internal: (PATHCONFIG_E_INTERNAL, "PATHCONFIG_E_INTERNAL")
        case .type: (PATHCONFIG_E_TYPE, "PATHCONFIG_E_TYPE")
        case .download: (PATHCONFIG_E_DOWNLOAD, "PATHCONFIG_E_DOWNLOAD")
        case .cache: (PATHCONFIG_E_CACHE, "PATHCONFIG_E_CACHE")
        case .misuse: (PATHCONFIG_E_MISUSE, "PATHCONFIG_E_MISUSE")
        case .callback: (PATHCONFIG_E_CALLBACK, "PATHCONFIG_E_CALLBACK")
        case .url: (PATHCONFIG_E_URL, "PATHCONFIG_E_URL")
        case .crash: (PATHCONFIG_E_CRASH, "PATHCONFIG_E_CRASH")
        case .forked: (PATHCONFIG_E_FORKED, "PATHCONFIG_E_FORKED")
        }
    }

    var rawValue: Int32 { constant.value }

    var name: StaticString { constant.name }

    init(_ code: ConfigurationError.Code) {
        switch code {
        case .invalidJSON: self = .json
        case .schema: self = .schema
        case .invalidPattern: self = .regex
        case .invalidOption: self = .options
        case .io: self = .io
        case .limit: self = .limit
        case .backendUnavailable: self = .backend
        }
    }

    /// `PATHCONFIG_NOT_FOUND`: what a value getter returns for an absent key.
    /// A status, not an error: never a failure's code.
    static let notFound = PATHCONFIG_NOT_FOUND
}

/// A failure on its way to the host: what `pathconfig_error` carries.
struct CFailure: Error {
    var code: CCode
    var message: String
    var line: Int32 = 0
    var column: Int32 = 0
    var ruleIndex: Int32 = -1
    var patternIndex: Int32 = -1
    /// `errno` of an I/O failure, 0 otherwise.
    var osError: Int32 = 0

    init(_ code: CCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Translates a core error. The message is the core's sentence without
    /// the location, which travels in `line` and `column` (hosts print
    /// `LINE:COLUMN: message` as the CLI does).
    init(_ error: ConfigurationError) {
        self.init(CCode(error.code), error.message)
        if let location = error.location {
            line = Int32(clamping: location.line)
            column = Int32(clamping: location.column)
        }
        ruleIndex = error.ruleIndex.map { Int32(clamping: $0) } ?? -1
        patternIndex = error.patternIndex.map { Int32(clamping: $0) } ?? -1
        osError = error.osError ?? 0
    }

    static func argument(_ message: String) -> CFailure { CFailure(.argument, message) }
    static let noMemory = CFailure(.noMemory, "out of memory")
}

/// Writes `struct pathconfig_error`, as the header lays it out.
enum ErrorLayout {
    static let size = MemoryLayout<pathconfig_error>.size
    static let code = MemoryLayout<pathconfig_error>.offset(of: \.code)!
    /// The bytes of `message`, its NUL included.
    static let messageCapacity = MemoryLayout.size(ofValue: pathconfig_error().message)

    /// Writes `failure` (nil: success) into the struct at `p`.
    static func write(_ failure: CFailure?, to p: UnsafeMutableRawPointer) {
        let f = failure ?? CFailure(.ok, "")
        let e = p.assumingMemoryBound(to: pathconfig_error.self)
        e.pointer(to: \.code)!.pointee = f.code.rawValue
        e.pointer(to: \.line)!.pointee = f.line
        e.pointer(to: \.column)!.pointee = f.column
        e.pointer(to: \.rule_index)!.pointee = f.ruleIndex
        e.pointer(to: \.pattern_index)!.pointee = f.patternIndex
        e.pointer(to: \.os_error)!.pointee = f.osError
        let text = UnsafeMutableRawPointer(e.pointer(to: \.message)!)
        if failure == nil {
            text.storeBytes(of: 0, as: UInt8.self)
            return
        }
        var utf8 = Array(f.message.utf8)
        if let nul = utf8.firstIndex(of: 0) { utf8.removeSubrange(nul...) }
        var n = min(utf8.count, messageCapacity - 1)
        // Cut on a character boundary so the text stays valid UTF-8.
        while n > 0, n < utf8.count, utf8[n] & 0xC0 == 0x80 { n -= 1 }
        utf8.withUnsafeBytes { src in
            if n > 0, let base = src.baseAddress { text.copyMemory(from: base, byteCount: n) }
        }
        text.storeBytes(of: 0, toByteOffset: n, as: UInt8.self)
    }
}

/// The calling thread's last error, behind `pathconfig_last_error()`.
enum LastError {
    /// Per-thread `pathconfig_error` buffers, freed when their thread exits
    /// (a buffer holding an error leaves `threadsWithErrors` then).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { buffer in
            guard let buffer else { return }
            if buffer.load(fromByteOffset: ErrorLayout.code, as: Int32.self) != 0 { threadsWithErrors.subtract(1, ordering: .relaxed) }
            free(buffer)
        }
        return key
    }()

    /// The threads whose buffer holds an error (a code other than 0). Every
    /// successful call clears its thread's last error; when this is 0, none
    /// is set, the calling thread's included, and the success skips its
    /// buffer (a thread-local read). Sound with relaxed ordering: a thread
    /// that set its error counted itself first, and a thread reads its own
    /// writes to one location, so it sees at least 1 until it has cleared
    /// its error; other threads' counts only send it to its buffer.
    private static let threadsWithErrors = Atomic<Int>(0)

    /// Returned when a thread's buffer cannot be allocated; written once,
    /// read-only after.
    private nonisolated(unsafe) static let outOfMemory: UnsafeMutableRawPointer = {
        let p = UnsafeMutableRawPointer.allocate(byteCount: ErrorLayout.size, alignment: 4)
        ErrorLayout.write(.noMemory, to: p)
        return p
    }()

    /// This thread's buffer, made on first use (nil when out of memory).
    private static func buffer() -> UnsafeMutableRawPointer? {
        if let p = pthread_getspecific(key) { return p }
        guard let p = calloc(1, ErrorLayout.size) else { return nil }
        ErrorLayout.write(nil, to: p)
        pthread_setspecific(key, p)
        return p
    }

    /// The pointer `pathconfig_last_error()` returns: never NULL.
    static var pointer: UnsafeRawPointer {
        UnsafeRawPointer(buffer() ?? outOfMemory)
    }

    /// Records a success: clears this thread's last error and `err`. Inline,
    /// and while no thread holds an error (the common case) one load.
    @inline(__always)
    static func clear(err: UnsafeMutableRawPointer? = nil) {
        #if PATHCONFIG_ABLATE_LASTERROR
        record(nil)  // make bench-ablation: the layer off
        #else
        if threadsWithErrors.load(ordering: .relaxed) != 0 { record(nil) }
        #endif
        if let err { ErrorLayout.write(nil, to: err) }
    }

    /// Records the outcome of a call in this thread's buffer and in `err`.
    /// (Optional, though only failures reach it: taking a `CFailure`, it cost
    /// every lookup 10 to 21 more instructions at 10 rules, callgrind.)
    static func set(_ failure: CFailure?, err: UnsafeMutableRawPointer? = nil) {
        guard let failure else { return clear(err: err) }
        record(failure)
        if let err { ErrorLayout.write(failure, to: err) }
    }

    /// `failure` (nil: a success) in this thread's buffer, counted in
    /// `threadsWithErrors`.
    private static func record(_ failure: CFailure?) {
        guard let p = buffer() else { return }
        let held = p.load(fromByteOffset: ErrorLayout.code, as: Int32.self) != 0
        let holds = (failure?.code ?? .ok) != .ok
        // Already clear: a success costs one more load.
        if !held && !holds { return }
        ErrorLayout.write(failure, to: p)
        if holds != held { threadsWithErrors.add(holds ? 1 : -1, ordering: .relaxed) }
    }
}

/// Runs the body of an export: on success clears the last error (and `err`),
/// on failure records it and returns `fallback`. Nothing thrown escapes.
@inline(__always)
func boundary<T>(_ err: UnsafeMutableRawPointer? = nil, or fallback: T, _ body: () throws(CFailure) -> T) -> T {
    do throws(CFailure) {
        let value = try body()
        LastError.clear(err: err)
        return value
    } catch {
        LastError.set(error, err: err)
        return fallback
    }
}

/// Runs the body of an export that returns a status: PATHCONFIG_OK on
/// success (the last error and `err` cleared), the failure's code (a
/// positive `PATHCONFIG_E_*`, recorded) otherwise. Nothing thrown escapes.
@inline(__always)
func status(_ err: UnsafeMutableRawPointer? = nil, _ body: () throws(CFailure) -> Void) -> Int32 {
    do throws(CFailure) {
        try body()
        LastError.clear(err: err)
        return CCode.ok.rawValue
    } catch {
        LastError.set(error, err: err)
        return error.code.rawValue
    }
}

@_cdecl("pathconfig_last_error")
public func pathconfig_last_error() -> UnsafeRawPointer {
    LastError.pointer
}

@_cdecl("pathconfig_error_name")
public func pathconfig_error_name(_ code: Int32) -> UnsafePointer<CChar> {
    staticCString(code == CCode.notFound ? "PATHCONFIG_NOT_FOUND" : CCode.allCases.first { $0.rawValue == code }?.name ?? "PATHCONFIG_E_UNKNOWN")
}
