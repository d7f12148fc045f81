import PathConfigCore

/// `string-boolean` and `unknown-value`: values of the well-known typed keys
/// (`TypedKey`, the table the accessors and the C catalog share) that an app
/// among the selected profiles does not read as written.
///
/// - `string-boolean`: `"true"` or `"false"` (any case) for a boolean key,
///   when some selected app does not read it as that boolean (the iOS apps
///   take JSON booleans only and use the default; hotwire-android 1.2 and
///   later crash, casting a string to `Boolean`).
/// - `unknown-value`: any other value (not null) that some selected app does
///   not recognize and replaces with its default, or crashes on:
///   `presentation: "push"` on iOS, `"modal"` as a presentation anywhere, a
///   number as a title on iOS, a number as a boolean on hotwire-android.
///
/// Only the first value of a repeated key counts, as when loading. An error
/// where a selected app crashes reading the value, else a warning.
struct TypedValueCheck: LintCheck {
    func findings(in d: LintDocument) -> [LintFinding] {
        d.ruleNodes.enumerated().flatMap { index, node -> [LintFinding] in
            guard case .object(let members)? = node.member("properties")?.value.kind else { return [] }
            var seen = Set<String>()
            return members.filter { seen.insert($0.key).inserted }.compactMap { member in
                guard let key = TypedKey(rawValue: member.key), member.value.value != .null else { return nil }
                return check(key, member.value, rule: index, in: d)
            }
        }
    }

    private func check(_ key: TypedKey, _ node: JSONNode, rule: Int, in d: LintDocument) -> LintFinding? {
        let raw = node.value
        let name = JSONWriter.quoted(key.rawValue), written = JSONWriter.compact(raw)
        if key.kind == .boolean, case .string(let s) = raw, ["true", "false"].contains(s.lowercased()) {
            let meant = JSONValue.bool(s.lowercased() == "true")
            let misread = d.profiles.filter { key.recognizedValue(raw, by: $0.typedReading) != meant }
            guard !misread.isEmpty else { return nil }
            // The Android apps that keep strings read such a string as its
            // boolean; the iOS apps ignore it, and the later hotwire-android crashes.
            let uses = Self.groups(misread, key, raw, ignoring: "it") { profile, one in Self.fallback(key, on: profile.platform, one: one) }
            return d.finding(.stringBoolean, "\(name): \(written) is a string, not the boolean \(JSONWriter.compact(meant)): \(uses); write \(JSONWriter.compact(meant)) without quotes",
                             at: d.location(node.offset), rule: rule, profiles: misread, severity: Self.severity(key, raw, misread))
        }
        let unknown = d.profiles.filter { key.recognizedValue(raw, by: $0.typedReading) == nil }
        guard !unknown.isEmpty else { return nil }
        let requirement = switch key.kind {
        case .enumeration: "one of the values each app knows"
        case .boolean: "true or false"
        case .string: "a string"
        }
        let uses = Self.groups(unknown, key, raw, ignoring: written) { profile, one in
            let fallback = Self.fallback(key, on: profile.platform, one: one)
            guard key.kind == .enumeration else { return fallback }
            return "\(fallback) (\(one ? "it knows" : "they know") \(key.allowedValues(on: profile.platform).joined(separator: ", ")))"
        }
        return d.finding(.unknownValue, "\(name) must be \(requirement): \(uses)", at: d.location(node.offset), rule: rule, profiles: unknown,
                         severity: Self.severity(key, raw, unknown))
    }

    /// `.error` when one of `profiles` crashes reading `raw` as `key`.
    private static func severity(_ key: TypedKey, _ raw: JSONValue, _ profiles: [Profile]) -> LintFinding.Severity {
        profiles.contains { if case .crash = key.read(raw, by: $0.typedReading) { true } else { false } } ? .error : .warning
    }

    /// `use "default" instead`, or `read no title` where the default is
    /// null: what an app does in place of a value it ignores (`uses` when
    /// `one` app is the subject).
    private static func fallback(_ key: TypedKey, on platform: Profile.Platform, one: Bool) -> String {
        let value = key.defaultValue(on: platform)
        guard value != .null else { return "\(one ? "reads" : "read") no \(key.rawValue)" }
        return "\(one ? "uses" : "use") \(JSONWriter.compact(value)) instead"
    }

    /// `hotwire-ios and turbo-ios ignore VALUE and X; hotwire-android crashes
    /// reading it (...)`: the profiles grouped by what they do in place of
    /// reading `raw` (named the first time, `it` after): crash where their
    /// accessor throws, else what `what(profile, one)` says for one app or
    /// several.
    private static func groups(_ profiles: [Profile], _ key: TypedKey, _ raw: JSONValue, ignoring value: String,
                               _ what: (Profile, Bool) -> String) -> String {
        var groups: [(does: String, crash: Bool, profiles: [Profile])] = []
        for p in profiles {
            let (does, crash) = if case .crash(let why) = key.read(raw, by: p.typedReading) { (why, true) } else { (what(p, false), false) }
            if let g = groups.firstIndex(where: { $0.does == does }) { groups[g].profiles.append(p) } else { groups.append((does, crash, [p])) }
        }
        return groups.enumerated().map { i, group in
            let one = group.profiles.count == 1
            let subject = LintDocument.subject(group.profiles)
            if group.crash { return "\(subject) \(one ? "crashes" : "crash") reading \(i == 0 ? value : "it") (\(group.does))" }
            return "\(subject) \(one ? "ignores" : "ignore") \(i == 0 ? value : "it") and \(one ? what(group.profiles[0], true) : group.does)"
        }.joined(separator: "; ")
    }
}
