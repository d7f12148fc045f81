import PathConfiguration
import Testing

/// Profiles by release: `APP@VERSION` names, the release table, and what
/// changed between an app's releases.
@Suite("App releases")
struct AppReleaseTests {
    @Test("every tag of every line names the line; main names the last; the bare name is the latest stable line")
    func names() throws {
        for app in Profile.App.allCases {
            for line in app.releases {
                for tag in line.tags {
                    let profile = try Profile(name: "\(app.rawValue)@\(tag)")
                    #expect(profile.release == line, "\(profile)")
                    #expect(profile.rawValue == "\(app.rawValue)@\(tag)")
                }
            }
            #expect(try Profile(name: app.rawValue).release == app.releases.last(where: \.isStable), "\(app)")
            #expect(Profile(app).version == nil)
            #expect(try Profile(name: "\(app.rawValue)@main").release.name == "main")
        }
        #expect(Profile.hotwireIOS.release.tags.contains("1.2.2"))
        #expect(Profile.hotwireAndroid.release.tags == ["1.3.1"])
        #expect(Profile.turboAndroid.release.tags.contains("7.1.5"))
        #expect(Profile.turboIOS.release.tags == ["7.1.0"])
    }

    @Test("a version that is not a release of the app is refused, naming the releases")
    func unknownVersion() throws {
        #expect(throws: ProfileError.self) { try Profile(name: "hotwire-ios@9.9.9") }
        do {
            _ = try Profile(name: "hotwire-ios@1.3.1")
        } catch {
            #expect(error.message.contains("hotwire-ios has no release \"1.3.1\""))
            #expect(error.message.contains("1.0.0, 1.0.1"))
            #expect(error.message.contains("1.2.2"))
        }
        #expect(Profile(rawValue: "hotwire-android@7.1.0") == nil)
        #expect(Profile(rawValue: "nope@1.0.0") == nil)
        #expect(throws: ConfigurationError.self) { try LoadOptions(json: #"{"profile": "turbo-ios@1.2.2"}"#) }
        #expect(try LoadOptions(json: #"{"profile": "turbo-ios@7.0.1"}"#).profile == Profile(rawValue: "turbo-ios@7.0.1"))
    }

    @Test("the release lines of each app are in order, name distinct tags, and end with main")
    func table() {
        for app in Profile.App.allCases {
            let lines = app.releases
            #expect(lines.last?.name == "main", "\(app)")
            let tags = lines.flatMap(\.tags)
            #expect(Set(tags).count == tags.count, "\(app): a tag in two lines")
            #expect(lines.dropLast().allSatisfy { !$0.change.isEmpty && !$0.commit.isEmpty })
        }
    }

    @Test("hotwire-ios's releases match the decoded path without its trailing slash; main keeps both as sent")
    func hotwireIOSPath() throws {
        let json = #"{"rules": [{"patterns": ["/numbers$"], "properties": {"view_controller": "numbers"}}]}"#
        let released = try PathConfiguration(json: json, options: LoadOptions(profile: Profile(name: "hotwire-ios@1.2.2")))
        let main = try PathConfiguration(json: json, options: LoadOptions(profile: Profile(name: "hotwire-ios@main")))
        #expect(released.properties(for: "https://hotwire-native-demo.dev/numbers/").json == #"{"view_controller":"numbers"}"#)
        #expect(main.properties(for: "https://hotwire-native-demo.dev/numbers/").json == "{}")
    }

    @Test("the historical-location rules arrive in 1.2.0 on both platforms")
    func builtInsByRelease() throws {
        let json = #"{"rules": []}"#
        for (name, count) in [("hotwire-ios@1.1.3", 0), ("hotwire-ios@1.2.0", 3), ("hotwire-android@1.1.3", 0), ("hotwire-android@1.2.0", 3),
                              ("turbo-ios@7.1.0", 0), ("turbo-android@7.1.5", 0)] {
            #expect(try PathConfiguration(json: json, options: LoadOptions(profile: Profile(name: name))).rules.count == count, "\(name)")
        }
    }

    @Test("hotwire-android before 1.2 keeps every value as a string and reads booleans with toBoolean(); from 1.2 it casts, and crashes")
    func androidValues() throws {
        let json = #"{"rules": [{"patterns": [".*"], "properties": {"pull_to_refresh_enabled": "true", "title": 5, "big": 12345678901234567890, "animated": false}}]}"#
        let old = try PathConfiguration(json: json, options: LoadOptions(profile: Profile(name: "hotwire-android@1.1.3"))).resolve("https://x.dev/a")
        #expect(old["title"] == .string("5"))
        #expect(old.read(.pullToRefreshEnabled) == .value(.bool(true)))
        #expect(old.read(.title) == .value(.string("5")))
        let new = try PathConfiguration(json: json, options: LoadOptions(profile: .hotwireAndroid)).resolve("https://x.dev/a")
        guard case .crash(let why) = new.read(.pullToRefreshEnabled) else {
            Issue.record("hotwire-android 1.3.1 reads \"true\" as a boolean, where it throws")
            return
        }
        #expect(why.hasPrefix("java.lang.ClassCastException: java.lang.String cannot be cast to java.lang.Boolean"))
        #expect(new.read(.animated) == .value(.bool(false)))
        #expect(new.read(.title) == .value(.string("5")))
        let big = try PathConfiguration(json: #"{"rules": [{"patterns": [".*"], "properties": {"title": 12345678901234567890, "uri": 5.0}}]}"#,
                                        options: LoadOptions(profile: .hotwireAndroid)).resolve("https://x.dev/a")
        #expect(big.read(.title) == .value(.string("1.2345678901234567E19")))
        #expect(big.read(.uri) == .value(.string("5.0")))
    }

    @Test("hotwire-android before 1.3.1 crashes on a URL java.net.URL rejects; 1.3.1 matches \"\"")
    func androidRejectedURL() throws {
        let json = #"{"rules": [{"patterns": ["^$"], "properties": {"home": true}}]}"#
        let old = try PathConfiguration(json: json, options: LoadOptions(profile: Profile(name: "hotwire-android@1.3.0")))
        #expect(throws: ResolveError.self) { try old.resolve("mailto:a@b.c") }
        let new = try PathConfiguration(json: json, options: LoadOptions(profile: Profile(name: "hotwire-android@1.3.1")))
        #expect(try new.resolve("mailto:a@b.c").json == #"{"home":true}"#)
    }

    @Test("iOS reads 0 and 1 as booleans, as NSNumber bridges to Bool; turbo-android's missing uri crashes")
    func typedReads() throws {
        let ios = try PathConfiguration(json: #"{"rules": [{"patterns": [".*"], "properties": {"animated": 0, "pull_to_refresh_enabled": 2}}]}"#)
            .resolve("https://x.dev/a")
        #expect(ios.read(.animated) == .value(.bool(false)))
        #expect(ios.read(.pullToRefreshEnabled) == .value(.bool(true)), "2 is no Bool: the default")
        let turbo = try PathConfiguration(json: #"{"settings": {}, "rules": []}"#, options: LoadOptions(profile: .turboAndroid)).resolve("https://x.dev/a")
        guard case .crash(let why) = turbo.read(.uri) else {
            Issue.record("turbo-android reads a missing uri without crashing")
            return
        }
        #expect(why.hasPrefix("java.lang.NullPointerException"))
    }
}

/// docs/app-versions.md's tables are the release table.
@Suite("App releases: the docs")
struct AppReleaseDocsTests {
    @Test("every release line has a row in its app's table with its commit, and every tag appears in the rows")
    func docsTable() throws {
        let root = String(#filePath).components(separatedBy: "/Tests/")[0]
        let text = try String(contentsOfFile: root + "/docs/app-versions.md", encoding: .utf8)
        for app in Profile.App.allCases {
            let header = "### \(app.rawValue)"
            let section = try #require(text.components(separatedBy: header).dropFirst().first?.components(separatedBy: "\n### ").first,
                                       "no section \(header)")
            let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| line") }
            #expect(rows.count == app.releases.count, "\(app): \(rows.count) rows for \(app.releases.count) lines")
            for (row, line) in zip(rows, app.releases) {
                #expect(row.hasPrefix("| \(line.name)"), "\(app) \(line.name): \(row)")
                #expect(row.contains(line.commit), "\(app) \(line.name): the row names no \(line.commit)")
                #expect(row.contains("(bare name)") == (line == Profile(app).release), "\(app) \(line.name): (bare name)")
                if let first = line.tags.first, let last = line.tags.last {
                    #expect(row.contains(first) && row.contains(last), "\(app) \(line.name): tags \(first) .. \(last)")
                }
            }
        }
    }
}
