import Synchronization

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
    private let jsonText = Mutex<String?>(nil)
    /// The address of `jsonCString`'s buffer once made, 0 before (owned;
    /// freed in deinit). An address, so that the class stays `Sendable`.
    private let jsonBuffer = Atomic<Int>(0)
    private let attached = Mutex<(any AnyObject & Sendable)?>(nil)

    /// Creates a result.
    public init(_ object: JSONObject, platform: Profile.Platform) {
        self.object = object
        self.platform = platform
    }

    private init(_ object: JSONObject, platform: Profile.Platform, json: String) {
        self.object = object
        self.platform = platform
        jsonText.withLock { $0 = json }
    }

    /// Another result with the same properties and JSON text (made now if
    /// it was not yet), sharing their storage: a thread's own copy of a
    /// shared result (`ThreadResults`), whose reference count and locks no
    /// other thread touches. Attachments are not copied.
    func copy() -> PathProperties { PathProperties(object, platform: platform, json: json) }

    /// The raw value of `key`, or nil.
    public subscript(key: String) -> JSONValue? { object[key] }

    /// The string value of `key` (nil when absent or not a string), as the
    /// iOS `String` subscript reads it.
    public func string(_ key: String) -> String? { object[key]?.stringValue }

    /// The compact JSON text of the properties.
    public var json: String {
        jsonText.withLock { cached in
            if let cached { return cached }
            let text = JSONWriter.compact(object)
            cached = text
            return text
        }
    }

    public var description: String { json }

    /// `json` as NUL-terminated UTF-8, made on first use and kept with the
    /// result: valid as long as the result lives. What the C ABI hands out
    /// (`pathconfig_result_json`), read without a lock: the first reader
    /// makes it, and a reader that loses the race to publish it frees its copy.
    /// JSON text never holds a NUL byte (U+0000 is written `\u0000`).
    public var jsonCString: UnsafePointer<CChar> {
        let kept = jsonBuffer.load(ordering: .acquiring)
        if kept != 0 { return UnsafePointer(bitPattern: kept)! }
        var text = json
        let made = text.withUTF8 { utf8 in
            let p = UnsafeMutableBufferPointer<CChar>.allocate(capacity: utf8.count + 1)
            UnsafeMutableRawBufferPointer(p).copyBytes(from: utf8)
            p[utf8.count] = 0
            return p.baseAddress!
        }
        let (published, current) = jsonBuffer.compareExchange(expected: 0, desired: Int(bitPattern: made), ordering: .acquiringAndReleasing)
        guard published else {
            made.deallocate()
            return UnsafePointer(bitPattern: current)!
        }
        return UnsafePointer(made)
    }

    deinit { UnsafeMutablePointer<CChar>(bitPattern: jsonBuffer.load(ordering: .acquiring))?.deallocate() }

    /// The object `make` gives the first time this is called, kept with the
    /// result and released with it: where a host layer keeps what it derives
    /// from a shared result once (the C ABI keeps its C strings here, so a
    /// result handed out again costs nothing new).
    public func attachment<T: AnyObject & Sendable>(_ make: () -> T) -> T {
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
