import Synchronization

/// The plan's patterns as two lazily built automata, one for the patterns
/// anchored with `^` and one for the rest: a lookup reads each byte of its
/// subject once, advancing both, whatever the number of patterns, and the
/// states it ends in list the rules that matched.
///
/// A plan's plain patterns (`SmallPatternReader`: each a `SmallPattern`,
/// or one that matches every subject) get one; the plan runs its other
/// patterns' candidates after it (`MatchPlan`). A state is
/// a set of the patterns' Glushkov positions, each pattern's own set as
/// `SmallPattern` advances it, and the patterns already found: a pattern
/// without `$` is found, for good, once one of its matches ends; one with
/// `$` when a match ends with the subject. So the state a subject ends in
/// decides its patterns at once, and it keeps that answer: the rules
/// matched (each by its first matching pattern), in order. Exactly what the
/// plan's candidate loop finds, pattern by pattern (the tests compare the
/// two on the benchmark corpora and on fuzzed patterns), on the same
/// subjects: printable ASCII, which `matches` requires.
///
/// Two parts, because the two kinds of pattern multiply each other's states
/// when they share an automaton: a pattern with `^` is alive only while the
/// subject's start matches it (most die within a few bytes), one without
/// starts again at every byte (docs/ARCHITECTURE.md has the measurements).
/// A small plan (`splitAbove`) keeps all its patterns in one part.
///
/// States are made as subjects reach them (RE2's lazy DFA): a subset
/// construction done ahead of time can explode, while the states real
/// lookups visit are few. The first lookup builds what every state shares
/// (byte classes, each class's starting positions); a transition not yet
/// known is computed under a lock, the state it leads to found or made,
/// and the transition published by a release store. Known transitions are
/// read without a lock, one acquire load per byte and part (a plain load on
/// x86), so threads share the automaton as they share the plan.
///
/// Bounded: each part's states may take `budget(patterns:)` bytes for its
/// patterns. Once a new state would pass that, the part is frozen: lookups
/// still run on the states it has, and one that needs a state it lacks
/// gets nil, for the plan's prefilter and candidates to answer (as they do
/// for a subject that is not printable ASCII). An answer never depends on
/// which of the two gave it.
package final class PlanAutomaton: @unchecked Sendable {
    /// What the automaton needs of one of the plan's patterns, by ordinal.
    struct Member {
        let rule: Int
        let index: Int
        /// The pattern as read (nil for one that matches every subject).
        let small: SmallPattern?
        let alwaysMatches: Bool
    }

    /// The most patterns a plan may have for an automaton to be made: past
    /// this, states hold so many positions (every `/` of a subject starts a
    /// match in each pattern without `^` that starts with one) that few fit
    /// in any sensible budget, and the prefilter does better alone.
    static let maxPatterns = 2_048

    /// The bytes a part of `patterns` patterns lets its states take:
    /// 12 KiB a pattern, at least 128 KiB and at most 4 MiB.
    static func budget(patterns: Int) -> Int { min(max(patterns * 12 << 10, 128 << 10), 4 << 20) }

    /// The most patterns a plan may have for its automaton to be one part:
    /// walking two costs a small plan more (some 90 instructions a lookup
    /// at the benchmark's 10 rules) than their states' product, 103 states.
    /// Its anchored part is empty, and left after the first byte.
    static let splitAbove = 64

    /// The most matches `matches` merges from the two parts.
    static let mergedCapacity = 32

    private let members: [Member]
    private let kind: RuleMatch.Kind
    /// A budget for each part, whatever its patterns (for tests).
    private let fixedBudget: Int?
    private let splitsAbove: Int
    /// The address of `tables` once built; 0 before the first lookup.
    let entry = Atomic<Int>(0)
    /// A bit for each part whose budget is spent (1 << part): a transition
    /// it lacks is not made.
    private let frozen = Atomic<Int>(0)
    /// Each printable byte's class (bytes no position tells apart share one,
    /// whichever part), then the two parts' arenas' addresses: written once,
    /// under the lock, before `entry` is published.
    private let tables: UnsafeMutableRawPointer
    private let builders = Locked<[Builder]>([])

    static let arenasOffset = 128

    /// An automaton for `members` (in rule order, a rule's patterns in
    /// order: a state's list of rules is made in that order), or nil when
    /// one is not plain or there are too many; each
    /// part's states may take `budget` bytes (default: `budget(patterns:)`),
    /// and it has two parts past `splitAbove` patterns.
    init?(_ members: [Member], kind: RuleMatch.Kind, budget: Int? = nil, splitAbove: Int = PlanAutomaton.splitAbove) {
        guard !members.isEmpty, members.count <= Self.maxPatterns,
              members.allSatisfy({ $0.small != nil || $0.alwaysMatches }) else { return nil }
        self.members = members
        self.kind = kind
        fixedBudget = budget
        splitsAbove = splitAbove
        tables = .allocate(byteCount: Self.arenasOffset + 2 * MemoryLayout<Int>.stride, alignment: 8)
        tables.initializeMemory(as: UInt8.self, repeating: 0, count: Self.arenasOffset + 2 * MemoryLayout<Int>.stride)
    }

    deinit {
        builders.withLock { for b in $0 { b.deallocate() } }
        tables.deallocate()
    }

    /// Whether both parts still make new states (false once one's budget is spent).
    var isGrowing: Bool { frozen.load(ordering: .relaxed) == 0 }

    /// States made so far, and the bytes they take, both parts together.
    var usage: (states: Int, bytes: Int) {
        builders.withLock { ($0.reduce(0) { $0 + $1.contents.count }, $0.reduce(0) { $0 + $1.bytesUsed }) }
    }

    /// The rules whose patterns match `subject` (every byte printable
    /// ASCII), each with its first matching pattern, in rule order: one
    /// part's list, kept by its state (valid as long as the automaton), or
    /// both merged into `scratch` (valid as long as it). nil when a part
    /// lacks a state the subject needs and may not make it, or the merge
    /// does not fit: the caller runs the patterns.
    @inline(__always)
    func matches(_ subject: UnsafeBufferPointer<UInt8>, scratch: UnsafeMutableBufferPointer<RuleMatch>) -> UnsafeBufferPointer<RuleMatch>? {
        var built = entry.load(ordering: .acquiring)
        if built == 0 { built = start() }
        let classOf = UnsafeRawPointer(bitPattern: built)!.assumingMemoryBound(to: UInt8.self)
        let arenas = UnsafeRawPointer(bitPattern: built + Self.arenasOffset)!.assumingMemoryBound(to: UnsafeMutableRawPointer.self)
        let anchored = arenas[0], floating = arenas[1]
        // The states' addresses: the start states', then each transition's.
        var a = Int(bitPattern: anchored), f = Int(bitPattern: floating)
        var i = 0
        let n = subject.count
        // Both parts, until the anchored part's patterns are all decided
        // (a transition to such a state has its low bit set: `step`)...
        while i < n {
            let c = Int(classOf[Int(subject[i])])
            var nextA = State.transitions(State.row(a))[c].load(ordering: .acquiring)
            var nextF = State.transitions(State.row(f))[c].load(ordering: .acquiring)
            if nextA == 0 {
                guard let made = step(part: 0, anchored, from: a, class: c) else { return nil }
                nextA = made
            }
            if nextF == 0 {
                guard let made = step(part: 1, floating, from: f, class: c) else { return nil }
                nextF = made
            }
            f = nextF
            i += 1
            if nextA & 1 != 0 {
                a = nextA & ~1
                break
            }
            a = nextA
        }
        // ...then the other part alone: one load a byte, the next state's
        // address, on which the next load depends (no add between them).
        while i < n {
            let c = Int(classOf[Int(subject[i])])
            var nextF = State.transitions(State.row(f))[c].load(ordering: .acquiring)
            if nextF == 0 {
                guard let made = step(part: 1, floating, from: f, class: c) else { return nil }
                nextF = made
            }
            f = nextF
            i += 1
        }
        return Self.merge(State.matches(State.row(a)), State.matches(State.row(f)), into: scratch)
    }

    /// The union of two lists of matches in rule order, each rule by the
    /// first of its patterns either list names: `x` or `y` itself when the
    /// other is empty, else merged into `scratch` (nil when it is too small).
    @inline(__always)
    static func merge(_ x: UnsafeBufferPointer<RuleMatch>, _ y: UnsafeBufferPointer<RuleMatch>,
                              into scratch: UnsafeMutableBufferPointer<RuleMatch>) -> UnsafeBufferPointer<RuleMatch>? {
        if y.isEmpty { return x }
        if x.isEmpty { return y }
        guard x.count + y.count <= scratch.count else { return nil }
        var i = 0, j = 0, n = 0
        while i < x.count || j < y.count {
            let next: RuleMatch
            if j == y.count || i < x.count && x[i].ruleIndex < y[j].ruleIndex {
                next = x[i]; i += 1
            } else if i == x.count || y[j].ruleIndex < x[i].ruleIndex {
                next = y[j]; j += 1
            } else {
                next = x[i].patternIndex < y[j].patternIndex ? x[i] : y[j]
                i += 1; j += 1
            }
            scratch.initializeElement(at: n, to: next)
            n += 1
        }
        return UnsafeBufferPointer(rebasing: scratch[..<n])
    }

    /// Reads every pattern and builds both parts' shared tables and start
    /// states, once: the address of `tables`. Out of line, as is `step`:
    /// inlined, their locks' thread lookups ran on every lookup.
    @inline(never)
    func start() -> Int {
        builders.withLock { parts -> Int in
            let current = entry.load(ordering: .acquiring)
            if current != 0 { return current }
            let read = members.map { m -> (member: Member, reading: SmallPatternReader.Reading) in
                guard !m.alwaysMatches else { return (m, .everySubject) }
                var r = m.small!.reading!  // every member is plain (`init`), and a reading never changes
                Builder.dropPadding(&r)
                return (m, r)
            }
            let classes = Builder.classes(of: read.map(\.reading), into: tables.assumingMemoryBound(to: UInt8.self))
            let split = read.count > splitsAbove
            let anchored = split ? read.filter { $0.reading.anchoredStart } : []
            let floating = split ? read.filter { !$0.reading.anchoredStart } : read
            parts = [anchored, floating].map {
                Builder(patterns: $0, classes: classes, kind: kind, budget: fixedBudget ?? Self.budget(patterns: $0.count))
            }
            let arenas = (tables + Self.arenasOffset).assumingMemoryBound(to: UnsafeMutableRawPointer.self)
            arenas[0] = parts[0].arena
            arenas[1] = parts[1].arena
            let address = Int(bitPattern: tables)
            entry.store(address, ordering: .releasing)
            return address
        }
    }

    /// The address of the state that the state at address `state` (in the
    /// arena at `base`, of part `part`) goes to on a byte of class `c`, made
    /// now if need be, with its low bit set when it is of the anchored part
    /// and no position is active there (its patterns are decided: the walk
    /// leaves that part); nil when that would pass the part's budget (it is
    /// then frozen).
    @inline(never)
    func step(part: Int, _ base: UnsafeMutableRawPointer, from state: Int, class c: Int) -> Int? {
        guard frozen.load(ordering: .relaxed) & 1 << part == 0 else { return nil }
        return builders.withLock { parts -> Int? in
            let transition = State.transitions(State.row(state)) + c
            let known = transition.pointee.load(ordering: .acquiring)
            if known != 0 { return known }
            guard let offset = parts[part].state(after: state - Int(bitPattern: base), class: c) else {
                frozen.bitwiseOr(1 << part, ordering: .relaxed)
                return nil
            }
            var next = Int(bitPattern: base) + offset
            if part == 0 && parts[part].isDecided(offset) { next |= 1 }
            transition.pointee.store(next, ordering: .releasing)
            return next
        }
    }
}

/// A state in an arena: this header, then one transition per byte class
/// (the next state's address, 0 while unknown; rows are 8-aligned, so the
/// low bit is free for `step`'s mark). An address rather than an offset in
/// the arena: the walk's next load then depends on the last one alone, not
/// on an add after it. Made under the builders' lock and published by the
/// release store of a transition to it (or of `PlanAutomaton.entry`), so a
/// reader that loads that address sees it whole; arenas never move.
struct State {
    /// The rules matched when a subject ends here.
    var matches: UnsafeMutablePointer<RuleMatch>?
    var count: Int32
    /// The state's number in its builder.
    var id: Int32

    static let headerBytes = MemoryLayout<State>.stride

    @inline(__always)
    static func transitions(_ state: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<Int>> {
        (state + headerBytes).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// The row at `address` (a state's address, never 0).
    @inline(__always)
    static func row(_ address: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address).unsafelyUnwrapped }

    @inline(__always)
    static func matches(_ state: UnsafeMutableRawPointer) -> UnsafeBufferPointer<RuleMatch> {
        let h = state.assumingMemoryBound(to: State.self)
        return UnsafeBufferPointer(start: h.pointee.matches, count: Int(h.pointee.count))
    }
}

/// One part of the automaton: its patterns' tables and its states,
/// touched only under the automaton's lock.
private struct Builder {
    /// One pattern as the subset construction reads it.
    struct Pattern {
        let rule: Int
        let index: Int
        /// Its positions' character sets and follow sets: `sets` and
        /// `follow` at `base..<base + count`.
        let base: Int
        let count: Int
        let first: UInt64, last: UInt64
        let nullable: Bool
        let anchoredStart: Bool
        let anchoredEnd: Bool
    }

    /// What a state is: whether no byte has been read, the active positions
    /// of each pattern that has any (by ordinal: the ordinal, then the
    /// positions' low and high halves), and the patterns found (by ordinal).
    struct Content: Hashable {
        var atStart: Bool
        var active: [UInt32]
        var found: [Int32]

        /// Calls `body` with each active pattern's ordinal and positions.
        func forEachActive(_ body: (Int32, UInt64) -> Void) {
            for k in stride(from: 0, to: active.count, by: 3) {
                body(Int32(bitPattern: active[k]), UInt64(active[k + 1]) | UInt64(active[k + 2]) << 32)
            }
        }
    }

    let kind: RuleMatch.Kind
    let budget: Int
    var patterns: [Pattern] = []
    var sets: [ByteSet] = []
    var follow: [UInt64] = []
    let classCount: Int
    /// A byte of each class.
    let representative: [UInt8]
    /// For each class, the patterns without `^` whose match may start on a
    /// byte of that class, and the positions it starts at.
    let starts: [[(ordinal: Int32, positions: UInt64)]]
    /// Patterns with `^`: they start only at the subject's first byte.
    let anchored: [Int32]
    /// Patterns found before any byte (they match every subject).
    let foundAtStart: [Int32]

    /// The states, one row of `rowBytes` each, the start state first:
    /// `budget` bytes reserved (only the pages rows are written to are
    /// touched), so a row never moves while threads read it.
    let arena: UnsafeMutableRawPointer
    let rowBytes: Int
    var ids: [Content: Int] = [:]
    var contents: [Content] = []
    var bytesUsed = 0

    /// The part of `patterns` (in ordinal order) over byte classes
    /// `classes`, with its start state.
    init(patterns read: [(member: PlanAutomaton.Member, reading: SmallPatternReader.Reading)],
         classes: (count: Int, representative: [UInt8]), kind: RuleMatch.Kind, budget: Int) {
        self.kind = kind
        self.budget = budget
        var foundAtStart: [Int32] = [], anchored: [Int32] = []
        for (ordinal, (m, r)) in read.enumerated() {
            let p = Pattern(rule: m.rule, index: m.index, base: sets.count, count: r.sets.count, first: r.facts.first, last: r.facts.last,
                            nullable: r.facts.nullable, anchoredStart: r.anchoredStart, anchoredEnd: r.anchoredEnd)
            sets += r.sets
            follow += r.follow
            patterns.append(p)
            // An empty match at the start (no `$`) or at the end (no `^`)
            // exists in every subject.
            if p.nullable && (!p.anchoredEnd || !p.anchoredStart) {
                foundAtStart.append(Int32(ordinal))
            } else if p.anchoredStart {
                anchored.append(Int32(ordinal))
            }
        }
        self.foundAtStart = foundAtStart
        self.anchored = anchored
        classCount = classes.count
        representative = classes.representative
        var starts = [[(ordinal: Int32, positions: UInt64)]](repeating: [], count: classCount)
        let atStart = Set(foundAtStart)
        for (ordinal, p) in patterns.enumerated() where !p.anchoredStart && !atStart.contains(Int32(ordinal)) {
            for c in 0..<classCount {
                let positions = p.first & Self.positions(of: p, accepting: representative[c], in: sets)
                if positions != 0 { starts[c].append((Int32(ordinal), positions)) }
            }
        }
        self.starts = starts
        rowBytes = (State.headerBytes + classCount * MemoryLayout<Int>.stride + 7) & ~7
        arena = .allocate(byteCount: max(budget, rowBytes), alignment: 8)
        _ = state(for: Content(atStart: true, active: [], found: foundAtStart), whatever: true)
    }

    /// Byte classes for `readings`: printable bytes split by every distinct
    /// set a position names, so that bytes of one class are in the same
    /// sets. Writes each printable byte's class to `classOf`; returns how
    /// many there are and a byte of each.
    static func classes(of readings: [SmallPatternReader.Reading], into classOf: UnsafeMutablePointer<UInt8>) -> (count: Int, representative: [UInt8]) {
        var classes = [Int](repeating: 0, count: 128)
        var count = 1
        for set in Set(readings.flatMap(\.sets)) {
            var renumber: [Int: Int] = [:]
            for b in 0x20...0x7E {
                let key = classes[b] << 1 | (set.contains(UInt8(b)) ? 1 : 0)
                if let c = renumber[key] { classes[b] = c } else {
                    classes[b] = renumber.count
                    renumber[key] = renumber.count
                }
            }
            count = renumber.count
        }
        var representative = [UInt8](repeating: 0x20, count: count)
        for b in (0x20...0x7E).reversed() {
            classOf[b] = UInt8(classes[b])
            representative[classes[b]] = UInt8(b)
        }
        return (count, representative)
    }

    /// Drops from `r` a `.*` that only pads its matches: one that starts
    /// the pattern without `^` (a match may as well start after it, where
    /// it leads), or ends it without `$` (a match has ended before it).
    /// The pattern occurs in the same subjects, and a state need not carry
    /// the position, which every byte keeps active: in a rule like
    /// `.*\?.*tab=[a-z]+.*` it would be in every state.
    static func dropPadding(_ r: inout SmallPatternReader.Reading) {
        for d in r.sets.indices where ByteSet.printable.subtracting(r.sets[d]).count == 0 {
            let bit: UInt64 = 1 << UInt64(d)
            let others = r.follow.indices.filter { $0 != d && r.follow[$0] & bit != 0 }
            if !r.anchoredStart, r.facts.first & bit != 0, r.facts.last & bit == 0, r.follow[d] & bit != 0,
               others.isEmpty, r.follow[d] & ~bit & ~r.facts.first == 0 {
                r.facts.first &= ~bit
            } else if !r.anchoredEnd, r.facts.last & bit != 0, r.facts.first & bit == 0, r.follow[d] == bit,
                      others.allSatisfy({ r.facts.last & 1 << UInt64($0) != 0 }) {
                r.facts.last &= ~bit
                for q in others { r.follow[q] &= ~bit }
            }
        }
    }

    /// The positions of `p` that accept `byte`.
    private static func positions(of p: Pattern, accepting byte: UInt8, in sets: [ByteSet]) -> UInt64 {
        var mask: UInt64 = 0
        for q in 0..<p.count where sets[p.base + q].contains(byte) { mask |= 1 << UInt64(q) }
        return mask
    }

    /// The offset of the state after the one at `offset` reads a byte of
    /// class `c`; nil when it is new and would pass the budget.
    mutating func state(after offset: Int, class c: Int) -> Int? {
        let from = contents[Int((arena + offset).assumingMemoryBound(to: State.self).pointee.id)]
        let byte = representative[c]
        var next: [(ordinal: Int32, positions: UInt64)] = []
        from.forEachActive { ordinal, bits in
            let p = patterns[Int(ordinal)]
            var reached: UInt64 = 0
            bits.forEachBit { reached |= follow[p.base + $0] }
            reached &= Self.positions(of: p, accepting: byte, in: sets)
            if reached != 0 { next.append((ordinal, reached)) }
        }
        next += starts[c]
        if from.atStart {
            for ordinal in anchored {
                let p = patterns[Int(ordinal)]
                let positions = p.first & Self.positions(of: p, accepting: byte, in: sets)
                if positions != 0 { next.append((ordinal, positions)) }
            }
        }
        next.sort { $0.ordinal < $1.ordinal }
        var content = Content(atStart: false, active: [], found: from.found)
        let found = Set(from.found)
        var i = 0
        while i < next.count {
            let ordinal = next[i].ordinal
            var positions = next[i].positions
            i += 1
            while i < next.count && next[i].ordinal == ordinal {
                positions |= next[i].positions
                i += 1
            }
            if found.contains(ordinal) { continue }
            let p = patterns[Int(ordinal)]
            if !p.anchoredEnd && positions & p.last != 0 {
                content.found.append(ordinal)
            } else {
                content.active += [UInt32(bitPattern: ordinal), UInt32(truncatingIfNeeded: positions), UInt32(truncatingIfNeeded: positions >> 32)]
            }
        }
        content.found.sort()
        return state(for: content)
    }

    /// The offset of the state whose content is `content`, made if new;
    /// nil when it is new and would pass the budget, unless it is the start
    /// state (made `whatever` the budget: the arena holds at least its row).
    private mutating func state(for content: Content, whatever: Bool = false) -> Int? {
        if let id = ids[content] { return id * rowBytes }
        // The patterns a subject ending here matches: those found, those
        // with `$` whose match ends here, and, before any byte, those with
        // `^` and `$` that match the empty subject.
        var accepted = content.found
        content.forEachActive { ordinal, positions in
            let p = patterns[Int(ordinal)]
            if p.anchoredEnd && positions & p.last != 0 { accepted.append(ordinal) }
        }
        if content.atStart {
            for ordinal in anchored where patterns[Int(ordinal)].nullable && patterns[Int(ordinal)].anchoredEnd { accepted.append(ordinal) }
        }
        accepted.sort()
        var rules: [RuleMatch] = []
        for ordinal in accepted {
            let p = patterns[Int(ordinal)]
            if rules.last?.ruleIndex == p.rule { continue }  // its first pattern decided it
            rules.append(RuleMatch(ruleIndex: p.rule, patternIndex: p.index, kind: kind))
        }
        // The row, the content (kept as the key and read by later steps),
        // the matches, and what an array and a dictionary entry cost besides.
        let id = contents.count
        let cost = rowBytes + (content.active.count + content.found.count) * 4 + rules.count * MemoryLayout<RuleMatch>.stride + 160
        guard whatever || bytesUsed + cost <= budget && (id + 1) * rowBytes <= budget else { return nil }
        bytesUsed += cost
        let matches = rules.isEmpty ? nil : UnsafeMutablePointer<RuleMatch>.allocate(capacity: rules.count)
        matches?.initialize(from: rules, count: rules.count)
        let row = arena + id * rowBytes
        row.initializeMemory(as: State.self, to: State(matches: matches, count: Int32(rules.count), id: Int32(id)))
        let transitions = (row + State.headerBytes).bindMemory(to: Atomic<Int>.self, capacity: classCount)
        for c in 0..<classCount { (transitions + c).initialize(to: Atomic<Int>(0)) }
        ids[content] = id
        contents.append(content)
        return id * rowBytes
    }

    /// Whether no position is active in the state at `offset` after its
    /// first byte: in the part of patterns with `^`, none can become active.
    func isDecided(_ offset: Int) -> Bool {
        let content = contents[offset / rowBytes]
        return !content.atStart && content.active.isEmpty
    }

    func deallocate() {
        for id in contents.indices {
            let row = arena + id * rowBytes
            let h = row.assumingMemoryBound(to: State.self)
            if let m = h.pointee.matches {
                m.deinitialize(count: Int(h.pointee.count))
                m.deallocate()
            }
            State.transitions(row).deinitialize(count: classCount)
        }
        arena.deallocate()
    }
}
