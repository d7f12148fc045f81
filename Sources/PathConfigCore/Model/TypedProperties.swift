/// Where a screen is presented: in the main stack or a modal.
public enum Context: String, Sendable, CaseIterable {
    case `default`, modal
}

/// How a visit changes the navigation stack.
public enum Presentation: String, Sendable, CaseIterable {
    case `default`
    /// Android only; on iOS `push` is unknown and reads as `default`.
    case push
    case pop, replace, refresh, clearAll = "clear_all", replaceRoot = "replace_root", none
}

/// The sheet style of a modal (iOS).
public enum ModalStyle: String, Sendable, CaseIterable {
    case medium, large, full, pageSheet = "page_sheet", formSheet = "form_sheet"
}

/// What a visit to the same path with another query does.
public enum QueryStringPresentation: String, Sendable, CaseIterable {
    case `default`, replace
}

/// The well-known property keys, their types and each platform's default.
///
/// One table drives the Swift accessors, the C ABI's typed getters and the
/// CLI, so every host reads `presentation` the same way.
public enum TypedKey: String, Sendable, CaseIterable {
    case context
    case presentation
    case modalStyle = "modal_style"
    case pullToRefreshEnabled = "pull_to_refresh_enabled"
    case modalDismissGestureEnabled = "modal_dismiss_gesture_enabled"
    case viewController = "view_controller"
    case animated
    case queryStringPresentation = "query_string_presentation"
    case title
    case uri
    case fallbackURI = "fallback_uri"
    case historicalLocation = "historical_location"

    /// The kind of value the accessor returns.
    public enum Kind: Sendable { case enumeration, boolean, string }

    /// The accessor's value type.
    public var kind: Kind {
        switch self {
        case .context, .presentation, .modalStyle, .queryStringPresentation: return .enumeration
        case .pullToRefreshEnabled, .modalDismissGestureEnabled, .animated, .historicalLocation: return .boolean
        case .viewController, .title, .uri, .fallbackURI: return .string
        }
    }

    /// The allowed values of an enumeration key on `platform` (empty for other kinds).
    public func allowedValues(on platform: Profile.Platform) -> [String] {
        switch self {
        case .context: return Context.allCases.map(\.rawValue)
        case .presentation:
            return Presentation.allCases.filter { platform == .android || $0 != .push }.map(\.rawValue)
        case .modalStyle: return ModalStyle.allCases.map(\.rawValue)
        case .queryStringPresentation: return QueryStringPresentation.allCases.map(\.rawValue)
        default: return []
        }
    }

    /// The value used when the key is missing, of the wrong type or unknown.
    public func defaultValue(on platform: Profile.Platform) -> JSONValue {
        switch self {
        case .context, .presentation, .queryStringPresentation: return .string("default")
        case .modalStyle: return .string("large")
        case .pullToRefreshEnabled: return .bool(platform == .ios)
        case .modalDismissGestureEnabled, .animated: return .bool(true)
        case .historicalLocation: return .bool(false)
        case .viewController: return platform == .ios ? .string("web") : .null
        case .title, .uri, .fallbackURI: return .null
        }
    }

    /// What the app's accessor gives for `raw` (the merged property, if
    /// any), read by `reading`: a value (the default when the key is
    /// missing or null or the value is not recognized), or the exception
    /// the app throws.
    public func read(_ raw: JSONValue?, by reading: TypedReading) -> TypedRead {
        guard let raw, raw != .null else {
            if self == .uri {
                if reading == .turboKotlinStrings { return .crash("java.lang.NullPointerException: uriString") }
                if reading == .kotlinStringsWithFragmentURI { return .value(.string("turbo://fragment/web")) }
            }
            return .value(defaultValue(on: reading.platform))
        }
        return interpret(raw, by: reading) ?? .value(defaultValue(on: reading.platform))
    }

    /// What the app reads from `raw`, or nil when it does not recognize the
    /// value (unknown, or of the wrong type) and falls back to the default,
    /// or when it crashes (`read(_:by:)` says which).
    public func recognizedValue(_ raw: JSONValue, by reading: TypedReading) -> JSONValue? {
        if case .value(let v)? = interpret(raw, by: reading) { v } else { nil }
    }

    /// iOS reads with `as?`: an enumeration must be one of its exact
    /// strings, a boolean a JSON boolean or a number that is exactly 0 or 1
    /// (an `NSNumber` bridges to `Bool` then), a string a JSON string.
    ///
    /// Android before hotwire-android 1.2 (and turbo-android) holds every
    /// value as the string Gson made of it: enumerations are upper-cased and
    /// looked up (any case), booleans are `String.toBoolean()` (`"true"` in
    /// any case), strings as held (a number's literal text).
    ///
    /// hotwire-android 1.2 and later hold Gson's leaves: enumerations read
    /// `toString()` (so only strings match), strings `toString()` (a number
    /// as Java prints a `Long` or `Double`), and booleans `as Boolean`,
    /// which throws `ClassCastException` for anything but a JSON boolean.
    /// nil: the app does not recognize the value (unknown, or of the wrong
    /// type) and reads the default.
    private func interpret(_ raw: JSONValue, by reading: TypedReading) -> TypedRead? {
        switch (kind, reading) {
        case (.enumeration, .foundation):
            guard case .string(let s) = raw, allowedValues(on: .ios).contains(s) else { return nil }
            return .value(.string(s))
        case (.enumeration, _):
            // `Presentation.valueOf(value.uppercase())`: "puſh" is PUSH.
            guard case .string(let s) = raw else { return nil }
            let upper = s.uppercased()
            guard let name = allowedValues(on: .android).first(where: { $0.uppercased() == upper }) else { return nil }
            return .value(.string(name))
        case (.boolean, .foundation):
            switch raw {
            case .bool(let b): return .value(.bool(b))
            case .number(let n):
                let d = n.doubleValue
                guard d == 0 || d == 1 else { return nil }
                return .value(.bool(d == 1))
            default: return nil
            }
        case (.boolean, .kotlinCasts):
            if case .bool(let b) = raw { return .value(.bool(b)) }
            return .crash("java.lang.ClassCastException: \(GsonLeaf.className(of: raw)) cannot be cast to java.lang.Boolean")
        case (.boolean, _):
            switch raw {
            case .bool(let b): return .value(.bool(b))
            case .string(let s): return .value(.bool(s.lowercased() == "true"))
            default: return .value(.bool(false))  // a number's text is never "true"
            }
        case (.string, .foundation):
            guard case .string(let s) = raw else { return nil }
            return .value(.string(s))
        case (.string, .kotlinCasts):
            return .value(.string(GsonLeaf.javaString(of: raw)))
        case (.string, _):
            return GsonLeaf.string(of: raw).map { .value(.string($0)) }  // arrays and objects never load as strings
        }
    }
}

/// What a typed accessor gives: a value (`.null` for none), or the
/// exception the app throws reading the key.
public enum TypedRead: Sendable, Hashable {
    case value(JSONValue)
    /// The exception, as the app's log would name it, and why.
    case crash(String)
}

extension TypedKey {
    /// The key's place in `allCases`, without searching it: its
    /// `PATHCONFIG_KEY_*` number in the C API (a test checks the two agree).
    package var index: Int {
        switch self {
        case .context: return 0
        case .presentation: return 1
        case .modalStyle: return 2
        case .pullToRefreshEnabled: return 3
        case .modalDismissGestureEnabled: return 4
        case .viewController: return 5
        case .animated: return 6
        case .queryStringPresentation: return 7
        case .title: return 8
        case .uri: return 9
        case .fallbackURI: return 10
        case .historicalLocation: return 11
        }
    }

    /// The key numbered `index` (`PATHCONFIG_KEY_*`), nil out of range: the
    /// inverse of `index`, without making `allCases` (a test checks both).
    package init?(index: Int) {
        switch index {
        case 0: self = .context
        case 1: self = .presentation
        case 2: self = .modalStyle
        case 3: self = .pullToRefreshEnabled
        case 4: self = .modalDismissGestureEnabled
        case 5: self = .viewController
        case 6: self = .animated
        case 7: self = .queryStringPresentation
        case 8: self = .title
        case 9: self = .uri
        case 10: self = .fallbackURI
        case 11: self = .historicalLocation
        default: return nil
        }
    }
}

/// How an app's typed accessors read a stored value.
public enum TypedReading: Sendable, Hashable {
    /// iOS: `properties["key"] as? String` and `as? Bool`: exact strings and
    /// JSON booleans (or 0 and 1); anything else reads as the default.
    case foundation
    /// Android apps that keep every value as a string
    /// (`HashMap<String, String>`): enumerations in any case, booleans by
    /// `String.toBoolean()`.
    case kotlinStrings
    /// As `kotlinStrings`, but `uri` is `Uri.parse(get("uri"))`, which
    /// throws when the key is missing or null (turbo-android).
    case turboKotlinStrings
    /// As `kotlinStrings`, but a missing or null `uri` reads as the default
    /// fragment's, `turbo://fragment/web` (hotwire-android 0.1 to 0.1.2).
    case kotlinStringsWithFragmentURI
    /// Android apps that keep values as Gson leaves them
    /// (`HashMap<String, Any>`) and cast them: a value of another type
    /// throws `ClassCastException` where the app reads the key.
    case kotlinCasts

    /// The platform whose allowed values and defaults apply.
    public var platform: Profile.Platform { self == .foundation ? .ios : .android }
}
