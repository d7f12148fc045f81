import PathConfiguration

/// How `diff`, `test` and `port --check` read an input that is a path: as the page at that
/// path on a base URL, so that each mobile app's URL handling applies to it
/// as it does to the URLs the app opens (turbo-ios drops a trailing slash
/// and the query, Foundation and `java.net.URL` read escapes their way).
///
/// A path is an input that starts with one `/`: `/` alone, or `/` and any
/// character but a second `/` (`//host/x` is a reference to another host,
/// not a path). It is joined to the base as written, after the base's own
/// path (`https://example.com/app` and `/posts?x=1` make
/// `https://example.com/app/posts?x=1`): nothing is percent-encoded, which is
/// the app's to do. The library's `base_url` option is not used for this:
/// it resolves inputs as Siesta's `resource(_:)` does, which percent-encodes
/// `?`. siesta, an API client, keeps that: under it a path is left to the
/// library (resolved as `resource(_:)` does when `base_url` is set, matched
/// as given when not). Anything else (a URL, `example.com/new`) is read as
/// given.
enum PathInput {
    /// The base a path is read on when neither `--base-url` nor a case's
    /// `base_url` option names one. A literal the library accepts (the
    /// command tests read it back as the JSON reports' `base_url`).
    static let defaultBase = try! BaseURL("https://example.com")

    /// True when `input` is a path: `/`, or `/` and a character other than `/`.
    static func isPath(_ input: String) -> Bool {
        var bytes = input.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "/") else { return false }
        return bytes.next() != UInt8(ascii: "/")
    }

    /// What `configuration`'s app is asked to read for `input`: under a
    /// mobile app's profile, a path joined to the configuration's base URL
    /// (its `base_url` option, else `defaultBase`); anything else as given.
    static func url(for input: String, in configuration: PathConfiguration) -> String {
        guard isPath(input), configuration.profile.isMobileApp else { return input }
        return prefix(configuration.options.baseURL ?? defaultBase) + input
    }

    /// Whether reading `input` under `configuration` uses `defaultBase`
    /// (the reports then say so).
    static func usesDefaultBase(_ input: String, in configuration: PathConfiguration) -> Bool {
        isPath(input) && configuration.profile.isMobileApp && configuration.options.baseURL == nil
    }

    /// `base` as a path is joined to it: without its final `/`
    /// (`https://example.com`).
    static func prefix(_ base: BaseURL) -> String { String(base.string.dropLast()) }

    /// The line the text reports print when a path was read on `defaultBase`.
    static let defaultBaseNote = "note: paths resolve against \(prefix(defaultBase)), the default base URL (--base-url sets another)"
}
