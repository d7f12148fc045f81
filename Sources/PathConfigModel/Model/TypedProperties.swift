/// Where a screen is presented: in the main stack or a modal.
public enum Context: String, Sendable, CaseIterable {
    case `default` = "default"
    case modal = "modal"
}

/// How a visit changes the navigation stack.
public enum Presentation: String, Sendable, CaseIterable {
    case `default` = "default"
    /// Android only; on iOS `push` is unknown and reads as `default`.
    case push = "push"
    case pop = "pop"
    case replace = "replace"
    case refresh = "refresh"
    case clearAll = "clear_all"
    case replaceRoot = "replace_root"
    case none = "none"
}

/// The sheet style of a modal (iOS).
public enum ModalStyle: String, Sendable, CaseIterable {
    case medium = "medium"
    case large = "large"
    case full = "full"
    case pageSheet = "page_sheet"
    case formSheet = "form_sheet"
}

/// What a visit to the same path with another query does.
public enum QueryStringPresentation: String, Sendable, CaseIterable {
    case `default` = "default"
    case replace = "replace"
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

    /// The accessor's value for `raw` (the merged property, if any) on `platform`:
    /// what `recognizedValue(_:on:)` reads, or the default when the key is
    /// missing or null or the value is not recognized.
    public func value(from raw: JSONValue?, on platform: Profile.Platform) -> JSONValue {
        guard let raw, raw != .null else { return defaultValue(on: platform) }
        return recognizedValue(raw, on: platform) ?? defaultValue(on: platform)
    }

    /// What the app on `platform` reads from `raw`, or nil when it does not
    /// recognize the value (unknown, or of the wrong type) and falls back to
    /// the default.
    ///
    /// iOS reads strictly: an enumeration must be one of its exact strings and a
    /// boolean a JSON boolean (`"true"` is not one). Android reads as Kotlin
    /// does: enumerations compare case-insensitively (the built-ins say `POP`),
    /// and a boolean may be the string `"true"` or `"false"` in any case.
    public func recognizedValue(_ raw: JSONValue, on platform: Profile.Platform) -> JSONValue? {
        switch kind {
        case .enumeration:
            let allowed = allowedValues(on: platform)
            switch (platform, raw) {
            case (.ios, .string(let s)) where allowed.contains(s): return .string(s)
            case (.android, .string(let s)):
                let lower = s.lowercased()
                if allowed.contains(lower) { return .string(lower) }
            default: break
            }
            return nil
        case .boolean:
            switch (platform, raw) {
            case (_, .bool(let b)): return .bool(b)
            case (.android, .string(let s)): return .bool(s.lowercased() == "true")
            default: return nil
            }
        case .string:
            switch (platform, raw) {
            case (_, .string(let s)): return .string(s)
            case (.android, .number(let n)): return .string(n.text)
            case (.android, .bool(let b)): return .string(b ? "true" : "false")
            default: return nil
            }
        }
    }
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
}

extension TypedKey {
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
