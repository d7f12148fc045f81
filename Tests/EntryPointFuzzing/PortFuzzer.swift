import PathConfiguration

/// `pathconfig-fuzz-port`: a document ported from a reference app to apps
/// picked by the input, and every app without a refusal checked against the
/// reference on every covered URL.
///
/// Input: a selector byte, the document, a NUL, then URLs one per line. The
/// selector's low two bits pick the reference among the four mobile apps
/// (`Profile.allCases` order); bits 2 to 5 the apps (none set: all four).
///
/// Checks, when the document loads under the reference:
/// - every refusal names an app asked for, and a rule the reference has;
///   each app asked for without a refusal has exactly one file;
/// - each such file was loaded under its app (`configurations`);
/// - on every URL of `urls` and of the input that `CoveredURLs` covers, the
///   app's answer on its file is the reference's on the document, as the
///   apps read them (`PortComparison`: typed keys through each app's typed
///   accessors, other keys as written), or the same lookup error;
/// - a port to the reference's own app alone, where it writes a file,
///   writes the document's own text;
/// - every file loads under each app it is offered to.
public enum PortFuzzer {
    /// The mobile apps, in `Profile.allCases` order.
    public static let apps = Profile.allCases.filter(\.isMobileApp)

    /// URLs from paths, queries and fragments that patterns tell apart
    /// (case, trailing slashes, escapes, a query that holds a path), in and
    /// out of the covered ones.
    public static let urls: [String] = {
        let paths = ["", "/", "/posts", "/posts/new", "/posts/new/", "/posts/42/edit", "/Posts/NEW", "/messages/42", "/messages/4a",
                     "/sign_in", "/a/b.pdf", "/a/b.PDF", "/caf%C3%A9/new", "/x%2Fnew", "/recede_historical_location",
                     "/RESUME_historical_location", "/refresh_historical_location/", "/new-ish", "/~u/edit", "/a;b=c/new",
                     "/messages/\u{0663}", "/p q/new"]
        let queries = ["", "?", "?x=1", "?next=/posts/new", "?open_in_external_browser=true", "?q=new&r=/edit", "?a?b"]
        var urls: [String] = []
        for path in paths {
            for query in queries {
                urls.append("https://example.com" + path + query)
                if query.count < 3 { urls.append("https://example.com" + path + query + "#top") }
            }
        }
        return urls
    }()

    /// Builds an input.
    public static func input(reference: Profile, apps selected: [Profile] = [], document: [UInt8], urls extra: [String] = []) -> [UInt8] {
        var selector = UInt8(apps.firstIndex(of: reference) ?? 0)
        for app in selected { selector |= 1 << (2 + UInt8(apps.firstIndex(of: app) ?? 0)) }
        return [selector] + document + [0] + Array(extra.joined(separator: "\n").utf8)
    }

    /// Runs every check on one input; the first property broken, or nil.
    public static func check(_ bytes: [UInt8]) -> Violation? {
        var reader = FuzzReader(bytes)
        let selector = reader.byte()
        let reference = apps[Int(selector & 3)]
        var selected = apps.enumerated().filter { selector & (1 << (2 + UInt8($0.offset))) != 0 }.map(\.element)
        if selected.isEmpty { selected = apps }
        let document = reader.field()
        let extra = String(decoding: reader.rest(), as: UTF8.self).split(separator: "\n").map(String.init)
        var options = LoadOptions(profile: reference)
        options.keepsSource = true
        guard let original = try? PathConfiguration(json: document, options: options) else { return nil }
        do throws(Violation) {
            try check(original, to: selected, urls: urls + extra)
            return nil
        } catch {
            return error
        }
    }

    /// The checks for one reference configuration and one selection of
    /// apps; returns how many apps other than the reference were compared.
    @discardableResult
    public static func check(_ original: PathConfiguration, to selected: [Profile], urls: [String]) throws(Violation) -> Int {
        var compared = 0
        let port = ConfigurationPort(original, to: selected)
        for refusal in port.refusals {
            guard selected.contains(refusal.app) else { throw Violation("a refusal for \(refusal.app.rawValue), which was not asked for") }
            if let rule = refusal.ruleIndex, rule >= original.rules.count { throw Violation("a refusal names rule \(rule) of \(original.rules.count)") }
        }
        for app in selected where !port.refusals.contains(where: { $0.app == app }) {
            let files = port.outputs.filter { $0.apps.contains(app) }
            guard files.count == 1, let file = files.first else { throw Violation("\(app.rawValue) has \(files.count) files") }
            guard let ported = port.configurations[app] else { throw Violation("the file for \(app.rawValue) was not loaded") }
            if app != original.profile { compared += 1 }
            for url in urls where port.coveredURLs.contains(url) {
                if let difference = PortComparison.disagreement(original, ported, on: url) {
                    throw Violation("\(original.profile.rawValue) -> \(app.rawValue) on \(url): \(difference)\n\(file.text)")
                }
            }
        }
        for file in port.outputs {
            for app in file.apps where (try? PathConfiguration(json: file.text, options: LoadOptions(profile: app))) == nil {
                throw Violation("the file offered to \(app.rawValue) does not load there\n\(file.text)")
            }
        }
        if selected == [original.profile], let source = original.source, let file = port.outputs.first,
           file.text != String(decoding: source.bytes, as: UTF8.self) {
            throw Violation("a port to \(original.profile.rawValue) alone rewrote its own file:\n\(file.text)")
        }
        return compared
    }
}
