import Synchronization

/// The merged properties of every rule that matched one URL, with typed
/// accessors that apply the profile's defaults.
///
/// Immutable and shared: a configuration's caches hand the same instance to
/// every lookup that matches the same rules. What is read from it (the JSON
/// text, the typed values, the C boundary's strings) is worked out once per
/// distinct answer, on first read, and kept in its `Answer`, which the
/// result's per-thread copies share.
public final class PathProperties: Sendable, CustomStringConvertible {
    /// The merged properties, in the order keys first appeared.
    public let object: JSONObject
    /// How the profile's app reads the typed keys.
    public let typedReading: TypedReading
    /// The platform whose accessor rules apply.
    public var platform: Profile.Platform { typedReading.platform }
    /// The result's `Answer`, once made.
    private let made: MadeOnce<Answer>

    /// Creates a result read as `typedReading` says.
    public init(_ object: JSONObject, typedReading: TypedReading) {
        self.object = object
        self.typedReading = typedReading
        made = MadeOnce()
    }

    private init(_ object: JSONObject, typedReading: TypedReading, answer: Answer) {
        self.object = object
        self.typedReading = typedReading
        made = MadeOnce(answer)
    }

    /// Another result with the same properties and the same `Answer` (made
    /// now if it was not yet): a thread's own copy of a shared result
    /// (`ThreadResults`), whose reference count no other thread touches.
    /// The copy has the original's `answer.id`, JSON text and host strings.
    func copy() -> PathProperties { PathProperties(object, typedReading: typedReading, answer: answer) }

    /// The raw value of `key`, or nil.
    public subscript(key: String) -> JSONValue? { object[key] }

    /// The number of properties (`object.count`, read without copying the
    /// object out of the result: no reference counted).
    public var count: Int { object.count }

    /// True when no rule set a property (`object.isEmpty`).
    public var isEmpty: Bool { object.isEmpty }

    /// The string value of `key` (nil when absent or not a string), as the
    /// iOS `String` subscript reads it.
    public func string(_ key: String) -> String? { object[key]?.stringValue }

    /// The compact JSON text of the properties.
    public var json: String { answer.json }

    public var description: String { json }

    /// The answer's identity: results with the same `id` hold the same
    /// properties (a result and its copies share one); unique in the process
    /// and never reused, so a host keeps what it derives from an answer by
    /// it (`pathconfig_result_id`).
    public var id: UInt64 { answer.id }

    /// What is worked out once for this answer, made on first use: read
    /// without a lock; the first reader to publish one wins, and a reader
    /// that loses the race releases its own. (The C boundary reads
    /// `unretainedAnswer`, without counting a reference.)
    package var answer: Answer { unretainedAnswer.takeUnretainedValue() }

    /// The answer without a reference counted on it: the result holds one
    /// for as long as the caller holds the result. Not generic, so that a
    /// read from another module (the C boundary's, on every typed read) is a
    /// direct call.
    package var unretainedAnswer: Unmanaged<Answer> {
        made.current ?? made.publish(Answer(object, typedReading: typedReading))
    }

    /// Runs `body` on the answer without counting a reference on it.
    @inline(__always)
    func withAnswer<T>(_ body: (Answer) throws -> T) rethrows -> T {
        try unretainedAnswer._withUnsafeGuaranteedRef(body)
    }

    /// The value of a well-known key through its typed accessor (default
    /// applied), or the default where the app crashes reading it:
    /// `read(_:)` tells the two apart.
    public func typed(_ key: TypedKey) -> JSONValue { answer.typed[key.index] }

    /// What the app's typed accessor gives for `key`: its value (default
    /// applied), or the exception the app throws reading it (a
    /// `ClassCastException` where hotwire-android 1.2 and later read a
    /// boolean that is not one).
    public func read(_ key: TypedKey) -> TypedRead {
        withAnswer { answer in answer.crash(key).map(TypedRead.crash) ?? .value(answer.typed[key.index]) }
    }

    /// `context` (default `default`).
    public var context: Context { withAnswer { $0.context } }
    /// `presentation` (default `default`).
    public var presentation: Presentation { withAnswer { $0.presentation } }
    /// `modal_style` (default `large`).
    public var modalStyle: ModalStyle { withAnswer { $0.modalStyle } }
    /// `query_string_presentation` (default `default`).
    public var queryStringPresentation: QueryStringPresentation { withAnswer { $0.queryStringPresentation } }
    /// `pull_to_refresh_enabled` (default true on iOS, false on Android).
    public var pullToRefreshEnabled: Bool { withAnswer { $0.flag(.pullToRefreshEnabled) } }
    /// `modal_dismiss_gesture_enabled` (default true).
    public var modalDismissGestureEnabled: Bool { withAnswer { $0.flag(.modalDismissGestureEnabled) } }
    /// `animated` (default true).
    public var animated: Bool { withAnswer { $0.flag(.animated) } }
    /// `historical_location` (default false).
    public var isHistoricalLocation: Bool { withAnswer { $0.flag(.historicalLocation) } }
    /// `view_controller` (default `web` on iOS).
    public var viewController: String? { withAnswer { $0.typed[TypedKey.viewController.index].stringValue } }
    /// `title`, when set.
    public var title: String? { withAnswer { $0.typed[TypedKey.title.index].stringValue } }
    /// `uri` (Android), when set.
    public var uri: String? { withAnswer { $0.typed[TypedKey.uri.index].stringValue } }
    /// `fallback_uri` (Android), when set.
    public var fallbackURI: String? { withAnswer { $0.typed[TypedKey.fallbackURI.index].stringValue } }
}

/// What is worked out once per distinct answer, on the first read of a
/// result, and shared by the result and its copies: its identity, its JSON
/// text (as a `String` and as NUL-terminated UTF-8), its typed values, and
/// whatever a host layer derives from it (`attachment`). Immutable but for
/// the attachment, published once.
package final class Answer: Sendable {
    /// Unique in the process, never 0, never reused.
    package let id: UInt64
    package let json: String
    /// The UTF-8 of `json` and a NUL, owned (an address, so that the class
    /// stays `Sendable`). JSON text never holds a NUL byte (U+0000 is written
    /// `\u0000`).
    private let bytes: Int
    /// Every typed key's value, default applied (also where the app
    /// crashes), in `TypedKey.allCases` order.
    package let typed: [JSONValue]
    /// Where the app crashes reading a typed key, the exception, in
    /// `TypedKey.allCases` order; empty when it crashes on none.
    private let crashes: [String?]
    package let context: Context
    package let presentation: Presentation
    package let modalStyle: ModalStyle
    let queryStringPresentation: QueryStringPresentation
    /// The host layer's object, once made.
    private let attached = MadeOnce<any AnyObject & Sendable>()

    private static let counter = Atomic<UInt64>(0)

    init(_ object: JSONObject, typedReading: TypedReading) {
        id = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        json = JSONWriter.compact(object)
        var text = json
        bytes = text.withUTF8 { utf8 in
            let p = UnsafeMutableBufferPointer<CChar>.allocate(capacity: utf8.count + 1)
            UnsafeMutableRawBufferPointer(p).copyBytes(from: utf8)
            p[utf8.count] = 0
            return Int(bitPattern: p.baseAddress!)
        }
        var typed: [JSONValue] = []
        var crashes: [String?] = []
        typed.reserveCapacity(TypedKey.allCases.count)
        for key in TypedKey.allCases {
            switch key.read(object[key.rawValue], by: typedReading) {
            case .value(let v):
                typed.append(v)
            case .crash(let why):
                if crashes.isEmpty { crashes = Array(repeating: nil, count: TypedKey.allCases.count) }
                crashes[key.index] = why
                typed.append(key.defaultValue(on: typedReading.platform))
            }
        }
        self.typed = typed
        self.crashes = crashes
        context = Context(rawValue: typed[TypedKey.context.index].stringValue ?? "") ?? .default
        presentation = Presentation(rawValue: typed[TypedKey.presentation.index].stringValue ?? "") ?? .default
        modalStyle = ModalStyle(rawValue: typed[TypedKey.modalStyle.index].stringValue ?? "") ?? .large
        queryStringPresentation = QueryStringPresentation(rawValue: typed[TypedKey.queryStringPresentation.index].stringValue ?? "") ?? .default
    }

    /// The JSON text as NUL-terminated UTF-8, valid as long as this answer lives.
    package var cString: UnsafePointer<CChar> { UnsafePointer(bitPattern: bytes)! }

    /// A boolean key's typed value.
    package func flag(_ key: TypedKey) -> Bool { typed[key.index].boolValue ?? false }

    /// The exception the app throws reading `key`, nil where it reads a value.
    package func crash(_ key: TypedKey) -> String? { crashes.isEmpty ? nil : crashes[key.index] }

    /// The address of the object `make` gives the first time this is
    /// called, kept with the answer and released with it: where a host
    /// layer keeps what it derives from an answer once (the C boundary's
    /// strings). Read without a lock; when two threads make one at once, the
    /// first published wins. Not generic (the caller knows its type), so
    /// that a read from another module is a direct call and a load.
    package func attachment(_ make: () -> any AnyObject & Sendable) -> UnsafeRawPointer {
        UnsafeRawPointer((attached.current ?? attached.publish(make())).toOpaque())
    }

    deinit {
        UnsafeMutablePointer<CChar>(bitPattern: bytes)!.deallocate()
    }
}
