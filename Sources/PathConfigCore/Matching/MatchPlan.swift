/// One rule that matched, and what of it matched first.
public struct RuleMatch: Sendable, Hashable {
    /// What kind of matcher decided the rule.
    public enum Kind: String, Sendable, Hashable {
        /// One of its regular-expression `patterns`.
        case pattern
        /// One of its `globs`.
        case glob
        /// Its host predicate (a rule added from code without a matching
        /// pattern or glob).
        case predicate
    }

    /// Index of the rule in the configuration's ordered rules.
    public let ruleIndex: Int
    /// Index of the matching pattern (or glob) within the rule; 0 for a predicate.
    public let patternIndex: Int
    /// Whether `patternIndex` counts `patterns` or `globs`, or a predicate decided.
    public let kind: Kind

    /// Creates a match.
    public init(ruleIndex: Int, patternIndex: Int, kind: Kind = .pattern) {
        self.ruleIndex = ruleIndex
        self.patternIndex = patternIndex
        self.kind = kind
    }
}

/// What running the plan over one subject found.
package struct PlanResult {
    /// Matching rules, in rule order.
    package var matches: [RuleMatch] = []
    /// Patterns whose search ran out of its budget (counted as no match).
    package var limitExceeded: [RuleMatch] = []

    /// The rules matched by this result's patterns or `globs`' globs, in rule
    /// order; a rule both match is decided by its pattern (patterns come first).
    package func union(globs: PlanResult) -> PlanResult {
        var out = PlanResult()
        out.matches.reserveCapacity(matches.count + globs.matches.count)
        var i = 0, j = 0
        while i < matches.count || j < globs.matches.count {
            if j == globs.matches.count || (i < matches.count && matches[i].ruleIndex <= globs.matches[j].ruleIndex) {
                if j < globs.matches.count, globs.matches[j].ruleIndex == matches[i].ruleIndex { j += 1 }
                out.matches.append(matches[i]); i += 1
            } else {
                out.matches.append(globs.matches[j]); j += 1
            }
        }
        out.limitExceeded = (limitExceeded + globs.limitExceeded).sorted { ($0.ruleIndex, $0.kind == .glob ? 1 : 0) < ($1.ruleIndex, $1.kind == .glob ? 1 : 0) }
        return out
    }
}

/// Every compiled pattern of every rule, with a prefilter that decides which
/// of them can possibly match a subject.
///
/// Most patterns have a required literal (`/comments/` in
/// `^/posts/\d+/comments/\d+$`). One Aho–Corasick pass over the subject finds
/// which literals occur; only patterns whose literal occurs, plus the few
/// without one, reach the regex engine. Candidates run in rule order and a
/// rule's first matching pattern decides it, so the result is exactly that
/// of trying every pattern (the tests compare both on the benchmark corpora
/// and on fuzzed patterns, `PrefilterFuzzTests`).
package struct MatchPlan: Sendable {
    package struct Pattern: Sendable {
        package let index: Int
        let compiled: any CompiledPattern
        /// True when the pattern matches every subject, so the engine need
        /// not run (see `matchesEverySubject`).
        let alwaysMatches: Bool
        /// The pattern as an automaton that decides printable ASCII subjects
        /// without the engine (nil when it is not plain, or the plan runs
        /// every pattern through its engine as the apps do).
        let small: SmallPattern?

        package init(index: Int, compiled: any CompiledPattern, source: String? = nil, small: SmallPattern? = nil) {
            self.index = index
            self.compiled = compiled
            self.alwaysMatches = source.map(Self.matchesEverySubject) ?? false
            self.small = small
        }

        /// Patterns that match every string, in ICU, Java and PCRE2 alike, with
        /// or without case folding, found by their exact text: each can match
        /// the empty string at the start (`""`, `.*`, `^`, `^.*`) or at the end
        /// (`$`, `.*$`) of any subject. (`^.*$` is not among them: without
        /// multiline mode it fails on a subject with a line break inside.)
        /// Real configurations start with `.*`: this spares every lookup a search.
        package static func matchesEverySubject(_ pattern: String) -> Bool {
            switch pattern {
            case "", ".*", "^", "^.*", "$", ".*$": return true
            default: return false
            }
        }

        /// Whether an automaton decides it on printable ASCII subjects: it is
        /// plain, or matches every subject.
        var isPlain: Bool { small != nil || alwaysMatches }

        /// The outcome of searching `subject` (as the plan's loop decides it).
        package func search(_ subject: MatchSubject) -> MatchOutcome {
            subject.withText { Slot(rule: -1, self).search($0) { subject } }
        }
    }

    /// Every compiled pattern with its rule, in rule order then position
    /// (patterns rejected under `lenient` are absent). A pattern's place in
    /// this list is its ordinal, the bit that stands for it in a candidate set.
    private let slots: ContiguousArray<Slot>
    /// The patterns, kept alive for `slots`' unowned references.
    private let patterns: ContiguousArray<Pattern>
    /// What the plan's patterns are: a rule's `patterns` or its `globs`.
    let kind: RuleMatch.Kind
    private let prefilter: Prefilter?
    /// Where the plan has an automaton, the prefilter's literal matcher,
    /// made on the first scan (`DeferredLiteralMatcher`; the prefilter's own
    /// is then empty). Outside `Prefilter`, which a lookup reads in place:
    /// inside, it made the optimizer copy the whole prefilter on every
    /// lookup (250 instructions at 10,000 rules).
    private let deferredMatcher: DeferredLiteralMatcher?
    /// The plain patterns in one automaton (`PlanAutomaton`), with `rest`:
    /// what decides a printable ASCII subject before the prefilter (nil
    /// without the prefilter, or when no pattern is plain).
    package let automaton: PlanAutomaton?
    /// With `automaton`, the patterns that are not plain, in ordinal order
    /// (nil when all are plain): searched after it, each only where its
    /// required literal occurs (which the automaton tells) and its rule is
    /// not decided by an earlier pattern.
    let rest: [RestPattern]?
    /// The number of rules: the automaton's rules from here on stand for
    /// the required literals of `rest` (`RestPattern.Candidacy.literal`).
    private let ruleCount: Int

    /// A pattern that is not plain, as a plan with an automaton runs it.
    struct RestPattern: Sendable {
        let ordinal: Int
        let candidacy: Candidacy

        enum Candidacy: Sendable {
            /// No required literal (or none the automaton can read): searched always.
            case always
            /// Searched when the automaton found the pseudo-rule of this
            /// number: its required literal (or the literal's first bytes)
            /// as a plain pattern.
            case literal(rule: Int)
        }
    }

    /// A pattern as the search loop reads it: plain data and references
    /// that do not count (the plan owns the pattern through `patterns`), so
    /// that reading a slot costs no reference-count traffic.
    private struct Slot: @unchecked Sendable {
        let rule: Int
        let index: Int
        let alwaysMatches: Bool
        unowned(unsafe) let compiled: any CompiledPattern
        /// Unmanaged rather than `unowned(unsafe)`: binding one of those to a
        /// local retains it, and every thread shares these objects.
        let small: Unmanaged<SmallPattern>?

        init(rule: Int, _ pattern: Pattern) {
            self.rule = rule
            index = pattern.index
            alwaysMatches = pattern.alwaysMatches
            compiled = pattern.compiled
            small = pattern.small.map(Unmanaged.passUnretained)
        }

        /// The outcome of searching the subject whose bytes are `text`: no
        /// search for a pattern that matches every subject, the automaton
        /// where it may decide, the engine otherwise, given the subject
        /// itself, made by `subject()` only then. Retains nothing.
        @inline(__always)
        func search(_ text: SubjectText, _ subject: () -> MatchSubject) -> MatchOutcome {
            if alwaysMatches { return .match }
            #if PATHCONFIG_ABLATE_SMALLPATTERN
            let small: Unmanaged<SmallPattern>? = nil  // make bench-ablation: the layer off
            #endif
            if let small, text.isPrintableASCII {
                return small._withUnsafeGuaranteedRef { $0.matches(text.bytes) } ? .match : .noMatch
            }
            return compiled.search(subject())
        }
    }

    private struct Prefilter: Sendable {
        /// The literals' matcher, made at load where every lookup scans
        /// (empty where the plan has `deferredMatcher`).
        let matcher: LiteralMatcher
        /// For each literal `id`, the ordinals of the patterns that require
        /// it: `ordinals[ordinalStarts[id]..<ordinalStarts[id + 1]]` (one
        /// array, so that reading a literal's list counts no reference).
        let ordinalStarts: [Int32]
        let ordinals: [Int32]
        /// Words in a candidate set: one bit per ordinal.
        let wordCount: Int
        /// The candidate set every lookup starts from, the patterns without a
        /// required literal: its nonzero words, as (index, bits).
        let unfiltered: [(word: Int, bits: UInt64)]
        let caseInsensitive: Bool
    }

    /// Builds the plan; `literals[r][s]` is the required literal of
    /// `patternsByRule[r][s]` (nil when it has none). Without `usePrefilter`
    /// every pattern runs on every lookup, as the reference apps do; without
    /// `combinesPatterns` the plan makes no `PlanAutomaton` (for tests that
    /// compare the two).
    package init(patternsByRule: [[Pattern]], literals: [[[UInt8]?]], caseInsensitive: Bool, usePrefilter: Bool, kind: RuleMatch.Kind = .pattern,
         combinesPatterns: Bool = true) {
        // Both lists at their exact size: grown by appending, they took up
        // to twice what they hold, for as long as the plan lives.
        let total = patternsByRule.reduce(0) { $0 + $1.count }
        var slots = ContiguousArray<Slot>(), all = ContiguousArray<Pattern>()
        slots.reserveCapacity(total)
        all.reserveCapacity(total)
        for (r, patterns) in patternsByRule.enumerated() {
            for p in patterns {
                slots.append(Slot(rule: r, p))
                all.append(p)
            }
        }
        self.slots = slots
        self.patterns = all
        self.kind = kind
        ruleCount = patternsByRule.count
        (automaton, rest) = usePrefilter && combinesPatterns
            ? Self.combined(patternsByRule, literals: Array(literals.joined()), caseInsensitive: caseInsensitive, kind: kind) : (nil, nil)
        guard usePrefilter else { (prefilter, deferredMatcher) = (nil, nil); return }
        #if PATHCONFIG_ABLATE_PREFILTER
        (prefilter, deferredMatcher) = (nil, nil); return  // make bench-ablation: the layer off
        #endif
        // Each literal's id (in order of first use) and how many patterns
        // require it; then each literal's patterns, in ordinal order, in one
        // list (a list per literal, grown as found, cost a small array each).
        var ids: [LiteralKey: Int32] = [:]
        var distinct: [[UInt8]] = []
        var counts: [Int32] = []
        var idOfOrdinal = [Int32](repeating: -1, count: slots.count)
        var unfiltered = [UInt64](repeating: 0, count: (slots.count + 63) / 64)
        for (ordinal, literal) in literals.joined().enumerated() {
            guard let literal else { unfiltered[ordinal >> 6] |= 1 << UInt64(ordinal & 63); continue }
            let id = ids[LiteralKey(bytes: literal)] ?? Int32(distinct.count)
            if Int(id) == distinct.count {
                ids[LiteralKey(bytes: literal)] = id
                distinct.append(literal)
                counts.append(0)
            }
            counts[Int(id)] += 1
            idOfOrdinal[ordinal] = id
        }
        ids = [:]
        guard !distinct.isEmpty else { (prefilter, deferredMatcher) = (nil, nil); return }
        var ordinalStarts: [Int32] = [0]
        ordinalStarts.reserveCapacity(counts.count + 1)
        for count in counts { ordinalStarts.append(ordinalStarts.last! + count) }
        var ordinals = [Int32](repeating: 0, count: Int(ordinalStarts.last!))
        var next = ordinalStarts
        for (ordinal, id) in idOfOrdinal.enumerated() where id >= 0 {
            ordinals[Int(next[Int(id)])] = Int32(ordinal)
            next[Int(id)] += 1
        }
        deferredMatcher = automaton == nil ? nil : DeferredLiteralMatcher(distinct)
        prefilter = Prefilter(matcher: LiteralMatcher(automaton == nil ? distinct : []), ordinalStarts: ordinalStarts, ordinals: ordinals,
                              wordCount: unfiltered.count,
                              unfiltered: unfiltered.enumerated().filter { $0.element != 0 }.map { (word: $0.offset, bits: $0.element) },
                              caseInsensitive: caseInsensitive)
    }

    /// Whether the prefilter's literal matcher has been made (nil without a
    /// prefilter; for tests).
    var literalMatcherIsMade: Bool? { prefilter == nil ? nil : deferredMatcher?.isMade ?? true }

    /// True when the plan has no pattern: it matches nothing.
    var isEmpty: Bool { slots.isEmpty }

    /// The rules whose patterns match `subject`, the string made ready for
    /// an engine only if one runs.
    func run(_ subject: String) -> PlanResult {
        var result = PlanResult()
        result.matches.reserveCapacity(8)  // one allocation for the usual few matches
        run(.string(subject), reportingTo: &result)
        return result
    }

    /// The automaton of the plan's plain patterns, which also carries the
    /// required literals of the others (`literals`, by ordinal), and those
    /// others (nil when all are plain); no automaton when no pattern is
    /// plain (it would only find literals) or there are too many. Made only
    /// when the plan combines its patterns: nothing here is read otherwise.
    private static func combined(_ patternsByRule: [[Pattern]], literals: [[UInt8]?], caseInsensitive: Bool,
                                 kind: RuleMatch.Kind) -> (automaton: PlanAutomaton?, rest: [RestPattern]?) {
        #if PATHCONFIG_ABLATE_AUTOMATON
        return (nil, nil)  // make bench-ablation: the layer off
        #endif
        let plain = patternsByRule.joined().count(where: \.isPlain)
        guard plain > 0, plain <= PlanAutomaton.maxPatterns else { return (nil, nil) }
        var members: [PlanAutomaton.Member] = []
        var rest: [RestPattern] = []
        var literalMembers: [PlanAutomaton.Member] = []  // after every rule's own: the automaton lists members in rule order
        var ordinal = 0
        for (r, patterns) in patternsByRule.enumerated() {
            for p in patterns {
                defer { ordinal += 1 }
                if p.isPlain {
                    members.append(PlanAutomaton.Member(rule: r, index: p.index, small: p.small, alwaysMatches: p.alwaysMatches))
                    continue
                }
                let rule = patternsByRule.count + rest.count
                let (candidacy, small) = literalCandidacy(literals[ordinal], rule: rule, caseInsensitive: caseInsensitive)
                rest.append(RestPattern(ordinal: ordinal, candidacy: candidacy))
                if let small { literalMembers.append(PlanAutomaton.Member(rule: rule, index: 0, small: small, alwaysMatches: false)) }
            }
        }
        guard let automaton = PlanAutomaton(members + literalMembers, kind: kind) else { return (nil, nil) }
        return (automaton, rest.isEmpty ? nil : rest)
    }

    /// When a pattern that is not plain, requiring `literal`, is searched:
    /// where the automaton finds pseudo-rule `rule`, the literal as a plain
    /// pattern that occurs wherever it does (returned too): its bytes, each
    /// standing for itself or escaped (letters of both cases under
    /// `caseInsensitive`, as the prefilter folds them), up to the first byte
    /// the reader takes neither way or `SmallPatternReader.maxPositions` (a
    /// prefix occurs wherever the literal does); always without a literal,
    /// or when its first byte cannot be written so.
    private static func literalCandidacy(_ literal: [UInt8]?, rule: Int, caseInsensitive: Bool) -> (RestPattern.Candidacy, SmallPattern?) {
        guard let literal else { return (.always, nil) }
        var text = ""
        for b in literal.prefix(SmallPatternReader.maxPositions) {
            if ByteSet.standsForItself(b) {
                text.unicodeScalars.append(Unicode.Scalar(b))
            } else if ByteSet.escapable.contains(b) {
                text += "\\" + String(Unicode.Scalar(b))
            } else {
                break
            }
        }
        guard !text.isEmpty, let small = SmallPattern(text, options: RegexOptions(caseInsensitive: caseInsensitive)) else { return (.always, nil) }
        return (.literal(rule: rule), small)
    }

    /// The rules whose patterns match `bytes`, printable ASCII, as the
    /// plan's automaton finds them (valid as long as the plan and
    /// `scratch`: `PlanAutomaton.matches`), or nil when it has none, some
    /// patterns are not plain, or it cannot answer: then `run` does.
    @inline(__always)
    func automatonMatches(_ bytes: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableBufferPointer<RuleMatch>) -> UnsafeBufferPointer<RuleMatch>? {
        guard rest == nil else { return nil }  // its answer is not the whole answer
        return automaton?.matches(bytes, scratch: scratch)
    }

    /// The rules whose patterns match `subject`, reported to `sink` (a
    /// lookup's `BufferedMatches` on its stack, or a `PlanResult`).
    func run<Sink: MatchSink>(_ subject: PatternSubject, reportingTo sink: inout Sink) {
        switch subject {
        case .string(let string):
            var text = string
            text.withUTF8 { bytes in  // in place for a native string
                run(SubjectText(bytes: bytes, isPrintableASCII: ByteSet.allPrintable(bytes)), into: &sink, string: { string })
            }
        case .printableASCII(let bytes):
            run(SubjectText(bytes: bytes, isPrintableASCII: true), into: &sink) { String(decoding: bytes, as: UTF8.self) }
        }
    }

    /// `run(_:into:)` of the string whose valid UTF-8 is `text`, made as a
    /// `String` only if an engine must run (`string()`).
    func run<Sink: MatchSink>(_ text: SubjectText, into sink: inout Sink, string: () -> String) {
        var made: MatchSubject?
        run(text, into: &sink) {
            if let made { return made }
            let subject = MatchSubject(string())
            made = subject
            return subject
        }
    }

    /// The run over a subject's bytes, reported to `sink`; `subject()` gives
    /// the subject itself, for the engine.
    private func run<Sink: MatchSink>(_ text: SubjectText, into sink: inout Sink, _ subject: () -> MatchSubject) {
        if text.isPrintableASCII, let automaton {
            let answered = withUnsafeTemporaryAllocation(of: RuleMatch.self, capacity: PlanAutomaton.mergedCapacity) { scratch in
                guard let found = automaton.matches(text.bytes, scratch: scratch) else { return false }
                if let rest {
                    runRest(rest, text, found, into: &sink, subject)
                } else {
                    for m in found { sink.matched(m) }
                }
                return true
            }
            if answered { return }
        }
        guard let prefilter else { return runAll(text, into: &sink, subject) }
        // Case folding can turn characters beyond ASCII into ASCII text (the
        // Kelvin sign matches `k`, `ß` "ss"): under case-insensitive matching
        // the scan reads a subject that holds such characters with each
        // written as that text.
        let folded = prefilter.caseInsensitive ? CaseFolding.foldedOntoASCII(text.bytes) : nil
        // The candidate set lives in the thread's scratch: one bit per
        // pattern, and a summary with one bit per nonzero word, so that a
        // lookup touches only the words it sets, whatever the plan's size.
        // Both are all zero between runs: the loop below clears what it reads.
        let set = MatchScratch.withCurrent { $0.candidateSet(words: prefilter.wordCount) }
        let candidates = set.words, summary = set.summary
        @inline(__always) func add(_ word: Int, _ bits: UInt64) {
            candidates[word] |= bits
            summary[word >> 6] |= 1 << UInt64(word & 63)
        }
        for (word, bits) in prefilter.unfiltered { add(word, bits) }
        prefilter.ordinalStarts.withUnsafeBufferPointer { starts in
            prefilter.ordinals.withUnsafeBufferPointer { ordinals in
                @inline(__always) func found(_ id: Int) {
                    for k in Int(starts[id])..<Int(starts[id + 1]) {
                        let o = Int(ordinals[k])
                        add(o >> 6, 1 << UInt64(o & 63))
                    }
                }
                @inline(__always) func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
                    if let deferredMatcher {
                        deferredMatcher.scan(bytes, fold: prefilter.caseInsensitive) { found($0) }
                    } else {
                        prefilter.matcher.scan(bytes, fold: prefilter.caseInsensitive) { found($0) }
                    }
                }
                if let folded { folded.withUnsafeBufferPointer { scan($0) } } else { scan(text.bytes) }
            }
        }
        var decidedRule = -1
        // Slots are read in place through the buffer, never copied: a copy
        // would retain and release every reference a pattern holds. Walking
        // the bits in order visits candidates in rule order.
        slots.withUnsafeBufferPointer { slots in
            for s in 0..<set.summaryCount {
                var nonzero = summary[s]
                summary[s] = 0
                while nonzero != 0 {
                    let w = s << 6 | nonzero.trailingZeroBitCount
                    nonzero &= nonzero - 1
                    var bits = candidates[w]
                    candidates[w] = 0
                    while bits != 0 {
                        let ordinal = w << 6 | bits.trailingZeroBitCount
                        bits &= bits - 1
                        if slots[ordinal].rule == decidedRule { continue }
                        if record(slots[ordinal].search(text, subject), slots[ordinal], into: &sink) { decidedRule = slots[ordinal].rule }
                    }
                }
            }
        }
    }

    /// Reports to `sink` the rules the automaton `found` and those of the
    /// patterns in `rest`, in rule order. `found` lists the rules its plain
    /// patterns decide (by their first), then the pseudo-rules of the
    /// required literals that occur. A pattern of `rest` is searched, in
    /// ordinal order, where its literal occurs, unless its rule was decided
    /// by an earlier pattern (the apps' loop never reaches it); a match
    /// replaces the automaton's for its rule. So the rules, their first
    /// patterns and the searches out of budget are the candidates' own.
    private func runRest<Sink: MatchSink>(_ rest: [RestPattern], _ text: SubjectText, _ found: UnsafeBufferPointer<RuleMatch>,
                                          into sink: inout Sink, _ subject: () -> MatchSubject) {
        var decidedCount = 0
        while decidedCount < found.count && found[decidedCount].ruleIndex < ruleCount { decidedCount += 1 }
        var next = 0, literal = decidedCount  // the first of the decided rules not yet reported; of the literals not yet passed
        var decidedRule = -1
        slots.withUnsafeBufferPointer { slots in
            for r in rest {
                switch r.candidacy {
                case .always: break
                case .literal(let rule):
                    while literal < found.count && found[literal].ruleIndex < rule { literal += 1 }
                    guard literal < found.count && found[literal].ruleIndex == rule else { continue }
                }
                let slot = slots[r.ordinal]
                while next < decidedCount && found[next].ruleIndex < slot.rule {
                    sink.matched(found[next])
                    next += 1
                }
                if slot.rule == decidedRule { continue }
                let automatonDecides = next < decidedCount && found[next].ruleIndex == slot.rule
                if automatonDecides && found[next].patternIndex < slot.index { continue }
                if record(slot.search(text, subject), slot, into: &sink) {
                    decidedRule = slot.rule
                    if automatonDecides { next += 1 }  // replaced by this earlier pattern
                }
            }
        }
        while next < decidedCount {
            sink.matched(found[next])
            next += 1
        }
    }

    /// Tries every pattern of every rule, in order; a rule's first match decides it.
    private func runAll<Sink: MatchSink>(_ text: SubjectText, into sink: inout Sink, _ subject: () -> MatchSubject) {
        var decidedRule = -1
        slots.withUnsafeBufferPointer { slots in
            for ordinal in slots.indices where slots[ordinal].rule != decidedRule {
                if record(slots[ordinal].search(text, subject), slots[ordinal], into: &sink) { decidedRule = slots[ordinal].rule }
            }
        }
    }

    /// Records the outcome of `slot`'s search: a match (true: its rule is
    /// decided) or a search that ran out of its budget.
    @inline(__always)
    private func record<Sink: MatchSink>(_ outcome: MatchOutcome, _ slot: Slot, into sink: inout Sink) -> Bool {
        switch outcome {
        case .match:
            sink.matched(RuleMatch(ruleIndex: slot.rule, patternIndex: slot.index, kind: kind))
            return true
        case .noMatch:
            return false
        case .limitExceeded:
            sink.ranOutOfBudget(RuleMatch(ruleIndex: slot.rule, patternIndex: slot.index, kind: kind))
            return false
        }
    }
}

/// Where a plan's run reports what it finds, in rule order.
protocol MatchSink {
    /// A rule's pattern matched (its rule is decided).
    mutating func matched(_ match: RuleMatch)
    /// A pattern's search ran out of its budget (counted as no match).
    mutating func ranOutOfBudget(_ match: RuleMatch)
}

extension PlanResult: MatchSink {
    mutating func matched(_ match: RuleMatch) { matches.append(match) }
    mutating func ranOutOfBudget(_ match: RuleMatch) { limitExceeded.append(match) }
}

/// The matches of a run, in a buffer the caller lends (on its stack: no
/// allocation); searches out of budget are dropped, as a lookup's result
/// ignores them. `overflowed` when more rules matched than it holds.
struct BufferedMatches: MatchSink {
    private let buffer: UnsafeMutableBufferPointer<RuleMatch>
    private(set) var count = 0
    private(set) var overflowed = false

    init(_ buffer: UnsafeMutableBufferPointer<RuleMatch>) { self.buffer = buffer }

    mutating func matched(_ match: RuleMatch) {
        guard count < buffer.count else { overflowed = true; return }
        buffer.initializeElement(at: count, to: match)
        count += 1
    }

    mutating func ranOutOfBudget(_ match: RuleMatch) {}

    /// The matches, valid while the buffer is.
    var matches: UnsafeBufferPointer<RuleMatch> { UnsafeBufferPointer(rebasing: buffer[..<count]) }
}

/// The bytes of a subject, and whether the automata may decide it.
struct SubjectText {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Every byte is printable ASCII (`MatchSubject.isPrintableASCII`).
    let isPrintableASCII: Bool
}

extension MatchSubject {
    /// `body` of the subject's bytes, valid for the call.
    func withText<R>(_ body: (SubjectText) -> R) -> R {
        withUTF8 { body(SubjectText(bytes: $0, isPrintableASCII: isPrintableASCII)) }
    }
}

/// What a lookup's patterns see: a string, or bytes already known to be
/// printable ASCII (a host's path, matched as given).
enum PatternSubject {
    case string(String)
    case printableASCII(UnsafeBufferPointer<UInt8>)
}

/// A literal as a dictionary key, hashed as one run of bytes: an array of
/// bytes hashes each byte as a value of its own.
private struct LiteralKey: Hashable {
    let bytes: [UInt8]

    func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}
