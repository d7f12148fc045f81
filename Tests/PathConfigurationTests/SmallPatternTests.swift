import Foundation
import PathConfiguration
@testable import PathConfigCore
import PathConfigurationFoundation
import PrefilterFuzzing
import Testing

/// `SmallPattern`, the automaton that decides plain patterns on printable
/// ASCII subjects without the engine: what it reads, and that it answers as
/// the engines do.
@Suite("Small patterns")
struct SmallPatternTests {
    static let plain = [
        "/new$", "^/posts/\\d+/edit$", "^/admin(/.*)?$", ".*\\?.*tab=[a-z]+.*", "\\.pdf$", "^/$", "a{2,3}", "(?:a|b)+",
        "^/w/[0-9]+$", "[^/]+/x", "\\W\\D", "^$", "()", "x{0}", "/a|/b", "[\\-\\]]", "[Kk]", "a|", "(|a)", "(?:)",
    ]
    static let refused = [
        "", "(?i)x", "a*+", "a++", "a*?", "(/*?)*?", "a{2}?", "\\bx", "[[:alpha:]]", "[a-]", "[-a]", "a|^b", "^a|b", "é", "\\p{L}", "(?=a)", "(a)\\1", "a{65}",
        "[:a:]", "x#y", "a b", "\\s", "($|\\?)", "a{,3}", "a{2", "[]a]", "[a&&b]", "\\Qa\\E", "\\x41", "\\_", "x**", "[z-a]", "[a-Z]",
    ]

    @Test("allPrintable, eight bytes at a time and the last eight as one word, agrees with a byte-by-byte check: every byte value at every place")
    func allPrintableAgrees() {
        for length in [0, 1, 7, 8, 9, 12, 15, 16, 17, 23, 24] {
            for place in 0..<max(length, 1) {
                for value in 0...255 {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[place] = UInt8(value) }
                    // A neighbour at the edge of the range, so that borrows and carries meet.
                    if place + 1 < length { bytes[place + 1] = value % 2 == 0 ? 0x20 : 0x7E }
                    let expected = bytes.allSatisfy(ByteSet.isPrintable)
                    let got = bytes.withUnsafeBufferPointer(ByteSet.allPrintable)
                    if got != expected {
                        Issue.record("length \(length), byte \(value) at \(place): \(got)")
                        return
                    }
                }
            }
        }
    }

    @Test("plain patterns are read, and every engine compiles them under both apps' options", arguments: plain)
    func reads(_ pattern: String) {
        #expect(SmallPattern(pattern, options: RegexOptions(caseInsensitive: false)) != nil)
        #expect(SmallPattern(pattern, options: RegexOptions(caseInsensitive: true)) != nil)
        // What the automaton reads, the engine compiles only on first use
        // (`DeferredPattern`): it must never be a pattern an engine refuses.
        for options in Self.optionSets {
            for engine in [PCRE2Engine() as any RegexEngine, FoundationEngine()] {
                #expect(throws: Never.self) { try engine.compile(pattern, options: options, limits: Limits()) }
            }
        }
    }

    @Test("anything outside the whitelist is left to the engine", arguments: refused)
    func refuses(_ pattern: String) {
        #expect(SmallPattern(pattern, options: RegexOptions(caseInsensitive: false)) == nil)
    }

    @Test("more positions than one word holds are left to the engine")
    func tooManyPositions() {
        #expect(SmallPattern("^" + String(repeating: "[ab]", count: 64) + "$", options: RegexOptions(caseInsensitive: false)) != nil)
        #expect(SmallPattern("^" + String(repeating: "[ab]", count: 65) + "$", options: RegexOptions(caseInsensitive: false)) == nil)
        #expect(SmallPattern("(ab){32}", options: RegexOptions(caseInsensitive: false)) != nil)
        #expect(SmallPattern("(ab){33}", options: RegexOptions(caseInsensitive: false)) == nil)
    }

    @Test("the automaton is built on the first search, once, whichever of many threads gets there first")
    func builtOnFirstSearch() async {
        for pattern in ["^/posts/\\d+/edit$", "/new$", ".*\\?.*tab=[a-z]+.*"] {
            let small = SmallPattern(pattern, options: RegexOptions(caseInsensitive: false))!
            #expect(!small.isBuilt, "reading a pattern builds nothing: \(pattern)")
            let wrong = await withTaskGroup(of: Int.self) { group in
                for t in 0..<8 {
                    group.addTask {
                        let hits = ["/posts/\(t)/edit", "/x/new", "/a?b=1&tab=xyz"], misses = ["/posts/x/edit", "/news", "/a?tab=1"]
                        let matched = (hits + misses).map { Array($0.utf8).withUnsafeBufferPointer(small.matches) }
                        let expected = (hits + misses).map { (try? Regex(pattern).firstMatch(in: $0)) != nil }
                        return zip(matched, expected).filter { $0 != $1 }.count
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(wrong == 0, "\(pattern)")
            #expect(small.isBuilt)
        }
    }

    @Test("anchors, literals and counted repeats decide as a regex does")
    func examples() {
        func m(_ pattern: String, _ subject: String, fold: Bool = false) -> Bool {
            let small = SmallPattern(pattern, options: RegexOptions(caseInsensitive: fold))!
            return Array(subject.utf8).withUnsafeBufferPointer(small.matches)
        }
        #expect(m("/new$", "/posts/new"))
        #expect(!m("/new$", "/posts/new/1"))
        #expect(m("^/posts/\\d+/edit$", "/posts/12/edit"))
        #expect(!m("^/posts/\\d+/edit$", "/posts//edit"))
        #expect(!m("^/posts/\\d+/edit$", "x/posts/1/edit"))
        #expect(m("^/admin(/.*)?$", "/admin"))
        #expect(m("^/admin(/.*)?$", "/admin/users"))
        #expect(!m("^/admin(/.*)?$", "/administrator"))
        #expect(m("^a{2,3}$", "aaa"))
        #expect(!m("^a{2,3}$", "aaaa"))
        #expect(m("^$", ""))
        #expect(!m("^$", "x"))
        #expect(m("x*$", "abc"))
        #expect(m("/NEW$", "/posts/new", fold: true))
        #expect(!m("/NEW$", "/posts/new"))
        #expect(m("[^a-z]", "abcD", fold: false))
        #expect(!m("[^a-z]", "abcD", fold: true))
        // What a match must end with is checked first: up to 8 bytes, only
        // back to where a match could start.
        #expect(m("^/posts/\\d+/comments/\\d+/edit$", "/posts/1/comments/22/edit"))
        #expect(!m("^/posts/\\d+/comments/\\d+/edit$", "/posts/1/comments/22/edix"))
        #expect(!m("^/posts/\\d+/comments/\\d+/edit$", "/posts/1/comments/x2/edit"))
        #expect(m("^/posts/\\d+/EDIT$", "/posts/7/edit", fold: true))
        #expect(!m("^/posts/\\d+/EDIT$", "/posts/7/edit"))
        #expect(m("(ab|b)c$", "bc"))
        #expect(m("(ab|b)c$", "xabc"))
        #expect(m("^\\d*x$", "x"))
        #expect(m("^a+b$", "aaab"))
        #expect(!m("^a+b$", "b"))
        #expect(m("[xy]z$", "yz"))
        // What a match with `^` must start with is compared first (up to 16
        // bytes), and the automaton starts after it.
        #expect(m("^/orders69/\\d+/settings$", "/orders69/378/settings"))
        #expect(!m("^/orders69/\\d+/settings$", "/orders68/378/settings"))
        #expect(!m("^/orders69/\\d+/settings$", "/orders69/"))
        #expect(!m("^/orders69/\\d+/settings$", "/order"))
        #expect(m("^/abcdefghijklmnopqrstu\\d", "/abcdefghijklmnopqrstu7x"))
        #expect(!m("^/abcdefghijklmnopqrstu\\d", "/abcdefghijklmnopqrstux"))
        #expect(!m("^/abcdefghijklmnopqrsTu\\d", "/abcdefghijklmnopqrstu7"))
        #expect(m("^/abcdefghijklmnopqrsTu\\d", "/ABCDEFGHIJKLMNOPQRSTU7", fold: true))
        #expect(m("^/ab(c\\d)?$", "/ab"))  // the prefix ends where a match may end
        #expect(m("^/ab(c\\d)?$", "/abc1"))
        #expect(!m("^/ab(c\\d)?$", "/abc"))
        #expect(m("^/ab.", "/abc"))  // no `$`: a match may end right after the prefix
        #expect(m("^/ab+c", "/abbbc"))  // the prefix stops at a position that loops
        #expect(!m("^/ab+c", "/ac"))
        #expect(m("^/a(b|c)d", "/acd"))
        #expect(!m("^/a(b|c)d", "/aed"))
    }

    @Test("patterns with `^` and a literal start (compared before the automaton runs) answer as PCRE2 and ICU do")
    func literalStarts() throws {
        var choices = SeededChoices(seed: 0x9E_F1C5)
        let grammar = PlainPatternGrammar(), subjects = PatternGrammar()
        let alphabet = Array("/abcXYZ019_-.")
        var tally = Tally()
        for _ in 0..<600 {
            let length = 1 + choices.below(20)
            let literal = String((0..<length).map { _ in choices.pick(alphabet) })
            let escaped = literal.replacingOccurrences(of: ".", with: "\\.")
            let node = grammar.pattern(&choices)
            var rest = node.text
            if rest.hasPrefix("^") { rest.removeFirst() }
            let pattern = "^" + escaped + rest
            var texts: [String] = []
            for tail in subjects.subjects(for: node, count: 4, &choices) where tail.utf8.allSatisfy(ByteSet.isPrintable) {
                var mutated = Array(literal)
                mutated[choices.below(length)] = choices.pick(alphabet)
                texts += [literal + tail, String(mutated) + tail, literal.uppercased() + tail, String(literal.prefix(choices.below(length))), literal]
            }
            Self.compare(pattern, on: texts, into: &tally)
        }
        #expect(tally.disagreements.prefix(10) == [])
        #expect(tally.compared > 10_000)
        #expect(tally.matched > tally.compared / 10 && tally.matched < tally.compared * 9 / 10)
    }

    /// Engines compiled for the two apps' options: ICU syntax with Unicode
    /// classes, case-sensitive (iOS), and Java syntax with ASCII classes,
    /// case-insensitive (Android).
    static let optionSets = [Profile.hotwireIOS.regexOptions, Profile.hotwireAndroid.regexOptions]

    @Test("on printable ASCII subjects, the automaton answers as PCRE2 and ICU do, both apps' options")
    func agreesWithEngines() throws {
        var choices = SeededChoices(seed: 0x5A11_9A77)
        let grammar = PlainPatternGrammar(), subjects = PatternGrammar()
        var tally = Tally()
        for _ in 0..<1500 {
            let node = grammar.pattern(&choices)
            let texts = subjects.subjects(for: node, count: 8, &choices).filter { $0.utf8.allSatisfy(ByteSet.isPrintable) }
            Self.compare(node.text, on: texts, into: &tally, refusalsDisagree: true)
        }
        #expect(tally.disagreements.prefix(10) == [])
        // Not vacuous: most generated patterns are read, and they match often and not.
        #expect(tally.automata > 2000)
        #expect(tally.matched > tally.compared / 5 && tally.matched < tally.compared * 4 / 5)
    }

    /// What `compare` found.
    struct Tally {
        var compared = 0, matched = 0, automata = 0
        var disagreements: [String] = []
    }

    /// The automaton of `pattern` against PCRE2 and ICU, each under both
    /// apps' options, on `texts` (printable ASCII): the comparisons, the
    /// engines' matches and every disagreement added to `tally`. An engine
    /// that refuses a pattern the automaton reads is a disagreement when
    /// `refusalsDisagree`, and skipped otherwise.
    static func compare(_ pattern: String, on texts: [String], into tally: inout Tally, refusalsDisagree: Bool = false) {
        for options in optionSets {
            guard let small = SmallPattern(pattern, options: options) else { continue }
            tally.automata += 1
            let engines: [any RegexEngine] = [PCRE2Engine(), FoundationEngine()]
            for engine in engines {
                guard let compiled = try? engine.compile(pattern, options: options, limits: Limits()) else {
                    if refusalsDisagree { tally.disagreements.append("\(engine.name) refuses \(pattern), which the automaton reads") }
                    continue
                }
                for text in texts {
                    let expected = compiled.search(MatchSubject(text)) == .match
                    let got = Array(text.utf8).withUnsafeBufferPointer(small.matches)
                    tally.compared += 1
                    if expected { tally.matched += 1 }
                    if got != expected {
                        tally.disagreements.append("\(pattern) on \(text) (\(engine.name), \(options.dialect)): engine \(expected), automaton \(got)")
                    }
                }
            }
        }
    }

    @Test("seeded plain grammar: the prefilter and its automata against every pattern run by the engine, end to end")
    func prefilterDifferential() {
        var choices = SeededChoices(seed: 0x9A1E)
        let grammar = PlainPatternGrammar(), subjects = PatternGrammar()
        let differential = PrefilterDifferential(engines: [PCRE2Engine(), FoundationEngine()])
        var tally = PrefilterDifferential.Tally()
        var found: [PrefilterDifferential.Disagreement] = []
        for _ in 0..<150 {
            let nodes = (0..<6).map { _ in grammar.pattern(&choices) }
            let texts = nodes.flatMap { subjects.subjects(for: $0, count: 5, &choices) }
            found += differential.compare(patterns: nodes.map(\.text), subjects: texts, tally: &tally)
        }
        #expect(found.prefix(10).map(\.description) == [])
        #expect(tally.matches > 1000)
    }

    @Test("a plain pattern's engine form is compiled on its first search, once, also when threads race to it")
    func deferredCompile() {
        let deferred = DeferredPattern("^/caf.$", compiler: .init(engine: PCRE2Engine(), options: Profile.hotwireIOS.regexOptions, limits: Limits()))
        #expect(!deferred.isCompiled)
        let outcomes = Locked([MatchOutcome]())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let outcome = deferred.search(MatchSubject("/café"))
            outcomes.withLock { $0.append(outcome) }
        }
        #expect(outcomes.withLock { $0 } == Array(repeating: .match, count: 8))
        #expect(deferred.isCompiled)
        #expect(deferred.search(MatchSubject("/cafés")) == .noMatch)
    }

    @Test("a subject the automaton may not decide goes to the engine: `$` before a final line break", arguments: [false, true])
    func lineBreakStepsAside(prefilter: Bool) throws {
        var options = LoadOptions(profile: .turboIOS)
        options.usePrefilter = prefilter
        options.limits.resultCacheCapacity = 0
        let config = try PathConfiguration(json: #"{"rules":[{"patterns":["/new$"],"properties":{"a":1}},{"patterns":["^/x.y$"],"properties":{"b":1}}]}"#,
                                           options: options)
        // ICU, Java and PCRE2 all let `$` match before a final "\n", and `.` refuses a line break.
        #expect(try config.matchingRules(for: "/posts/new\n").map(\.ruleIndex) == [0])
        #expect(try config.matchingRules(for: "/x\ny").map(\.ruleIndex) == [])
        #expect(try config.matchingRules(for: "/xéy").map(\.ruleIndex) == [1])
    }
}
