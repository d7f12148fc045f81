/// One tab of a Jumpstart-style tab bar, from `settings.tabs`.
public struct Tab: Sendable, Hashable {
    /// The text shown on the tab.
    public let title: String
    /// The URL path the tab loads.
    public let path: String
    /// The SF Symbols name of the tab's icon, when given.
    public let systemImageName: String?

    /// Creates a tab.
    public init(title: String, path: String, systemImageName: String? = nil) {
        self.title = title
        self.path = path
        self.systemImageName = systemImageName
    }

    /// The key of `settings` that holds the tabs.
    public static let settingsKey = "tabs"

    /// The keys of a tab's object, each a string.
    public enum Key: String, Sendable, CaseIterable {
        case title
        case path
        case systemImageName = "system_image_name"

        /// Whether an entry without this key is skipped.
        public var isRequired: Bool { self != .systemImageName }
    }

    /// The tabs in `settings.tabs`: every entry that is an object with a string
    /// `title` and a string `path`, in order; other entries are skipped.
    public static func tabs(in settings: JSONObject) -> [Tab] {
        guard let entries = settings[settingsKey]?.arrayValue else { return [] }
        return entries.compactMap { entry in
            guard let o = entry.objectValue, let title = o[Key.title.rawValue]?.stringValue,
                  let path = o[Key.path.rawValue]?.stringValue else { return nil }
            return Tab(title: title, path: path, systemImageName: o[Key.systemImageName.rawValue]?.stringValue)
        }
    }
}
