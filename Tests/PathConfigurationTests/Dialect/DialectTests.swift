import PathConfiguration
@testable import PathConfigCore
import PathConfigurationFoundation
import Testing

/// Issue 9, defect 8: the default backend reads patterns in the apps'
/// dialects, through the whole pipeline.
@Suite("Dialect: configurations written for the apps")
struct DialectTests {
    static func config(_ pattern: String, profile: Profile = .turboIOS, backend: any RegexEngine = PCRE2Engine(),
                       lenient: Bool = false) throws -> PathConfiguration {
        let json = "{\"rules\": [{\"patterns\": [\(JSONWriter.quoted(pattern))], \"properties\": {\"hit\": true}}]}"
        return try PathConfiguration(json: json, options: LoadOptions(profile: profile, engine: backend, lenient: lenient))
    }

    @Test("\\u00e9 (ICU and Java) loads with the default backend and matches é, as in the apps",
          arguments: [Profile.turboIOS, .hotwireAndroid], Conformance.engineNames)
    func unicodeEscape(profile: Profile, engine: String) throws {
        let config = try Self.config("^/caf\\u00e9$", profile: profile, backend: Conformance.engine(engine))
        #expect(config.properties(for: "/café").json == "{\"hit\":true}")
        #expect(config.properties(for: "/cafe").json == "{}")
    }

    @Test("[\\w&&[^\\d]] is an intersection: word characters that are not digits", arguments: Conformance.engineNames)
    func intersection(engine: String) throws {
        let config = try Self.config("^/[\\w&&[^\\d]]+$", backend: Conformance.engine(engine))
        for (path, hits) in [("/abc", true), ("/a_b", true), ("/é", true), ("/a1", false), ("/&&", false), ("/[", false), ("/a]", false)] {
            #expect((config.properties(for: path).json == "{\"hit\":true}") == hits, "\(path)")
        }
    }

    @Test("the same intersection in java.util.regex (Android): ASCII word characters, case-insensitive")
    func javaIntersection() throws {
        let config = try Self.config("^/[\\w&&[^\\d]]+$", profile: .turboAndroid)
        #expect(config.properties(for: "https://example.com/Abc").json == "{\"hit\":\"true\"}")
        #expect(config.properties(for: "https://example.com/a1").json == "{}")
        #expect(config.properties(for: "https://example.com/caf%C3%A9").json == "{}")
    }

    @Test("a refused construct fails the load with its rule, pattern, offset and location")
    func refusalIsLocated() throws {
        let json = "{\"rules\": [\n  {\"patterns\": [\"/a\", \"/x\\\\X\"], \"properties\": {}}\n]}"
        do {
            _ = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireIOS))
            Issue.record("loaded")
        } catch {
            #expect(error.code == .invalidPattern)
            #expect(error.ruleIndex == 0)
            #expect(error.patternIndex == 1)
            #expect(error.patternOffset == 2)
            #expect(error.location?.line == 2)
            #expect(error.message == "rule 0, pattern 1: unsupported regular expression \"/x\\\\X\" at offset 2: the ICU construct \\X "
                + "(grapheme clusters follow each engine's own Unicode version and rules) is valid ICU (iOS accepts it), but libpathconfig's"
                + " pcre2 backend cannot match it exactly; rewrite the pattern without it, or, from Swift or the pathconfig command"
                + " (not C, Python or Rust), use the foundation backend, which is ICU")
        }
        // The foundation backend is ICU: it loads the same file.
        let foundation = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireIOS, engine: FoundationEngine()))
        #expect(foundation.rules.count == 4)
    }

    @Test("\\b loads with the default backend and finds whole words, as in the apps", arguments: [Profile.turboIOS, .hotwireAndroid])
    func wordBoundary(profile: Profile) throws {
        let config = try Self.config("\\bnew\\b", profile: profile)
        for (path, hits) in [("/a/new", true), ("/news", false), ("/renew", false), ("/new-item", true), ("/new_item", false)] {
            #expect((config.properties(for: path).json != "{}") == hits, "\(profile): \(path)")
        }
    }

    @Test("lenient loading skips a refused pattern with a warning and keeps the rule's others")
    func lenientRefusal() throws {
        let json = "{\"rules\": [{\"patterns\": [\"\\\\Xnew\", \"/new$\"], \"properties\": {\"hit\": true}}]}"
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS, lenient: true))
        #expect(config.warnings.count == 1)
        #expect(config.warnings.first?.message.contains("ICU construct \\X") == true)
        #expect(config.properties(for: "/a/new").json == "{\"hit\":true}")
    }

    @Test("Java classes follow java.util.regex: POSIX names are ASCII, java names are Character's")
    func javaClasses() throws {
        let android = Profile.hotwireAndroid.regexOptions
        func matches(_ pattern: String, _ subject: String) throws -> Bool {
            try PCRE2Engine().compile(pattern, options: android, limits: Limits()).search(MatchSubject(subject)) == .match
        }
        // IGNORE_CASE widens \p{Lower} to ASCII letters, not to é or the Kelvin sign.
        #expect(try matches("^\\p{Lower}$", "A"))
        #expect(try !matches("^\\p{Lower}$", "é"))
        #expect(try !matches("^\\p{Lower}$", "\u{212A}"))
        #expect(try matches("^\\p{javaLowerCase}$", "É"))
        #expect(try matches("^\\p{IsAlphabetic}$", "é"))
        #expect(try !matches("^\\p{Alpha}$", "é"))
        #expect(try !matches("^\\w$", "\u{212A}"))
        #expect(try matches("^\\w$", "K"))
        #expect(try matches("^\\u00e9$", "É"))
        #expect(try matches("^\\x{1F600}$", "😀"))
        #expect(try matches("^\\c1$", "q"))
        // Java's line terminators exclude \x0B and \f; $ never sits inside CR LF.
        #expect(try matches("^a.b$", "a\u{0B}b"))
        #expect(try !matches("^a.b$", "a\u{85}b"))
        #expect(try matches("a$", "a\r\n"))
        #expect(try !matches("a$", "a\u{0B}"))
        #expect(try !matches("a\\r$", "a\r\n"))
        // Java's \R gives back the LF of a CR LF; ICU's does not.
        #expect(try matches("^\\R\\n$", "\r\n"))
        let ios = Profile.hotwireIOS.regexOptions
        #expect(try PCRE2Engine().compile("^\\R\\n$", options: ios, limits: Limits()).search(MatchSubject("\r\n")) == .noMatch)
    }

    @Test("Java refusals and errors", arguments: ["\\p{InGreek}", "(?U)a", "\\b{g}new", "(?-u)a", "\\X"])
    func javaRefusals(_ pattern: String) {
        #expect(throws: RegexCompileError.self) {
            _ = try PCRE2Engine().compile(pattern, options: Profile.hotwireAndroid.regexOptions, limits: Limits())
        }
    }

    @Test("PCRE2 10.42's JIT misses matches its interpreter finds (PCRE2 issue #336): the engine runs the interpreter")
    func jitBug() throws {
        let ios = Profile.turboIOS.regexOptions
        let pattern = "(1|)b*1"
        let icu = try FoundationEngine().compile(pattern, options: ios, limits: Limits())
        #expect(icu.search(MatchSubject("/12")) == .match)
        let pcre2 = try PCRE2Engine().compile(pattern, options: ios, limits: Limits())
        #expect(pcre2.search(MatchSubject("/12")) == .match)
    }

    @Test("PCRE2 10.42 takes a lookahead's first unit twice (PCRE2 pull request #444), or one in an item repeated zero times: such patterns match",
          arguments: [("b{0}(?=x)x", "x"), ("(?=a)b?a", "a"), ("(?:b){0}(?=/x)/x", "/x"), ("c?(?=d)d", "d"), ("(?:k|(?=a)b){0}", "x"),
                      ("(?:k|(?=a)b){0,0}?/", "/"), ("(?<=a{0}b)c", "bc"), ("(a){0}b", "b")])
    func assertedFirstUnit(_ pattern: String, _ subject: String) throws {
        try expectMatchesInBothDialects(pattern, subject)
    }

    /// `pattern` finds `subject` through pcre2 under an iOS and an Android
    /// profile, and through Foundation (ICU) itself.
    private func expectMatchesInBothDialects(_ pattern: String, _ subject: String) throws {
        for (profile, reference) in [(Profile.hotwireIOS, "ICU"), (.hotwireAndroid, "the JDK")] {
            let pcre2 = try PCRE2Engine().compile(pattern, options: profile.regexOptions, limits: Limits())
            #expect(pcre2.search(MatchSubject(subject)) == .match, "\(pattern) on \(subject) matches in \(reference)")
        }
        let icu = try FoundationEngine().compile(pattern, options: Profile.hotwireIOS.regexOptions, limits: Limits())
        #expect(icu.search(MatchSubject(subject)) == .match)
    }

    @Test("PCRE2 10.42 makes an item possessive before an atomic group that can match the empty string: such patterns match",
          arguments: [("a?(?:,)?+a", "ba"), ("[bc]a?(?:,)?+a", "/ba"), ("a?(?>(?:,)?)a", "ba"), ("a?(,)?+a", "ba"),
                      ("a?(?:,){0,2}+a", "ba"), ("\\d?(?:,)?+1", "b1"), ("a?(?>|,)a", "ba"), ("a?(?>(?:b)??)a", "ba")])
    func atomicGroupAfterRepeat(_ pattern: String, _ subject: String) throws {
        try expectMatchesInBothDialects(pattern, subject)
        #expect(try PatternTranslator.translate(pattern, dialect: .icu, caseInsensitive: false).hasAtomicGroup)
    }

    @Test("a translation without an atomic group keeps auto-possessification: possessive single items are not groups")
    func noAtomicGroup() throws {
        #expect(try !PatternTranslator.translate("a?+,?+[bc]*+a", dialect: .icu, caseInsensitive: false).hasAtomicGroup)
        #expect(try !PatternTranslator.translate("a?+,?+[bc]*+a", dialect: .java, caseInsensitive: false).hasAtomicGroup)
    }

    @Test("a class that unions sets is one atomic alternation: repeated, a failing start costs linear time and a later match is found")
    func classUnionIsAtomic() throws {
        // Backtracking into `(?:[a]|[^bz])*` tried 2^40 ways at the first x
        // and stopped at PCRE2's match limit, which counts as no match.
        try expectMatchesInBothDialects("x[a[^bz]]*z", "/x" + String(repeating: "a", count: 40) + "b/xz")
        let translation = try PatternTranslator.translate("x[a[^bz]]*z", dialect: .icu, caseInsensitive: false)
        #expect(translation.pattern == "x(?>[a]|[^bz])*z")
        #expect(!translation.hasAtomicGroup, "a class never matches the empty string: auto-possessification stays")
    }

    @Test("a back reference is rewritten where it is, after the output before it moved (Java's quantified lookahead)")
    func movedBackReference() throws {
        #expect(try PatternTranslator.translate("x(?=\\1)?", dialect: .java, caseInsensitive: true).pattern == "[Xx](?:(?=(?!)))?")
        #expect(try PatternTranslator.translate("(?=a\\1)?", dialect: .java, caseInsensitive: false).pattern == "(?:(?=a(?!)))?")
        #expect(try PatternTranslator.translate("(a)(?=\\1)?", dialect: .java, caseInsensitive: false).pattern == "(a)(?:(?=\\g{1}))?")
    }

    @Test("ICU drops an item repeated zero times unread: a back reference in it to a missing group compiles, and never matches")
    func droppedBackReference() throws {
        #expect(try PatternTranslator.translate("a\\1{0}", dialect: .icu, caseInsensitive: false).pattern == "a(?(DEFINE)(?!))")
        #expect(try PatternTranslator.translate("a(?:b\\2){0,0}(c)", dialect: .icu, caseInsensitive: false).pattern == "a(?(DEFINE)(?:b(?!)))(c)")
        #expect(throws: RegexCompileError.self) { try PCRE2Engine().compile("a\\1{0,1}", options: Profile.hotwireIOS.regexOptions, limits: Limits()) }
        #expect(throws: (any Error).self) { try FoundationEngine().compile("a\\1{0,1}", options: Profile.hotwireIOS.regexOptions, limits: Limits()) }
        let pcre2 = try PCRE2Engine().compile("a\\2{0}(b)", options: Profile.hotwireIOS.regexOptions, limits: Limits())
        #expect(pcre2.search(MatchSubject("ab")) == .match)
        // Lazy and possessive intervals are looped, not dropped: the
        // reference is checked (the dialect fuzzer's find).
        for pattern in ["a\\1{0}?", "a\\1{0}+", "(a)\\2{0,0}+"] {
            #expect(throws: RegexCompileError.self, "\(pattern)") { try PCRE2Engine().compile(pattern, options: Profile.hotwireIOS.regexOptions, limits: Limits()) }
            #expect(throws: (any Error).self, "\(pattern)") { try FoundationEngine().compile(pattern, options: Profile.hotwireIOS.regexOptions, limits: Limits()) }
        }
    }
}
