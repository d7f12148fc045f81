import PathConfigCore

/// The JSON Schema (draft 2020-12) of a path configuration, for editors and
/// CI: `pathconfig schema` prints `text`, and the repository keeps it at
/// docs/path-configuration.schema.json, the `id` a document's `"$schema"`
/// key names.
///
/// It is made from the library's tables, so that it says what the library
/// says: the profiles and what each reads (`Profile`: platform, regex
/// dialect and case, values stored as strings, built-in rules), the typed
/// keys (`TypedKey`, through `TypedKeySchema`), the HTTP method token
/// (`HTTPMethod`), the tabs of `settings` (`Tab`) and the lint kinds a
/// `"lint": {"allow": [...]}` marker names (`LintFinding.Kind`).
///
/// What it rejects:
/// - what the iOS apps refuse to load, and the Android apps refuse or crash
///   on: a top level that is not an object, no `rules` array, a rule that is
///   not an object or has no `properties` object, no `patterns` (nor, for
///   siesta, `globs`), `patterns` or `globs` that are not arrays of strings,
///   `methods` that are not a non-empty array of HTTP method tokens;
/// - a `settings` that is not an object (the iOS apps read it as `{}`, the
///   Android apps refuse the file or crash), and tabs that `Tab.tabs(in:)`
///   skips;
/// - typed values other than those the apps list: see `TypedKeySchema`;
/// - a `lint` marker naming no lint kind.
///
/// It checks no pattern's syntax: patterns are ICU or Java regular
/// expressions, which JSON Schema's `"format": "regex"` (ECMA-262) would
/// misjudge; `pathconfig validate` compiles them. Every other key is
/// allowed where the apps keep or ignore it: at the top level, in a rule,
/// in `properties` and in `settings`.
public enum ConfigurationSchema {
    /// The schema's `$id`: where the repository keeps it, and what a
    /// document's `"$schema"` key names.
    public static let id = "https://raw.githubusercontent.com/libpathconfig/libpathconfig/main/docs/path-configuration.schema.json"
    /// The JSON Schema dialect it is written in.
    public static let dialect = "https://json-schema.org/draft/2020-12/schema"
    /// The top-level key a document names its schema with; every app ignores it.
    public static let schemaKey = "$schema"

    /// The schema as `pathconfig schema` prints it: indented JSON (two
    /// spaces, keys in a fixed order) with a final newline, the same bytes
    /// every time.
    public static var text: String { JSONWriter.pretty(schema) + "\n" }

    /// The schema.
    public static var schema: JSONValue {
        var root = JSONObject()
        root["$schema"] = .string(dialect)
        root["$id"] = .string(id)
        root["title"] = .string("Path configuration")
        root["description"] = .string(
            "A Turbo / Hotwire Native path configuration: optional settings and ordered rules that tell an app how to treat a URL "
            + "(read by \(Profile.allCases.map(\.rawValue).joined(separator: ", "))). "
            + "Made by `pathconfig schema` from libpathconfig's tables. It rejects what the apps refuse to load, and typed values "
            + "other than those the apps list (\"false\" for a boolean, an unknown or upper-case presentation); it does not check the "
            + "patterns' syntax, which `pathconfig validate` does.")
        root["type"] = .string("object")
        root["required"] = .array([.string("rules")])
        root["properties"] = .object([
            schemaKey: ofType("string", "The schema this document follows, for editors: \(id). Every app ignores the key."),
            "settings": ref("settings"),
            "rules": arrayOf(ref("rule"),
                             "The rules, in order. Every rule that matches a URL applies: their properties are merged in file order, "
                             + "a later rule's key replacing an earlier one's."),
            LintMarkers.key: ref("lint", description: "Lint findings of these kinds are not reported anywhere in the file."),
        ])
        root["$defs"] = .object([
            "settings": settings,
            "tab": tab,
            "rule": rule,
            "properties": properties,
            "lint": lint,
        ])
        return .object(root)
    }

    // MARK: The parts

    private static var settings: JSONValue {
        ofType("object",
               "Settings for the app: an object, any keys (the iOS apps read anything else as {}, the Android apps refuse the file "
               + "or crash). \(stringsOnly("setting"))",
               ["properties": .object([Tab.settingsKey: arrayOf(ref("tab"), "A tab bar: one object per tab, in order.")])])
    }

    private static var tab: JSONValue {
        var keys = JSONObject()
        for key in Tab.Key.allCases {
            keys[key.rawValue] = ofType("string", tabKeyDescription(key))
        }
        let required = Tab.Key.allCases.filter(\.isRequired).map(\.rawValue)
        return ofType("object", "One tab. An entry without a string \(required.map { "\"\($0)\"" }.joined(separator: " and ")) is skipped.", [
            "required": .array(required.map { .string($0) }),
            "properties": .object(keys),
        ])
    }

    private static func tabKeyDescription(_ key: Tab.Key) -> String {
        switch key {
        case .title: return "The text shown on the tab."
        case .path: return "The URL path the tab loads."
        case .systemImageName: return "The SF Symbols name of the tab's icon."
        }
    }

    private static var rule: JSONValue {
        let apps = Profile.allCases.filter(\.isMobileApp).map(\.rawValue).joined(separator: ", ")
        let others = Profile.allCases.filter { !$0.isMobileApp }.map(\.rawValue).joined(separator: ", ")
        return ofType("object", "One rule: what selects URLs, and the properties they get. Other keys are kept and ignored.", [
            "required": .array([.string("properties")]),
            "anyOf": .array([
                .object(["required": .array([.string("patterns")])]),
                .object(["required": .array([.string("globs")])]),
            ]),
            "properties": .object([
                "patterns": arrayOf(.object(["type": .string("string")]),
                                    "Regular expressions, each searched anywhere in the string the app matches (not anchored); the rule matches when "
                                    + "any of them does, and an empty list never matches. \(dialects) They are not ECMA-262 expressions, so this schema "
                                    + "does not check them: `pathconfig validate` does. Required by \(apps)."),
                "globs": arrayOf(.object(["type": .string("string")]),
                                 "Siesta globs (`/volcanos/*/status`, `/**/knob`), matched against the whole URL; a rule needs patterns or globs. "
                                 + "Read by \(others); \(apps) ignore them and refuse a rule without patterns."),
                "methods": .object([
                    "type": .string("array"),
                    "minItems": .integer(1),
                    "items": .object([
                        "type": .string("string"),
                        "pattern": .string(methodPattern),
                        "maxLength": .integer(HTTPMethod.maxLength),
                    ]),
                    "description": .string(
                        "The HTTP methods the rule applies to (tokens such as GET or POST, in any case); without it, every method. "
                        + "Read by \(others); \(apps) apply the rule to every visit."),
                ]),
                "properties": ref("properties"),
                "description": ofType("string", "What the rule is for; libpathconfig's messages name the rule by it."),
                "comment": ofType("string", "A note; libpathconfig's messages name the rule by it when it has no description."),
                LintMarkers.key: ref("lint", description: "Lint findings of these kinds are not reported for this rule."),
            ]),
        ])
    }

    private static var properties: JSONValue {
        var typed = JSONObject()
        for key in TypedKey.allCases { typed[key.rawValue] = TypedKeySchema.schema(for: key) }
        return ofType("object",
                      "The properties the rule gives the URLs it matches. The well-known keys below are typed: each app reads them as their "
                      + "descriptions say. Any other key is kept as written. \(stringsOnly("property"))",
                      ["properties": .object(typed)])
    }

    private static var lint: JSONValue {
        ofType("object", "A lint marker, for `pathconfig validate`: every app ignores it.", [
            "required": .array([.string(LintMarkers.allowKey)]),
            "properties": .object([
                LintMarkers.allowKey: arrayOf(.object(["enum": .array(LintFinding.Kind.allCases.map { .string($0.rawValue) })]), "The lint kinds not to report."),
            ]),
            "additionalProperties": .bool(false),
        ])
    }

    // MARK: Facts from the tables

    /// The platforms, each with its profiles, in `Profile.allCases` order.
    static var platforms: [(platform: Profile.Platform, profiles: [Profile])] {
        Profile.allCases.grouped(by: \.platform).map { (platform: $0.key, profiles: $0.members) }
    }

    /// The ways apps read typed values, each with its profiles, in
    /// `Profile.allCases` order.
    static var readings: [(reading: TypedReading, profiles: [Profile])] {
        Profile.allCases.grouped(by: \.typedReading).map { (reading: $0.key, profiles: $0.members) }
    }

    /// "iOS", "Android".
    static func platformName(_ platform: Profile.Platform) -> String {
        switch platform {
        case .ios: return "iOS"
        case .android: return "Android"
        }
    }

    /// "iOS (hotwire-ios, turbo-ios, siesta)".
    static func name(_ platform: Profile.Platform, _ profiles: [Profile]) -> String {
        "\(platformName(platform)) (\(profiles.map(\.rawValue).joined(separator: ", ")))"
    }

    /// How each profile compiles patterns: dialect and case, grouped.
    private static var dialects: String {
        Profile.allCases.grouped(by: \.regexOptions).map { group in
            "\(group.members.map(\.rawValue).joined(separator: ", ")): \(group.key.dialect.displayName), "
                + (group.key.caseInsensitive ? "case-insensitive" : "case-sensitive")
        }.joined(separator: "; ") + "."
    }

    /// What the profiles that store every value as a string do with `what`s.
    private static func stringsOnly(_ what: String) -> String {
        let profiles = Profile.allCases.filter(\.storesValuesAsStrings).map(\.rawValue)
        guard !profiles.isEmpty else { return "" }
        return "\(profiles.joined(separator: ", ")) stores every \(what) value as a string and refuses the file when one is an array or an object."
    }

    /// `^[...]+$`: an HTTP method token, from `HTTPMethod.isTokenByte`, as
    /// an ECMA-262 character class (runs of three or more letters or digits
    /// as ranges).
    static var methodPattern: String {
        let bytes = (UInt8(0x21)...UInt8(0x7E)).filter(HTTPMethod.isTokenByte)
        var out = "^["
        var i = 0
        while i < bytes.count {
            var j = i
            while j + 1 < bytes.count, bytes[j + 1] == bytes[j] + 1,
                  Unicode.Scalar(bytes[j]).isASCIIAlphanumeric, Unicode.Scalar(bytes[j + 1]).isASCIIAlphanumeric { j += 1 }
            if j - i >= 2 {
                out += classCharacter(bytes[i]) + "-" + classCharacter(bytes[j])
            } else {
                for b in bytes[i...j] { out += classCharacter(b) }
            }
            i = j + 1
        }
        return out + "]+$"
    }

    /// `b` inside a character class, escaped where ECMA-262 (and its Unicode
    /// mode) needs it.
    private static func classCharacter(_ b: UInt8) -> String {
        let c = String(UnicodeScalar(b))
        return [UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "["), UInt8(ascii: "^"), UInt8(ascii: "-")].contains(b) ? "\\" + c : c
    }

    /// `{"type": TYPE, "description": DESCRIPTION}`, then `members`.
    private static func ofType(_ type: String, _ description: String, _ members: JSONObject = [:]) -> JSONValue {
        var o: JSONObject = ["type": .string(type), "description": .string(description)]
        o.merge(members)
        return .object(o)
    }

    /// `{"type": "array", "items": ITEMS, "description": DESCRIPTION}`.
    private static func arrayOf(_ items: JSONValue, _ description: String) -> JSONValue {
        .object(["type": .string("array"), "items": items, "description": .string(description)])
    }

    /// `{"$ref": "#/$defs/NAME"}`, with a description when given.
    private static func ref(_ name: String, description: String? = nil) -> JSONValue {
        var o: JSONObject = ["$ref": .string("#/$defs/\(name)")]
        if let description { o["description"] = .string(description) }
        return .object(o)
    }
}
