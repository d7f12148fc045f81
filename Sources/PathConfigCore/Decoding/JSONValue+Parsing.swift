extension JSONValue {
    /// Parses any JSON document (the same reader as configurations: positions
    /// in errors, trailing commas accepted, the first of repeated keys kept).
    public init(parsing bytes: some Collection<UInt8>, maxDepth: Int = Limits().maxNestingDepth) throws(ConfigurationError) {
        self = try JSONNode.parse(Array(bytes), maxDepth: maxDepth).root.value
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
        try bytes.withUnsafeBufferPointer { buf throws(ConfigurationError) in
            do throws(JSONSyntaxError) {
                let read = try JSONReader.read(buf, maxDepth: maxDepth)
                return (read.root, read.duplicateKeys)
            } catch {
                throw error.configurationError(in: buf)
            }
        }
    }
}
