import PathConfiguration
@testable import PathConfigCore
import Testing

@Suite("Prefilter")
struct PrefilterTests {
    @Test("required literals", arguments: [
        ("^/posts/\\d+/comments/\\d+/new$", "/comments/"),
        ("/new$", "/new"),
        (".*\\?.*articles66_filter=[a-z]+.*", "articles66_filter="),
        ("^/products41(/.*)?$", "/products41"),
        ("\\.pdf$", ".pdf"),
        ("colou?r", "colo"),
        ("ab+c", "ab"),
        ("x{2}yz", "xxyz"),
        ("x{2,}?yz", "xxyz"),
        ("x{0}yz", "yz"),
        ("x*+yz", "yz"),
        ("(?:/a)/bcd", "/a/bcd"),
        ("a(?:bc){3}d", "abcbcbcd"),
        ("(?<id>/posts)/\\d+", "/posts/"),
        ("x(?:ab|cb)yz", "byz"),
        ("(?=/a)/b", "/b"),
        ("/caf\\u00e9/x", "/caf"),
        ("[ab]cd\\Dxy", "cd"),
        ("[^/]+/edit$", "/edit"),
        ("/x\\x41bc/\\d", "/xAbc/"),
        ("\\u002Fnew", "/new"),
        ("\\x{2F}new", "/new"),
        ("\\/\\-\\_", "/-_"),
        ("(a)\\12345/ab", "2345/ab"),      // after one group, `\1` and "2345"
        ("\\0123ab", "Sab"),              // `\0123` is octal 123
        ("\\p{Lu}123/z", "123/z"),
        ("\\cXab", "ab"),
        ("\\N{SOLIDUS}ab", "/ab"),
        ("/a\\Kcde", "/aKcde"),           // ICU reads an escaped letter it has no meaning for as the letter
        ("\\Q/new\\E", "/new"),
        ("ab\\E?", "ab"),                 // ICU reads a lone `\E` as E
        ("a\\Q+\\Ebc", "a+bc"),          // a quoted + is a character
        ("(?#note)/new", "/new"),
        ("/new(?#c)*", "/ne"),             // a comment is nothing: the * repeats the w
        ("ab(?i)cd/ef", "ab"),             // letters after (?i) may match either case
        ("(?i)x//y", "//"),                // but other characters only themselves
        ("[a[b]cd]ef", "ef"),              // a class ends where its dialect's class reader ends it:
        ("[[:alpha:]]/new", "/new"),       // nested, a property, a ] first, a set operator
        ("[]a]/new", "/new"),
        ("[a-z&&[^aeiou]]/new", "/new"),
    ])
    func literals(_ pattern: String, _ expected: String) {
        #expect(RequiredLiteral.of(pattern, options: RegexOptions(caseInsensitive: false)) == Array(expected.utf8))
    }

    @Test("a long required literal is cut to its first 64 bytes, which every match contains too, and still finds the rule")
    func longLiteral() throws {
        let pattern = "/7" + String(repeating: "a", count: 16_000)
        let literal = try #require(RequiredLiteral.of(pattern, options: RegexOptions(caseInsensitive: false)))
        #expect(literal == Array(("/7" + String(repeating: "a", count: 62)).utf8))
        let json = #"{"rules": [{"patterns": ["\#(pattern)"], "properties": {"long": true}}, {"patterns": ["/8"], "properties": {"other": true}}]}"#
        for profile in [Profile.hotwireIOS, .hotwireAndroid] {
            let config = try PathConfiguration(json: Array(json.utf8), options: LoadOptions(profile: profile))
            #expect(try config.resolve("https://x.dev" + pattern + "/end").json == #"{"long":true}"#)
            #expect(try config.resolve("https://x.dev/7" + String(repeating: "a", count: 100) + "/8").json == #"{"other":true}"#)
        }
    }

    @Test("patterns the analysis refuses to guess about", arguments: [
        ".*", "/a|/b", "(?i)/new", "/é", "^$", "a", "/(a|b)(?i:c)", "/new)", "(/new",
        "x(*ACCEPT)yz", "(*UTF)/new", "/ab(*F)|/cd",      // verbs and start options
        "a{,b}c", "a{,3}bc", "ab{ 2}cd", "x\\b{g}yz", "{2}/new", "ab{2}{3}", // braces that differ by engine
        "(?x)/n e w", "(?x:/new)", "(?C1)/new", "(?(1)/a|/b)", "(?R)/new", "(?1)/new", "(?P=n)/new",
        "[{]}]/new",                                        // a } ICU refuses
        "/new(?i)*",                                        // a quantifier after nothing repeatable
    ])
    func none(_ pattern: String) {
        #expect(RequiredLiteral.of(pattern, options: RegexOptions(caseInsensitive: false)) == nil)
    }

    @Test("case-insensitive literals are lower-cased", arguments: [
        ("/New$", "/new"), ("(?-i)/ABC", "/abc"), ("\\x41BC", "abc"), ("ab(?i)CDE", "cde"),
    ])
    func folded(_ pattern: String, _ expected: String) {
        #expect(RequiredLiteral.of(pattern, options: RegexOptions(caseInsensitive: true)) == Array(expected.utf8))
    }

    @Test("Aho–Corasick finds every literal, overlapping ones too")
    func automaton() {
        let m = LiteralMatcher(["he", "she", "his", "hers", "/new"].map { Array($0.utf8) })
        var found: Set<Int> = []
        Array("ushers/new".utf8).withUnsafeBufferPointer { buf in m.scan(buf, fold: false) { found.insert($0) } }
        #expect(found == [0, 1, 3, 4])
    }

    @Test("a deferred literal matcher is made on its first scan and finds what one made at load finds")
    func deferredMatcher() {
        var rng = SplitMix(state: 0xDEF0)
        let alphabet = Array("/abAB-_1é".utf8)
        func text(_ length: Int) -> [UInt8] { (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] } }
        for _ in 0..<100 {
            let literals = Array(Set((0..<(1 + Int(rng.next() % 12))).map { _ in text(1 + Int(rng.next() % 5)) }))
            let made = LiteralMatcher(literals), deferred = DeferredLiteralMatcher(literals)
            #expect(!deferred.isMade)
            for _ in 0..<10 {
                let subject = text(Int(rng.next() % 24))
                for fold in [false, true] {
                    var a: [Int] = [], b: [Int] = []
                    subject.withUnsafeBufferPointer { buf in
                        made.scan(buf, fold: fold) { a.append($0) }
                        deferred.scan(buf, fold: fold) { b.append($0) }
                    }
                    #expect(a == b)
                }
            }
            #expect(deferred.isMade)
        }
    }

    @Test("a deferred literal matcher scanned by many threads at once is made, and each finds what one made at load finds")
    func deferredMatcherThreads() async {
        let literals = ["/posts/", "/new", "édit", "he", "hers"].map { Array($0.utf8) }
        let expected = LiteralMatcher(literals)
        for _ in 0..<20 {
            let deferred = DeferredLiteralMatcher(literals)
            let wrong = await withTaskGroup(of: Int.self) { group in
                for t in 0..<8 {
                    group.addTask {
                        let subject = Array("/posts/\(t)/édit/hers/new".utf8)
                        var a: [Int] = [], b: [Int] = []
                        subject.withUnsafeBufferPointer { buf in
                            deferred.scan(buf, fold: t % 2 == 0) { a.append($0) }
                            expected.scan(buf, fold: t % 2 == 0) { b.append($0) }
                        }
                        return a == b ? 0 : 1
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(wrong == 0 && deferred.isMade)
        }
    }

    @Test("a plan whose automaton decides printable ASCII URLs makes its literal matcher only for another URL")
    func literalMatcherOnFirstUse() throws {
        let json = #"{"rules": [{"patterns": ["/new$"], "properties": {"a": 1}}, {"patterns": ["^/posts/(?=\\d)\\d+"], "properties": {"b": 2}}]}"#
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .turboIOS))
        #expect(config.patternPlan.automaton != nil && config.patternPlan.literalMatcherIsMade == false)
        #expect(config.properties(for: "/posts/12/new").json == #"{"a":1,"b":2}"#)
        #expect(config.patternPlan.literalMatcherIsMade == false)
        #expect(config.properties(for: "/posts/12/é/new").json == #"{"a":1,"b":2}"#)
        #expect(config.patternPlan.literalMatcherIsMade == true)
        // Without an automaton every lookup scans: the matcher is made at load.
        var options = LoadOptions(profile: .turboIOS)
        options.combinesPatterns = false
        let plain = try PathConfiguration(json: json, options: options)
        #expect(plain.patternPlan.automaton == nil && plain.patternPlan.literalMatcherIsMade == true)
    }

    @Test("the dense table, with entries of two bytes or four, and the trie find the literals a subject holds, folded and not")
    func denseAgainstSparse() {
        var rng = SplitMix(state: 0xAC0D)
        let alphabet = Array("/abAB-_1é".utf8)
        func text(_ length: Int) -> [UInt8] { (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] } }
        var found = 0
        for _ in 0..<200 {
            let literals = Array(Set((0..<(1 + Int(rng.next() % 12))).map { _ in text(1 + Int(rng.next() % 5)) }))
            let dense = LiteralMatcher(literals), sparse = LiteralMatcher(literals, maxDenseEntries: 0)
            let wide = LiteralMatcher(literals, maxCompactStates: 0)
            #expect(dense.isDense && dense.isCompact && wide.isDense && !wide.isCompact && !sparse.isDense)
            for _ in 0..<20 {
                let subject = text(Int(rng.next() % 24))
                for fold in [false, true] {
                    var a: [Int] = [], b: [Int] = [], c: [Int] = []
                    subject.withUnsafeBufferPointer { buf in
                        dense.scan(buf, fold: fold) { a.append($0) }
                        sparse.scan(buf, fold: fold) { b.append($0) }
                        wide.scan(buf, fold: fold) { c.append($0) }
                    }
                    #expect(a == b && c == b)
                    // Against the definition: the literals that occur in the subject.
                    let folded = subject.map { fold ? URLParts.asciiLowercased($0) : $0 }
                    let occurring = literals.indices.filter { i in
                        folded.indices.contains { folded[$0...].starts(with: literals[i]) }
                    }
                    #expect(Set(a) == Set(occurring))
                    found += a.count
                }
            }
        }
        #expect(found > 1000)
    }

    // Sized for a debug build: the unfiltered plan runs every pattern on every URL.
    static let corpora: [(String, Int)] = [("10", 10_000), ("100", 10_000), ("1000", 2_000), ("10000", 200)]

    @Test("prefiltered and unfiltered plans agree on the benchmark corpora", arguments: corpora, [Profile.hotwireIOS, .hotwireAndroid])
    func equivalence(_ corpus: (String, Int), _ profile: Profile) throws {
        let bench = Conformance.repositoryRoot + "/bench/corpora/"
        let json = try Conformance.readFile(bench + "rules-\(corpus.0).json")
        let urls = String(decoding: try Conformance.readFile(bench + "urls-\(corpus.0).txt"), as: UTF8.self)
            .split(separator: "\n").prefix(corpus.1).map(String.init)
        var fast = LoadOptions(profile: profile)
        fast.limits.resultCacheCapacity = 0
        var slow = fast
        slow.usePrefilter = false
        let a = try PathConfiguration(json: json, options: fast)
        let b = try PathConfiguration(json: json, options: slow)
        var mismatches = 0
        var matched = 0
        for url in urls {
            let ra = try a.matchingRules(for: url), rb = try b.matchingRules(for: url)
            if ra != rb { mismatches += 1 }
            matched += ra.count
        }
        #expect(urls.count == corpus.1)
        #expect(matched > urls.count) // the corpora are built to hit: more than one rule per URL on average
        #expect(mismatches == 0)
    }

    @Test("under case-insensitive matching a subject with the Kelvin sign for k, or the dotless i for i, matches through the prefilter")
    func kelvin() throws {
        let json = "{\"rules\": [{\"patterns\": [\"/parking$\"], \"properties\": {\"p\": true}}]}"
        let config = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid))
        // U+212A KELVIN SIGN folds to "k", and U+0131 to "i" in the JDK.
        #expect(config.properties(for: "/par\u{212A}ing").json == "{\"p\":true}")
        #expect(config.properties(for: "/PARK\u{131}NG").json == "{\"p\":true}")
    }

    @Test("the characters the prefilter's scan writes as ASCII text are those whose folding, ICU's or the JDK's, holds ASCII")
    func ontoASCII() {
        var expected: Set<UInt32> = []
        for v in UInt32(0x80)..<0x20000 where !(0xD800...0xDFFF).contains(v) {
            let java = [JavaCaseFolding.upper(v), JavaCaseFolding.lower(v), JavaCaseFolding.folded(v)]
            if CaseFolding.fold(v).contains(where: { $0 < 0x80 }) || java.contains(where: { $0 < 0x80 }) { expected.insert(v) }
        }
        #expect(Set(CaseFolding.ontoASCII.keys) == expected)
        // The JDK's folding where it is ASCII, else ICU's.
        let texts = CaseFolding.ontoASCII.mapValues { String(decoding: $0, as: UTF8.self) }
        #expect(texts[0x212A] == "k" && texts[0x17F] == "s" && texts[0x130] == "i" && texts[0x131] == "i")
        #expect(texts[0xDF] == "ss" && texts[0x1E9E] == "ss" && texts[0xFB06] == "st" && texts[0x149] == "\u{2BC}n")
        #expect(texts[0xE9] == nil && texts[0x212B] == nil)
    }

    /// Searches of `^(a|aa)+x7/st-ss-k$` run out of a budget of 1,000 on
    /// 40 `a` and a tail it does not end with: `limitExceeded` says whether
    /// the engine ran, which the prefilter spares a subject without the
    /// pattern's required literal, "ax7/st-ss-k", case folded. Each tail
    /// holds a character beyond ASCII, which the plain-pattern automaton
    /// leaves to the prefilter.
    @Test("under case-insensitive matching the prefilter reads characters that fold onto ASCII as that text", arguments: [
        ("x7/st-ss-\u{E9}", false), ("x7/st-ss-\u{131}", false), ("x7/\u{FB06}-\u{DF}", false),
        ("x7/\u{FB06}-\u{DF}-\u{212A}\u{65E5}", true), ("X7/\u{17F}T-SS-K\u{E9}", true), ("x7/st-\u{1E9E}-\u{212A}\u{65E5}", true),
        ("x7/st-ss-k\u{65E5}", true),
    ])
    func foldedSubjects(_ tail: String, _ searched: Bool) throws {
        let json = "{\"rules\": [{\"patterns\": [\"^(a|aa)+x7/st-ss-k$\"], \"properties\": {\"p\": true}}]}"
        var options = LoadOptions(profile: .hotwireAndroid)
        options.limits.matchLimit = 1_000
        let config = try PathConfiguration(json: json, options: options)
        let subject = String(repeating: "a", count: 40) + tail
        #expect(try config.explain(subject).limitExceeded.isEmpty != searched)
        options.usePrefilter = false
        #expect(try PathConfiguration(json: json, options: options).explain(subject).limitExceeded.count == 1)
    }
}

/// The patterns the plan answers without searching match every subject in
/// every engine and dialect, case folding or not: the shortcut is exact.
@Suite("Patterns that match everything")
struct AlwaysMatchingTests {
    static let subjects = ["", "/", "\n", "a\nb", "/a\n", "\r\n", "\u{2028}", "\u{85}x", "/caf%C3%A9?q=1#f", String(repeating: "x", count: 5000)]

    @Test("each whitelisted pattern matches every subject in both engines and dialects", arguments: Conformance.engineNames)
    func whitelist(engine: String) throws {
        for pattern in ["", ".*", "^", "^.*", "$", ".*$"] {
            #expect(MatchPlan.Pattern.matchesEverySubject(pattern))
            for options in [RegexOptions(caseInsensitive: false, unicodeClasses: true, dialect: .icu),
                            RegexOptions(caseInsensitive: true, unicodeClasses: false, dialect: .java)] {
                // ICU refuses the empty pattern (both backends say so; the shortcut never sees it).
                if pattern.isEmpty && options.dialect == .icu {
                    #expect(throws: RegexCompileError.self) { try Conformance.engine(engine).compile(pattern, options: options, limits: Limits()) }
                    continue
                }
                // The Foundation engine is ICU whatever the dialect: Java's empty pattern is PCRE2's only.
                if pattern.isEmpty && engine == "foundation" { continue }
                let compiled = try Conformance.engine(engine).compile(pattern, options: options, limits: Limits())
                for subject in Self.subjects {
                    #expect(compiled.search(MatchSubject(subject)) == .match, "\(pattern) on \(subject.debugDescription)")
                }
            }
        }
    }

    @Test("near misses are searched: ^.*$ fails on a line break")
    func nearMisses() throws {
        for pattern in ["^.*$", ".+", "^$", " .*", ".*?x", "(.*)"] {
            #expect(!MatchPlan.Pattern.matchesEverySubject(pattern), "\(pattern)")
        }
        let compiled = try PCRE2Engine().compile("^.*$", options: RegexOptions(), limits: Limits())
        #expect(compiled.search(MatchSubject("a\nb")) == .noMatch)
    }
}
