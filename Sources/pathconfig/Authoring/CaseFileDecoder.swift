import PathConfiguration

/// A problem with a cases file, at a place in it.
struct CaseFileError: Error, Sendable {
    /// Where, when the problem has a place (not for a file that cannot be read).
    let location: SourceLocation?
    /// What is wrong, without the location.
    let message: String
}

/// Reads a cases file: JSON (trailing commas accepted, as in configurations)
/// of the form
///
///     {"cases": [{"url": "...", "properties": {...}, "typed": {...},
///                 "config"?: "...", "profile"?: "..." or [...], "method"?: "...", "options"?: {...},
///                 "match"?: "exact" | "subset", "description"?: "..."}]}
///
/// A case has `properties`, `typed` or both. `typed` names keys of the
/// core's typed catalog (`TypedKey`) with the value the app's accessor must
/// read: a key the catalog lacks, or a value no accessor returns (a boolean
/// key's `"false"`, an unknown `modal_style`), is an error.
///
/// Every problem is reported with its line and column, all of them at once
/// rather than the first alone: unknown keys (a misspelt `propeties` would
/// otherwise make a case pass for nothing), mistyped values, unknown
/// profiles, methods or options (checked by the core's own option reader),
/// and repeated keys (which JSON tools read differently).
struct CaseFileDecoder {
    static let caseKeys = ["url", "properties", "typed", "config", "profile", "method", "options", "match", "description", "comment"]
    static let fileKeys = ["cases", "description", "comment"]

    private let source: SourceText
    private var errors: [CaseFileError] = []

    private init(_ bytes: [UInt8]) { source = SourceText(bytes) }

    /// Decodes `bytes`, read from the file named `path`; throws every
    /// problem found, in document order.
    static func decode(_ bytes: [UInt8], path: String) throws(CaseFileErrors) -> CaseFile {
        var decoder = CaseFileDecoder(bytes)
        let parsed: (root: JSONNode, duplicateKeys: [JSONDuplicateKey])
        do {
            parsed = try JSONNode.parse(bytes)
        } catch {
            throw CaseFileErrors(errors: [CaseFileError(location: error.location, message: error.message)])
        }
        for duplicate in parsed.duplicateKeys {
            let first = decoder.source.location(duplicate.firstOffset)
            decoder.fail(duplicate.offset, "key \(JSONWriter.quoted(duplicate.key)) repeated (first at line \(first.line), column \(first.column)); JSON tools disagree on which one counts")
        }
        let cases = decoder.file(parsed.root)
        if !decoder.errors.isEmpty {
            throw CaseFileErrors(errors: decoder.errors.sorted { ($0.location?.offset ?? 0) < ($1.location?.offset ?? 0) })
        }
        return CaseFile(path: path, cases: cases)
    }

    private mutating func fail(_ offset: Int, _ message: String) {
        errors.append(CaseFileError(location: source.location(offset), message: message))
    }

    private mutating func file(_ root: JSONNode) -> [TestCase] {
        guard case .object(let members) = root.kind else {
            fail(root.offset, "a cases file is an object with \"cases\", found \(root.typeName)")
            return []
        }
        unknownKeys(members, allowed: Self.fileKeys, what: "the top-level object")
        guard let cases = root.member("cases") else {
            fail(root.offset, "missing required key \"cases\" (an array of cases)")
            return []
        }
        guard case .array(let items) = cases.value.kind else {
            fail(cases.value.offset, "\"cases\" must be an array, found \(cases.value.typeName)")
            return []
        }
        return items.enumerated().compactMap { index, item in testCase(item, index: index) }
    }

    private mutating func unknownKeys(_ members: [JSONNode.Member], allowed: [String], what: String) {
        for m in members where !allowed.contains(m.key) {
            fail(m.keyOffset, "unknown key \(JSONWriter.quoted(m.key)) in \(what); expected one of \(allowed.joined(separator: ", "))")
        }
    }

    private mutating func testCase(_ node: JSONNode, index: Int) -> TestCase? {
        guard case .object(let members) = node.kind else {
            fail(node.offset, "case \(index) must be an object, found \(node.typeName)")
            return nil
        }
        let before = errors.count
        unknownKeys(members, allowed: Self.caseKeys, what: "case \(index)")
        if node.member("url") == nil { fail(node.offset, "case \(index) is missing required key \"url\"") }
        let url = string(node.member("url"), index: index)
        let expected = value(node.member("properties"), index: index, "an object") { $0.value.objectValue }
        let typed = typedValues(node.member("typed"), index: index)
        if node.member("properties") == nil {
            if let member = node.member("typed") {
                if member.value.members?.isEmpty == true {
                    fail(member.value.offset, "\"typed\" of case \(index) names no key, and the case has no \"properties\": it checks nothing")
                }
            } else {
                fail(node.offset, "case \(index) is missing required key \"properties\" (the expected properties; {} for none) or \"typed\" (the values the app's typed accessors read)")
            }
        }
        let description = string(node.member("description") ?? node.member("comment"), index: index)
        // The file (or http(s) URL) the case is checked against, as `--config` names one.
        let config = string(node.member("config"), index: index, { $0.isEmpty ? nil : $0 }) { _ in
            "name a file or an http(s):// URL, found \"\""
        }
        let profiles = profileList(node.member("profile"), index: index)
        let method = string(node.member("method"), index: index, HTTPMethod.normalized) {
            "be an HTTP method token such as GET or POST, found \(JSONWriter.quoted($0))"
        }
        let options = optionMembers(node.member("options"), index: index)
        let match = matchMode(node.member("match"), index: index)
        guard errors.count == before, let url else { return nil }
        return TestCase(index: index, location: source.location(node.offset), url: url, config: config, profiles: profiles, method: method,
                        options: options, expected: expected, typed: typed, match: match, description: description)
    }

    /// What `read` makes of `member`'s value; nil without `member`, and where
    /// `read` gives nil, after failing with `"KEY" of case N must be EXPECTED`.
    private mutating func value<T>(_ member: JSONNode.Member?, index: Int, _ expected: String, _ read: (JSONNode) -> T?) -> T? {
        guard let member else { return nil }
        guard let value = read(member.value) else {
            fail(member.value.offset, "\(JSONWriter.quoted(member.key)) of case \(index) must be \(expected), found \(member.value.typeName)")
            return nil
        }
        return value
    }

    private mutating func string(_ member: JSONNode.Member?, index: Int) -> String? {
        value(member, index: index, "a string") { if case .string(let s) = $0.kind { s } else { nil } }
    }

    /// `member`'s string as `read` takes it; where `read` gives nil, after
    /// failing with `"KEY" of case N must ` and what `must` says of the string.
    private mutating func string<T>(_ member: JSONNode.Member?, index: Int, _ read: (String) -> T?, must: (String) -> String) -> T? {
        guard let text = string(member, index: index), let member else { return nil }
        guard let value = read(text) else {
            fail(member.value.offset, "\(JSONWriter.quoted(member.key)) of case \(index) must \(must(text))")
            return nil
        }
        return value
    }

    /// The `typed` members: each a key of the typed catalog with a value its
    /// accessor can return on some platform (an enumeration's names,
    /// `true`/`false`, a string or null), each problem reported at its place.
    private mutating func typedValues(_ member: JSONNode.Member?, index: Int) -> [(key: TypedKey, value: JSONValue)] {
        guard let members = value(member, index: index, "an object of typed keys and values", { $0.members }) else { return [] }
        return members.compactMap { m -> (key: TypedKey, value: JSONValue)? in
            guard let key = TypedKey(rawValue: m.key) else {
                fail(m.keyOffset, "unknown typed key \(JSONWriter.quoted(m.key)) in case \(index); expected one of \(TypedKey.allCases.map(\.rawValue).joined(separator: ", "))")
                return nil
            }
            let value = m.value.value
            if let expected = Self.typedValueProblem(key, value) {
                fail(m.value.offset, "typed \(JSONWriter.quoted(m.key)) of case \(index) must be \(expected), found \(JSONWriter.compact(value))")
                return nil
            }
            return (key, value)
        }
    }

    /// What `value` should be for `key`'s accessor, when it is not a value
    /// the accessor returns on either platform; nil when it is.
    private static func typedValueProblem(_ key: TypedKey, _ value: JSONValue) -> String? {
        switch key.kind {
        case .enumeration:
            let names = (key.allowedValues(on: .ios) + key.allowedValues(on: .android)).uniqued()
            if let s = value.stringValue, names.contains(s) { return nil }
            return "one of " + names.map(JSONWriter.quoted).joined(separator: ", ")
        case .boolean:
            return value.boolValue == nil ? "true or false" : nil
        case .string:
            return value.stringValue == nil && value != .null ? "a string or null" : nil
        }
    }

    private mutating func profileList(_ member: JSONNode.Member?, index: Int) -> [Profile] {
        guard let member else { return [] }
        let names: [JSONNode]
        switch member.value.kind {
        case .string: names = [member.value]
        case .array(let items) where !items.isEmpty: names = items
        default:
            fail(member.value.offset, "\"profile\" of case \(index) must be a profile name or a non-empty array of them, found \(member.value.typeName)")
            return []
        }
        return names.compactMap { name -> Profile? in
            guard case .string(let text) = name.kind else {
                fail(name.offset, "a profile name in case \(index) must be a string, found \(JSONWriter.compact(name.value))")
                return nil
            }
            do throws(ProfileError) { return try Profile(name: text) } catch {
                fail(name.offset, "\(error.message) (case \(index))")
                return nil
            }
        }.uniqued()
    }

    /// The `options` members, each checked by the core's option reader (a
    /// bad one is reported at its key).
    private mutating func optionMembers(_ member: JSONNode.Member?, index: Int) -> [JSONNode.Member] {
        guard let members = value(member, index: index, "an object of load options", { $0.members }) else { return [] }
        var scratch = LoadOptions()
        // A case names its app with its own "profile", so its options know every load option but that one.
        let known = LoadOptions.jsonKeys.filter { $0 != "profile" }
        for m in members {
            if m.key == "profile" {
                fail(m.keyOffset, "give the profile as the case's \"profile\", not among its \"options\"")
                continue
            }
            guard known.contains(m.key) else {
                fail(m.keyOffset, "case \(index): unknown option \(JSONWriter.quoted(m.key)); known options here: \(known.joined(separator: ", "))")
                continue
            }
            do { try scratch.apply([m], engines: Backend.engines) } catch { fail(m.keyOffset, "case \(index): \(error.message)") }
        }
        return members.filter { $0.key != "profile" }
    }

    private mutating func matchMode(_ member: JSONNode.Member?, index: Int) -> MatchMode {
        guard let member else { return .exact }
        guard case .string(let text) = member.value.kind, let mode = MatchMode(rawValue: text) else {
            fail(member.value.offset, "\"match\" of case \(index) must be \(MatchMode.allCases.map { JSONWriter.quoted($0.rawValue) }.joined(separator: " or ")), found \(JSONWriter.compact(member.value.value))")
            return .exact
        }
        return mode
    }
}

/// Every problem of a cases file, in document order.
struct CaseFileErrors: Error, Sendable {
    let errors: [CaseFileError]
}

private extension JSONNode {
    /// An object's members; nil for any other value.
    var members: [Member]? { if case .object(let members) = kind { members } else { nil } }
}
