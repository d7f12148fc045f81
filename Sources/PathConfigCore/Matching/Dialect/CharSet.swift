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

    /// Where membership may change, when the set is built from code points
    /// and ranges alone (nil when a property is in it): the set holds all or
    /// none of each run from one of these to the next, and of the run
    /// before the first.
    var boundaries: [UInt32]? {
        switch self {
        case .items(let items):
            var all: [UInt32] = []
            for item in items {
                switch item {
                case .scalar(let v): all += [v, v + 1]
                case .range(let a, let b): all += [a, b + 1]
                case .property: return nil
                }
            }
            return all
        case .union(let parts):
            let each = parts.compactMap(\.boundaries)
            return each.count == parts.count ? Array(each.joined()) : nil
        case .intersection(let a, let b), .difference(let a, let b):
            return CharSet.union([a, b]).boundaries
        case .complement(let a), .caseExact(let a):
            return a.boundaries
        }
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
        case .items(let items):
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
            if let items = inner.plainItems {
                if items == verticalSpaceItems { return "\\V" }
                return items.isEmpty ? anyCharacter : "[^" + items.map(classText).joined() + "]"
            }
            return "(?:(?!" + emit(inner, caseless: caseless) + ")" + anyCharacter + ")"
        case .caseExact(let inner):
            let text = emit(inner, caseless: false)
            return caseless ? "(?-i:" + text + ")" : text
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
