import Synchronization
import PathConfigModel

/// The merged properties of every rule that matched one URL, with typed
/// accessors that apply the profile's defaults.
///
/// Immutable and shared: a configuration's result cache hands the same
/// instance to every lookup of the same matched string, and the JSON text is
/// computed at most once.
public final class PathProperties: Sendable, CustomStringConvertible {
    /// The merged properties, in the order keys first appeared.
    public let object: JSONObject
    /// The platform whose accessor rules apply.
    public let platform: Profile.Platform
    /// The address of the result's `JSONText` once made, 0 before (a
    /// reference owned by the result, released in deinit). An address, read
    /// without a lock, so that the class stays `Sendable`.
    private let jsonText = Atomic<Int>(0)
    /// `jsonCString` once read: the address of the text's bytes, 0 before
    /// (owned by the `JSONText`). Read first, so that a lookup that hands
    /// out the JSON makes one load, not two dependent ones.
    private let jsonBytes = Atomic<Int>(0)
    private let attached = Mutex<(any AnyObject & Sendable)?>(nil)

    /// Creates a result.
    public init(_ object: JSONObject, platform: Profile.Platform) {
        self.object = object
        self.platform = platform
    }

    private init(_ object: JSONObject, platform: Profile.Platform, text: JSONText) {
        self.object = object
        self.platform = platform
        jsonText.store(Int(bitPattern: Unmanaged.passRetained(text).toOpaque()), ordering: .releasing)
        jsonBytes.store(Int(bitPattern: text.cString), ordering: .releasing)
    }

    /// Another result with the same properties and the same JSON text (made
    /// now if it was not yet): a thread's own copy of a shared result
    /// (`ThreadResults`), whose reference count and locks no other thread
    /// touches. The copy's `jsonCString` is the original's pointer, so a host
    /// that keys what it derives from a result by that pointer (the Python
    /// binding) finds it again through every copy. Attachments are not copied.
    func copy() -> PathProperties { PathProperties(object, platform: platform, text: text) }

    /// The raw value of `key`, or nil.
    public subscript(key: String) -> JSONValue? { object[key] }

    /// The number of properties (`object.count`, read without copying the
    /// object out of the result: no reference counted).
    @inlinable public var count: Int { object.count }

    /// True when no rule set a property (`object.isEmpty`).
    @inlinable public var isEmpty: Bool { object.isEmpty }

    /// The string value of `key` (nil when absent or not a string), as the
    /// iOS `String` subscript reads it.
    public func string(_ key: String) -> String? { object[key]?.stringValue }

    /// The compact JSON text of the properties.
    public var json: String { text.string }

    public var description: String { json }

    /// `json` as NUL-terminated UTF-8, made on first use and kept with the
    /// result: valid as long as the result (or any `copy()` of it) lives, and
    /// the same pointer for the result and its copies. What the C ABI hands
    /// out (`pathconfig_result_json`). JSON text never holds a NUL byte
    /// (U+0000 is written `\u0000`). `package`: the C boundary's, not API.
    package var jsonCString: UnsafePointer<CChar> {
        let kept = jsonBytes.load(ordering: .acquiring)
        if kept != 0 { return UnsafePointer(bitPattern: kept)! }
        let bytes = Unmanaged<JSONText>.fromOpaque(UnsafeRawPointer(bitPattern: madeText())!)._withUnsafeGuaranteedRef { $0.cString }
        // Every thread that gets here stores the same address: the published text's.
        jsonBytes.store(Int(bitPattern: bytes), ordering: .releasing)
        return UnsafePointer(bytes)
    }

    /// The result's JSON text, made on first use.
    private var text: JSONText {
        Unmanaged<JSONText>.fromOpaque(UnsafeRawPointer(bitPattern: madeText())!).takeUnretainedValue()
    }

    /// The address of the result's `JSONText`, made now if it was not yet:
    /// read without a lock; the first reader to publish one wins, and a
    /// reader that loses the race releases its own.
    private func madeText() -> Int {
        let kept = jsonText.load(ordering: .acquiring)
        if kept != 0 { return kept }
        let made = Int(bitPattern: Unmanaged.passRetained(JSONText(JSONWriter.compact(object))).toOpaque())
        let (published, current) = jsonText.compareExchange(expected: 0, desired: made, ordering: .acquiringAndReleasing)
        guard published else {
            Unmanaged<JSONText>.fromOpaque(UnsafeRawPointer(bitPattern: made)!).release()
            return current
        }
        return made
    }

    deinit {
        if let kept = UnsafeRawPointer(bitPattern: jsonText.load(ordering: .acquiring)) { Unmanaged<JSONText>.fromOpaque(kept).release() }
    }

    /// The object `make` gives the first time this is called, kept with the
    /// result and released with it: where a host layer keeps what it derives
    /// from a shared result once (the C ABI keeps its C strings here, so a
    /// result handed out again costs nothing new). `package`: the C
    /// boundary's, not API.
    package func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T {
        attached.withLock { slot in
            // A metatype comparison, not a dynamic cast: this runs on every
            // read of a C string from a result.
            if let existing = slot, type(of: existing) == T.self { return unsafeDowncast(existing, to: T.self) }
            let made = make()
            slot = made
            return made
        }
    }

    /// The value of a well-known key through its typed accessor (default applied).
    public func typed(_ key: TypedKey) -> JSONValue { key.value(from: object[key.rawValue], on: platform) }

    /// `context` (default `default`).
    public var context: Context { Context(rawValue: typed(.context).stringValue ?? "") ?? .default }
    /// `presentation` (default `default`).
    public var presentation: Presentation { Presentation(rawValue: typed(.presentation).stringValue ?? "") ?? .default }
    /// `modal_style` (default `large`).
    public var modalStyle: ModalStyle { ModalStyle(rawValue: typed(.modalStyle).stringValue ?? "") ?? .large }
    /// `query_string_presentation` (default `default`).
    public var queryStringPresentation: QueryStringPresentation {
        QueryStringPresentation(rawValue: typed(.queryStringPresentation).stringValue ?? "") ?? .default
    }
    /// `pull_to_refresh_enabled` (default true on iOS, false on Android).
    public var pullToRefreshEnabled: Bool { typed(.pullToRefreshEnabled).boolValue ?? false }
    /// `modal_dismiss_gesture_enabled` (default true).
    public var modalDismissGestureEnabled: Bool { typed(.modalDismissGestureEnabled).boolValue ?? true }
    /// `animated` (default true).
    public var animated: Bool { typed(.animated).boolValue ?? true }
    /// `historical_location` (default false).
    public var isHistoricalLocation: Bool { typed(.historicalLocation).boolValue ?? false }
    /// `view_controller` (default `web` on iOS).
    public var viewController: String? { typed(.viewController).stringValue }
    /// `title`, when set.
    public var title: String? { typed(.title).stringValue }
    /// `uri` (Android), when set.
    public var uri: String? { typed(.uri).stringValue }
    /// `fallback_uri` (Android), when set.
    public var fallbackURI: String? { typed(.fallbackURI).stringValue }
}

/// A result's compact JSON text, as a `String` and as NUL-terminated UTF-8
/// (`PathProperties.jsonCString`), made together once and shared by a result
/// and its copies. Immutable.
private final class JSONText: Sendable {
    let string: String
    /// The UTF-8 of `string` and a NUL, owned (an address, so that the class
    /// stays `Sendable`).
    private let bytes: Int

    init(_ string: String) {
        self.string = string
        var text = string
        let buffer = text.withUTF8 { utf8 in
            let p = UnsafeMutableBufferPointer<CChar>.allocate(capacity: utf8.count + 1)
            UnsafeMutableRawBufferPointer(p).copyBytes(from: utf8)
            p[utf8.count] = 0
            return p.baseAddress!
        }
        bytes = Int(bitPattern: buffer)
    }

    /// The text as NUL-terminated UTF-8, valid as long as this object lives.
    var cString: UnsafeMutablePointer<CChar> { UnsafeMutablePointer(bitPattern: bytes)! }

    deinit { cString.deallocate() }
}
