/// One Android app as Gson fills its configuration classes: the facts about
/// its Kotlin classes that decide what a document does there.
///
/// hotwire-native-android (a49cb9b, Gson 2.12.1): `PathConfigurationData`
/// is a data class whose parameters all have defaults, so Kotlin gives it a
/// no-argument constructor and Gson starts from `rules = emptyList()`,
/// `settings = HashMap()`; values are `HashMap<String, Any>` read by
/// `ObjectTypeAdapter`. `PathConfiguration.applyLoadedState` logs
/// `rules.size` and `settings.size` as it takes a loaded file, so a null
/// either way crashes at start-up.
///
/// turbo-android (daceb0a, Gson 2.10.1): `TurboPathConfiguration(context)`
/// has no such constructor, so Gson allocates it without running one: a
/// missing `rules` or `settings` is null, as is an explicit null. `load`
/// copies both as they are; `properties()` then iterates a null `rules` on
/// every lookup, and `TurboSession.screenshotsEnabled` reads a null
/// `settings` whenever a web screen is left (`TurboWebFragmentDelegate.screenshotView`).
/// Values are `HashMap<String, String>` read by `TypeAdapters.STRING`.
///
/// Both rule classes (`patterns: List<String>`, `properties: HashMap`) lack
/// a no-argument constructor: a missing key is null. A null rule, or a rule
/// whose `patterns` is null, throws in `rule.matches(path)` on every lookup;
/// a null pattern throws in `Regex(null)` once the patterns before it in its
/// rule did not match; null `properties` throw in `putAll` when the rule matches.
package struct GsonApp: Sendable, Hashable {
    /// The app's name in messages.
    let name: String
    /// JsonReader's nesting limit (Gson 2.11 and later), nil before.
    package let nestingLimit: Int?
    /// Values are `HashMap<String, String>` (TypeAdapters.STRING) rather
    /// than `HashMap<String, Any>` (ObjectTypeAdapter).
    let valuesAsStrings: Bool
    /// A missing `rules` or `settings` is the class's default (a Kotlin
    /// no-argument constructor) rather than null.
    let defaultsMissingFields: Bool
    /// When a null `rules` crashes the app.
    let nullRulesCrash: String
    /// When a null `settings` crashes the app; nil where the app never
    /// reads its settings, and keeps a null one.
    let nullSettingsCrash: String?
    /// A null `settings` crashes the app outside its path configuration
    /// (turbo-android's session, when a web screen is left), not in a
    /// lookup: the configuration loads, with a `not-portable` warning. A
    /// deliberate difference: the crash is not in anything a configuration
    /// answers, and the load's warning and lint say it (see docs/format-and-profiles.md,
    /// "Android documents: Gson").
    let loadsDespiteNullSettings: Bool
    /// The app's loader does not catch what Gson throws, and a null
    /// document reaches its callback: a file Gson cannot read crashes the
    /// app at start-up rather than being ignored (turbo-android before 7.1.4).
    var crashesOnUnreadableDocument = false

    static let hotwireAndroid = GsonApp(name: "hotwire-android", nestingLimit: 255, valuesAsStrings: false, defaultsMissingFields: true,
                                        nullRulesCrash: "at start-up", nullSettingsCrash: "at start-up", loadsDespiteNullSettings: false)
    /// hotwire-native-android 0.1 to 0.1.2 (Gson 2.10.1): `PathConfiguration`
    /// itself is the class Gson fills, through its no-argument constructor
    /// (so `rules` and `settings` default); values are strings; a null
    /// `settings` crashes where the session reads `screenshots_enabled`.
    static let hotwireAndroid01 = GsonApp(name: "hotwire-android", nestingLimit: nil, valuesAsStrings: true, defaultsMissingFields: true,
                                          nullRulesCrash: "on every lookup", nullSettingsCrash: "whenever it reads screenshots_enabled",
                                          loadsDespiteNullSettings: true)
    /// hotwire-native-android 0.1.3 to 1.1.3 (Gson 2.10.1, then 2.11.0): as
    /// 0.1, but the settings are never read.
    static let hotwireAndroidStrings = GsonApp(name: "hotwire-android", nestingLimit: nil, valuesAsStrings: true, defaultsMissingFields: true,
                                               nullRulesCrash: "on every lookup", nullSettingsCrash: nil, loadsDespiteNullSettings: true)
    /// hotwire-native-android 1.2.0 to 1.2.6 (Gson 2.12.1): values are Gson's
    /// objects; the loader appends the built-in rules to `rules` as it
    /// takes a file, so a null `rules` crashes at start-up; the settings
    /// are never read.
    static let hotwireAndroidMaps = GsonApp(name: "hotwire-android", nestingLimit: 255, valuesAsStrings: false, defaultsMissingFields: true,
                                            nullRulesCrash: "at start-up", nullSettingsCrash: nil, loadsDespiteNullSettings: true)
    /// turbo-android before 7.1.4 (Gson 2.8.6, then 2.10): as `turboAndroid`,
    /// but a document Gson cannot read crashes the app.
    static let turboAndroidUncaught: GsonApp = {
        var app = GsonApp.turboAndroid
        app.crashesOnUnreadableDocument = true
        return app
    }()
    static let turboAndroid = GsonApp(name: "turbo-android", nestingLimit: nil, valuesAsStrings: true, defaultsMissingFields: false,
                                      nullRulesCrash: "on every lookup", nullSettingsCrash: "whenever it leaves a web screen",
                                      loadsDespiteNullSettings: true)

    /// What a `null` element of an array at `place` does (an explicit
    /// `null`, or one a comma made).
    func nullElementEffect(in place: DocumentPlace) -> DocumentEffect {
        switch place {
        case .rules: return .crashes(what: "rule", when: "on every lookup")
        case .patterns: return .crashes(what: "pattern", when: "on every lookup that no earlier pattern of its rule matches")
        case .value: return valuesAsStrings ? .refuses(gson: "Expected a string but was BEGIN_ARRAY") : .addsNull
        case .map: return .refuses(gson: "Expected BEGIN_ARRAY but was NULL")
        case .mapEntry(let elements): return elements == 2 ? .addsNull : .refuses(gson: nil)
        case .document, .rule: return .refuses(gson: "Expected BEGIN_OBJECT but was BEGIN_ARRAY")
        case .unread: return .accepts
        }
    }

    /// What a key repeated in an object at `place` does. In a map (a rule's
    /// `properties`, the `settings`) Gson throws "duplicate key" unless the
    /// value it replaces is null (MapTypeAdapterFactory checks `put`'s result).
    func repeatedKeyEffect(_ key: String, place: DocumentPlace, previousValueIsNull: Bool) -> DocumentEffect {
        switch place {
        case .document: return ["rules", "settings"].contains(key) ? .keepsLast : .ignores
        case .rule: return ["patterns", "properties"].contains(key) ? .keepsLast : .ignores
        case .map: return previousValueIsNull ? .keepsLast : .refuses(gson: "duplicate key: \(key)")
        case .value: return valuesAsStrings ? .refuses(gson: "Expected a string but was BEGIN_OBJECT") : .keepsLast
        case .rules, .patterns, .mapEntry, .unread: return .ignores
        }
    }

    /// `refuses the document (Gson: "…") and ignores the whole file`, or,
    /// where the app does not catch Gson's exception, `… and crashes at
    /// start-up`: what the app does with a document Gson cannot read.
    func refusal(gson: String?) -> String {
        let phrase = DocumentEffect.refuses(gson: gson).phrase(plural: false)
        guard crashesOnUnreadableDocument else { return phrase }
        let quoted = gson.map { " (Gson: \"\($0)\")" } ?? ""
        return "refuses the document\(quoted), which crashes the app at start-up (its loader does not catch the exception)"
    }

    /// `the app ignores the file`, or `the app crashes at start-up`.
    var dropsFile: String {
        crashesOnUnreadableDocument ? "the app crashes at start-up (its loader does not catch it)" : "the app ignores the file"
    }
}
