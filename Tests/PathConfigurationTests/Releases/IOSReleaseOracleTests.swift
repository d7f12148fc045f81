import PathConfiguration
import Testing

/// Each hotwire-native-ios and turbo-ios release, as its own code answered:
/// Tests/Fixtures/releases/ios-oracle.json holds configurations, URLs and
/// the merged properties every release's `PathConfiguration` returned for
/// them (README.md beside it says where they came from). Every answer is
/// checked here under the versioned profile of that release, through both
/// engines.
@Suite("IOSReleaseOracle")
struct IOSReleaseOracleTests {
    /// The recorded file, read once.
    static let file: JSONObject = {
        let path = Conformance.repositoryRoot + "/Tests/Fixtures/releases/ios-oracle.json"
        guard let bytes = try? Conformance.readFile(path), let value = try? JSONValue(parsing: bytes), let object = value.objectValue else {
            fatalError("cannot read \(path)")
        }
        return object
    }()

    static var oracles: JSONObject { file["oracles"]?.objectValue ?? JSONObject() }
    static var configurations: [JSONObject] { (file["configurations"]?.arrayValue ?? []).compactMap(\.objectValue) }
    static let configurationNames: [String] = configurations.compactMap { $0["name"]?.stringValue }

    /// The recorded query settings and the option each stands for.
    static let querySettings: [String: Bool?] = ["default": nil, "on": true, "off": false]

    /// Mismatches reported per configuration and engine; the rest are counted.
    static let reportedMismatchCap = 12

    @Test("the recorded file has every oracle's answers for every URL")
    func shape() throws {
        #expect(Self.oracles.count == 9)
        #expect(Self.configurations.count >= 40)
        for (profileName, oracle) in Self.oracles {
            let profile = try Profile(name: profileName)
            #expect(profile.version != nil, "\(profileName) names a version")
            #expect(oracle.objectValue?["commit"]?.stringValue?.count == 40, "\(profileName) has a commit")
            let tags = oracle.objectValue?["tags"]?.arrayValue ?? []
            #expect(tags.count > 0, "\(profileName) has tags")
        }
        for configuration in Self.configurations {
            let name = configuration["name"]?.stringValue ?? "?"
            let urls = configuration["urls"]?.arrayValue ?? []
            let values = configuration["values"]?.arrayValue ?? []
            let answers = configuration["answers"]?.objectValue ?? JSONObject()
            #expect(urls.count >= 100, "\(name): \(urls.count) URLs")
            #expect(urls.allSatisfy { $0.stringValue?.hasPrefix("https://") == true }, "\(name): absolute https URLs only")
            for (key, ids) in answers {
                let ids = ids.arrayValue ?? []
                #expect(ids.count == urls.count, "\(name) \(key): \(ids.count) answers for \(urls.count) URLs")
                #expect(ids.allSatisfy { ($0.int64Value ?? -1) >= 0 && ($0.int64Value ?? .max) < Int64(values.count) }, "\(name) \(key): indices")
            }
            for (profileName, oracle) in Self.oracles {
                let settings = oracle.objectValue?["query_option"]?.boolValue == true ? ["default", "on", "off"] : ["default"]
                for setting in settings {
                    #expect(answers[profileName + "|" + setting] != nil, "\(name): no answers for \(profileName)|\(setting)")
                }
            }
        }
    }

    @Test("every recorded tag reads as the profile it is recorded under")
    func tagsMatchProfiles() throws {
        for (profileName, oracle) in Self.oracles {
            let profile = try Profile(name: profileName)
            for tag in (oracle.objectValue?["tags"]?.arrayValue ?? []).compactMap(\.stringValue) {
                let line = profile.app.release(named: tag)
                #expect(line != nil, "\(profileName): the library knows no release \(tag)")
                #expect(line?.behaviour == profile.release.behaviour,
                        "\(profileName): tag \(tag) is in line \(line?.name ?? "-"), which behaves unlike \(profile.release.name)")
            }
        }
    }

    @Test("every release line of hotwire-ios and turbo-ios has a recorded oracle", arguments: [Profile.App.hotwireIOS, .turboIOS])
    func everyLineRecorded(_ app: Profile.App) {
        let recordedTags = Set(Self.oracles.filter { $0.key.hasPrefix(app.rawValue + "@") }
            .flatMap { ($0.value.objectValue?["tags"]?.arrayValue ?? []).compactMap(\.stringValue) })
        for line in app.releases where line.name != "main" {
            #expect(line.tags.contains { recordedTags.contains($0) }, "\(app.rawValue) line \(line.name) (\(line.tags)) has no recorded oracle")
        }
        #expect(!app.releases.isEmpty)
    }

    @Test("each configuration answers as each release did", arguments: configurationNames, Conformance.engineNames)
    func answers(_ name: String, engine: String) throws {
        let configuration = try #require(Self.configurations.first { $0["name"]?.stringValue == name })
        let json = try #require(configuration["json"]?.stringValue)
        let urls = (configuration["urls"]?.arrayValue ?? []).compactMap(\.stringValue)
        let values = configuration["values"]?.arrayValue ?? []
        // Each distinct recorded answer once: an object, or the ERROR line.
        let expectedValues: [Expected] = try values.map { value in
            let line = try #require(value.stringValue)
            if line.hasPrefix("ERROR") || line.hasPrefix("INVALID_URL") { return .failure(line) }
            let parsed = try JSONValue(parsing: line)
            return .properties(try #require(parsed.objectValue, "\(name): recorded answer is not an object: \(line)"))
        }
        var compared = 0
        var mismatches = 0
        var reported = 0
        func report(_ message: @autoclosure () -> String) {
            mismatches += 1
            if reported < Self.reportedMismatchCap {
                reported += 1
                Issue.record(Comment(rawValue: message()))
            }
        }
        for (key, ids) in configuration["answers"]?.objectValue ?? JSONObject() {
            let parts = key.split(separator: "|").map(String.init)
            let profileName = parts[0]
            let setting = parts.count > 1 ? parts[1] : "default"
            let profile = try Profile(name: profileName)
            let matchQueryStrings = try #require(Self.querySettings[setting], "\(key): unknown query setting")
            // The apps skip a pattern NSRegularExpression rejects, and keep the rule's other patterns.
            let options = LoadOptions(profile: profile, matchQueryStrings: matchQueryStrings, engine: Conformance.engine(engine), lenient: true)
            let expected = (ids.arrayValue ?? []).map { expectedValues[Int($0.int64Value!)] }
            let loaded: PathConfiguration?
            do {
                loaded = try PathConfiguration(json: json, options: options)
            } catch {
                loaded = nil
                if case .properties = expected.first {
                    report("\(name) [\(key), \(engine)]: the release loads this configuration, the library does not: \(error)")
                    mismatches += expected.count - 1
                }
            }
            for (url, answer) in zip(urls, expected) {
                compared += 1
                switch answer {
                case .failure(let line):
                    if line.hasPrefix("ERROR") {
                        if loaded != nil {
                            report("\(name) [\(key), \(engine)] \(url): the release refuses this configuration (\(line)); the library loads it")
                        }
                    } else if let loaded, let got = try? loaded.resolve(url) {
                        report("\(name) [\(key), \(engine)] \(url): Foundation's URL(string:) refuses this URL; the library answers \(got.json)")
                    }
                case .properties(let want):
                    guard let loaded else { continue }
                    do {
                        let got = try loaded.resolve(url).object
                        if !Self.sameValue(.object(got), .object(want)) {
                            report("\(name) [\(key), \(engine)] \(url) (matched string \(loaded.matchedString(for: url).debugDescription)):\n"
                                + "  expected \(JSONWriter.compact(want))\n  got      \(JSONWriter.compact(got))")
                        }
                    } catch {
                        report("\(name) [\(key), \(engine)] \(url): expected \(JSONWriter.compact(want)), the library threw \(error)")
                    }
                }
            }
        }
        if mismatches > reported {
            Issue.record(Comment(rawValue: "\(name) [\(engine)]: \(mismatches) mismatches in \(compared) comparisons (\(reported) shown)"))
        }
        let keys = configuration["answers"]?.objectValue?.count ?? 0
        #expect(compared > 0 && compared == urls.count * keys, "\(name): \(compared) comparisons for \(urls.count) URLs × \(keys) answer sets")
    }

    /// A recorded answer: merged properties, or a failure line.
    enum Expected {
        case properties(JSONObject)
        case failure(String)
    }

    /// JSON equality as the apps' dictionaries compare: keys in any order,
    /// numbers by value (`JSONSerialization` writes `1.0` as `1`); integers
    /// that both sides wrote as integers compare exactly.
    static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { entry in y[entry.key].map { sameValue(entry.value, $0) } ?? false }
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.number(let x), .number(let y)):
            if let i = x.int64Value, let j = y.int64Value { return i == j }
            return x.doubleValue == y.doubleValue
        default:
            return a == b
        }
    }
}
