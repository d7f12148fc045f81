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

/// For each size, the median time to load the configuration (parse and
/// compile every pattern, the benchmark's options) from its pretty-printed
/// form and from its minified form, alternating in each round: one JSON line
/// each. The generated sizes run 3 rounds when their file passes 8 MiB.
func loadBench(sizes: [Int], generated: [Int], corpus: String, rounds: Int) throws {
    let options = try LoadOptions(json: benchOptionsJSON)
    let inputs = try sizes.map { ($0, false, Array(try Data(contentsOf: URL(fileURLWithPath: "\(corpus)/rules-\($0).json")))) }
        + generated.map { ($0, true, generatedRules($0)) }
    for (size, isGenerated, pretty) in inputs {
        let mini = minified(pretty)
        var times: ([Double], [Double]) = ([], [])
        for _ in 0..<(pretty.count > 8 << 20 ? min(3, rounds) : rounds) {
            var t0 = now()
            _ = try PathConfiguration(json: pretty, options: options)
            times.0.append(now() - t0)
            t0 = now()
            _ = try PathConfiguration(json: mini, options: options)
            times.1.append(now() - t0)
        }
        emit([
            "load": size, "generated": isGenerated, "pretty_bytes": pretty.count, "minified_bytes": mini.count,
            "pretty_ms": median(times.0) * 1e3, "minified_ms": median(times.1) * 1e3, "rounds": times.0.count,
        ])
    }
}
