import Foundation
import PathConfiguration
@testable import PathConfigCore
import PrefilterFuzzing
import Synchronization
import Testing

/// The combined automaton (`PlanAutomaton`) against the plan's prefilter and
/// candidates (`LoadOptions.combinesPatterns` off), which the prefilter
/// suites compare with the engines: the same rules, by the same first
/// pattern, on every subject.
@Suite("Plan automaton")
struct PlanAutomatonTests {
    /// Each pattern's own automaton, rule by rule: the first pattern of each
    /// rule that occurs in `subject` (printable ASCII).
    static func oneByOne(_ rules: [[String]], _ subject: String, caseInsensitive: Bool) -> [RuleMatch] {
        var found: [RuleMatch] = []
        for (r, patterns) in rules.enumerated() {
            for (i, p) in patterns.enumerated() {
                let hit = MatchPlan.Pattern.matchesEverySubject(p)
                    || Array(subject.utf8).withUnsafeBufferPointer { SmallPattern(p, options: RegexOptions(caseInsensitive: caseInsensitive))!.matches($0) }
                if hit {
                    found.append(RuleMatch(ruleIndex: r, patternIndex: i))
                    break
                }
            }
        }
        return found
    }

    static func automaton(_ rules: [[String]], caseInsensitive: Bool, budget: Int? = nil, split: Bool = false) -> PlanAutomaton? {
        var members: [PlanAutomaton.Member] = []
        for (r, patterns) in rules.enumerated() {
            for (i, p) in patterns.enumerated() {
                members.append(PlanAutomaton.Member(rule: r, index: i, small: SmallPattern(p, options: RegexOptions(caseInsensitive: caseInsensitive)),
                                                    alwaysMatches: MatchPlan.Pattern.matchesEverySubject(p)))
            }
        }
        return PlanAutomaton(members, kind: .pattern, budget: budget, splitAbove: split ? 0 : PlanAutomaton.splitAbove)
    }

    static func run(_ a: PlanAutomaton, _ subject: String) -> [RuleMatch]? {
        withUnsafeTemporaryAllocation(of: RuleMatch.self, capacity: PlanAutomaton.mergedCapacity) { scratch in
            Array(subject.utf8).withUnsafeBufferPointer { a.matches($0, scratch: scratch).map(Array.init) }
        }
    }

    /// Anchors and empty matches: what a state knows before any byte, and
    /// what a `.*` that only pads a match leaves out.
    static let edgeRules: [[String]] = [
        ["^$"], ["^a*$"], ["x*$"], ["^"], ["$"], ["a?"], ["^(ab)?$"], [".*"], ["b.*"], [".*c"], [".*\\?.*k=[a-z]+.*"],
        ["^.*/new$"], ["(a|.*)b"], ["^/p/\\d+$", "/p/"], ["/z$", "^/"], ["a.*b.*c"],
    ]
    static let edgeSubjects = ["", "a", "aa", "ab", "b", "xc", "c", "/p?k=v", "?k=", "/p/12", "/p/x", "/new", "x/new", "/z", "acb", "abc",
                               "k=v?", "zzzb", "aab", "/p/1/new"]

    @Test("anchors, empty matches and padding: every rule as its own automaton decides it, both case modes, one part or two",
          arguments: [false, true], [false, true])
    func edges(caseInsensitive: Bool, split: Bool) throws {
        let a = try #require(Self.automaton(Self.edgeRules, caseInsensitive: caseInsensitive, split: split))
        for subject in Self.edgeSubjects + Self.edgeSubjects.map({ $0.uppercased() }) {
            #expect(Self.run(a, subject) == Self.oneByOne(Self.edgeRules, subject, caseInsensitive: caseInsensitive), "\(subject)")
        }
        #expect(a.usage.states > Self.edgeSubjects.count)
    }

    @Test("more rules matched by both parts than the merge holds: no answer from it, and the plan's own is right")
    func overflow() throws {
        let half = max(PlanAutomaton.mergedCapacity / 2, PlanAutomaton.splitAbove / 2) + 4
        let rules = (0..<half).flatMap { _ in [["^/"], ["/a"]] }
        let a = try #require(Self.automaton(rules, caseInsensitive: false))
        #expect(Self.run(a, "/a") == nil)
        #expect(Self.run(a, "/b") == Self.oneByOne(rules, "/b", caseInsensitive: false))
        let config = try PathConfiguration(json: Self.document(rules), options: LoadOptions(profile: .turboIOS))
        var off = LoadOptions(profile: .turboIOS)
        off.combinesPatterns = false
        let reference = try PathConfiguration(json: Self.document(rules), options: off)
        #expect(try config.matchingRules(for: "/a").count == 2 * half)
        #expect(try config.resolve("/a").json == reference.resolve("/a").json)
    }

    @Test("a plan with a pattern that is not plain, or with too many patterns, gets none")
    func eligibility() {
        #expect(Self.automaton([["/a$"], ["(?=x)y"]], caseInsensitive: false) == nil)
        #expect(Self.automaton([["/a$"], ["[[:alpha:]]"]], caseInsensitive: false) == nil)
        #expect(Self.automaton([], caseInsensitive: false) == nil)
        #expect(Self.automaton(Array(repeating: ["/a$"], count: PlanAutomaton.maxPatterns), caseInsensitive: false) != nil)
        #expect(Self.automaton(Array(repeating: ["/a$"], count: PlanAutomaton.maxPatterns + 1), caseInsensitive: false) == nil)
    }

    @Test("once its budget is spent it makes no state: a subject that needs one gets nil, a known one its answer",
          arguments: [false, true])
    func budget(split: Bool) throws {
        let rules = [["/posts/\\d+/edit$"], ["^/users/[a-z]+$"], ["/new$"], ["\\?.*page=\\d+"]]
        let a = try #require(Self.automaton(rules, caseInsensitive: false, budget: 3_000, split: split))
        let known = "/new"
        #expect(Self.run(a, known) == Self.oneByOne(rules, known, caseInsensitive: false))
        #expect(a.isGrowing)
        var refused = 0
        for subject in ["/posts/12/edit", "/users/ann", "/x?page=3", "/posts/9/edit?page=1", "/users/b/new"] {
            if let got = Self.run(a, subject) {
                #expect(got == Self.oneByOne(rules, subject, caseInsensitive: false), "\(subject)")
            } else {
                refused += 1
            }
        }
        #expect(refused > 0)
        #expect(!a.isGrowing)
        #expect(a.usage.bytes <= 2 * 3_000)  // each part its own budget
        #expect(Self.run(a, known) == Self.oneByOne(rules, known, caseInsensitive: false))  // its states still answer
    }

    @Test("seeded plain grammar, one part and two: every rule as its own automaton decides it, both case modes",
          arguments: [false, true], [false, true])
    func seededParts(caseInsensitive: Bool, split: Bool) throws {
        var choices = SeededChoices(seed: 0x2_9A7 &+ (caseInsensitive ? 1 : 0))
        let grammar = PlainPatternGrammar(), subjects = PatternGrammar()
        var compared = 0, matched = 0
        var disagreements: [String] = []
        for _ in 0..<60 {
            var rules: [[String]] = []
            var nodes: [PatternNode] = []
            for _ in 0..<(2 + choices.below(12)) {
                var patterns: [String] = []
                while patterns.count < 1 + choices.below(3) {
                    let node = grammar.pattern(&choices)
                    guard SmallPattern(node.text, options: RegexOptions(caseInsensitive: caseInsensitive)) != nil else { continue }
                    patterns.append(node.text)
                    nodes.append(node)
                }
                rules.append(patterns)
            }
            let a = try #require(Self.automaton(rules, caseInsensitive: caseInsensitive, split: split))
            for node in nodes {
                for text in subjects.subjects(for: node, count: 4, &choices) where text.utf8.allSatisfy(ByteSet.isPrintable) {
                    let expected = Self.oneByOne(rules, text, caseInsensitive: caseInsensitive)
                    let got = Self.run(a, text)
                    compared += 1
                    matched += expected.count
                    if got != expected { disagreements.append("\(rules) on \(text): \(String(describing: got)) against \(expected)") }
                }
            }
        }
        #expect(disagreements.prefix(5) == [])
        #expect(compared > 1_000 && matched > compared)
    }

    /// What comparing plans with the automaton and without found.
    struct Comparison {
        var compared = 0, matched = 0, combined = 0
        var disagreements: [String] = []

        /// Loads `rules` with the automaton and without, under `profile`,
        /// and compares `explain` (rules, their first patterns, searches out
        /// of budget) on subjects built for each pattern.
        mutating func add(_ rules: [[PatternNode]], profile: Profile, _ choices: inout SeededChoices) throws {
            let json = PlanAutomatonTests.document(rules.map { $0.map(\.text) })
            var on = LoadOptions(profile: profile, lenient: true)
            on.limits.resultCacheCapacity = 0
            var off = on
            off.combinesPatterns = false
            let a = try PathConfiguration(json: json, options: on), b = try PathConfiguration(json: json, options: off)
            if a.patternPlan.automaton != nil { combined += 1 }
            for node in rules.joined() {
                for text in PatternGrammar().subjects(for: node, count: 3, &choices) {
                    let input = a.matchedString(for: text) == text ? text : "/" + text
                    let x = try a.explain(input), y = try b.explain(input)
                    compared += 1
                    matched += y.rules.count
                    if x.rules.map(\.index) != y.rules.map(\.index) || x.rules.map(\.patternIndex) != y.rules.map(\.patternIndex)
                        || x.limitExceeded != y.limitExceeded {
                        disagreements.append("\(rules.map { $0.map(\.text) }) on \(input)")
                    }
                }
            }
        }
    }

    @Test("seeded plain grammar, rules of one to three patterns: the automaton finds each rule by the candidates' first pattern",
          arguments: [Profile.hotwireIOS, .hotwireAndroid])
    func seeded(_ profile: Profile) throws {
        var choices = SeededChoices(seed: 0xA17_0DFA)
        let grammar = PlainPatternGrammar()
        var comparison = Comparison()
        for _ in 0..<120 {
            // Plain patterns only (the grammar mixes in others).
            func plain() -> PatternNode {
                while true {
                    let node = grammar.pattern(&choices)
                    if SmallPattern(node.text, options: profile.regexOptions) != nil { return node }
                }
            }
            let rules = (0..<(2 + choices.below(8))).map { _ in (0..<(1 + choices.below(3))).map { _ in plain() } }
            try comparison.add(rules, profile: profile, &choices)
        }
        #expect(comparison.disagreements.prefix(5) == [])
        // Not vacuous: engines reject few plain patterns, and subjects match often.
        #expect(comparison.combined > 100)
        #expect(comparison.matched > comparison.compared / 2)
    }

    @Test("a plan with patterns that are not plain: the automaton for the plain ones and the others' literals, those searched after it",
          arguments: [Profile.hotwireIOS, .hotwireAndroid])
    func mixed(_ profile: Profile) throws {
        var choices = SeededChoices(seed: 0x3_1CED)
        let grammar = PlainPatternGrammar()
        var comparison = Comparison()
        var mixedPlans = 0
        for _ in 0..<150 {
            // The grammar mixes in patterns that are not plain, one atom in some 80.
            let rules = (0..<(2 + choices.below(8))).map { _ in (0..<(1 + choices.below(3))).map { _ in grammar.pattern(&choices) } }
            let plain = rules.joined().filter { SmallPattern($0.text, options: profile.regexOptions) != nil }.count
            if plain > 0 && plain < rules.joined().count { mixedPlans += 1 }
            try comparison.add(rules, profile: profile, &choices)
        }
        #expect(comparison.disagreements.prefix(5) == [])
        #expect(mixedPlans > 30)
        #expect(comparison.matched > comparison.compared / 2)
    }

    @Test("a literal the automaton carries only in part, or that no printable subject holds, still finds its pattern's matches",
          arguments: [Profile.turboIOS, .hotwireAndroid])
    func restLiterals(_ profile: Profile) throws {
        // Required literals: "x y" (read up to its space), "zz\u{E9}" (a byte no printable subject holds),
        // "q_q" (escaped), and none (an alternation of lookaheads).
        let json = Self.document([["^/a$"], ["(?=x)x y"], ["(?=z)zz\u{E9}"], ["(?=q)q_q"], ["(?=b)b|(?=c)c"]])
        let on = LoadOptions(profile: profile)
        var off = on
        off.combinesPatterns = false
        let a = try PathConfiguration(json: json, options: on), b = try PathConfiguration(json: json, options: off)
        #expect(a.patternPlan.automaton != nil && b.patternPlan.automaton == nil)
        var matched: Set<Int> = []
        for subject in ["/a", "/x y", "/x%20y", "/x", "/zz\u{E9}", "/zz", "/q_q", "/Q_Q", "/c", "/x y/q_q/b", "/a?x y"] {
            let x = try a.matchingRules(for: subject), y = try b.matchingRules(for: subject)
            #expect(x == y, "\(subject)")
            matched.formUnion(y.map(\.ruleIndex))
        }
        #expect(matched.isSuperset(of: [0, 1, 3, 4]))  // not vacuous
    }

    @Test("a search out of budget is reported where the apps' loop runs it, and not after its rule is decided", arguments: [false, true])
    func mixedBudget(_ combined: Bool) throws {
        // `(?:a+)+(?=b)` is not plain (a lookahead) and backtracks past a small match limit on a run of `a`s.
        let json = Self.document([["(?:a+)+(?=b)", "/a"], ["/a", "(?:a+)+(?=b)"], ["^/x$"], ["(?:a+)+(?=b)"]])
        var options = LoadOptions(profile: .turboIOS)
        options.limits.matchLimit = 1_000
        options.combinesPatterns = combined
        let config = try PathConfiguration(json: json, options: options)
        #expect((config.patternPlan.automaton != nil) == combined)
        let explained = try config.explain("/" + String(repeating: "a", count: 40))
        #expect(explained.rules.map(\.index) == [0, 1])
        #expect(explained.rules.map(\.patternIndex) == [1, 0])
        #expect(explained.limitExceeded.map(\.ruleIndex) == [0, 3])  // rule 1's second pattern never runs
        #expect(explained.limitExceeded.map(\.patternIndex) == [0, 0])
    }

    @Test("the benchmark corpora: the automaton and the candidates agree on every URL, by rule and pattern",
          arguments: [("10", 10_000), ("100", 10_000), ("1000", 4_000)])
    func corpora(_ corpus: (String, Int)) throws {
        let bench = Conformance.repositoryRoot + "/bench/corpora/"
        let json = try Conformance.readFile(bench + "rules-\(corpus.0).json")
        let urls = String(decoding: try Conformance.readFile(bench + "urls-\(corpus.0).txt"), as: UTF8.self)
            .split(separator: "\n").prefix(corpus.1).map(String.init)
        var on = LoadOptions(profile: .turboIOS, matchQueryStrings: true)
        on.limits.resultCacheCapacity = 0
        var off = on
        off.combinesPatterns = false
        let a = try PathConfiguration(json: json, options: on), b = try PathConfiguration(json: json, options: off)
        var mismatches: [String] = []
        for url in urls {
            let x = try a.matchingRules(for: url), y = try b.matchingRules(for: url)
            if x != y { mismatches.append("\(url): \(x) against \(y)") }
            if try a.resolve(url).json != b.resolve(url).json { mismatches.append("\(url): results differ") }
        }
        #expect(mismatches.prefix(3) == [])
        let automaton = try #require(a.patternPlan.automaton)
        #expect(automaton.usage.states > 50)
        #expect(b.patternPlan.automaton == nil)
    }

    @Test("threads making states at once get the answers one thread gets")
    func threads() throws {
        let bench = Conformance.repositoryRoot + "/bench/corpora/"
        let json = try Conformance.readFile(bench + "rules-100.json")
        let urls = String(decoding: try Conformance.readFile(bench + "urls-100.txt"), as: UTF8.self)
            .split(separator: "\n").prefix(2_000).map(String.init)
        var options = LoadOptions(profile: .turboIOS, matchQueryStrings: true)
        options.limits.resultCacheCapacity = 0
        var off = options
        off.combinesPatterns = false
        let reference = try PathConfiguration(json: json, options: off)
        let expected = try urls.map { try reference.matchingRules(for: $0) }
        let shared = try PathConfiguration(json: json, options: options)
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for k in urls.indices {
                let i = (k + t * 250) % urls.count  // each thread from its own place, so that they make states at once
                if (try? shared.matchingRules(for: urls[i])) != expected[i] { wrong.add(1, ordering: .relaxed) }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(try #require(shared.patternPlan.automaton).usage.states > 100)
    }

    /// A configuration document of `rules`, each a list of patterns.
    static func document(_ rules: [[String]]) -> String {
        let body = rules.enumerated().map { r, patterns in
            let list = patterns.map { String(decoding: try! JSONSerialization.data(withJSONObject: $0, options: .fragmentsAllowed), as: UTF8.self) }
            return "{\"patterns\":[\(list.joined(separator: ","))],\"properties\":{\"rule\":\(r)}}"
        }
        return "{\"rules\":[\(body.joined(separator: ","))]}"
    }
}
