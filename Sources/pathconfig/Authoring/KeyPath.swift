import PathConfiguration

/// Where a value sits inside a properties object: the keys from the top
/// (`["headers", "Accept"]`), compared component by component so that a
/// list of paths sorts the same way on every run. Keys are compared by
/// their code points, as objects hold them (`"é"` and `"e\u{301}"` are two
/// keys; Swift's `==` would make them one).
struct KeyPath: Hashable, Comparable, Sendable {
    /// The keys, outermost first; empty for the object itself.
    let components: [String]

    init(_ components: [String]) { self.components = components }

    /// The path as a person reads it: keys joined with `.`, a key that is not
    /// a plain name (letters, digits, `_`, `-`) written as a quoted JSON
    /// string in brackets (`headers["User-Agent"]` stays `headers.User-Agent`;
    /// `["a.b"]`), with its code points where another spelling of it would
    /// look the same (`["cafe\u{301}" (U+0063 U+0061 U+0066 U+0065 U+0301)]`);
    /// `(properties)` for the whole object.
    var text: String {
        guard !components.isEmpty else { return "(properties)" }
        var out = ""
        for key in components {
            if Self.isPlain(key) {
                if !out.isEmpty { out += "." }
                out += key
            } else {
                out += "[" + ValueText.quoted(key) + "]"
            }
        }
        return out
    }

    /// The path as JSON: an array of its keys.
    var json: JSONValue { .array(components.map(JSONValue.string)) }

    static func == (a: KeyPath, b: KeyPath) -> Bool {
        a.components.count == b.components.count && zip(a.components, b.components).allSatisfy(String.sameBytes)
    }

    func hash(into hasher: inout Hasher) {
        for key in components { key.hashBytes(into: &hasher) }
    }

    /// By key, canonically (as Swift orders strings), then by code points
    /// where two keys are canonically equivalent.
    static func < (a: KeyPath, b: KeyPath) -> Bool {
        a.components.lexicographicallyPrecedes(b.components) { x, y in x < y || (x == y && x.utf8.lexicographicallyPrecedes(y.utf8)) }
    }

    private static func isPlain(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { s in
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || (s >= "0" && s <= "9") || s == "_" || s == "-"
        }
    }
}
