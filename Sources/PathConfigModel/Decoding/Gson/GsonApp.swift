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
    /// The profile that reproduces the app.
    let profile: Profile
    /// The Gson the app declares.
    let gsonVersion: String
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
    /// When a null `settings` crashes the app.
    let nullSettingsCrash: String
    /// A null `settings` crashes the app outside its path configuration
    /// (turbo-android's session, when a web screen is left), not in a
    /// lookup: the configuration loads, with a `not-portable` warning. A
    /// deliberate difference: the crash is not in anything a configuration
    /// answers, and the load's warning and lint say it (see docs/format-and-profiles.md,
    /// "Android documents: Gson").
    let loadsDespiteNullSettings: Bool

    static let hotwireAndroid = GsonApp(profile: .hotwireAndroid, gsonVersion: "2.12.1", nestingLimit: 255, valuesAsStrings: false,
                                        defaultsMissingFields: true, nullRulesCrash: "at start-up", nullSettingsCrash: "at start-up",
                                        loadsDespiteNullSettings: false)
    static let turboAndroid = GsonApp(profile: .turboAndroid, gsonVersion: "2.10.1", nestingLimit: nil, valuesAsStrings: true,
                                      defaultsMissingFields: false, nullRulesCrash: "on every lookup",
                                      nullSettingsCrash: "whenever it leaves a web screen", loadsDespiteNullSettings: true)

    /// The app's name in messages.
    var name: String { profile.rawValue }

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
}
