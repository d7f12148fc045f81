/// Why a lookup failed. Lookups of configurations without rules from code
/// fail only for an invalid method name, an input over a limit, or a URL
/// the profile's app crashes on.
public struct ResolveError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Hashable {
        /// The method is not an HTTP method token.
        case invalidMethod
        /// A host predicate or configurer threw.
        case hostRule
        /// The URL or path is longer than `Limits.maxURLBytes`.
        case limit
        /// The profile's app crashes on this URL rather than match it:
        /// turbo-android on a URL `java.net.URL` rejects (an unknown scheme,
        /// a port that is not a number, a bad IPv6 literal: the
        /// `MalformedURLException` is not caught), either Android app on a
        /// `jar:` URL it reads with a null path. The message says why.
        case unreadableURL
    }

    /// What went wrong.
    public let code: Code
    /// A sentence saying what went wrong (for a host rule: naming the rule
    /// and what its host code said).
    public let message: String
    /// The rule whose host code failed, when one did.
    public let ruleIndex: Int?
    /// The error the host code threw, when one did.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, ruleIndex: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.ruleIndex = ruleIndex
        self.underlying = underlying
    }

    public var description: String { message }
}
