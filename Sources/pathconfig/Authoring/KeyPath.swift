import PathConfiguration

/// Where a value sits inside a properties object: the keys from the top
/// (`["headers", "Accept"]`), compared component by component so that a
/// list of paths sorts the same way on every run.
struct KeyPath: Hashable, Comparable, Sendable {
    /// The keys, outermost first; empty for the object itself.
    let components: [String]

    init(_ components: [String]) { self.components = components }

    /// The path as a person reads it: keys joined with `.`, a key that is not
    /// a plain name (letters, digits, `_`, `-`) written as a quoted JSON
    /// string in brackets (`headers["User-Agent"]` stays `headers.User-Agent`;
    /// `["a.b"]`); `(properties)` for the whole object.
    var text: String {
        guard !components.isEmpty else { return "(properties)" }
        var out = ""
        for key in components {
            if Self.isPlain(key) {
                if !out.isEmpty { out += "." }
                out += key
            } else {
                out += "[" + JSONWriter.quoted(key) + "]"
            }
        }
        return out
    }

    /// The path as JSON: an array of its keys.
    var json: JSONValue { .array(components.map(JSONValue.string)) }

    static func < (a: KeyPath, b: KeyPath) -> Bool { a.components.lexicographicallyPrecedes(b.components) }

    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
        }
    }
}
