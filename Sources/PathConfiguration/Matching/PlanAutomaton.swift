import Synchronization

/// One deterministic automaton for every pattern of a plan, built lazily:
/// a lookup reads each byte of its subject once, whatever the number of
/// patterns, and the state it ends in lists the rules that matched.
///
/// A plan whose patterns are all plain (`SmallPatternReader`: every one a
/// `SmallPattern`, or one that matches every subject) gets one. Its states
/// are sets of the patterns' Glushkov positions, each pattern's own set as
/// `SmallPattern` advances it, and the patterns already found: a pattern
/// without `$` is found, for good, once one of its matches ends; one with
/// `$` when a match ends with the subject. So the state a subject ends in
/// decides every pattern at once, and it keeps that answer: the rules
/// matched (each by its first matching pattern), in order. Exactly what the
/// plan's candidate loop finds, pattern by pattern (the tests compare the
/// two on the benchmark corpora and on fuzzed patterns), on the same
/// subjects: printable ASCII, which `matches` requires.
///
/// States are made as subjects reach them (RE2's lazy DFA): a subset
/// construction done ahead of time can explode, while the states real
/// lookups visit are few. The first lookup builds the tables every state
/// shares (byte classes, each class's starting positions); a transition
/// not yet known is computed under a lock, the state it leads to found or
/// made, and the transition published by a release store. Known
/// transitions are read without a lock, one acquire load per byte (a plain
/// load on x86), so threads share the automaton as they share the plan.
///
/// Bounded: states may take `budget` bytes. Once a new state would pass it
/// the automaton is frozen: lookups still run on the states it has, and one
/// that needs a state it lacks returns nil, for the plan's prefilter and
/// candidates to answer (as they do for a subject that is not printable
/// ASCII). An answer never depends on which of the two gave it.
final class PlanAutomaton: @unchecked Sendable {
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

    /// The bytes a plan of `patterns` patterns lets its automaton's states
    /// take: 8 KiB a pattern, at least 256 KiB and at most 4 MiB.
    static func budget(patterns: Int) -> Int { min(max(patterns * 8 << 10, 256 << 10), 4 << 20) }

    private let members: [Member]
    private let kind: RuleMatch.Kind
    private let budget: Int
    /// The address of the states' arena once built (the start state first);
    /// 0 before the first lookup, -1 when a pattern no longer reads as plain.
    private let entry = Atomic<Int>(0)
    /// Set when the budget is spent: a transition not yet known is not made.
    private let frozen = Atomic<Bool>(false)
    /// Each printable byte's class (bytes no position tells apart share
    /// one), written once before `entry` is published.
    private let classOf: UnsafeMutablePointer<UInt8>
    private let builder = Mutex<Builder?>(nil)

    /// An automaton for `members` (every pattern of a plan, in ordinal
    /// order), or nil when one is not plain or there are too many; its
    /// states may take `budget` bytes (default: `budget(patterns:)`).
    init?(_ members: [Member], kind: RuleMatch.Kind, budget: Int? = nil) {
        guard !members.isEmpty, members.count <= Self.maxPatterns,
              members.allSatisfy({ $0.small != nil || $0.alwaysMatches }) else { return nil }
        self.members = members
        self.kind = kind
        self.budget = budget ?? Self.budget(patterns: members.count)
        classOf = .allocate(capacity: 128)
        classOf.initialize(repeating: 0, count: 128)
    }

    deinit {
        builder.withLock { $0?.deallocate() }
        classOf.deallocate()
    }

    /// Whether new states are still made (false once the budget is spent).
    var isGrowing: Bool { !frozen.load(ordering: .relaxed) }

    /// States made so far, and the bytes they take.
    var usage: (states: Int, bytes: Int) { builder.withLock { ($0?.contents.count ?? 0, $0?.bytesUsed ?? 0) } }

    /// The rules whose patterns match `subject` (every byte printable
    /// ASCII), each with its first matching pattern, in rule order; valid as
    /// long as the automaton. nil when the automaton lacks a state the
    /// subject needs and may not make it: the caller runs the patterns.
    @inline(__always)
    func matches(_ subject: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<RuleMatch>? {
        var arena = entry.load(ordering: .acquiring)
        if arena <= 0 {
            guard arena == 0, let built = start() else { return nil }
            arena = built
        }
        let base = UnsafeMutableRawPointer(bitPattern: arena)!
        var state = 0  // the start state's offset
        for b in subject {
            let c = Int(classOf[Int(b)])
            let next = Int(State.transitions(base + state)[c].load(ordering: .acquiring))
            if next != 0 {
                state = next
                continue
            }
            guard let made = step(base, from: state, class: c) else { return nil }
            state = made
        }
        return State.matches(base + state)
    }

    /// Builds the shared tables and the start state, once: the arena's
    /// address, or nil when a pattern does not read. Out of line, as is
    /// `step`: inlined, their locks' thread lookups ran on every lookup.
    @inline(never)
    private func start() -> Int? {
        builder.withLock { built -> Int? in
            let current = entry.load(ordering: .acquiring)
            if current != 0 { return current > 0 ? current : nil }
            guard let made = Builder(members: members, kind: kind, budget: budget, classOf: classOf) else {
                entry.store(-1, ordering: .releasing)
                return nil
            }
            built = made
            let arena = Int(bitPattern: made.arena)
            entry.store(arena, ordering: .releasing)
            return arena
        }
    }

    /// The offset of the state that `state` (an offset in the arena at
    /// `base`) goes to on a byte of class `c`, made now if need be; nil when
    /// that would pass the budget (the automaton is then frozen).
    @inline(never)
    private func step(_ base: UnsafeMutableRawPointer, from state: Int, class c: Int) -> Int? {
        guard !frozen.load(ordering: .relaxed) else { return nil }
        return builder.withLock { built -> Int? in
            let known = Int(State.transitions(base + state)[c].load(ordering: .acquiring))
            if known != 0 { return known }
            guard let next = built?.state(after: state, class: c) else {
                frozen.store(true, ordering: .relaxed)
                return nil
            }
            State.transitions(base + state)[c].store(UInt32(next), ordering: .releasing)
            return next
        }
    }
}

/// A state in the arena: this header, then one transition per byte class
/// (the next state's offset in the arena, 0 while unknown: no transition
/// leads back to the start state, at offset 0). Made under the builder's
/// lock and published by the release store of a transition to it (or of
/// `PlanAutomaton.entry`), so a reader that loads that offset sees it whole.
private struct State {
    /// The rules matched when a subject ends here.
    var matches: UnsafeMutablePointer<RuleMatch>?
    var count: Int32
    /// The state's number in the builder.
    var id: Int32

    static let headerBytes = MemoryLayout<State>.stride

    @inline(__always)
    static func transitions(_ state: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<UInt32>> {
        (state + headerBytes).assumingMemoryBound(to: Atomic<UInt32>.self)
    }

    @inline(__always)
    static func matches(_ state: UnsafeMutableRawPointer) -> UnsafeBufferPointer<RuleMatch> {
        let h = state.assumingMemoryBound(to: State.self)
        return UnsafeBufferPointer(start: h.pointee.matches, count: Int(h.pointee.count))
    }
}

/// The automaton's tables and its states, touched only under its lock.
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

    /// Reads every pattern and makes the start state; nil when a pattern
    /// does not read as plain.
    init?(members: [PlanAutomaton.Member], kind: RuleMatch.Kind, budget: Int, classOf: UnsafeMutablePointer<UInt8>) {
        self.kind = kind
        self.budget = budget
        var foundAtStart: [Int32] = [], anchored: [Int32] = []
        for (ordinal, m) in members.enumerated() {
            let base = sets.count
            if m.alwaysMatches {
                patterns.append(Pattern(rule: m.rule, index: m.index, base: base, count: 0, first: 0, last: 0, nullable: true,
                                        anchoredStart: false, anchoredEnd: false))
                foundAtStart.append(Int32(ordinal))
                continue
            }
            guard var r = m.small?.reading else { return nil }
            Self.dropPadding(&r)
            sets += r.sets
            follow += r.follow
            let p = Pattern(rule: m.rule, index: m.index, base: base, count: r.sets.count, first: r.facts.first, last: r.facts.last,
                            nullable: r.facts.nullable, anchoredStart: r.anchoredStart, anchoredEnd: r.anchoredEnd)
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
        // Byte classes: printable bytes split by every distinct set a
        // position names, so that bytes of one class are in the same sets.
        var classes = [Int](repeating: 0, count: 128)
        var count = 1
        for set in Set(sets) {
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
        classCount = count
        self.representative = representative
        var starts = [[(ordinal: Int32, positions: UInt64)]](repeating: [], count: count)
        let atStart = Set(foundAtStart)
        for (ordinal, p) in patterns.enumerated() where !p.anchoredStart && !atStart.contains(Int32(ordinal)) {
            for c in 0..<count {
                let positions = p.first & Self.positions(of: p, accepting: representative[c], in: sets)
                if positions != 0 { starts[c].append((Int32(ordinal), positions)) }
            }
        }
        self.starts = starts
        rowBytes = (State.headerBytes + count * MemoryLayout<UInt32>.stride + 7) & ~7
        arena = .allocate(byteCount: max(budget, rowBytes), alignment: 8)
        _ = state(for: Content(atStart: true, active: [], found: foundAtStart), whatever: true)
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
        var k = 0
        while k < from.active.count {
            let ordinal = Int32(bitPattern: from.active[k])
            var bits = UInt64(from.active[k + 1]) | UInt64(from.active[k + 2]) << 32
            k += 3
            let p = patterns[Int(ordinal)]
            var reached: UInt64 = 0
            while bits != 0 {
                reached |= follow[p.base + bits.trailingZeroBitCount]
                bits &= bits - 1
            }
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
        var k = 0
        while k < content.active.count {
            let ordinal = Int32(bitPattern: content.active[k])
            let p = patterns[Int(ordinal)]
            let positions = UInt64(content.active[k + 1]) | UInt64(content.active[k + 2]) << 32
            if p.anchoredEnd && positions & p.last != 0 { accepted.append(ordinal) }
            k += 3
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
        let transitions = (row + State.headerBytes).bindMemory(to: Atomic<UInt32>.self, capacity: classCount)
        for c in 0..<classCount { (transitions + c).initialize(to: Atomic<UInt32>(0)) }
        ids[content] = id
        contents.append(content)
        return id * rowBytes
    }

    /// Frees the states (the automaton is going away).
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
