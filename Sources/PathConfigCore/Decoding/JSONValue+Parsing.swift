extension JSONValue {
    /// Parses any JSON document (the same reader as configurations: positions
    /// in errors, trailing commas accepted, the first of repeated keys kept).
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = Limits().maxNestingDepth) throws(ConfigurationError) {
        let copy = Array(bytes)
        let result: Result<JSONValue, ConfigurationError> = copy.withUnsafeBufferPointer { buf in
            do throws(JSONSyntaxError) {
                return .success(try JSONReader.parse(buf, maxDepth: maxDepth).0.value)
            } catch {
                return .failure(error.configurationError(in: buf))
            }
        }
        self = try result.get()
    }

    /// Parses JSON text.
    public init(parsing text: String, maxDepth: Int = Limits().maxNestingDepth) throws(ConfigurationError) {
        try self.init(parsing: Array(text.utf8), maxDepth: maxDepth)
    }
}

extension JSONNode {
    /// Parses any JSON document into a tree that keeps each value's and key's
    /// byte offset (the reader configurations go through: trailing commas
    /// accepted, nesting bounded by `maxDepth`), with the keys it found
    /// repeated, in document order. A syntax error's location is in `bytes`.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = Limits().maxNestingDepth) throws(ConfigurationError)
        -> (root: JSONNode, duplicateKeys: [JSONDuplicateKey]) {
        let result: Result<(root: JSONNode, duplicateKeys: [JSONDuplicateKey]), ConfigurationError> = bytes.withUnsafeBufferPointer { buf in
            do throws(JSONSyntaxError) {
                let (root, duplicates) = try JSONReader.parse(buf, maxDepth: maxDepth)
                return .success((root, duplicates))
            } catch {
                return .failure(error.configurationError(in: buf))
            }
        }
        return try result.get()
    }
}
