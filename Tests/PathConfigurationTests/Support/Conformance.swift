import PathConfiguration
import PathConfigurationFoundation

/// The conformance cases (Tests/Fixtures/conformance: the reference apps'
/// own test cases, as data).
enum Conformance {
    /// The repository root, from this file's path.
    static let repositoryRoot: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4) // Tests/PathConfigurationTests/Support/Conformance.swift
        return parts.joined(separator: "/")
    }()

    static var directory: String { repositoryRoot + "/Tests/Fixtures/conformance" }

    static func load(_ name: String) -> JSONObject {
        let path = directory + "/" + name
        guard let bytes = try? readFile(path), let value = try? JSONValue(parsing: bytes), let object = value.objectValue else {
            fatalError("cannot read conformance file \(path); the repository's Tests/Fixtures is missing")
        }
        return object
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ConfigurationError(code: .io, message: path) }
        defer { fclose(file) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
        }
        return out
    }

    static let ios = load("ios.json")
    static let android = load("android.json")
    static let siesta = load("siesta.json")

    /// Both engines, by name.
    static let engines: [any RegexEngine] = [PCRE2Engine(), FoundationEngine()]
    static let engineNames = engines.map(\.name)
    static func engine(_ name: String) -> any RegexEngine { engines.first { $0.name == name }! }

    static func profile(forLibrary library: String) -> Profile {
        switch library {
        case "turbo-ios": return .turboIOS
        case "hotwire-native-ios": return .hotwireIOS
        case "hotwire-native-android": return .hotwireAndroid
        case "turbo-android": return .turboAndroid
        default: fatalError("unknown library \(library)")
        }
    }

    /// The fixture named `name` as JSON text.
    static func fixtureJSON(_ file: JSONObject, _ name: String) -> String {
        guard let fixture = file["fixtures"]?.objectValue?[name] else { fatalError("no fixture \(name)") }
        return JSONWriter.compact(fixture)
    }

    /// The cases of `key` in `file`, each labelled for test output.
    static func cases(_ file: JSONObject, _ key: String, where filter: (JSONObject) -> Bool = { _ in true }) -> [Case] {
        (file[key]?.arrayValue ?? []).enumerated().compactMap { i, v in
            guard let o = v.objectValue, filter(o) else { return nil }
            return Case(index: i, object: o)
        }
    }

    /// One case, printable in test names.
    struct Case: CustomTestStringConvertible, Sendable {
        let index: Int
        let object: JSONObject
        subscript(key: String) -> JSONValue? { object[key] }
        var testDescription: String {
            if let url = object["url"]?.stringValue {
                let pattern = object["pattern"]?.stringValue ?? object["predicate"]?.stringValue ?? "-"
                return "#\(index) \(object["pattern_kind"]?.stringValue ?? "entries") \(pattern) \(object["method"]?.stringValue ?? "") \(url)"
            }
            let who = object["library"]?.stringValue ?? object["implementation"]?.stringValue ?? ""
            return "#\(index) \(who) \(object["fixture"]?.stringValue ?? "") \(object["input"]?.stringValue ?? "")"
        }
    }
}

/// JSON equality that ignores key order (the reference apps' maps are unordered).
func unorderedEqual(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (.object(let x)?, .object(let y)?):
        return x.count == y.count && x.allSatisfy { unorderedEqual($0.value, y[$0.key]) }
    case (.array(let x)?, .array(let y)?):
        return x.count == y.count && zip(x, y).allSatisfy { unorderedEqual($0, $1) }
    case (.number(let x)?, .number(let y)?):
        return x.doubleValue == y.doubleValue
    default:
        return a == b
    }
}

import Testing
#if canImport(Glibc)
import Glibc
#endif
