import struct CPathConfigHeader.pathconfig_warning
import Foundation
import PathConfiguration
@testable import PathConfigurationC
import Testing

/// The C text at `p`, nil for NULL.
private func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }

/// The calling thread's last error code.
private func lastCode() -> Int32 { pathconfig_last_error().load(as: Int32.self) }

/// The lines of include/pathconfig.h with each `#include "..."` replaced by
/// the lines of the part it names (relative to the including file, as the
/// compiler finds it), recursively, each file once: the whole C API.
private func headerLines() throws -> [Substring] {
    let root = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    var seen: Set<String> = []
    func expand(_ path: String) throws -> [Substring] {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        guard seen.insert(path).inserted else { return [] }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var lines: [Substring] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count == 2, words[0] == "#include", words[1].count > 2, words[1].hasPrefix("\""),
               words[1].hasSuffix("\"") {
                lines += try expand(directory + "/" + words[1].dropFirst().dropLast())
            } else {
                lines.append(line)
            }
        }
        return lines
    }
    let lines = try expand(root + "/include/pathconfig.h")
    #expect(seen.count > 1, "include/pathconfig.h includes no part")
    return lines
}

/// `#define PATHCONFIG_<prefix>_NAME N` constants of include/pathconfig.h and its parts.
private func headerConstants(_ prefix: String) throws -> [String: Int32] {
    var found: [String: Int32] = [:]
    for line in try headerLines() {
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 3, words[0] == "#define", words[1].hasPrefix("PATHCONFIG_\(prefix)_"),
              let value = Int32(words[2]) else { continue }
        found[String(words[1].dropFirst("PATHCONFIG_\(prefix)_".count))] = value
    }
    return found
}

/// The header's spelling of a core name: "duplicate-key" -> "DUPLICATE_KEY".
private func constantName(_ name: String) -> String {
    name.uppercased().replacingOccurrences(of: "-", with: "_")
}

@Suite("What the C ABI lists is exactly the core's tables")
struct CatalogTests {
    @Test("profiles: every Profile, in order, with its platform")
    func profiles() {
        #expect(pathconfig_profile_count() == UInt(Profile.allCases.count))
        for (i, profile) in Profile.allCases.enumerated() {
            #expect(text(pathconfig_profile_name(UInt(i))) == profile.rawValue)
            #expect(text(pathconfig_profile_platform(UInt(i))) == profile.platform.rawValue)
        }
        #expect(Profile.allCases.first == LoadOptions().profile, "profile 0 is the default")
        let past = UInt(Profile.allCases.count)
        #expect(pathconfig_profile_name(past) == nil && lastCode() == 8)
        #expect(pathconfig_profile_platform(past) == nil && lastCode() == 8)
        #expect(pathconfig_profile_name(0) != nil && lastCode() == 0, "success clears the last error")
    }

    @Test("release lines: every line of every app, its name loading as a profile, its tags and commit, the bare name's line")
    func releases() throws {
        for (i, profile) in Profile.allCases.enumerated() {
            let lines = profile.app.releases
            #expect(pathconfig_profile_release_count(UInt(i)) == UInt(lines.count))
            for (j, line) in lines.enumerated() {
                let name = try #require(text(pathconfig_profile_release_name(UInt(i), UInt(j))))
                #expect(try Profile(name: name).release == line, "\(name)")
                #expect(text(pathconfig_profile_release_tags(UInt(i), UInt(j))) == line.tags.joined(separator: " "))
                #expect(text(pathconfig_profile_release_commit(UInt(i), UInt(j))) == line.commit)
            }
            #expect(lines[Int(pathconfig_profile_default_release(UInt(i)))] == profile.release)
            #expect(pathconfig_profile_release_name(UInt(i), UInt(lines.count)) == nil && lastCode() == 8)
        }
        let past = UInt(Profile.allCases.count)
        #expect(pathconfig_profile_release_count(past) == 0)
        #expect(pathconfig_profile_release_tags(past, 0) == nil && lastCode() == 8)
        // A versioned name is the app's for the typed-key tables.
        #expect(pathconfig_typed_key_value_count(Int32(TypedKey.presentation.index), "hotwire-android@1.1.3") == 8)
        #expect(pathconfig_typed_key_value_count(Int32(TypedKey.presentation.index), "hotwire-android@9") == 0 && lastCode() == 8)
    }

    @Test("backends: the core's built-in engines, in Backend order")
    func backends() {
        let builtIn = Backend.allCases.filter { Backend.builtIn[$0.rawValue] != nil }.map(\.rawValue)
        #expect(builtIn == ["pcre2"])
        #expect(pathconfig_backend_count() == UInt(builtIn.count))
        #expect((0..<builtIn.count).map { text(pathconfig_backend_name(UInt($0))) } == builtIn)
        #expect(builtIn.first == LoadOptions().engine.name, "backend 0 is the default")
        #expect(pathconfig_backend_name(UInt(builtIn.count)) == nil && lastCode() == 8)
    }

    @Test("typed keys: every TypedKey with its kind, values and defaults per profile")
    func typedKeys() throws {
        let kinds = try headerConstants("TYPED")
        #expect(pathconfig_typed_key_count() == UInt(TypedKey.allCases.count))
        let numbers = try headerConstants("KEY")
        for (i, key) in TypedKey.allCases.enumerated() {
            let index = Int32(i)
            #expect(key.index == i && TypedKey(index: i) == key, "TypedKey.index and init(index:) of \(key)")
            #expect(numbers[key.rawValue.uppercased()] == index, "PATHCONFIG_KEY_\(key.rawValue.uppercased()) in the header")
            #expect(text(pathconfig_typed_key_name(index)) == key.rawValue)
            let expectedKind: String
            switch key.kind {
            case .string: expectedKind = "STRING"
            case .boolean: expectedKind = "BOOL"
            case .enumeration: expectedKind = "ENUM"
            }
            #expect(pathconfig_typed_key_kind(index) == kinds[expectedKind], "\(key)")
            for profile in Profile.allCases {
                profile.rawValue.withCString { name in
                    let values = key.allowedValues(on: profile.platform)
                    #expect(pathconfig_typed_key_value_count(index, name) == UInt(values.count))
                    #expect((0..<values.count).map { text(pathconfig_typed_key_value(index, name, UInt($0))) } == values)
                    #expect(pathconfig_typed_key_value(index, name, UInt(values.count)) == nil && lastCode() == 8)
                    switch key.defaultValue(on: profile.platform) {
                    case .bool(let b):
                        #expect(pathconfig_typed_key_default_bool(index, name) == (b ? 1 : 0))
                        #expect(pathconfig_typed_key_default_string(index, name) == nil && lastCode() == 11)
                    case .string(let s):
                        #expect(text(pathconfig_typed_key_default_string(index, name)) == s)
                        #expect(pathconfig_typed_key_default_bool(index, name) == 0 && lastCode() == 11, "0 with the last error, never negative")
                    case .null:
                        #expect(pathconfig_typed_key_default_string(index, name) == nil && lastCode() == 0)
                    default:
                        Issue.record("default of \(key) is \(key.defaultValue(on: profile.platform))")
                    }
                }
            }
        }
        #expect(numbers.count == TypedKey.allCases.count, "one PATHCONFIG_KEY_* per typed key")
        #expect(TypedKey(index: -1) == nil && TypedKey(index: TypedKey.allCases.count) == nil)
        let past = Int32(TypedKey.allCases.count)
        #expect(pathconfig_typed_key_name(past) == nil && lastCode() == 8)
        #expect(pathconfig_typed_key_name(-1) == nil && lastCode() == 8)
        #expect(pathconfig_typed_key_kind(past) == 0 && lastCode() == 8)
        #expect(pathconfig_typed_key_value_count(0, nil) == 0 && lastCode() == 8)
        #expect(pathconfig_typed_key_default_bool(Int32(TypedKey.animated.index), "ios") == 0 && lastCode() == 8, "a platform is not a profile")
        #expect(pathconfig_typed_key_value(past, "hotwire-ios", 0) == nil && lastCode() == 8)
    }

    @Test("warning kinds: every ConfigurationWarning.Kind, numbered from 1 as the header's constants")
    func warningKinds() throws {
        let constants = try headerConstants("WARNING").filter { $0.key != "VERSION" }
        var expected: [String: Int32] = [:]
        for (i, kind) in ConfigurationWarning.Kind.allCases.enumerated() {
            let number = Int32(i + 1)
            #expect(text(pathconfig_warning_kind_name(number)) == kind.rawValue)
            expected[constantName(kind.rawValue)] = number
        }
        #expect(constants == expected, "the header's PATHCONFIG_WARNING_* constants")
        let past = Int32(ConfigurationWarning.Kind.allCases.count + 1)
        #expect(pathconfig_warning_kind_name(past) == nil && lastCode() == 8)
        #expect(pathconfig_warning_kind_name(0) == nil && pathconfig_warning_kind_name(-1) == nil)
    }

    @Test("warnings as structs carry what PathConfiguration.warnings has")
    func warningStructs() throws {
        let json = "{\"settings\": 1, \"rules\": [{\"patterns\": [\"([\"], \"globs\": [\"/**\"], \"properties\": {\"a\": 1, \"a\": 2}}]}"
        let config = json.withCString { pathconfig_load_json($0, UInt(strlen($0)), "{\"lenient\": true}", nil) }
        let handle = try #require(config)
        defer { pathconfig_release(handle) }
        let warnings = try ConfigHandle.handle(handle).configuration.warnings
        #expect(Set(warnings.map { $0.kind }) == Set(ConfigurationWarning.Kind.allCases), "one of each kind")
        #expect(pathconfig_warning_count(handle) == UInt(warnings.count))
        var out = pathconfig_warning()
        for (i, w) in warnings.enumerated() {
            out.version = 99  // a newer caller: filled as version 1
            #expect(pathconfig_warning_get(handle, UInt(i), &out) == 0)
            #expect(out.version == 1)
            #expect(text(pathconfig_warning_kind_name(out.kind)) == w.kind.rawValue)
            #expect(out.line == Int32(w.location?.line ?? 0))
            #expect(out.column == Int32(w.location?.column ?? 0))
            #expect(out.rule_index == Int32(w.ruleIndex ?? -1))
            #expect(out.pattern_index == Int32(w.patternIndex ?? -1))
            let message = out.message
            #expect(message.map { String(cString: $0) } == w.message)
            #expect(pathconfig_warning_get(handle, UInt(i), &out) == 0)
            #expect(out.message == message, "made once")
        }
        out.version = 1
        #expect(pathconfig_warning_get(handle, UInt(warnings.count), &out) == 8)
        out.version = 0
        #expect(pathconfig_warning_get(handle, 0, &out) == 8, "version 0 is refused")
        #expect(pathconfig_warning_get(handle, 0, nil) == 8)
        #expect(pathconfig_warning_get(nil, 0, &out) == 8)
        #expect(pathconfig_warning_count(nil) == 0 && lastCode() == 8)
    }
}

extension CatalogTests {
    @Test("error codes: each CCode's raw value is the header's constant of its name; a ConfigurationError.Code is the CCode of its number")
    func errorCodes() throws {
        var constants: [String: Int32] = [:]
        for line in try headerLines() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 3, words[0] == "#define", words[1].hasPrefix("PATHCONFIG_"), let value = Int32(words[2]) {
                constants[String(words[1])] = value
            }
        }
        for code in CCode.allCases {
            #expect(constants["\(code.name)"] == code.rawValue, "\(code.name)")
        }
        #expect(constants.keys.filter { $0.hasPrefix("PATHCONFIG_E_") }.count + 1 == CCode.allCases.count,
                "one CCode for PATHCONFIG_OK and each PATHCONFIG_E_*")
        let expected: [ConfigurationError.Code: CCode] = [
            .invalidJSON: .json, .schema: .schema, .invalidPattern: .regex, .invalidOption: .options, .io: .io, .limit: .limit,
            .backendUnavailable: .backend,
        ]
        #expect(expected.count == ConfigurationError.Code.allCases.count)
        for code in ConfigurationError.Code.allCases {
            #expect(CCode(code) == expected[code], "\(code)")
        }
    }
}
