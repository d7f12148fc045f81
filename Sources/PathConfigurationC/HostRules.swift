import PathConfigLoading
import PathConfigCore

// Rules added from code through the C ABI: pathconfig_add_rule with a
// predicate and/or configurer function pointer and a context, the
// pathconfig_request view those callbacks receive, and pathconfig_invalidate.

/// `pathconfig_rule_fn`: a host predicate or configurer.
typealias RuleCallback = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32

/// What a `pathconfig_request *` points at while a host callback runs: the
/// lookup's URL and method, and (for a configurer) the properties merged so
/// far, which the callback may replace or patch. Lives for one call; every
/// string it hands out is freed when the call returns.
final class RequestView {
    let request: RuleRequest
    /// The properties the configurer works on (nil for a predicate).
    var properties: JSONObject?
    /// What `pathconfig_request_fail` recorded.
    var failure: String?
    private var strings: [OwnedCString] = []

    init(_ request: RuleRequest, properties: JSONObject?) {
        self.request = request
        self.properties = properties
    }

    deinit { strings.forEach { $0.deallocate() } }

    /// A C copy of `s` that lives as long as this view.
    func keep(_ s: String) throws(CFailure) -> UnsafePointer<CChar> {
        let owned = try OwnedCString(s)
        strings.append(owned)
        return owned.borrowed
    }

    static func borrow(_ p: OpaquePointer?) throws(CFailure) -> RequestView {
        try unmanagedHandle(p, "request", as: RequestView.self).takeUnretainedValue()
    }
}

/// A host callback that reported failure (returned a negative value).
struct HostCallbackFailure: Error, CustomStringConvertible {
    let description: String
}

/// The host's function pointers and context for one rule. The rule holds it
/// (`HostRule.owner`, so that a rule without callbacks keeps it too) and its
/// closures capture it; when the configuration (and so the rule) is freed,
/// `free_context` runs, exactly once.
final class HostRuleCallbacks: @unchecked Sendable {  // the context is the host's; the header says which threads use it
    private let predicate: RuleCallback?
    private let configurer: RuleCallback?
    private let context: UnsafeMutableRawPointer?
    private let freeContext: PayloadFree?

    init(predicate: RuleCallback?, configurer: RuleCallback?, context: UnsafeMutableRawPointer?, freeContext: PayloadFree?) {
        self.predicate = predicate
        self.configurer = configurer
        self.context = context
        self.freeContext = freeContext
    }

    deinit { freeContext?(context) }

    /// The core's predicate, when the host gave one.
    var hostPredicate: HostRule.Predicate? {
        guard let predicate else { return nil }
        return { request in try self.call(predicate, request, properties: nil).result > 0 }
    }

    /// The core's configurer, when the host gave one.
    var hostConfigurer: HostRule.Configurer? {
        guard let configurer else { return nil }
        return { properties, request in properties = try self.call(configurer, request, properties: properties).view.properties ?? properties }
    }

    /// Calls `callback` with a view of `request` (and, for a configurer, of
    /// `properties`); a negative result is the failure the host recorded.
    private func call(_ callback: RuleCallback, _ request: RuleRequest, properties: JSONObject?) throws -> (result: Int32, view: RequestView) {
        let view = RequestView(request, properties: properties)
        let r = withExtendedLifetime(view) { callback(context, OpaquePointer(Unmanaged.passUnretained(view).toOpaque())) }
        guard r >= 0 else { throw HostCallbackFailure(description: view.failure ?? "it returned \(r)") }
        return (r, view)
    }
}

extension CFailure {
    /// Translates a lookup's failure: a bad method is an argument error, a
    /// failed host callback PATHCONFIG_E_CALLBACK with its rule, an input
    /// over max_url_bytes PATHCONFIG_E_LIMIT, a URL the app crashes on
    /// PATHCONFIG_E_URL.
    init(_ error: ResolveError) {
        switch error.code {
        case .invalidMethod: self.init(.argument, error.message)
        case .hostRule: self.init(.callback, error.message)
        case .limit: self.init(.limit, error.message)
        case .unreadableURL: self.init(.url, error.message)
        }
        ruleIndex = error.ruleIndex.map { Int32(clamping: $0) } ?? -1
    }
}

/// `body`'s value, with a lookup's failure translated for the host.
func resolving<T>(_ body: () throws(ResolveError) -> T) throws(CFailure) -> T {
    do throws(ResolveError) { return try body() } catch { throw CFailure(error) }
}

/// `body`'s value, with a load's or a parse's failure translated for the host.
func configuring<T>(_ body: () throws(ConfigurationError) -> T) throws(CFailure) -> T {
    do throws(ConfigurationError) { return try body() } catch { throw CFailure(error) }
}

@_cdecl("pathconfig_add_rule")
public func pathconfig_add_rule(_ cfg: OpaquePointer?, _ ruleJSON: UnsafePointer<CChar>?,
                                _ predicate: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32)?,
                                _ configurer: (@convention(c) (UnsafeMutableRawPointer?, OpaquePointer?) -> Int32)?,
                                _ context: UnsafeMutableRawPointer?,
                                _ freeContext: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
                                _ index: UnsafeMutablePointer<UInt>?,
                                _ err: UnsafeMutableRawPointer?) -> Int32 {
    // Made first, so that free_context runs exactly once on every path.
    let callbacks = HostRuleCallbacks(predicate: predicate, configurer: configurer, context: context, freeContext: freeContext)
    return status(err) { () throws(CFailure) in
        let config = try ConfigHandle.handle(cfg).configuration
        let text = try optionalHostString(ruleJSON, "rule_json") ?? "{}"
        let added = try configuring { () throws(ConfigurationError) in
            try config.add(json: text, predicate: callbacks.hostPredicate, configurer: callbacks.hostConfigurer, owner: callbacks)
        }
        index?.pointee = UInt(added)
    }
}

@_cdecl("pathconfig_invalidate")
public func pathconfig_invalidate(_ cfg: OpaquePointer?) -> Int32 {
    status { () throws(CFailure) in try ConfigHandle.handle(cfg).configuration.invalidate() }
}

/// The text `read` gives of the request behind `request`, as a C string
/// that lives as long as the request's view.
private func requestText(_ request: OpaquePointer?, _ read: (RequestView) throws(CFailure) -> String) -> UnsafePointer<CChar>? {
    boundary(or: nil) { () throws(CFailure) -> UnsafePointer<CChar>? in
        let view = try RequestView.borrow(request)
        return try view.keep(read(view))
    }
}

@_cdecl("pathconfig_request_url")
public func pathconfig_request_url(_ request: OpaquePointer?) -> UnsafePointer<CChar>? {
    requestText(request) { $0.request.url }
}

@_cdecl("pathconfig_request_method")
public func pathconfig_request_method(_ request: OpaquePointer?) -> UnsafePointer<CChar>? {
    requestText(request) { $0.request.method }
}

@_cdecl("pathconfig_request_properties")
public func pathconfig_request_properties(_ request: OpaquePointer?) -> UnsafePointer<CChar>? {
    requestText(request) { view throws(CFailure) in
        guard let properties = view.properties else { throw CFailure(.misuse, "a predicate has no properties (only a configurer does)") }
        return JSONWriter.compact(properties)
    }
}

/// Runs a setter of the properties of the configurer's request behind `request`.
private func changing(_ request: OpaquePointer?, _ change: (inout JSONObject) throws(CFailure) -> Void) -> Int32 {
    status { () throws(CFailure) in
        let view = try RequestView.borrow(request)
        guard var properties = view.properties else {
            throw CFailure(.misuse, "a predicate cannot change properties (only a configurer can)")
        }
        try change(&properties)
        view.properties = properties
    }
}

/// Sets the property `key` (nil: removes it) of the configurer's request
/// behind `request` to `value()`, the key read first.
private func setting(_ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: () throws(CFailure) -> JSONValue?) -> Int32 {
    changing(request) { (properties: inout JSONObject) throws(CFailure) in properties[try hostString(key, "key")] = try value() }
}

/// The JSON object in the host's text.
private func hostObject(_ json: UnsafePointer<CChar>?, _ name: StaticString) throws(CFailure) -> JSONObject {
    let text = try hostString(json, name)
    let value = try configuring { () throws(ConfigurationError) in try JSONValue(parsing: text) }
    guard let object = value.objectValue else { throw .argument("\(name) must be a JSON object, found \(value.typeName)") }
    return object
}

@_cdecl("pathconfig_request_set_string")
public func pathconfig_request_set_string(_ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    setting(request, key) { () throws(CFailure) in .string(try hostString(value, "value")) }
}

@_cdecl("pathconfig_request_set_int64")
public func pathconfig_request_set_int64(_ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int64) -> Int32 {
    setting(request, key) { .number(JSONNumber(value)) }
}

@_cdecl("pathconfig_request_set_double")
public func pathconfig_request_set_double(_ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Double) -> Int32 {
    setting(request, key) { () throws(CFailure) -> JSONValue? in
        guard value.isFinite else { throw .argument("value \(value) is not finite: JSON has no number for it") }
        return .number(JSONNumber(value))
    }
}

@_cdecl("pathconfig_request_set_bool")
public func pathconfig_request_set_bool(_ request: OpaquePointer?, _ key: UnsafePointer<CChar>?, _ value: Int32) -> Int32 {
    setting(request, key) { .bool(value != 0) }
}

@_cdecl("pathconfig_request_set_header")
public func pathconfig_request_set_header(_ request: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?) -> Int32 {
    changing(request) { (properties: inout JSONObject) throws(CFailure) in
        let header = try hostString(name, "name")
        let text = try hostString(value, "value")
        var headers = properties["headers"]?.objectValue ?? JSONObject()
        headers[header] = .string(text)
        properties["headers"] = .object(headers)
    }
}

@_cdecl("pathconfig_request_remove")
public func pathconfig_request_remove(_ request: OpaquePointer?, _ key: UnsafePointer<CChar>?) -> Int32 {
    setting(request, key) { nil }
}

@_cdecl("pathconfig_request_set_properties")
public func pathconfig_request_set_properties(_ request: OpaquePointer?, _ json: UnsafePointer<CChar>?) -> Int32 {
    changing(request) { (properties: inout JSONObject) throws(CFailure) in properties = try hostObject(json, "json_object") }
}

@_cdecl("pathconfig_request_merge_properties")
public func pathconfig_request_merge_properties(_ request: OpaquePointer?, _ json: UnsafePointer<CChar>?) -> Int32 {
    changing(request) { (properties: inout JSONObject) throws(CFailure) in properties.applyMergePatch(try hostObject(json, "json_patch")) }
}

@_cdecl("pathconfig_request_fail")
public func pathconfig_request_fail(_ request: OpaquePointer?, _ message: UnsafePointer<CChar>?) -> Int32 {
    status { () throws(CFailure) in
        let view = try RequestView.borrow(request)
        view.failure = try optionalHostString(message, "message") ?? "it reported a failure"
    }
}
