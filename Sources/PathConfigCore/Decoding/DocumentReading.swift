/// How an app turns a document's bytes into its configuration: the seam
/// between the profiles and the readers. The iOS apps and Siesta read with
/// `JSONSerialization` (UTF-8, UTF-16 or UTF-32; strict JSON but for trailing
/// commas: `JSONReader`); the Android apps with Gson (`GsonReader`, then
/// `GsonBinding` into the app's data classes).
///
/// What each app does with a trailing comma or a repeated key is decided
/// here, once: loading follows it, and lint says it (`effect(...)`).
package enum DocumentReading: Sendable, Equatable {
    case jsonSerialization
    case gson(GsonApp)

    /// What the app does with one more `null` element at the end of an
    /// array at `place` (a trailing comma), or with a trailing comma in an
    /// object.
    package func trailingCommaEffect(inObject: Bool, place: DocumentPlace) -> DocumentEffect {
        switch self {
        case .jsonSerialization: return .accepts
        case .gson(let app): return inObject ? .refuses(gson: "Expected name") : app.nullElementEffect(in: place)
        }
    }

    /// Whether keys that differ in code points but are canonically equivalent
    /// (`"é"` and `"e\u{301}"`, `K` and U+212A KELVIN SIGN) are one key to
    /// the app: to JSONSerialization's readers, the Swift apps, whose
    /// dictionaries compare strings so; not to Gson's Java maps, which
    /// compare UTF-16 units.
    package var keysAreCanonical: Bool {
        if case .jsonSerialization = self { return true }
        return false
    }

    /// Of `keys` (the rules' property keys, in the order the rules are
    /// merged), each one canonically equivalent to an earlier one but spelt
    /// in other code points (`"café"` with U+00E9, then with `e` and
    /// U+0301), by index, with the index of that earlier spelling: one key
    /// to the iOS apps, two to the Android ones (`keysAreCanonical`), so
    /// that a URL both rules answer gets different answers there.
    package static func keysSpeltApart(_ keys: [String]) -> [(key: Int, first: Int)] {
        var first: [String: Int] = [:]  // Swift's strings hash and compare as the iOS apps' dictionaries do
        var found: [(key: Int, first: Int)] = []
        for (i, key) in keys.enumerated() {
            guard let earlier = first[key] else {
                first[key] = i
                continue
            }
            if !String.sameBytes(key, keys[earlier]) { found.append((i, earlier)) }
        }
        return found
    }

    /// Why `key` and `earlier`, canonically equivalent and spelt apart, give
    /// `profiles` different answers (nil where they all read keys alike):
    /// which of them hold the two as one key, and which as two.
    package static func speltApartReason(_ key: String, _ earlier: String, where place: String, profiles: [Profile]) -> String? {
        let one = profiles.filter(\.documentReading.keysAreCanonical), two = profiles.filter { !$0.documentReading.keysAreCanonical }
        guard !one.isEmpty, !two.isEmpty else { return nil }
        func names(_ p: [Profile]) -> String { p.map(\.rawValue).joined(separator: ", ") }
        return "the key \(spelling(key)) and \(spelling(earlier)) \(place) are canonically equivalent: one key to "
            + "\(names(one)), whose Swift dictionaries compare keys so, and two to \(names(two)), whose Java maps compare "
            + "code units; a URL both set a value for has different answers there, so spell them alike"
    }

    /// A key as a message shows it where spellings matter: quoted, then its
    /// code points (`"é" (U+00E9)`).
    package static func spelling(_ key: String) -> String {
        JSONWriter.quoted(key) + " (" + key.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ") + ")"
    }

    /// What the app does with a key repeated in an object at `place`.
    /// `previousValueIsNull`: the occurrence before this one has a null value.
    package func repeatedKeyEffect(_ key: String, place: DocumentPlace, previousValueIsNull: Bool) -> DocumentEffect {
        switch self {
        case .jsonSerialization: return .keepsFirst
        case .gson(let app): return app.repeatedKeyEffect(key, place: place, previousValueIsNull: previousValueIsNull)
        }
    }
}

extension Profile {
    /// How this profile's app reads a document.
    package var documentReading: DocumentReading {
        release.behaviour.gson.map(DocumentReading.gson) ?? .jsonSerialization
    }
}

/// Where in a configuration a value sits, as the apps' data classes see it.
package enum DocumentPlace: Sendable, Hashable {
    /// The document's object.
    case document
    /// The `rules` array.
    case rules
    /// One rule's object.
    case rule
    /// A rule's `patterns` array.
    case patterns
    /// A rule's `properties` or the `settings`: a map (an object, or an
    /// array of `[key, value]` entries).
    case map
    /// One `[key, value]` entry of a map written as an array, with this
    /// many elements.
    case mapEntry(elements: Int)
    /// Inside a value of `properties` or `settings`.
    case value
    /// Anywhere the apps do not read (a rule's `description`, an unknown key).
    case unread
}

/// What an app does with something in a document that JSON leaves open or
/// forbids: one fact, said the same way by a load error and by lint.
package enum DocumentEffect: Sendable, Hashable {
    /// Read as though it were not there (JSONSerialization's trailing commas).
    case accepts
    /// Of a repeated key, the first value counts.
    case keepsFirst
    /// Of a repeated key, the last value counts.
    case keepsLast
    /// Never read: the app skips the value.
    case ignores
    /// One more `null` element in an array value (hotwire-android's values).
    case addsNull
    /// Gson throws, with this message where quoted: the app ignores the whole file.
    case refuses(gson: String?)
    /// The app reads a `null` `what` and crashes (NullPointerException) `when`.
    case crashes(what: String, when: String)

    /// True when the app cannot use the file: it ignores it or crashes.
    package var isFatal: Bool {
        switch self {
        case .refuses, .crashes: return true
        default: return false
        }
    }

    /// The verb phrase, agreeing with one subject or several:
    /// `reads it as a null rule and crashes (NullPointerException) on every lookup`.
    func phrase(plural: Bool) -> String {
        func verb(_ singular: String, _ many: String) -> String { plural ? many : singular }
        switch self {
        case .accepts: return verb("accepts it", "accept it")
        case .keepsFirst: return verb("keeps the first value", "keep the first value")
        case .keepsLast: return verb("keeps the last value", "keep the last value")
        case .ignores: return verb("ignores the key", "ignore the key")
        case .addsNull: return verb("reads it as one more null element", "read it as one more null element")
        case .refuses(let gson):
            let quoted = gson.map { " (Gson: \"\($0)\")" } ?? ""
            return verb("refuses the document\(quoted) and ignores the whole file", "refuse the document\(quoted) and ignore the whole file")
        case .crashes(let what, let when):
            return "\(verb("reads", "read")) it as a null \(what) and \(verb("crashes", "crash")) (NullPointerException) \(when)"
        }
    }

    /// `hotwire-ios and turbo-ios accept it; hotwire-android reads it as ...`:
    /// the profiles grouped by effect, in the order given.
    package static func sentence(_ effects: [(Profile, DocumentEffect)]) -> String {
        effects.grouped(by: { $0.1 }).map { group in
            "\(group.members.map { $0.0.rawValue }.listed()) \(group.key.phrase(plural: group.members.count > 1))"
        }.joined(separator: "; ")
    }
}
