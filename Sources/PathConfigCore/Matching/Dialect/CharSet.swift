/// A set of code points, as a dialect's class expression describes it, built
/// from what PCRE2 can test one character at a time.
///
/// ICU and Java classes allow union by nesting (`[a[b]]`), intersection
/// (`&&`) and, in ICU, difference (`--`); PCRE2 10.42 has none of these in a
/// class. A `CharSet` keeps the expression as a tree and `CharSetEmitter`
/// writes it as a construct that consumes exactly one character when that
/// character is in the set: a plain class where it can, lookaheads where it
/// must (`[\w&&[^\d]]` becomes `(?:(?![\p{Nd}])[\p{Alphabetic}...])`).
indirect enum CharSet: Equatable, Sendable {
    /// One PCRE2 class item.
    enum Item: Equatable, Sendable {
        case scalar(UInt32)
        /// A range of code points, both ends included.
        case range(UInt32, UInt32)
        /// A PCRE2 property test as written inside `\p{...}` (`Lu`,
        /// `sc:Greek`, `Alphabetic`), or its complement (`\P{...}`).
        case property(String, negated: Bool = false)

        /// The code points of a character or range; nil for a property.
        var bounds: (low: UInt32, high: UInt32)? {
            switch self {
            case .scalar(let v): return (v, v)
            case .range(let a, let b): return (a, b)
            case .property: return nil
            }
        }
    }

    /// The union of class items (an empty list is the empty set).
    case items([Item])
    case union([CharSet])
    /// Code points in both sets.
    case intersection(CharSet, CharSet)
    /// Code points in the first set and not in the second.
    case difference(CharSet, CharSet)
    case complement(CharSet)
    /// The set matched without case folding even where the pattern is
    /// case-insensitive (Java's ASCII classes: `\w`, `\p{Alpha}`).
    case caseExact(CharSet)

    static func scalar(_ value: UInt32) -> CharSet { .items([.scalar(value)]) }
    static func range(_ low: UInt32, _ high: UInt32) -> CharSet { .items([.range(low, high)]) }
    static func property(_ name: String, negated: Bool = false) -> CharSet { .items([.property(name, negated: negated)]) }
    /// Several code points and ranges, written as `(low, high)` pairs.
    static func ranges(_ pairs: [(UInt32, UInt32)]) -> CharSet {
        .items(pairs.map { $0.0 == $0.1 ? .scalar($0.0) : .range($0.0, $0.1) })
    }
    static var all: CharSet { .range(0, 0x10FFFF) }

    /// The union of `parts`, flat: a part that is a union gives its own
    /// parts, and neighbouring class items are one `items`. It is the same
    /// set, and `CharSetEmitter` writes the plain items in the same order.
    static func union(of parts: [CharSet]) -> CharSet {
        var flat: [CharSet] = []
        var pending: [Item] = []
        func add(_ part: CharSet) {
            switch part {
            case .items(let items): pending += items
            case .union(let inner): inner.forEach(add)
            default:
                if !pending.isEmpty { flat.append(.items(pending)); pending = [] }
                flat.append(part)
            }
        }
        parts.forEach(add)
        if !pending.isEmpty || flat.isEmpty { flat.append(.items(pending)) }
        return flat.count == 1 ? flat[0] : .union(flat)
    }

    /// The code points it holds, as sorted, disjoint ranges; nil when a
    /// property is in it. `caseClosed`: with each class item closed over
    /// case before the operations on it, as PCRE2 matches the set under
    /// `(?i)` (`CharSetEmitter`); otherwise case aside.
    func ranges(caseClosed: Bool = false) -> [ClosedRange<UInt32>]? {
        switch self {
        case .items(let items):
            var all: [ClosedRange<UInt32>] = []
            for item in items {
                guard let (low, high) = item.bounds else { return nil }
                all.append(low...high)
            }
            return caseClosed ? CaseFolding.closure(of: Self.merged(all)) : Self.merged(all)
        case .union(let parts):
            var all: [ClosedRange<UInt32>] = []
            for part in parts {
                guard let each = part.ranges(caseClosed: caseClosed) else { return nil }
                all += each
            }
            return Self.merged(all)
        case .intersection(let a, let b):
            guard let left = a.ranges(caseClosed: caseClosed), let right = b.ranges(caseClosed: caseClosed) else { return nil }
            return Self.intersection(left, right)
        case .difference(let a, let b):
            guard let left = a.ranges(caseClosed: caseClosed), let right = b.ranges(caseClosed: caseClosed) else { return nil }
            return Self.intersection(left, Self.complement(right))
        case .complement(let a):
            return a.ranges(caseClosed: caseClosed).map(Self.complement)
        case .caseExact(let a):
            return a.ranges()
        }
    }

    static func merged(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        for r in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }

    private static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            next = r.upperBound + 1
        }
        if next <= 0x10FFFF { out.append(next...0x10FFFF) }
        return out
    }

    private static func intersection(_ a: [ClosedRange<UInt32>], _ b: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var out: [ClosedRange<UInt32>] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            let low = max(a[i].lowerBound, b[j].lowerBound), high = min(a[i].upperBound, b[j].upperBound)
            if low <= high { out.append(low...high) }
            if a[i].upperBound < b[j].upperBound { i += 1 } else { j += 1 }
        }
        return out
    }

    /// At most how many code points a plain union of class items holds (one
    /// in two items is counted twice); nil for a property or anything else.
    var itemCount: Int? {
        var total = 0
        switch self {
        case .items(let items):
            for item in items {
                guard let (low, high) = item.bounds else { return nil }
                total += Int(high - low) + 1
            }
        case .union(let parts):
            for part in parts {
                guard let count = part.itemCount else { return nil }
                total += count
            }
        default:
            return nil
        }
        return total
    }

    /// The class items, when the set is a plain union of them.
    var plainItems: [Item]? {
        switch self {
        case .items(let items): return items
        case .union(let parts):
            let each = parts.compactMap(\.plainItems)
            return each.count == parts.count ? Array(each.joined()) : nil
        default: return nil
        }
    }
}

/// Writes a `CharSet` as PCRE2 text that consumes exactly one character of
/// the set.
enum CharSetEmitter {
    /// PCRE2 text for `set`; `caseless` says whether case-insensitive
    /// matching is on where the text is used (for `caseExact`).
    static func emit(_ set: CharSet, caseless: Bool) -> String {
        switch set {
        case .items(let written):
            let items = inUTF8(written)
            if items.isEmpty { return "(?!)" }
            if items.count == 1, case .property = items[0] { return classText(items[0]) }
            if items == verticalSpaceItems { return "\\v" }
            return "[" + items.map(classText).joined() + "]"
        case .union(let parts):
            if let items = set.plainItems { return emit(.items(items), caseless: caseless) }
            // Plain parts share one class; the rest become alternatives.
            var plain: [CharSet.Item] = []
            var others: [String] = []
            for part in parts {
                if let items = part.plainItems { plain += items } else { others.append(emit(part, caseless: caseless)) }
            }
            if !plain.isEmpty { others.insert(emit(.items(plain), caseless: caseless), at: 0) }
            // Atomic: every alternative takes the same one character, so
            // trying another after one matched cannot change what follows.
            // Backtracking into them made a repeat exponential where ICU and
            // the JDK test one set: `x[a[^bz]]*z` on "x", 40 "a", "b/xz" ran
            // into PCRE2's match limit at the first x (no match) instead of
            // finding the "xz".
            return "(?>" + others.joined(separator: "|") + ")"
        case .intersection(let a, let b):
            return "(?:(?=" + emit(a, caseless: caseless) + ")" + emit(b, caseless: caseless) + ")"
        case .difference(let a, let b):
            return "(?:(?!" + emit(b, caseless: caseless) + ")" + emit(a, caseless: caseless) + ")"
        case .complement(let inner):
            if let items = inner.plainItems.map(inUTF8) {
                if items == verticalSpaceItems { return "\\V" }
                return items.isEmpty ? anyCharacter : "[^" + items.map(classText).joined() + "]"
            }
            return "(?:(?!" + emit(inner, caseless: caseless) + ")" + anyCharacter + ")"
        case .caseExact(let inner):
            let text = emit(inner, caseless: false)
            return caseless ? "(?-i:" + text + ")" : text
        }
    }

    /// `items` without the surrogates, which PCRE2 cannot be given and a
    /// UTF-8 subject never holds (ICU's `\p{InHighSurrogates}` is a range
    /// of them): each range cut to the code points around them, an item of
    /// surrogates alone left out.
    static func inUTF8(_ items: [CharSet.Item]) -> [CharSet.Item] {
        items.compactMap { item in
            guard let (low, high) = item.bounds, low <= 0xDFFF, high >= 0xD800 else { return item }
            let ends = (low < 0xD800 ? low : 0xE000, high > 0xDFFF ? high : 0xD7FF)
            guard ends.0 <= ends.1 else { return nil }
            return ends.0 == ends.1 ? .scalar(ends.0) : .range(ends.0, ends.1)
        }
    }

    /// Any one character, newlines included. (Not `[\x{0}-\x{10FFFF}]`,
    /// which PCRE2 compiles to 44 bytes against 3: its compiled code is
    /// limited to 64 KB, and a pattern may be 16 KB long.)
    static let anyCharacter = "\\p{Any}"

    /// PCRE2's `\v` (LF, VT, FF, CR, NEL, LS, PS), a fixed set whatever its
    /// options: ICU's and Java's `\v`, and ICU's line terminators, so `\V` is
    /// ICU's `.` in one byte of compiled code where the class takes 45.
    static let verticalSpaceItems: [CharSet.Item] = [.range(0x0A, 0x0D), .scalar(0x85), .range(0x2028, 0x2029)]

    /// One item as it appears inside `[...]`.
    static func classText(_ item: CharSet.Item) -> String {
        switch item {
        case .scalar(let v): return classScalar(v)
        case .range(let a, let b): return classScalar(a) + "-" + classScalar(b)
        case .property(let name, let negated): return (negated ? "\\P{" : "\\p{") + name + "}"
        }
    }

    /// A code point inside a class: letters and digits as themselves,
    /// everything else as `\x{...}` so no character is special.
    static func classScalar(_ v: UInt32) -> String {
        isASCIIAlphanumeric(v) ? String(UnicodeScalar(UInt8(v))) : hex(v)
    }

    /// A code point outside a class, as a literal.
    static func literal(_ v: UInt32) -> String {
        if isASCIIAlphanumeric(v) { return String(UnicodeScalar(UInt8(v))) }
        if v >= 0x21 && v < 0x7F { return "\\" + String(UnicodeScalar(UInt8(v))) }
        return hex(v)
    }

    /// `\x{HEX}`.
    static func hex(_ v: UInt32) -> String { "\\x{" + String(v, radix: 16, uppercase: true) + "}" }

    static func isASCIIAlphanumeric(_ v: UInt32) -> Bool {
        (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A)
    }
}
