import PathConfigCore

/// A configuration rewritten so that other apps read it as a reference app
/// reads the original: for every URL `CoveredURLs` describes, each app
/// gives the answer the reference gives, or the port names what stops it
/// (`Refusal`).
///
/// What changes, app by app (`PatternPort` for the patterns), and nothing
/// else: every other key, at the top level (`$schema`, `version`, `lint`,
/// `settings`, keys no app reads) and in each rule (`comment`,
/// `description`, `lint`, ...), keeps its place and its value as written
/// (`WrittenDocument`); a file nothing changes in is written as it was, byte
/// for byte, for an app that reads documents as the reference does:
/// - patterns: case, dialect and query, as `PatternPort` says; a rewrite
///   that the app's engine would not compile, or that grows past
///   `Limits.maxPatternBytes`, is refused;
/// - the historical-location rules hotwire-ios and hotwire-android append:
///   written out as rules for an app that has none; where an app's own
///   differ from the reference's, no file can change them, and their URLs
///   are not covered (`CoveredURLs`);
/// - values: each app must read a value as the reference reads it
///   (`PortComparison`): a key of the typed catalog (`TypedKey`) through
///   the app's typed accessor (`"true"` is true to turbo-android, `POP` is
///   `pop` to hotwire-android), any other key as written, which app code
///   reads raw. A value is kept as written where the app reads it alike,
///   else written as the reference holds it or as the value it reads
///   (`"pop"` for hotwire-ios, from hotwire-android's `POP`), else refused
///   (turbo-android keeps every value as a string: `7` under a key outside
///   the catalog is `"7"` there);
/// - defaults: where the reference's default for a typed key both apps read
///   differs from the app's (`pull_to_refresh_enabled`: false on Android,
///   true on iOS), a first rule (`.*`) sets the reference's, so that the
///   app reads it where no rule of the file holds the key; where no value
///   does (turbo-android crashes on a missing `uri`, which hotwire-android
///   reads as null), the app is refused;
/// - keys canonically equivalent but spelt apart (`"café"` with U+00E9
///   and with `e` and U+0301), one key to the iOS apps and two to the
///   Android ones, are refused between the platforms;
/// - a rule with `globs` or `methods`, which no mobile app reads but this
///   library applies, is refused (the apps and the library disagree on it).
///
/// Rules are taken as the reference loads them (its Gson reading for the
/// Android apps, its values as stored), and every output is loaded under
/// its app before it is offered: an app whose file does not load gets none.
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

    /// One file to write, and the apps it serves: apps whose files are
    /// identical share one.
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
    /// The files, one per group of apps whose files are identical, in the
    /// order of each group's first app. Under `strict`, an app with a
    /// refusal has none; an app whose file does not load has none either.
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
    ///     Its `source` (`LoadOptions.keepsSource`) keeps what the document
    ///     says beyond the rules; without it, a file holds `settings` and `rules` alone.
    ///   - apps: the apps to write for (the mobile apps: siesta, as the
    ///     reference or an app, is refused).
    ///   - strict: write nothing for an app that has a refusal.
    public init(_ original: PathConfiguration, to apps: [Profile], strict: Bool = false) {
        let reference = original.profile
        self.reference = reference
        self.apps = apps
        let source = original.source?.bytes
        let written = source.flatMap { WrittenDocument(source: $0, original: original) }
        let referenceBuiltIns = original.rules.filter(\.isBuiltIn)
        let differingBuiltIns = apps.filter { app in
            let own = app.builtInRules(firstIndex: 0)
            return !own.isEmpty && app != reference && !Self.sameAnswers(own, referenceBuiltIns)
        }
        let builtInPaths = Profile.hotwireIOS.builtInRules(firstIndex: 0).flatMap(\.patterns)
        self.coveredURLs = CoveredURLs(profiles: [reference] + apps, excludedBuiltInPaths: differingBuiltIns.isEmpty ? [] : builtInPaths)
        let spansPlatforms = apps.contains { $0.platform != reference.platform }
        let caseFlag = spansPlatforms ? (reference.regexOptions.caseInsensitive ? "(?i)" : "(?-i)") : nil

        var refusals: [Refusal] = []
        var notes = Notes()
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
            let port = PatternPort(reference: reference, target: app, caseFlag: caseFlag, spellsOutShorthands: spansPlatforms)
            var changed = false
            let rules = Self.rules(of: original, written: written?.rules, for: app, among: apps, port: port,
                                   refusals: &appRefusals, notes: &notes, changed: &changed)
            let text = if let source, !changed, reference.documentReading == app.documentReading {
                // Nothing to change, and the app reads documents as the
                // reference does (the same JSON reader and the same
                // classes): the file as it was, byte for byte.
                String(decoding: source, as: UTF8.self)
            } else {
                JSONWriter.pretty(.object(written?.document(rules: rules) ?? ["settings": .object(original.settings), "rules": .array(rules)])) + "\n"
            }
            let loaded: PathConfiguration?
            do { loaded = try PathConfiguration(json: text, options: LoadOptions(profile: app)) } catch {
                loaded = nil
                appRefusals.append(Refusal(app: app, ruleIndex: nil, ruleDescription: nil, patternIndex: nil, pattern: nil,
                                           reason: "the file written for it does not load there, so none is written: \(error.message)"))
            }
            refusals += appRefusals
            // A file that does not load is never offered; under `strict`,
            // nor one with a refusal.
            if let loaded, !(strict && !appRefusals.isEmpty) {
                documents.append((app, text))
                configurations[app] = loaded
            }
        }
        self.refusals = refusals
        self.configurations = configurations
        self.outputs = documents.grouped(by: \.text).map { Output(apps: $0.members.map(\.app), text: $0.key) }
        self.rewrites = Self.rewrites(reference: reference, apps: apps, caseFlag: caseFlag, notes: notes)
    }

    /// What the rewriting did, for the report.
    private struct Notes {
        /// Whether some pattern's `\d`, `\w` or `\s` was spelled out.
        var spelledOutShorthands = false
        /// Patterns whose letters were written in both cases, in place of `(?i)`.
        var expandedCase: Set<String> = []
        /// Values written otherwise than as written (`"presentation": "POP" as "pop"`), with the apps concerned.
        var values: [(change: String, apps: [String])] = []
        /// Defaults written in a first rule (`"pull_to_refresh_enabled": false`), by app.
        var defaults: [(change: String, app: String)] = []
    }

    /// The rules of `app`'s file, as JSON, with what stops them: each of
    /// the file's rules is its object in the document (`written`, when it
    /// lines up with the rules loaded) with `patterns` and `properties`
    /// ported, every other key as it is.
    private static func rules(of original: PathConfiguration, written: [JSONObject]?, for app: Profile, among apps: [Profile],
                              port: PatternPort, refusals: inout [Refusal], notes: inout Notes, changed: inout Bool) -> [JSONValue] {
        let reference = original.profile
        // The reference's built-in rules, written out as rules of the file for an app that has none.
        let builtIns = app.builtInRules(firstIndex: 0).isEmpty ? original.rules.filter(\.isBuiltIn) : []
        if !builtIns.isEmpty { changed = true }
        // A key that a rule matching every URL (".*", `MatchPlan`'s test) holds never reads as its default.
        let heldEverywhere = Set(original.rules.filter { $0.patterns.contains(where: MatchPlan.Pattern.matchesEverySubject) }
            .flatMap(\.properties.keys))
        let defaults = defaultsRule(reference: reference, app: app, sharing: apps.filter(\.isMobileApp), port: port,
                                    skipping: heldEverywhere, refusals: &refusals, notes: &notes)
        if defaults != nil { changed = true }
        // Keys one platform holds as one and the other apart, by rule.
        let keys = original.rules.flatMap { rule in rule.properties.keys.map { (rule: rule.index, key: $0) } }
        let speltApart = Dictionary(grouping: DocumentReading.keysSpeltApart(keys.map(\.key)), by: { keys[$0.key].rule })
        // An app whose own built-in rules differ from the reference's: no
        // file can change them, so their URLs are left out of the covered
        // ones (`CoveredURLs.excludedBuiltInPaths`).
        return (defaults.map { [$0] } ?? []) + (original.rules.filter { !$0.isBuiltIn } + builtIns).map { rule in
            let label = rule.isBuiltIn ? (rule.description ?? "built-in") : rule.description
            let writtenRule = rule.isBuiltIn ? nil : written?[rule.index]
            var patterns: [JSONValue] = []
            for (i, pattern) in rule.patterns.enumerated() {
                func refuse(_ why: String) {
                    refusals.append(Refusal(app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: i, pattern: pattern, reason: why))
                    patterns.append(.string(pattern))
                }
                var outcome = port.port(pattern)
                if port.caseFlag == "(?i)", case .ported(let flagged) = outcome,
                   apps.contains(where: { $0.isMobileApp && loadRefusal(flagged, for: $0) != nil }) {
                    // (?i) where every app's engine here reads it, else letters in both cases:
                    // the same choice for every app, so that they can share a file.
                    outcome = port.port(pattern, expandingCase: true)
                    if case .ported = outcome { notes.expandedCase.insert(pattern) }
                }
                switch outcome {
                case .ported(let text):
                    if text != pattern, let why = loadRefusal(text, for: app) {
                        refuse(why)
                        continue
                    }
                    patterns.append(.string(text))
                    if text != pattern { changed = true }
                    if port.spellsOutShorthands, text != pattern, PatternPort.hasShorthand(pattern) { notes.spelledOutShorthands = true }
                case .refused(let why):
                    refuse(why)
                }
            }
            if !rule.globs.isEmpty || rule.methods != nil {
                refusals.append(Refusal(
                    app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: nil, pattern: nil,
                    reason: "\"globs\" and \"methods\" are for an API client (siesta): the mobile apps do not read them "
                        + "(they ignore methods and refuse a rule without patterns), while this library applies them; "
                        + "take them out of the file first"))
            }
            for (key, first) in speltApart[rule.index] ?? [] {
                let (key, first) = (keys[key], keys[first])
                let place = first.rule == rule.index ? "before it in this rule" : "of rule \(first.rule)"
                if let reason = DocumentReading.speltApartReason(key.key, first.key, where: place, profiles: [reference, app]) {
                    refusals.append(Refusal(app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: nil, pattern: nil, reason: reason))
                }
            }
            var properties = JSONObject()
            let writtenProperties = writtenRule?["properties"]?.objectValue
            for (key, stored) in rule.properties {
                switch portValue(key: key, written: writtenProperties?[key], stored: stored, reference: reference, app: app,
                                 sharing: apps.filter(\.isMobileApp)) {
                case .kept(let value):
                    properties[key] = value
                case .rewritten(let value, let from):
                    properties[key] = value
                    changed = true
                    let change = "\(JSONWriter.quoted(key)): \(JSONWriter.compact(from)) as \(JSONWriter.compact(value))"
                    if let i = notes.values.firstIndex(where: { $0.change == change }) {
                        if !notes.values[i].apps.contains(app.rawValue) { notes.values[i].apps.append(app.rawValue) }
                    } else {
                        notes.values.append((change, [app.rawValue]))
                    }
                case .refused(let why, let value):
                    refusals.append(Refusal(app: app, ruleIndex: rule.index, ruleDescription: label, patternIndex: nil, pattern: nil, reason: why))
                    properties[key] = value
                }
            }
            if var object = writtenRule {
                // In place: the rule's other keys, and the order of all, as written.
                if object["patterns"] != nil || !patterns.isEmpty { object["patterns"] = .array(patterns) }
                object["properties"] = .object(properties)
                return .object(object)
            }
            var object = JSONObject()
            object["patterns"] = .array(patterns)
            if !rule.globs.isEmpty { object["globs"] = .array(rule.globs.map(JSONValue.string)) }
            if let methods = rule.methods { object["methods"] = .array(methods.map(JSONValue.string)) }
            object["properties"] = .object(properties)
            for (key, value) in rule.extras { object[key] = value }
            return .object(object)
        }
    }

    /// The rule written first for `app`: for each typed key that the
    /// reference and `app` read and whose default differs from the
    /// reference's, for `app` or for another app of `sharing` (so that the
    /// apps can share a file), the reference's default, as `app` reads it
    /// alike (`pull_to_refresh_enabled`: false from an Android app for an iOS
    /// one, true the other way). A later rule that holds the key overrides
    /// it, as the reference's own value does there. Keys in `skipping` (held
    /// by a rule that matches every URL) are left out. nil where no default
    /// differs, or where the reference crashes on the missing key
    /// (turbo-android's `uri`), which no value reproduces.
    private static func defaultsRule(reference: Profile, app: Profile, sharing: [Profile], port: PatternPort, skipping: Set<String>,
                                     refusals: inout [Refusal], notes: inout Notes) -> JSONValue? {
        var properties = JSONObject()
        for key in PortComparison.typedKeysRead(by: reference, and: app) where !skipping.contains(key.rawValue) {
            guard case .value(let expected) = key.read(nil, by: reference.typedReading) else { continue }
            let readers = sharing.filter { $0.reads(key) }
            func readsAsReference(_ value: JSONValue?, _ p: Profile) -> Bool { reads(value, of: key, as: .value(expected), by: p) }
            let needed = !readsAsReference(nil, app)
            guard needed || readers.contains(where: { !readsAsReference(nil, $0) }) else { continue }
            switch portValue(key: key.rawValue, written: nil, stored: expected, reference: reference, app: app, sharing: readers) {
            case .kept(let value), .rewritten(let value, _):
                // An app whose own default is the reference's writes the key only where the apps can then share a file.
                guard needed || readers.allSatisfy({ readsAsReference(value, $0) }) else { continue }
                properties[key.rawValue] = value
                let change = "\(JSONWriter.quoted(key.rawValue)): \(JSONWriter.compact(value))"
                if !notes.defaults.contains(where: { $0.change == change && $0.app == app.rawValue }) {
                    notes.defaults.append((change, app.rawValue))
                }
            case .refused:
                guard needed else { continue }
                refusals.append(Refusal(
                    app: app, ruleIndex: nil, ruleDescription: nil, patternIndex: nil, pattern: nil,
                    reason: "where no rule sets \(JSONWriter.quoted(key.rawValue)), \(app.rawValue) reads \(describe(key.read(nil, by: app.typedReading))) "
                        + "and \(reference.rawValue) reads \(JSONWriter.compact(expected)), and no value reads so on \(app.rawValue)"))
            }
        }
        guard !properties.isEmpty else { return nil }
        let pattern = if case .ported(let text) = port.port(".*") { text } else { ".*" }
        return .object(["patterns": .array([.string(pattern)]), "properties": .object(properties),
                        "description": .string("\(reference.rawValue)'s defaults, written by pathconfig port")])
    }

    /// Why a rewritten pattern cannot be written for `app`: it is longer
    /// than a pattern may be, or the app's engine does not compile it; nil
    /// when it loads.
    static func loadRefusal(_ text: String, for app: Profile) -> String? {
        let limits = Limits()
        let shown = text.utf8.count <= 200 ? JSONWriter.quoted(text) : "(\(text.utf8.count) bytes)"
        guard text.utf8.count <= limits.maxPatternBytes else {
            return "rewritten for \(app.rawValue), the pattern grows to \(text.utf8.count) bytes, "
                + "more than the limit of \(limits.maxPatternBytes), and would not load there"
        }
        do { _ = try LoadOptions(profile: app).engine.compile(text, options: app.regexOptions, limits: limits) } catch {
            return "rewritten for \(app.rawValue) as \(shown), the pattern would not load there: \(error.message)"
        }
        return nil
    }

    /// What becomes of one property value for `app`.
    enum ValuePort: Equatable {
        /// Written as in the document: the app reads it alike.
        case kept(JSONValue)
        /// Written otherwise (`from` is what the document says).
        case rewritten(JSONValue, from: JSONValue)
        /// No value reads alike there: why, and the value written anyway.
        case refused(String, JSONValue)
    }

    /// The value of `key` for `app`: the first of the value as written,
    /// as the reference holds it, and (for a key of the typed catalog) as
    /// the reference reads it, that the app reads as the reference reads
    /// `stored` (`PortComparison`); one that every app of `sharing` reads
    /// so, where there is one, so that the apps can share a file.
    static func portValue(key: String, written: JSONValue?, stored: JSONValue, reference: Profile, app: Profile,
                          sharing: [Profile] = []) -> ValuePort {
        let first = written ?? stored
        let typedKey = TypedKey(rawValue: key)
        let expected = typedKey.map { $0.read(stored, by: reference.typedReading) }
        func read(_ value: JSONValue, by app: Profile) -> TypedRead? {
            guard let typedKey, let held = held(value, by: app) else { return nil }
            return typedKey.read(held, by: app.typedReading)
        }
        func alike(_ value: JSONValue, for app: Profile) -> Bool {
            if let typedKey, let expected { return reads(value, of: typedKey, as: expected, by: app) }
            return held(value, by: app) == stored
        }
        var candidates = [first, stored]
        if case .value(let v)? = expected { candidates.append(v) }
        for apps in [sharing + [app], [app]] {
            for (i, candidate) in candidates.enumerated() where apps.allSatisfy({ alike(candidate, for: $0) }) {
                return i == 0 ? .kept(candidate) : .rewritten(candidate, from: first)
            }
        }
        let why: String
        if held(first, by: app) == nil {
            why = "\(app.rawValue) keeps every value as a string, and refuses a file with an array or object value "
                + "(\(JSONWriter.quoted(key)): \(JSONWriter.compact(first)))"
        } else if let expected, let actual = read(first, by: app) {
            if case .crash(let why) = expected {
                return .refused("\(reference.rawValue) crashes reading \(JSONWriter.quoted(key)): \(JSONWriter.compact(stored)) (\(why)), "
                    + "and no value makes \(app.rawValue) crash alike", first)
            }
            why = "\(app.rawValue) reads \(JSONWriter.quoted(key)): \(JSONWriter.compact(first)) as \(Self.describe(actual)), "
                + "where \(reference.rawValue) reads \(Self.describe(expected)), and no value reads so on \(app.rawValue)"
        } else {
            let held = held(first, by: app) ?? first
            why = app.storesValuesAsStrings
                ? "\(app.rawValue) keeps every value as a string, so \(JSONWriter.quoted(key)): \(JSONWriter.compact(first)) "
                    + "would read as \(JSONWriter.compact(held)) there (app code reads keys outside the typed catalog as written)"
                : "\(app.rawValue) would hold \(JSONWriter.quoted(key)): \(JSONWriter.compact(held)) where "
                    + "\(reference.rawValue) holds \(JSONWriter.compact(stored)) (app code reads keys outside the typed catalog as written)"
        }
        return .refused(why, first)
    }

    /// Whether `app` reads `key` as `expected` where it is `value` (nil: no
    /// rule sets it).
    private static func reads(_ value: JSONValue?, of key: TypedKey, as expected: TypedRead, by app: Profile) -> Bool {
        guard let value else { return key.read(nil, by: app.typedReading) == expected }
        return held(value, by: app).map { key.read($0, by: app.typedReading) == expected } ?? false
    }

    /// `value` as `app` holds it once loaded: turbo-android keeps scalars as
    /// strings and refuses arrays and objects (nil).
    static func held(_ value: JSONValue, by app: Profile) -> JSONValue? {
        guard app.storesValuesAsStrings, value != .null else { return value }
        return GsonLeaf.string(of: value).map(JSONValue.string)
    }

    /// A typed read, for a message.
    private static func describe(_ read: TypedRead) -> String {
        switch read {
        case .value(let v): return JSONWriter.compact(v)
        case .crash(let why): return "a crash (\(why))"
        }
    }

    /// Whether two lists of built-in rules are the same patterns with the
    /// same properties (hotwire-ios's and hotwire-android's differ in their
    /// values, and in case besides).
    private static func sameAnswers(_ a: [Rule], _ b: [Rule]) -> Bool {
        a.map(\.patterns) == b.map(\.patterns) && a.map(\.properties) == b.map(\.properties)
    }

    /// The report's lines on what was rewritten.
    private static func rewrites(reference: Profile, apps: [Profile], caseFlag: String?, notes: Notes) -> [String] {
        var lines: [String] = []
        if let caseFlag {
            lines.append((notes.expandedCase.isEmpty ? "every pattern" : "every pattern but those below") + " starts with \(caseFlag): \(reference.rawValue) matches case-"
                + (reference.regexOptions.caseInsensitive ? "insensitively" : "sensitively")
                + ", and ICU and Java read the flag alike on the covered URLs' printable ASCII")
        }
        if !notes.expandedCase.isEmpty {
            let n = notes.expandedCase.count
            lines.append("letters are written in both cases (/posts as /[pP][oO][sS][tT][sS]) in \(n) pattern\(n == 1 ? "" : "s") "
                + "in place of (?i), which libpathconfig cannot read as ICU does there (a literal such as st or ss, "
                + "which ICU folds as whole strings, against ﬆ or ß)")
        }
        if notes.spelledOutShorthands {
            lines.append("\\d, \\w and \\s are spelled out ([0-9], [A-Za-z0-9_], ...): ICU and Java read them differently beyond ASCII")
        }
        let gaining = apps.filter { !reference.matchesQueryStringsByDefault && $0.matchesQueryStringsByDefault }
        if !gaining.isEmpty {
            lines.append("for \(gaining.map(\.rawValue).joined(separator: ", ")), which see the query string that "
                + "\(reference.rawValue) does not, each pattern is confined to the path (^[^?]*?(?:...), $ as (?![^?]), . as [^?])")
        }
        if !notes.values.isEmpty {
            let shown = notes.values.prefix(3).map { "\($0.change) for \($0.apps.joined(separator: ", "))" }.joined(separator: "; ")
            let more = notes.values.count > 3 ? " and \(notes.values.count - 3) more" : ""
            lines.append("values are written as each app reads them alike: \(shown)\(more)")
        }
        for change in notes.defaults.map(\.change).uniqued() {
            let concerned = notes.defaults.filter { $0.change == change }.map(\.app)
            lines.append("a first rule (.*) sets \(change) for \(concerned.joined(separator: ", ")), as \(reference.rawValue) reads the key "
                + "where no rule sets it (each app reads its own default there otherwise)")
        }
        if !reference.builtInRules(firstIndex: 0).isEmpty, apps.contains(where: { $0.builtInRules(firstIndex: 0).isEmpty }) {
            lines.append("\(reference.rawValue)'s historical-location rules are written out for the apps that have none")
        }
        return lines
    }
}

/// The document as written: its top-level object, read as the iOS apps read
/// JSON (the first of repeated keys kept), and, when they line up with the
/// rules the reference loaded (as many, each an object with the same
/// patterns and property keys), its rules' objects.
struct WrittenDocument {
    /// The top-level object, keys in their order, numbers as written.
    let top: JSONObject
    /// The rules' objects, one per rule of the file; nil where they do not
    /// line up with the rules loaded (a Gson reading that differs).
    let rules: [JSONObject]?

    init?(source: [UInt8], original: PathConfiguration) {
        guard case .object(let top)? = try? JSONValue(parsing: source) else { return nil }
        self.top = top
        guard case .array(let elements)? = top["rules"], elements.count == original.documentRuleCount else {
            rules = nil
            return
        }
        let objects = elements.compactMap(\.objectValue)
        let linesUp = objects.count == elements.count && zip(objects, original.rules).allSatisfy { object, rule in
            (object["patterns"] ?? .array([])) == .array(rule.patterns.map(JSONValue.string))
                && Set(object["properties"]?.objectValue?.keys ?? []) == Set(rule.properties.keys)
        }
        rules = linesUp ? objects : nil
    }

    /// The document with `rules` in place of its rules, every other key as written.
    func document(rules: [JSONValue]) -> JSONObject {
        var document = top
        document["rules"] = .array(rules)
        return document
    }
}
