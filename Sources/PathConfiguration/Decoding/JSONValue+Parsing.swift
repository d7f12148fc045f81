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
