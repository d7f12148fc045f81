import PathConfigCore

/// How port compares an app's answer with the reference's: as the apps read
/// them, which is what a port promises alike.
///
/// Every key either answer holds is compared: a key of the typed catalog
/// (`TypedKey`) by what the app's typed accessor returns for it (`POP` and
/// `pop` are one value to hotwire-android, `"true"` and `true` to
/// turbo-android; where an app crashes reading the key, the crash), any
/// other key as written, since app code reads it raw. So is a typed key
/// that neither answer holds but both apps read (`typedKeysRead`): each
/// app then reads its own default, and the defaults differ across
/// platforms (`pull_to_refresh_enabled` is true on iOS, false on Android),
/// except where the reference crashes on the missing key (turbo-android's
/// `uri`): no file makes an app crash alike. Another key neither holds is
/// not compared. `pathconfig port --check` and the port tests and fuzzer
/// compare this way.
public enum PortComparison {
    /// One key whose value differs.
    public struct Mismatch: Sendable, Hashable {
        /// The key.
        public let key: String
        /// What the reference reads (nil: the key is absent, outside the catalog).
        public let reference: JSONValue?
        /// What the app reads.
        public let app: JSONValue?

        public init(key: String, reference: JSONValue?, app: JSONValue?) {
            self.key = key
            self.reference = reference
            self.app = app
        }
    }

    /// The typed keys that both `reference` and `app` read (`Profile.reads`),
    /// in catalog order: those compared even where neither answer holds them.
    public static func typedKeysRead(by reference: Profile, and app: Profile) -> [TypedKey] {
        TypedKey.allCases.filter { reference.reads($0) && app.reads($0) }
    }

    /// Where `app` reads otherwise than `reference`, by key: the
    /// reference's keys in order, then the app's others, then those of
    /// `typedKeys` (`typedKeysRead`) that neither holds, where the
    /// reference reads a value for them.
    public static func mismatches(_ reference: PathProperties, _ app: PathProperties, typedKeys: [TypedKey]) -> [Mismatch] {
        let held = reference.object.keys + app.object.keys.filter { !reference.object.contains(key: $0) }
        let defaults = typedKeys.filter { key in
            guard !reference.object.contains(key: key.rawValue), !app.object.contains(key: key.rawValue) else { return false }
            if case .crash = reference.read(key) { return false }
            return true
        }
        let keys = held + defaults.map(\.rawValue)
        return keys.compactMap { key in
            let r = value(reference, key), a = value(app, key)
            return r == a ? nil : Mismatch(key: key, reference: r, app: a)
        }
    }

    /// What the app reads for `key`: the typed accessor's value for a key
    /// of the catalog (`{"app_crashes": why}` where the app crashes reading
    /// it, which no accessor returns), the value as written for another
    /// key, nil for another key that is absent.
    public static func value(_ properties: PathProperties, _ key: String) -> JSONValue? {
        guard let typed = TypedKey(rawValue: key) else { return properties.object[key] }
        switch properties.read(typed) {
        case .value(let v): return v
        case .crash(let why): return .object(["app_crashes": .string(why)])
        }
    }

    /// Whether `app` on its file answers `url` as `reference` does on the
    /// original: nil when alike (the same values, or the same lookup error),
    /// else what differs, in a sentence.
    public static func disagreement(_ reference: PathConfiguration, _ app: PathConfiguration, on url: String) -> String? {
        let expected = Result { () throws(ResolveError) in try reference.resolve(url) }
        let actual = Result { () throws(ResolveError) in try app.resolve(url) }
        switch (expected, actual) {
        case (.success(let r), .success(let a)):
            let mismatches = Self.mismatches(r, a, typedKeys: typedKeysRead(by: reference.profile, and: app.profile))
            guard !mismatches.isEmpty else { return nil }
            return mismatches.map { m in
                "\(m.key): \(m.reference.map(JSONWriter.compact) ?? "(absent)") against \(m.app.map(JSONWriter.compact) ?? "(absent)")"
            }.joined(separator: "; ")
        case (.failure(let r), .failure(let a)):
            return r.code == a.code ? nil : "error \(r.code) against error \(a.code)"
        case (.failure(let r), .success(let a)):
            return "error \(r.code) against \(JSONWriter.compact(a.object))"
        case (.success(let r), .failure(let a)):
            return "\(JSONWriter.compact(r.object)) against error \(a.code)"
        }
    }
}
