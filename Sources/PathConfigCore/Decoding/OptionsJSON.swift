/// The JSON plumbing of options and sources as the C ABI and the bindings
/// pass them: `LoadOptions(json:)`, `LoaderOptions(json:)` and
/// `ConfigurationSource.list(json:)` read them the same way, with the same
/// messages.
package enum OptionsJSON {
    package static func invalid(_ message: String) -> ConfigurationError {
        ConfigurationError(code: .invalidOption, message: message)
    }

    /// `option "KEY" must be EXPECTED, found VALUE`: member `m` holds a value of the wrong kind.
    package static func wrongValue(_ m: JSONNode.Member, _ expected: String) -> ConfigurationError {
        invalid("option \(JSONWriter.quoted(m.key)) must be \(expected), found \(JSONWriter.compact(m.value.value))")
    }

    package static func isBlank(_ text: String) -> Bool {
        text.allSatisfy { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    }

    /// A usable file system path: not empty, no NUL (which would cut it short).
    package static func isPath(_ s: String) -> Bool { !s.isEmpty && !s.utf8.contains(0) }

    /// A JSON integer above zero that fits in Int64.
    package static func positiveInteger(_ value: JSONValue) -> Int64? { value.int64Value.flatMap { $0 > 0 ? $0 : nil } }

    package static func parse(_ text: String, what: String) throws(ConfigurationError) -> JSONNode {
        let bytes = Array(text.utf8)
        do {
            return try bytes.withUnsafeBufferPointer { buf throws(JSONSyntaxError) in try JSONReader.read(buf, maxDepth: 8).root }
        } catch {
            throw invalid("\(what) are not valid JSON: \(error.message) (at byte \(error.offset))")
        }
    }

    /// The members of an options object, nil for nil or blank text. A key
    /// given twice is an error: which of the two was meant cannot be told.
    package static func object(_ text: String?) throws(ConfigurationError) -> [JSONNode.Member]? {
        guard let text, !isBlank(text) else { return nil }
        let root = try parse(text, what: "options")
        guard case .object(let members) = root.kind else {
            throw invalid("options must be a JSON object, found \(root.typeName)")
        }
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw invalid("options give \(JSONWriter.quoted(member.key)) twice; give each once")
        }
        return members
    }
}
