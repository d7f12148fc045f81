extension JSONObject {
    /// Applies `patch` as a JSON Merge Patch (RFC 7396): a member whose value
    /// is `null` removes the key, an object value merges key by key into an
    /// object already there (replacing anything else), and every other value
    /// (arrays included) replaces the key's value whole. New keys are appended.
    public mutating func applyMergePatch(_ patch: JSONObject) {
        for (key, value) in patch {
            switch value {
            case .null:
                self[key] = nil
            case .object(let nested):
                var target = self[key]?.objectValue ?? JSONObject()
                target.applyMergePatch(nested)
                self[key] = .object(target)
            default:
                self[key] = value
            }
        }
    }
}
