import PathConfigCore

/// A configuration rewritten so that other apps read it as a reference app
/// reads the original: for every URL `CoveredURLs` describes, each app
/// gives the answer the reference gives, or the port names what stops it
/// (`Refusal`).
///
/// What changes, app by app (`PatternPort` for the patterns):
/// - patterns: case, dialect and query, as `PatternPort` says;
/// - the historical-location rules hotwire-ios and hotwire-android append:
///   written out as rules for an app that has none; where an app's own
///   differ from the reference's, no file can change them, and their URLs
///   are not covered (`CoveredURLs`);
/// - values: turbo-android keeps every value as a string, so a rule whose
///   properties hold another type is refused for it; a reference that is
///   turbo-android gives every app its strings;
/// - a rule with `globs` or `methods`, which no mobile app reads but this
///   library applies, is refused (the apps and the library disagree on it).
///
/// Rules are taken as the reference loads them (its Gson reading for the
/// Android apps, its values as stored), and every output is loaded under
/// its app before it is offered.
public struct ConfigurationPort: Sendable {
    /// Something that stops an app from answering as the reference does.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        /// The app concerned.
        public let app: Profile
        /// The rule (0-based, as the reference numbers it: built-in rules
        /// after the file's), or nil for the whole file.
        public let ruleIndex: Int?
        /// The rule's description, when it has one.
        public let ruleDescription: String?
        /// The pattern (0-based in its rule), when one is concerned.
        public let patternIndex: Int?
        /// The pattern as written, when one is concerned.
        public let pattern: String?
        /// Why, in a sentence.
        public let reason: String

        /// `hotwire-android: rule 3 ("Forms") pattern 0 "/new$": why`.
        public var description: String {
            var s = app.rawValue + ": "
            if let ruleIndex {
                s += "rule \(ruleIndex)"
                if let ruleDescription { s += " (\(JSONWriter.quoted(ruleDescription)))" }
                if let patternIndex, let pattern { s += " pattern \(patternIndex) \(JSONWriter.quoted(pattern))" }
                s += ": "
            }
            return s + reason
        }
    }

    /// One file to write, and the apps it serves.
    public struct Output: Sendable, Hashable {
        /// The apps that read this file as the reference reads the original
        /// (except where `refusals` say otherwise), in the order asked.
        public let apps: [Profile]
        /// The configuration, pretty-printed JSON with a final newline.
        public let text: String
    }

    /// The reference app.
    public let reference: Profile
    /// The apps ported to, in the order asked.
    public let apps: [Profile]
    /// What stops some app from agreeing, in app order, then rule order.
    public let refusals: [Refusal]
    /// The files: one when one file serves every app, else one per group
    /// of apps that read the same file. Under `strict`, an app with a
    /// refusal has none.
    public let outputs: [Output]
    /// What was rewritten, one line per kind of change (for the report).
    public let rewrites: [String]
    /// The URLs on which the outputs are meant to agree with the reference.
    public let coveredURLs: CoveredURLs
    /// Each app's file as the app loads it (loaded once, to check that it
    /// does); none for an app whose file does not load, or has no file.
    public let configurations: [Profile: PathConfiguration]

    /// Ports `reference`'s configuration to `apps`.
    ///
    /// - Parameters:
    ///   - original: the configuration as the reference loads it (its
    ///     profile is the reference).
    ///   - apps: the apps to write for (the mobile apps: siesta, as the
    ///     reference or an app, is refused).
    ///   - strict: write nothing for an app that has a refusal.
    public init(_ original: PathConfiguration, to apps: [Profile], strict: Bool = false) {
        let reference = original.profile
        self.reference = reference
        self.apps = apps
        let referenceBuiltIns = original.rules.filter(\.isBuiltIn)
        let differingBuiltIns = apps.filter { app in
            let own = app.builtInRules(firstIndex: 0)
            return !own.isEmpty && app != reference && !Self.sameAnswers(own, referenceBuiltIns)
        }
        let builtInPaths = Profile.hotwireIOS.builtInRules(firstIndex: 0).flatMap(\.patterns)
        self.coveredURLs = CoveredURLs(profiles: [reference] + apps, excludedBuiltInPaths: differingBuiltIns.isEmpty ? [] : builtInPaths)
        let spansPlatforms = apps.contains { $0.platform != reference.platform }
        let caseFlag = spansPlatforms && !reference.regexOptions.caseInsensitive ? "(?-i)" : nil
        let expandsCase = spansPlatforms && reference.regexOptions.caseInsensitive

        var refusals: [Refusal] = []
        var documents: [(app: Profile, text: String)] = []
        var configurations: [Profile: PathConfiguration] = [:]
        for app in apps {
            var appRefusals: [Refusal] = []
            guard reference.isMobileApp, app.isMobileApp else {
                // siesta matches whole URLs and reads globs and methods: no file of the apps' reads as it does.
                refusals.append(Refusal(app: app, ruleIndex: nil, ruleDescription: nil, patternIndex: nil, pattern: nil,
                                        reason: "port is for the mobile apps: siesta, an API client, matches whole URLs"))
                continue
            }
            let port = PatternPort(reference: reference, target: app, caseFlag: caseFlag, expandsCase: expandsCase,
                                   spellsOutShorthands: spansPlatforms)
            let rules = Self.rules(of: original, for: app, port: port, refusals: &appRefusals)
            var document = JSONObject()
            document["settings"] = .object(original.settings)
            document["rules"] = .array(rules)
            let text = JSONWriter.pretty(.object(document)) + "\n"
            let loaded: PathConfiguration?
            do { loaded = try PathConfiguration(json: text, options: LoadOptions(profile: app)) } catch {
                loaded = nil
                appRefusals.append(Refusal(app: app, ruleIndex: nil, ruleDescription: nil, patternIndex: nil, pattern: nil,
                                           reason: "the file written for it does not load there: \(error.message)"))
            }
            refusals += appRefusals
            if !(strict && !appRefusals.isEmpty) {
                documents.append((app, text))
                configurations[app] = loaded
            }
        }
        self.refusals = refusals
        self.configurations = configurations
        var outputs: [Output] = []
        for (app, text) in documents {
            if let i = outputs.firstIndex(where: { $0.text == text }) {
                outputs[i] = Output(apps: outputs[i].apps + [app], text: text)
            } else {
                outputs.append(Output(apps: [app], text: text))
            }
        }
        self.outputs = outputs
        self.rewrites = Self.rewrites(reference: reference, apps: apps, caseFlag: caseFlag, expandsCase: expandsCase,
                                      spansPlatforms: spansPlatforms)
    }

    /// The rules of `app`'s file, as JSON, with what stops them.
    private static func rules(of original: PathConfiguration, for app: Profile, port: PatternPort,
                              refusals: inout [Refusal]) -> [JSONValue] {
        let reference = original.profile
        let appBuiltIns = app.builtInRules(firstIndex: 0)
        var ported: [Rule] = original.rules.filter { !$0.isBuiltIn }
        let referenceBuiltIns = original.rules.filter(\.isBuiltIn)
        if appBuiltIns.isEmpty {
            // Written out as rules of the file.
            ported += referenceBuiltIns
        }
        // An app whose own built-in rules differ from the reference's: no
        // file can change them, so their URLs are left out of the covered
        // ones (`CoveredURLs.excludedBuiltInPaths`).
        return ported.map { rule in
            let label = rule.isBuiltIn ? (rule.description ?? "built-in") : rule.description
            var patterns: [JSONValue] = []
            for (i, pattern) in rule.patterns.enumerated() {
                switch port.port(pattern) {
                case .ported(let text):
                    patterns.append(.string(text))
                case .refused(let why):
                    refusals.append(Refusal(app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: i, pattern: pattern, reason: why))
                    patterns.append(.string(pattern))
                }
            }
            if !rule.globs.isEmpty || rule.methods != nil {
                refusals.append(Refusal(
                    app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: nil, pattern: nil,
                    reason: "\"globs\" and \"methods\" are for an API client (siesta): the mobile apps do not read them "
                        + "(they ignore methods and refuse a rule without patterns), while this library applies them; "
                        + "take them out of the file first"))
            }
            if app.storesValuesAsStrings, !reference.storesValuesAsStrings,
               let (key, value) = rule.properties.first(where: { $0.value.stringValue == nil }) {
                refusals.append(Refusal(
                    app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: nil, pattern: nil,
                    reason: "turbo-android keeps every value as a string, so \(JSONWriter.quoted(key)): "
                        + "\(JSONWriter.compact(value)) would read as \(JSONWriter.quoted(JSONWriter.compact(value))) there"))
            }
            var object = JSONObject()
            object["patterns"] = .array(patterns)
            object["properties"] = .object(rule.properties)
            if let description = rule.description { object["description"] = .string(description) }
            return .object(object)
        }
    }

    /// Whether two lists of built-in rules are the same patterns with the
    /// same properties (hotwire-ios's and hotwire-android's differ in their
    /// values, and in case besides).
    private static func sameAnswers(_ a: [Rule], _ b: [Rule]) -> Bool {
        a.map(\.patterns) == b.map(\.patterns) && a.map(\.properties) == b.map(\.properties)
    }

    /// The report's lines on what was rewritten.
    private static func rewrites(reference: Profile, apps: [Profile], caseFlag: String?, expandsCase: Bool,
                                 spansPlatforms: Bool) -> [String] {
        var lines: [String] = []
        if let caseFlag {
            lines.append("every pattern starts with \(caseFlag): \(reference.rawValue) matches case-sensitively, and every engine reads the flag")
        }
        if expandsCase {
            lines.append("letters are written in both cases (/new as /[nN][eE][wW]): \(reference.rawValue) matches case-insensitively")
        }
        if spansPlatforms {
            lines.append("\\d, \\w and \\s are spelled out ([0-9], [A-Za-z0-9_], ...): ICU and Java read them differently beyond ASCII")
        }
        let gaining = apps.filter { !PatternPort.seesQuery(reference) && PatternPort.seesQuery($0) }
        if !gaining.isEmpty {
            lines.append("for \(gaining.map(\.rawValue).joined(separator: ", ")), which see the query string that "
                + "\(reference.rawValue) does not, each pattern is confined to the path (^[^?]*?(?:...), $ as (?![^?]), . as [^?])")
        }
        let stringValues = reference.storesValuesAsStrings && apps.contains { !$0.storesValuesAsStrings }
        if stringValues { lines.append("values are written as the strings turbo-android keeps") }
        if !reference.builtInRules(firstIndex: 0).isEmpty, apps.contains(where: { $0.builtInRules(firstIndex: 0).isEmpty }) {
            lines.append("\(reference.rawValue)'s historical-location rules are written out for the apps that have none")
        }
        return lines
    }
}
