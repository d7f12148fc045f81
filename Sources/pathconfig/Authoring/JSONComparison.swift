import PathConfiguration

/// One place where values disagree: the path, and the value on each side
/// (nil where the key is absent), in the order the sides were given.
struct ValueDifference: Hashable, Sendable {
    let path: KeyPath
    /// One value per side; nil when that side has no such key.
    let values: [JSONValue?]
    /// For a typed read (`PropertyComparison`): what each side wrote for
    /// the key (nil where it wrote nothing), from which its app read
    /// `values`. nil when the values are compared as written.
    var written: [JSONValue?]? = nil

    /// True when `values` are typed reads.
    var isTyped: Bool { written != nil }

    /// The difference in a JSON report: `path`, then `extra`, then each
    /// side's value under its name in `names` (left out where absent), in
    /// an object `nestedIn` names when given; for a typed read, `typed:
    /// true` and `written`, each side's written value under its name.
    func json(_ names: [String], extra: JSONObject = [:], nestedIn: String? = nil) -> JSONValue {
        var o: JSONObject = ["path": path.json]
        o.merge(extra)
        if let nestedIn { o[nestedIn] = .object(Self.named(names, values)) } else { o.merge(Self.named(names, values)) }
        if let written {
            o["typed"] = .bool(true)
            o["written"] = .object(Self.named(names, written))
        }
        return .object(o)
    }

    /// Each of `values` under its name in `names`, left out where nil.
    static func named(_ names: [String], _ values: [JSONValue?]) -> JSONObject {
        var o = JSONObject()
        for (name, value) in zip(names, values) { if let value { o[name] = value } }
        return o
    }
}

/// Compares JSON values as the apps read them, and lists where several
/// disagree, key by key.
///
/// Equality is by meaning, not by text: object keys in any order, numbers
/// by value (`1`, `1.0` and `1e0` are equal; integers beyond 64 bits by
/// their digits), arrays element by element in order. Types never convert:
/// `true` and `"true"` differ (turbo-android stores every value as a string,
/// and a check should show it). Strings and keys are compared by their code
/// points, as the Android apps and every C host compare them: `"é"` and
/// `"e\u{301}"` differ (Swift's `==` would make them equal).
enum JSONComparison {
    /// Whether `a` and `b` mean the same JSON value.
    static func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.string(let x), .string(let y)): return String.sameBytes(x, y)
        case (.number(let x), .number(let y)): return equalNumbers(x, y)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { key, value in y[key].map { equal(value, $0) } ?? false }
        default: return false
        }
    }

    /// Whether every value of `values` is present and the same (true for none).
    static func allEqual(_ values: [JSONValue?]) -> Bool {
        guard let first = values.first else { return true }
        return values.allSatisfy { v in
            guard let a = first, let b = v else { return first == nil && v == nil }
            return equal(a, b)
        }
    }

    /// Where `sides` (one properties object each; nil for a side that has
    /// none) disagree, sorted by path. Where every side holds an object the
    /// comparison goes key by key into it, so a change to `headers.Accept`
    /// is reported there and not as the whole `headers`; anywhere else the
    /// values are compared whole.
    ///
    /// - Parameter keysOf: the side whose keys alone are compared (a subset
    ///   check: keys only the other sides have are left out, at every
    ///   depth); nil compares the union of every side's keys.
    static func differences(_ sides: [JSONValue?], keysOf: Int? = nil) -> [ValueDifference] {
        var out: [ValueDifference] = []
        collect(sides, at: KeyPath([]), keysOf: keysOf, into: &out)
        return out.sorted { $0.path < $1.path }
    }

    private static func collect(_ sides: [JSONValue?], at path: KeyPath, keysOf: Int?, into out: inout [ValueDifference]) {
        let objects = sides.compactMap { $0?.objectValue }
        guard objects.count == sides.count, !sides.isEmpty else {
            if !allEqual(sides) { out.append(ValueDifference(path: path, values: sides)) }
            return
        }
        let chosen = keysOf.map { [objects[$0]] } ?? objects
        // Keys told apart by their code points, as objects hold them: `"é"` and `"e\u{301}"` are two.
        var seen: Set<[UInt8]> = []
        for key in chosen.flatMap(\.keys) where seen.insert(Array(key.utf8)).inserted {
            collect(objects.map { $0[key] }, at: KeyPath(path.components + [key]), keysOf: keysOf, into: &out)
        }
    }

    private static func equalNumbers(_ a: JSONNumber, _ b: JSONNumber) -> Bool {
        if a.text == b.text { return true }
        if let x = a.int64Value, let y = b.int64Value { return x == y }
        // Integers too large for 64 bits compare by their digits; anything
        // else (fractions, exponents) by the nearest double.
        if a.isInteger, b.isInteger { return canonicalInteger(a.text) == canonicalInteger(b.text) }
        return a.doubleValue == b.doubleValue
    }

    private static func canonicalInteger(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let digits = text.drop(while: { $0 == "-" }).drop(while: { $0 == "0" })
        if digits.isEmpty { return "0" }
        return (negative ? "-" : "") + digits
    }
}
