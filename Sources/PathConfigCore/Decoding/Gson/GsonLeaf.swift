/// A value as hotwire-android 1.2 and later hold it: the object Gson's
/// `ObjectTypeAdapter` made of it under `ToNumberPolicy.LONG_OR_DOUBLE`
/// (a `String`, a `Boolean`, a `Long` for an integer that fits one, else a
/// `Double`, a `LinkedTreeMap`, an `ArrayList`), and what its `toString()`
/// gives, which the app's string accessors return.
package enum GsonLeaf {
    /// The Java class of the leaf Gson makes of `value`.
    static func className(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "java.lang.Boolean"
        case .number(let n): return long(n) != nil ? "java.lang.Long" : "java.lang.Double"
        case .string: return "java.lang.String"
        case .array: return "java.util.ArrayList"
        case .object: return "com.google.gson.internal.LinkedTreeMap"
        }
    }

    /// TypeAdapters.STRING on `value`: a string as it is, a number as its
    /// literal (JsonReader.nextString), a boolean as `true` or `false`; nil
    /// for null, an array or an object (Gson throws for the last two).
    package static func string(of value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n.text
        case .bool(let b): return b ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    /// `toString()` of the leaf Gson makes of `value`: a map as
    /// `AbstractMap` writes it (`{k=v, k2=v2}`), a list as `[a, b]`, a
    /// number as `Long.toString` or `Double.toString`.
    static func javaString(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return long(n).map(String.init) ?? javaDouble(n.doubleValue)
        case .string(let s): return s
        case .array(let items): return "[" + items.map(javaString).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.map { $0.key + "=" + javaString(of: $0.value) }.joined(separator: ", ") + "}"
        }
    }

    /// The number as `Long.parseLong` reads its text (LONG_OR_DOUBLE tries
    /// it first, on text without a `.`), nil where that throws.
    private static func long(_ n: JSONNumber) -> Int64? {
        n.text.utf8.contains(UInt8(ascii: ".")) ? nil : Int64(n.text)
    }

    /// `Double.toString(d)`: the shortest digits that identify `d`, as
    /// plain decimals with at least one fraction digit for 10⁻³ ≤ |d| < 10⁷
    /// (`5.0`, `0.001`), else as `d.dddE±n` (`1.2345678901234567E19`).
    static func javaDouble(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == 0 { return d.sign == .minus ? "-0.0" : "0.0" }
        let sign = d < 0 ? "-" : ""
        // Swift's description has the shortest round-tripping digits.
        let text = "\(d.magnitude)"
        let parts = text.split(separator: "e", maxSplits: 1)
        let exponent = parts.count == 2 ? Int(parts[1])! : 0
        let mantissa = parts[0]
        var digits = Array(mantissa.filter { $0 != "." })
        // The decimal point sits after `point` digits.
        var point = (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count) + exponent
        while digits.first == "0" { digits.removeFirst(); point -= 1 }
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let all = String(digits)
        if d.magnitude >= 1e-3 && d.magnitude < 1e7 {
            if point <= 0 { return sign + "0." + String(repeating: "0", count: -point) + all }
            if point >= digits.count { return sign + all + String(repeating: "0", count: point - digits.count) + ".0" }
            return sign + String(digits[..<point]) + "." + String(digits[point...])
        }
        let fraction = digits.count > 1 ? String(digits[1...]) : "0"
        return sign + String(digits[0]) + "." + fraction + "E" + String(point - 1)
    }
}
