import Foundation
import PathConfiguration

// Loading the same configuration pretty-printed and minified (one line, as
// servers send it): the two must cost the same, since a location is worked
// out only when a message needs one.

/// `json` with every space, tab and line break outside strings removed.
func minified(_ json: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(json.count)
    var inString = false, escaped = false
    for b in json {
        if inString {
            out.append(b)
            if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
        } else if b == UInt8(ascii: "\"") {
            inString = true
            out.append(b)
        } else if b != 0x20, b != 0x09, b != 0x0A, b != 0x0D {
            out.append(b)
        }
    }
    return out
}

/// A pretty-printed configuration of `count` one-pattern rules, as large as
/// the documented `maxRules` allows.
func generatedRules(_ count: Int) -> [UInt8] {
    var s = "{\n  \"rules\": [\n"
    for i in 0..<count {
        s += "    {\n      \"patterns\": [\n        \"^/r\(i)/items/\\\\d+$\"\n      ],\n      \"properties\": {\n        \"i\": \(i)\n      }\n    }"
        s += i + 1 < count ? ",\n" : "\n"
    }
    s += "  ]\n}\n"
    return Array(s.utf8)
}

/// One row per size: median load time of each form, and their ratio.
func loadTable(sizes: [Int], generated: [Int], corpus: String, rounds: Int) throws -> String {
    var table = """

    ## Loading: pretty-printed against minified

    The same configuration loaded (parsed and every pattern compiled, default options) from its pretty-printed \
    form and from its minified form (one line), alternating in each round; medians over the rounds. The shared \
    corpora are `rules-N.json`; the generated ones have N one-pattern rules (200,000 is the default `maxRules`).

    | rules | bytes (pretty / minified) | pretty (ms) | minified (ms) | minified / pretty |
    |---:|---:|---:|---:|---:|

    """
    let inputs = try sizes.map { ("\($0)", Array(try Data(contentsOf: URL(fileURLWithPath: "\(corpus)/rules-\($0).json")))) }
        + generated.map { ("\($0) (generated)", generatedRules($0)) }
    for (name, pretty) in inputs {
        let mini = minified(pretty)
        var times: ([Double], [Double]) = ([], [])
        for _ in 0..<(pretty.count > 8 << 20 ? 3 : rounds) {
            var t0 = now()
            _ = try PathConfiguration(json: pretty)
            times.0.append(now() - t0)
            t0 = now()
            _ = try PathConfiguration(json: mini)
            times.1.append(now() - t0)
        }
        let (p, m) = (median(times.0), median(times.1))
        let row = "| \(name) | \(pretty.count) / \(mini.count) | \(String(format: "%.1f", p * 1e3)) | \(String(format: "%.1f", m * 1e3)) | \(String(format: "%.2f", m / p)) |\n"
        FileHandle.standardError.write(Data(row.utf8))
        table += row
    }
    return table
}
