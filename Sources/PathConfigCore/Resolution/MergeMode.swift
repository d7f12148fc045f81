/// How the properties of the rules that match one URL combine (the `merge` option).
public enum MergeMode: String, Sendable, Hashable, CaseIterable {
    /// Later rules replace whole top-level keys, as the mobile apps merge
    /// (a nested object is replaced whole; `null` is kept as a value). The default.
    case shallow
    /// Each rule's properties apply as a JSON Merge Patch (RFC 7396): nested
    /// objects merge key by key (a later `headers.Accept` leaves
    /// `headers.User-Agent` in place), `null` removes a key, arrays are replaced
    /// whole. Siesta's configuration closures compose this way.
    case deep

    /// Applies one matching rule's properties to the result so far; with
    /// `canonicalKeys`, a key replaces one canonically equivalent to it, as
    /// the iOS apps' Swift dictionaries merge (`DocumentReading.keysAreCanonical`).
    func apply(_ properties: JSONObject, to merged: inout JSONObject, canonicalKeys: Bool) {
        switch self {
        case .shallow where canonicalKeys: merged.mergeCanonically(properties)
        case .shallow: merged.merge(properties)
        case .deep: merged.applyMergePatch(properties)
        }
    }
}
