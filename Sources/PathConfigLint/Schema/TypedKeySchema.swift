import PathConfigCore

/// The JSON Schema of each well-known typed property (`TypedKey`), made
/// from the key's own table: its kind, its values and defaults on each
/// platform, and how each app reads a value and which crash on a wrong one
/// (what `TypedKey.read(_:by:)` answers), said in its description.
///
/// A typed key accepts the values as the table lists them, and null (which
/// every app reads as its default): for an enumeration the exact strings
/// some platform knows (`push` too, which only Android knows), for a
/// boolean `true` and `false`, for a string any string. What an app reads
/// only leniently (`"false"` for a boolean on Android, `"POP"` for `pop` on
/// Android, `42` as a title on Android) is rejected: it is not read alike
/// by the other platform, which uses the default instead.
enum TypedKeySchema {
    /// The schema of `key`'s value.
    static func schema(for key: TypedKey) -> JSONValue {
        var o: JSONObject = switch key.kind {
        case .enumeration: ["enum": .array(values(of: key).map(JSONValue.string) + [.null])]
        case .boolean: ["type": .array([.string("boolean"), .string("null")])]
        case .string: ["type": .array([.string("string"), .string("null")])]
        }
        let defaults = ConfigurationSchema.platforms.map { key.defaultValue(on: $0.platform) }
        if let first = defaults.first, first != .null, defaults.allSatisfy({ $0 == first }) {
            o["default"] = first
        }
        o["description"] = .string(description(of: key))
        return .object(o)
    }

    /// Every value some platform knows, in the table's order (a value only
    /// one platform knows comes after the value before it in that
    /// platform's list).
    static func values(of key: TypedKey) -> [String] {
        var out: [String] = []
        for (platform, _) in ConfigurationSchema.platforms {
            let values = key.allowedValues(on: platform)
            for (i, value) in values.enumerated() where !out.contains(value) {
                let after = i == 0 ? nil : out.firstIndex(of: values[i - 1])
                out.insert(value, at: after.map { $0 + 1 } ?? out.count)
            }
        }
        return out
    }

    /// What the key is, how each platform reads it, which built-in rules set
    /// it, and what the schema accepts.
    static func description(of key: TypedKey) -> String {
        var sentences = ["Typed property (\(kindName(key.kind)))."]
        for (typedReading, profiles) in ConfigurationSchema.readings {
            let platform = typedReading.platform
            let fallback = JSONWriter.compact(key.defaultValue(on: platform))
            // A value of another kind: what the app does with anything it does not read.
            let other: JSONValue = key.kind == .boolean ? .integer(2) : .array([])
            let otherwise = if case .crash(let why) = key.read(other, by: typedReading) {
                "crashes on anything else (\(why.prefix { $0 != ":" }))"
            } else {
                "anything else as \(fallback)"
            }
            sentences.append("\(ConfigurationSchema.name(platform, profiles)) reads \(reading(key, by: typedReading)), and \(otherwise).")
        }
        let all = values(of: key)
        for (platform, _) in ConfigurationSchema.platforms {
            let only = all.filter { value in
                ConfigurationSchema.platforms.allSatisfy { other in
                    (other.platform == platform) == key.allowedValues(on: other.platform).contains(value)
                }
            }
            if !only.isEmpty, ConfigurationSchema.platforms.count > 1 {
                sentences.append("Only \(ConfigurationSchema.platformName(platform)) knows \(only.map(JSONWriter.quoted).listed()).")
            }
        }
        let setters = Profile.allCases.filter { p in p.builtInRules(firstIndex: 0).contains { $0.properties[key.rawValue] != nil } }
        if !setters.isEmpty {
            sentences.append("The built-in rules of \(setters.map(\.rawValue).joined(separator: ", ")) set it.")
        }
        switch key.kind {
        case .enumeration: sentences.append("The schema accepts the values as listed, and null (the default).")
        case .boolean: sentences.append("The schema accepts true, false and null (the default).")
        case .string: sentences.append("The schema accepts a string, and null (the default).")
        }
        return sentences.joined(separator: " ")
    }

    private static func kindName(_ kind: TypedKey.Kind) -> String {
        switch kind {
        case .enumeration: return "one of a list"
        case .boolean: return "boolean"
        case .string: return "string"
        }
    }

    /// What an app reading as `typedReading` reads as a value of `key`,
    /// found by asking `recognizedValue(_:by:)`.
    private static func reading(_ key: TypedKey, by typedReading: TypedReading) -> String {
        let platform = typedReading.platform
        func read(_ raw: JSONValue) -> JSONValue? { key.recognizedValue(raw, by: typedReading) }
        switch key.kind {
        case .enumeration:
            let allowed = key.allowedValues(on: platform)
            let anyCase = allowed.allSatisfy { read(.string($0.uppercased())) == .string($0) }
            return "\(allowed.map(JSONWriter.quoted).listed("or")), \(anyCase ? "in any case" : "exactly as written")"
        case .boolean:
            var text = read(.integer(0)) == .bool(false) && read(.integer(1)) == .bool(true) ? "true or false (0 and 1 too)" : "true or false"
            if read(.string("true")) == .bool(true) {
                let anyCase = read(.string("TRUE")) == .bool(true) && read(.string("FALSE")) == .bool(false)
                text = "true, false, or a string (\"true\"\(anyCase ? " in any case" : "") as true, "
                    + (read(.string("no")) == .bool(false) ? "any other as false)" : "\"false\" as false)")
            }
            return text
        case .string:
            let asText = read(.integer(1)) == .string("1") && read(.bool(true)) == .string("true")
            return asText ? "a string, or a number or boolean as its JSON text" : "a string"
        }
    }
}
