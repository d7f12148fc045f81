import PathConfiguration

/// Compares properties as `--compare` says: as written (`JSONComparison`),
/// or as the apps read them through their typed accessors.
///
/// Typed, every key of the catalog (`TypedKey.allCases`) is compared by the
/// value the accessor of the properties' platform returns
/// (`PathProperties.typed`): a default where the key is missing, null, of
/// the wrong type or unknown (`"pull_to_refresh_enabled": "false"` is true on
/// iOS, false on Android; `POP` is `pop` on Android). Keys outside the
/// catalog are compared as written: app code reads them raw.
enum PropertyComparison {
    /// Where `sides` disagree under `mode`, sorted by path
    /// (`JSONComparison.differences`); typed, a catalog key's difference
    /// carries what each side wrote (`ValueDifference.written`).
    ///
    /// - Parameters:
    ///   - keysOf: the side whose keys alone are compared (a subset check);
    ///     typed, its catalog keys are only those it holds.
    ///   - typedKeys: typed, the keys of the catalog compared (every one
    ///     unless told); the others are left out, not compared as written.
    static func differences(_ sides: [PathProperties], mode: CompareMode, keysOf: Int? = nil,
                            typedKeys: [TypedKey] = TypedKey.allCases) -> [ValueDifference] {
        // Typed, a side is its typed values, then its keys outside the catalog as written.
        let objects = sides.enumerated().map { i, side -> JSONValue in
            guard mode == .typed else { return .object(side.object) }
            var out = typedValues(side, keys: i == keysOf ? typedKeys.filter { side.object.contains(key: $0.rawValue) } : typedKeys)
            for (key, value) in side.object where TypedKey(rawValue: key) == nil { out[key] = value }
            return .object(out)
        }
        let differences = JSONComparison.differences(objects, keysOf: keysOf)
        guard mode == .typed else { return differences }
        return differences.map { d in
            guard d.path.components.count == 1, TypedKey(rawValue: d.path.components[0]) != nil else { return d }
            return ValueDifference(path: d.path, values: d.values, written: sides.map { $0[d.path.components[0]] })
        }
    }

    /// The typed value of each of `keys` (every key of the catalog unless
    /// told), as a JSON object (the JSON reports' typed members).
    static func typedValues(_ properties: PathProperties, keys: [TypedKey] = TypedKey.allCases) -> JSONObject {
        var out = JSONObject()
        for key in keys { out[key.rawValue] = typedValue(properties, key) }
        return out
    }

    /// What the app reads for `key` (`PortComparison.value`, never nil for a
    /// typed key), or, where it crashes reading it, `{"app_crashes": why}`,
    /// which no accessor returns and the text reports show as `(app crashes)`.
    static func typedValue(_ properties: PathProperties, _ key: TypedKey) -> JSONValue {
        PortComparison.value(properties, key.rawValue) ?? .null
    }

    /// Whether `value` is a crash (`typedValue`'s `app_crashes`).
    static func isCrash(_ value: JSONValue?) -> Bool {
        guard case .object(let o)? = value, o.count == 1, case .string? = o["app_crashes"] else { return false }
        return true
    }
}
