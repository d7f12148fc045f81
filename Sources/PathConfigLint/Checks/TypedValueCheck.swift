import PathConfigModel

/// `string-boolean` and `unknown-value`: values of the well-known typed keys
/// (`TypedKey`, the table the accessors and the C catalog share) that an app
/// among the selected profiles does not read as written.
///
/// - `string-boolean`: `"true"` or `"false"` (any case) for a boolean key,
///   when some selected app does not read it as that boolean (the iOS apps
///   take JSON booleans only and use the default).
/// - `unknown-value`: any other value (not null) that some selected app does
///   not recognize and replaces with its default: `presentation: "push"` on
///   iOS, `"modal"` as a presentation anywhere, a number as a title on iOS.
///
/// Only the first value of a repeated key counts, as when loading.
struct TypedValueCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        var out: [LintFinding] = []
        for (index, node) in d.ruleNodes.enumerated() {
            guard case .object(let members)? = node.member("properties")?.value.kind else { continue }
            var seen = Set<String>()
            for member in members where seen.insert(member.key).inserted {
                guard let key = TypedKey(rawValue: member.key), member.value.value != .null else { continue }
                if let finding = check(key, member.value, rule: index, in: d) { out.append(finding) }
            }
        }
        return out
    }

    private func check(_ key: TypedKey, _ node: JSONNode, rule: Int, in d: LintDocument) -> LintFinding? {
        let raw = node.value
        let written = "\(JSONWriter.quoted(key.rawValue)): \(JSONWriter.compact(raw))"
        if key.kind == .boolean, case .string(let s) = raw, ["true", "false"].contains(s.lowercased()) {
            let meant = JSONValue.bool(s.lowercased() == "true")
            let misread = d.profiles.filter { key.recognizedValue(raw, on: $0.platform) != meant }
            guard !misread.isEmpty else { return nil }
            // Android reads such a string as its boolean, so only the iOS apps
            // misread it: they ignore it and use the default.
            let ignore = misread.count == 1 ? "ignores it and uses" : "ignore it and use"
            let fallback = JSONWriter.compact(key.defaultValue(on: misread[0].platform))
            return d.finding(.stringBoolean, "\(written) is a string, not a boolean: \(LintDocument.names(misread)) \(ignore) the default, \(fallback); write \(JSONWriter.compact(meant)) without quotes",
                             at: d.location(node.offset), rule: rule, profiles: misread)
        }
        let unknown = d.profiles.filter { key.recognizedValue(raw, on: $0.platform) == nil }
        guard !unknown.isEmpty else { return nil }
        let problem: String
        switch key.kind {
        case .enumeration: problem = "an unknown value"
        case .boolean: problem = "not a boolean"
        case .string: problem = "not a string"
        }
        let uses = Self.groups(unknown) { platform in
            let known = key.kind == .enumeration ? " (known values: \(key.allowedValues(on: platform).joined(separator: ", ")))" : ""
            return "the default \(JSONWriter.compact(key.defaultValue(on: platform))) instead\(known)"
        }
        return d.finding(.unknownValue, "\(written) is \(problem): \(uses)", at: d.location(node.offset), rule: rule, profiles: unknown)
    }

    /// `hotwire-ios, turbo-ios use X; hotwire-android uses Y`: what each
    /// group of profiles on one platform uses instead of a value.
    private static func groups(_ profiles: [Profile], _ what: (Profile.Platform) -> String) -> String {
        var platforms: [Profile.Platform] = []
        for p in profiles where !platforms.contains(p.platform) { platforms.append(p.platform) }
        return platforms.map { platform in
            let names = profiles.filter { $0.platform == platform }
            return "\(LintDocument.names(names)) \(names.count == 1 ? "uses" : "use") \(what(platform))"
        }.joined(separator: "; ")
    }
}
