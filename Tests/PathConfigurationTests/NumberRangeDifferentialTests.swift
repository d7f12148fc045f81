import Foundation
import PathConfiguration
import Testing

/// swift-corelibs-foundation's `JSONSerialization` turns every number of a
/// document into an `NSNumber` once the whole document is parsed
/// (`NSNumber.fromJSONNumber`: Int64 or UInt64, else Decimal for long
/// mantissas, else `Double(literal)`), and refuses the document ("Number ...
/// is not representable in Swift.") when the `Double` is infinite. The iOS
/// apps then ignore the file; the iOS profiles refuse it too. These tests run
/// the library and the JSONSerialization of this machine on the same bytes.
@Suite("Numbers beyond a Double, as JSONSerialization reads them")
struct NumberRangeDifferentialTests {
    static func document(_ literal: String) -> String {
        "{\"rules\": [{\"patterns\": [\"/a\"], \"properties\": {\"n\": \(literal)}}]}"
    }

    static func foundationParses(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil
    }

    static func loadError(_ text: String, profile: Profile) -> ConfigurationError? {
        do { _ = try PathConfiguration(json: text, options: LoadOptions(profile: profile)); return nil } catch { return error }
    }

    /// The threshold at which a decimal rounds to infinity: 2^1024 - 2^970,
    /// written out (309 digits).
    static let roundingThreshold = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792"

    /// Literals chosen around the limits: Int64, UInt64, Decimal's 38 digits
    /// and exponents of ±128, Double's largest value and the threshold above
    /// it, exponents that overflow an Int, long fractions, `-0`, and upper-
    /// case `E` (which `fromJSONNumber` does not look for).
    static let crafted: [String] = {
        var list = ["0", "-0", "-0.0", "0e999999", "-0E99999", "1e308", "1e309", "-1e309", "1e400", "-1e400", "1E309", "1E+308", "1e+309",
                    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "-1.7976931348623159e308",
                    "17976931348623157e292", "17976931348623159e292", "0.1e310", "0.1e309", "10e307", "100e307",
                    "1e00000000000000000000308", "1e00000000000000000000309", "1e99999999999999999999", "1e-99999999999999999999",
                    "1e-400", "4.9e-324", "2e-324", "1e-325", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                    "-9223372036854775809", "18446744073709551615", "18446744073709551616", "99999999999999999999",
                    "123456789012345678901234567890", "1.00000000000000000E400", "1.00000000000000000e400", "100000000000000000E400",
                    "1234567890123456789E200", "9999999999999999999E290", "9999999999999999999e290", "0.00000000000000000001E330",
                    "0.0000000000000000000000000000001e340", "1.0E309", String(repeating: "9", count: 308), String(repeating: "9", count: 309),
                    "1" + String(repeating: "0", count: 308), "1" + String(repeating: "0", count: 309), String(repeating: "1", count: 401),
                    "-" + String(repeating: "9", count: 401), "0." + String(repeating: "1", count: 500), "1." + String(repeating: "0", count: 1000) + "1",
                    "0." + String(repeating: "0", count: 400) + "1E401", "0." + String(repeating: "0", count: 400) + "1e410",
                    roundingThreshold, String(roundingThreshold.dropLast()) + "1", "-" + roundingThreshold,
                    roundingThreshold.prefix(1) + "." + roundingThreshold.dropFirst() + "e308",
                    "1" + String(repeating: "0", count: 50) + "E300", "1" + String(repeating: "0", count: 50) + "e258",
                    "1" + String(repeating: "0", count: 50) + "e259"]
        list += ["1e127", "1e128", "1e-128", "1e-129"].map { String(repeating: "7", count: 20) + "." + $0 }
        return list
    }()

    /// Literals built from parts: a sign, an integer part of a length near a
    /// limit, an optional fraction, an optional exponent of either case.
    static func generated(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix(state: seed)
        func pick<T>(_ options: [T]) -> T { options[Int(rng.next() % UInt64(options.count))] }
        func digits(_ n: Int) -> String {
            let style = rng.next() % 3
            return String((0..<n).map { i -> Character in
                switch style {
                case 0: return i == 0 ? "1" : "0"
                case 1: return "9"
                default: return Character(String(i == 0 ? 1 + rng.next() % 9 : rng.next() % 10))
                }
            })
        }
        let intLengths = [1, 2, 17, 18, 19, 20, 21, 38, 39, 40, 100, 290, 307, 308, 309, 310, 400]
        let exponents = ["0", "1", "127", "128", "129", "200", "290", "300", "307", "308", "309", "310", "324", "325", "400", "99999",
                         "00000308", "00000309", "99999999999999999999"]
        return (0..<count).map { _ in
            var s = pick(["", "-"])
            s += rng.next() % 6 == 0 ? "0" : digits(pick(intLengths))
            if rng.next() % 2 == 0 { s += "." + digits(pick([1, 5, 17, 40, 300])) }
            if rng.next() % 4 != 0 { s += pick(["e", "E"]) + pick(["", "+", "-"]) + pick(exponents) }
            return s
        }
    }

    @Test("hotwire-ios loads a document exactly when JSONSerialization parses it, on crafted and generated numbers")
    func loadsIffFoundationParses() {
        var refused = 0, compared = 0
        for literal in Self.crafted + Self.generated(count: 3000, seed: 42) {
            let text = Self.document(literal)
            let foundation = Self.foundationParses(text)
            let error = Self.loadError(text, profile: .hotwireIOS)
            #expect((error == nil) == foundation, "\(literal.prefix(80)) (\(literal.utf8.count) characters): Foundation \(foundation ? "parses" : "refuses"), the library \(error.map { "refuses: \($0)" } ?? "loads")")
            if !foundation { refused += 1 }
            compared += 1
        }
        // Both outcomes are well represented.
        #expect(refused > 500)
        #expect(compared - refused > 500)
    }

    @Test("the refusal is at the number, and says the app's JSONSerialization refuses it", arguments: [Profile.hotwireIOS, .turboIOS, .siesta])
    func refusalMessage(_ profile: Profile) throws {
        let text = "{\"rules\": [],\n  \"settings\": {\"max\": -1e309}}"
        #expect(!Self.foundationParses(text))
        let e = try #require(Self.loadError(text, profile: profile))
        #expect(e.code == .invalidJSON)
        #expect(e.location?.line == 2)
        #expect(e.location?.column == 23)
        #expect(e.message.contains("-1e309"), "\(e.message)")
        #expect(e.message.contains("\(profile.rawValue)'s JSONSerialization refuses the document"), "\(e.message)")
    }

    @Test("a 401-digit integer is refused, its literal shortened in the message")
    func longInteger() throws {
        let literal = String(repeating: "1", count: 401)
        let e = try #require(Self.loadError(Self.document(literal), profile: .hotwireIOS))
        #expect(e.location?.column == 53)
        #expect(!e.message.contains(literal), "\(e.message)")
        #expect(e.message.contains("401 characters"), "\(e.message)")
    }

    @Test("anywhere in the document: in an array, a key the apps do not read, the last of a repeated key; not in a value a later repeat replaces", arguments: [
        ("{\"rules\": [], \"x\": [1, [2, {\"y\": 1e400}]]}", false),
        ("{\"rules\": [{\"patterns\": [], \"properties\": {}, \"description\": 1E999}]}", false),
        ("{\"rules\": [], \"x\": 1, \"x\": 1e400}", false),
        // Foundation keeps the last value of a repeated key, and converts only it.
        ("{\"rules\": [], \"x\": 1e400, \"x\": 1}", true),
        ("{\"rules\": [], \"x\": {\"y\": 1e400}, \"x\": 1}", true),
        ("{\"rules\": [], \"x\": 1e308}", true),
    ])
    func placement(_ text: String, loads: Bool) {
        #expect(Self.foundationParses(text) == loads)
        #expect((Self.loadError(text, profile: .hotwireIOS) == nil) == loads)
    }

    @Test("Android profiles read numbers as Gson does: unchanged", arguments: [Profile.hotwireAndroid, .turboAndroid])
    func android(_ profile: Profile) {
        #expect(Self.loadError(Self.document("1e400"), profile: profile) == nil)
        #expect(Self.loadError(Self.document(String(repeating: "1", count: 401)), profile: profile) == nil)
    }
}
