import Dispatch
import PathConfiguration
import Testing
@testable import PathConfigCore

@Suite("Typed accessors")
struct TypedPropertiesTests {
    func props(_ json: String, _ profile: Profile) throws -> PathProperties {
        let config = try PathConfiguration(json: "{\"rules\": [{\"patterns\": [\".*\"], \"properties\": \(json)}]}", options: LoadOptions(profile: profile))
        return config.properties(for: "/x")
    }

    @Test("the answer: made once however many threads read it first, its C text the same bytes as json, its typed values the accessors'")
    func answerMadeOnce() throws {
        let p = try props(#"{"title":"caf\u00e9","n":[1,2.50],"s":"a\u0000b","context":"modal"}"#, .hotwireIOS)
        let seen = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let address = p.withAnswer { Int(bitPattern: $0.cString) }
            seen.withLock { $0.append(address) }
        }
        let addresses = seen.withLock { $0 }
        #expect(Set(addresses).count == 1, "one answer published, the losers' released")
        #expect(p.withAnswer { String(cString: $0.cString) } == p.json)
        #expect(p.id != 0 && p.id == p.answer.id)
        #expect(p.context == .modal && p.title == "café" && p.presentation == .default && p.viewController == "web")
        for key in TypedKey.allCases {
            #expect(.value(p.typed(key)) == key.read(p.object[key.rawValue], by: .foundation), "\(key)")
        }
        #expect(p.json == #"{"title":"café","n":[1,2.50],"s":"a\u0000b","context":"modal"}"#)
    }

    @Test("count and isEmpty are the merged object's: keys set by every matching rule, each once")
    func countAndIsEmpty() throws {
        let config = try PathConfiguration(json: """
            {"rules": [{"patterns": ["^/a"], "properties": {"x": 1, "y": 2}},
                       {"patterns": ["/b$"], "properties": {"y": 3, "z": 4}}]}
            """)
        let both = config.properties(for: "/a/b"), first = config.properties(for: "/a"), none = config.properties(for: "/c")
        #expect(both.count == 3 && both.count == both.object.count && !both.isEmpty)
        #expect(first.count == 2 && !first.isEmpty)
        #expect(none.count == 0 && none.isEmpty && none.object.isEmpty)
    }

    @Test("iOS defaults")
    func iosDefaults() throws {
        let p = try props("{}", .hotwireIOS)
        #expect(p.context == .default)
        #expect(p.presentation == .default)
        #expect(p.modalStyle == .large)
        #expect(p.pullToRefreshEnabled)
        #expect(p.modalDismissGestureEnabled)
        #expect(p.animated)
        #expect(p.viewController == "web")
        #expect(p.queryStringPresentation == .default)
        #expect(p.title == nil)
    }

    @Test("Android defaults: pull to refresh off, no view controller")
    func androidDefaults() throws {
        let p = try props("{}", .hotwireAndroid)
        #expect(!p.pullToRefreshEnabled)
        #expect(p.animated)
        #expect(p.viewController == nil)
    }

    @Test("iOS is strict: wrong types and unknown values give the default")
    func iosStrict() throws {
        let p = try props("{\"context\": \"MODAL\", \"presentation\": \"push\", \"pull_to_refresh_enabled\": \"false\", \"modal_style\": 3, \"view_controller\": 1}", .hotwireIOS)
        #expect(p.context == .default)
        #expect(p.presentation == .default)
        #expect(p.pullToRefreshEnabled)
        #expect(p.modalStyle == .large)
        #expect(p.viewController == "web")
    }

    @Test("Android before hotwire-android 1.2 reads like Kotlin on strings: any case, strings as booleans, push allowed")
    func androidLoose() throws {
        let p = try props("{\"context\": \"MODAL\", \"presentation\": \"Push\", \"pull_to_refresh_enabled\": \"TRUE\", \"animated\": \"no\", \"uri\": \"hotwire://x\", \"title\": 5}",
                          Profile(name: "hotwire-android@1.1.3"))
        #expect(p.context == .modal)
        #expect(p.presentation == .push)
        #expect(p.pullToRefreshEnabled)
        #expect(!p.animated)
        #expect(p.uri == "hotwire://x")
        #expect(p.title == "5")
        #expect(p.fallbackURI == nil)
    }

    @Test("hotwire-android 1.2 and later: enumerations in any case, strings by toString(), booleans by `as Boolean`, which throws")
    func androidCasts() throws {
        let p = try props(#"{"context": "MODAL", "presentation": true, "pull_to_refresh_enabled": "TRUE", "animated": 1, "title": 5, "uri": [1, {"k": 1.5}]}"#,
                          .hotwireAndroid)
        #expect(p.context == .modal)
        #expect(p.presentation == .default)
        #expect(p.read(.pullToRefreshEnabled) == .crash("java.lang.ClassCastException: java.lang.String cannot be cast to java.lang.Boolean"))
        #expect(p.read(.animated) == .crash("java.lang.ClassCastException: java.lang.Long cannot be cast to java.lang.Boolean"))
        #expect(!p.pullToRefreshEnabled, "the convenience accessor gives the default where the app crashes")
        #expect(p.title == "5")
        #expect(p.uri == "[1, {k=1.5}]")
        #expect(p.read(.historicalLocation) == .value(.bool(false)))
    }

    @Test("turbo-android's stringified booleans read back as booleans")
    func turboAndroidBooleans() throws {
        let p = try props("{\"pull_to_refresh_enabled\": true, \"animated\": false}", .turboAndroid)
        #expect(p["pull_to_refresh_enabled"] == .string("true"))
        #expect(p.pullToRefreshEnabled)
        #expect(!p.animated)
    }

    @Test("every typed key reports its value through the one table")
    func table() throws {
        let p = try props("{\"modal_style\": \"page_sheet\"}", .hotwireIOS)
        #expect(p.typed(.modalStyle) == .string("page_sheet"))
        #expect(TypedKey.allCases.count == 12)
        #expect(TypedKey.presentation.allowedValues(on: .ios).contains("push") == false)
        #expect(TypedKey.presentation.allowedValues(on: .android).contains("push"))
    }
}
