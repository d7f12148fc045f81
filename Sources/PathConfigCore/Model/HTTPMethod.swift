/// HTTP method names as rules and lookups spell them.
public enum HTTPMethod {
    /// The method of a lookup that names none (Siesta's `resource.configuration`).
    public static var defaultMethod: String { "GET" }

    /// `name` upper-cased (`get` is `GET`), or nil when it is not an HTTP
    /// method token (RFC 9110: one or more of the letters, digits and
    /// ``!#$%&'*+-.^_`|~``).
    public static func normalized(_ name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= maxLength, name.utf8.allSatisfy(isTokenByte) else { return nil }
        // ASCII letters upper-cased, every other byte kept.
        return String(decoding: name.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 & ~0x20 : $0 }, as: UTF8.self)
    }

    /// The longest method name read, in bytes.
    package static let maxLength = 64

    /// Whether `b` may appear in a token, a method's or a header field
    /// name's (the JSON Schema's pattern for `methods` is made from this).
    package static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    /// The message for `written` (as JSON writes it) where a method is
    /// needed: a lookup's, or one of a rule's `methods`.
    static func notAMethod(_ written: String) -> String {
        "\(written) is not an HTTP method (a token such as GET or POST)"
    }

    /// The message for a rule's `methods` that is not a non-empty array
    /// (`found`: what it is, as JSON writes it).
    static func notAList(found: String) -> String {
        "\"methods\" must be a non-empty array of HTTP methods, found \(found)"
    }
}
