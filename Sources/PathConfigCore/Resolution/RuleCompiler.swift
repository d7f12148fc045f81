/// Compiles rules' patterns and globs with a configuration's engine and
/// options: the one place a pattern or glob the engine rejects becomes an
/// error (strict) or a skipped-pattern warning (lenient).
package struct RuleCompiler {
    let options: LoadOptions
    var warnings: [ConfigurationWarning] = []
    /// What deferred patterns compile with: only patterns defer (a glob
    /// compiles at load), so the profile's options.
    private lazy var deferredCompiler = DeferredPattern.Compiler(engine: options.engine, options: options.profile.regexOptions,
                                                                 limits: options.limits)

    /// One rule's compiled patterns and globs, with their required literals
    /// for the prefilter (parallel arrays).
    struct Compiled {
        var patterns: [MatchPlan.Pattern] = []
        var patternLiterals: [[UInt8]?] = []
        var globs: [MatchPlan.Pattern] = []
        var globLiterals: [[UInt8]?] = []
    }

    init(options: LoadOptions) { self.options = options }

    /// How globs compile, whatever the profile: translated to ICU syntax,
    /// always case-sensitive (scheme and host are lower-cased on both sides instead).
    package static let globOptions = RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu)

    /// `invalid regular expression "PATTERN" at offset N: WHY` (or `invalid
    /// glob ...`): how every message says that the engine rejected a pattern;
    /// `unsupported regular expression ...` when the pattern is valid and
    /// the engine cannot match it exactly (`RegexCompileError.isUnsupported`:
    /// the message then says so, and what to do).
    package static func rejection(of shown: String, isGlob: Bool, _ error: RegexCompileError) -> String {
        let at = error.offset.map { " at offset \($0)" } ?? ""
        let kind = error.isUnsupported ? "unsupported" : "invalid"
        return "\(kind) \(isGlob ? "glob" : "regular expression") \(JSONWriter.quoted(shown))\(at): \(error.message)"
    }

    /// Compiles `rule`; `location(kind, i)` says where its pattern or glob `i` is in the document.
    mutating func compile(_ rule: Rule, location: (RuleMatch.Kind, Int) -> SourceLocation?) throws(ConfigurationError) -> Compiled {
        var out = Compiled()
        let regexOptions = options.profile.regexOptions
        // The analyses read a pattern as the engine does (the Foundation
        // engine reads an Android profile's patterns as ICU).
        var readOptions = regexOptions
        readOptions.dialect = options.engine.dialect(for: regexOptions)
        out.patterns.reserveCapacity(rule.patterns.count)
        for (p, pattern) in rule.patterns.enumerated() {
            // Read once, for both the plain automaton and the prefilter.
            let syntax = options.usePrefilter ? try? PatternSyntax.read(pattern, dialect: readOptions.dialect) : nil
            let small = SmallPattern(pattern, syntax: syntax, options: readOptions)
            guard let compiled = try compile(pattern, small: small, index: p, of: rule, options: regexOptions, location: location) else { continue }
            out.patterns.append(compiled)
            out.patternLiterals.append(RequiredLiteral.of(syntax, caseInsensitive: regexOptions.caseInsensitive))
        }
        let globOptions = Self.globOptions
        for (g, glob) in rule.globs.enumerated() {
            let regex = GlobPattern.regex(for: glob, base: options.baseURL)
            let syntax = options.usePrefilter ? try? PatternSyntax.read(regex, dialect: globOptions.dialect) : nil
            // The automaton reads the glob as written for it (the engine's
            // ending is not on its whitelist); the same URLs match.
            let small = options.usePrefilter ? SmallPattern(GlobPattern.automatonForm(for: glob, base: options.baseURL), options: globOptions) : nil
            guard let compiled = try compile(regex, small: small, index: g, of: rule, options: globOptions, shownAs: glob,
                                             location: location) else { continue }
            out.globs.append(compiled)
            out.globLiterals.append(RequiredLiteral.of(syntax, caseInsensitive: false))
        }
        return out
    }

    /// `small`: the pattern's automaton, when it has one (nil without the
    /// prefilter); `shown`: for a glob (whose regex `pattern` is), the glob.
    private mutating func compile(_ pattern: String, small: SmallPattern?, index: Int, of rule: Rule, options regexOptions: RegexOptions,
                                  shownAs shown: String? = nil, location: (RuleMatch.Kind, Int) -> SourceLocation?)
        throws(ConfigurationError) -> MatchPlan.Pattern? {
        do {
            // With the prefilter, plain patterns are decided by an automaton
            // where the subject allows (`SmallPattern`), and compiled by the
            // engine only for the first subject it cannot take
            // (`DeferredPattern`); without it, every search runs the engine,
            // as in the apps.
            #if PATHCONFIG_ABLATE_DEFERRED
            let defers = false  // make bench-ablation: the layer off
            #else
            let defers = small != nil && shown == nil  // a glob compiles at load, as it always did
            #endif
            let compiled: any CompiledPattern = defers
                ? DeferredPattern(pattern, compiler: deferredCompiler)
                : try options.engine.compile(pattern, options: regexOptions, limits: options.limits)
            return MatchPlan.Pattern(index: index, compiled: compiled, source: shown == nil ? pattern : nil, small: small)
        } catch {
            let location = location(shown == nil ? .pattern : .glob, index)
            let what = shown == nil ? "pattern" : "glob"
            let message = "\(rule.label), \(what) \(index): \(Self.rejection(of: shown ?? pattern, isGlob: shown != nil, error))"
            guard options.lenient else {
                throw ConfigurationError(code: .invalidPattern, message: message, location: location,
                                         ruleIndex: rule.index, patternIndex: index, patternOffset: shown == nil ? error.offset : nil)
            }
            warnings.append(ConfigurationWarning(kind: .skippedPattern, message: message + " (skipped)", location: location,
                                                 ruleIndex: rule.index, patternIndex: index))
            return nil
        }
    }
}
