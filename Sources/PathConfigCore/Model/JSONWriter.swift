/// Serialises `JSONValue`s as JSON text.
///
/// Output is compact by default (no spaces), or pretty with two-space indent.
/// Keys keep their order, numbers their literal text; strings are escaped per
/// RFC 8259 (quote, backslash, control characters), other characters are
/// written as UTF-8, and `/` is not escaped.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func compact(_ value: JSONValue) -> String { text(value, indent: nil) }

    /// The compact JSON text of an object.
    public static func compact(_ object: JSONObject) -> String { compact(.object(object)) }

    /// The JSON text of `value`, indented by two spaces per level.
    public static func pretty(_ value: JSONValue) -> String { text(value, indent: 2) }

    private static func text(_ value: JSONValue, indent: Int?) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out, indent: indent, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text of `value` to `out`.
    public static func write(_ value: JSONValue, into out: inout [UInt8], indent: Int?, level: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.text.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent, level + 1)
                write(item, into: &out, indent: indent, level: level + 1)
            }
            if !items.isEmpty { newline(&out, indent, level) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, entry) in object.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, indent, level + 1)
                writeString(entry.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if indent != nil { out.append(UInt8(ascii: " ")) }
                write(entry.value, into: &out, indent: indent, level: level + 1)
            }
            if !object.isEmpty { newline(&out, indent, level) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ indent: Int?, _ level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// `s` as a quoted, escaped JSON string, for messages that quote input:
    /// a NUL, a line break or a quote inside it cannot cut or garble the
    /// message (C hosts read messages as NUL-terminated strings), and the text
    /// reads as it is written in the JSON document.
    public static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        writeString(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
