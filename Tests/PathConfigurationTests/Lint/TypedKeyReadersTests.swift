import PathConfiguration
import Testing

/// `Profile.unreadTypedKeys`: which keys of the typed catalog each app
/// never reads, against the Android readers ported in Tests/JVM.
@Suite("Typed keys each app reads")
struct TypedKeyReadersTests {
    @Test("hotwire-android reads exactly the keys the ported readers have an accessor for (ReleaseOracle.java's accessor(_:_:))")
    func androidAgainstOracle() throws {
        let bytes = try Conformance.readFile(Conformance.repositoryRoot + "/Tests/JVM/ReleaseOracle.java")
        let source = String(decoding: bytes, as: UTF8.self)
        let start = try #require(source.range(of: "static Accessor accessor(Era era, String key) {"))
        let end = try #require(source.range(of: "default: return null;", range: start.upperBound..<source.endIndex))
        let body = source[start.upperBound..<end.lowerBound]
        // `case "KEY": return ...`: the keys some line of the app reads.
        var read: Set<String> = []
        var rest = body[...]
        while let c = rest.range(of: "case \"") {
            let name = rest[c.upperBound...].prefix { $0 != "\"" }
            read.insert(String(name))
            rest = rest[c.upperBound...]
        }
        #expect(read.count == 9, "the oracle's accessors: \(read.sorted())")
        let unread = Set(TypedKey.allCases.map(\.rawValue)).subtracting(read)
        #expect(Set(Profile.hotwireAndroid.unreadTypedKeys.map(\.rawValue)) == unread)
        #expect(unread == ["modal_style", "modal_dismiss_gesture_enabled", "view_controller"])
    }

    @Test("turbo-android also lacks animated and historical_location; the iOS apps never read title, uri or fallback_uri; siesta reads none")
    func perApp() throws {
        #expect(!Profile.turboAndroid.reads(.animated) && !Profile.turboAndroid.reads(.historicalLocation))
        #expect(Profile.hotwireAndroid.reads(.animated) && Profile.hotwireAndroid.reads(.historicalLocation))
        for profile in [Profile.hotwireIOS, .turboIOS] {
            #expect(profile.unreadTypedKeys == [.title, .uri, .fallbackURI])
            #expect(profile.reads(.viewController) && profile.reads(.modalStyle))
        }
        #expect(TypedKey.allCases.allSatisfy { !Profile.siesta.reads($0) })
        // Every key of the catalog is read by some mobile app, and releases read as their app.
        #expect(TypedKey.allCases.allSatisfy { key in Profile.allCases.contains { $0.reads(key) } })
        #expect(try Profile(name: "hotwire-android@1.2.0").unreadTypedKeys == Profile.hotwireAndroid.unreadTypedKeys)
    }
}
