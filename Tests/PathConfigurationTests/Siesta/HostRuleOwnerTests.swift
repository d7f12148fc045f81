import PathConfiguration
import Testing
@testable import PathConfigCore

/// What a rule added from code keeps alive: its `owner` (the C ABI's host
/// context), for as long as the configuration holding the rule exists.
@Suite("Rules from code: owner")
struct HostRuleOwnerTests {
    /// Says when it is released.
    final class Owner: Sendable {
        let released: Box<Bool>
        init(_ released: Box<Bool>) { self.released = released }
        deinit { released.value = true }
    }

    @Test("a rule without callbacks keeps its owner until the configuration is freed")
    func ownerLivesWithTheConfiguration() throws {
        let released = Box(false)
        var config: PathConfiguration? = try PathConfiguration(json: "{\"rules\": []}", options: LoadOptions(profile: .siesta))
        do {
            var rule = HostRule(globs: ["**"], properties: ["k": .bool(true)])
            rule.owner = Owner(released)
            try config?.add(rule)
        }
        #expect(!released.value)
        #expect(try config?.resolve("/a")["k"] == .bool(true))
        #expect(!released.value)
        config = nil
        #expect(released.value)
    }
}
