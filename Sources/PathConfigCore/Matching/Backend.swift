/// The regex backends, by the names options, the CLI and the C ABI use: the
/// one list of them.
///
/// A backend named here but missing from the `engines` a host passes to
/// `LoadOptions(json:engines:)` is "not built in" (`.backendUnavailable`);
/// any other name is an unknown option value.
public enum Backend: String, Sendable, Hashable, CaseIterable {
    /// PCRE2, run by its interpreter (`PCRE2Engine`, in this module): the default.
    case pcre2
    /// NSRegularExpression (`FoundationEngine`, in PathConfigurationFoundation,
    /// which needs full Foundation): not part of libpathconfig.so.
    case foundation

    /// The engines this module provides, by name: the default `engines` of
    /// `LoadOptions(json:engines:)` and `LoaderOptions(json:engines:)`, and the
    /// backends built into libpathconfig.so.
    public static let builtIn: [String: any RegexEngine] = [Backend.pcre2.rawValue: PCRE2Engine()]
}
