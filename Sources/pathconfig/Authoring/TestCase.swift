import PathConfiguration

/// How a case's expected properties are compared with what resolves.
enum MatchMode: String, Sendable, CaseIterable {
    /// The properties must be exactly those expected: a key the case does
    /// not name is a failure. The default, because a configuration change
    /// that adds a key to pages it should not reach is what a check in CI is for.
    case exact
    /// Every expected key must be there with its value, at every depth of
    /// nested objects; other keys are ignored.
    case subset
}

/// One expectation of a cases file: a URL, how to look it up, and the
/// properties it must resolve to, the values the app's typed accessors must
/// read, or both.
struct TestCase: Sendable {
    /// 0-based position in the file's `cases`.
    let index: Int
    /// Where the case's object starts.
    let location: SourceLocation
    /// The URL or path to resolve, as written (a path is read on a base
    /// URL: `PathInput`).
    let url: String
    /// The configuration to check it against (a file, or an http(s) URL, as
    /// `--config` takes them); nil for the command's `--config`.
    let config: String?
    /// The profiles to check it under; empty means the command's `--profile`s.
    let profiles: [Profile]
    /// The HTTP method (normalised), or nil for the command's `--method`.
    let method: String?
    /// Load options applied over the command's (`LoadOptions.jsonKeys`).
    let options: [JSONNode.Member]
    /// The expected properties; nil when the case names none (it checks
    /// typed values alone).
    let expected: JSONObject?
    /// The values the app's typed accessors must read (`PathProperties.typed`,
    /// defaults included), in the file's order; empty when the case names none.
    let typed: [(key: TypedKey, value: JSONValue)]
    let match: MatchMode
    /// The case's `description` (or `comment`), if any.
    let description: String?

    /// `typed` as a JSON object, keys as the file names them.
    var typedObject: JSONObject {
        var object = JSONObject()
        for (key, value) in typed { object[key.rawValue] = value }
        return object
    }
}

/// A decoded cases file.
struct CaseFile: Sendable {
    /// The name the file was given by (for messages).
    let path: String
    /// The cases, in file order.
    let cases: [TestCase]
}
