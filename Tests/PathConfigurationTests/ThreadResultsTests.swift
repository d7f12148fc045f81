import Dispatch
import Foundation
import PathConfiguration
@testable import PathConfigCore
import Testing

/// The per-thread front of the rule-set results (`ThreadResults`): a thread
/// gets the shared result until it has met a rule set often, then its own
/// copy; copies answer exactly as the shared result; configurations never
/// see each other's results.
@Suite("Per-thread rule-set results")
struct ThreadResultsTests {
    static let document = """
        {"rules": [
          {"patterns": [".*"], "properties": {"context": "default", "n": 1}},
          {"patterns": ["/new$"], "properties": {"context": "modal", "title": "New"}}
        ]}
        """

    static func uncached(_ json: String = document) throws -> PathConfiguration {
        var options = LoadOptions()
        options.limits.resultCacheCapacity = 0  // every lookup reaches the rule-set level
        return try PathConfiguration(json: json, options: options)
    }

    @Test("a rule set met often gets the thread's own copy, equal in every respect")
    func copyAfterHits() async throws {
        let config = try Self.uncached()
        // One task, so one thread for the whole sequence.
        let (first, second, third, fourth, other) = try await Task.detached {
            (try config.resolve("/a/new"), try config.resolve("/b/new"), try config.resolve("/c/new"),
             try config.resolve("/d/new"), try config.resolve("/a/edit"))
        }.value
        #expect(first === second, "the shared result while the set is new to the thread")
        #expect(third !== second, "then the thread's own copy")
        #expect(fourth === third, "kept")
        for r in [first, third] {
            #expect(r.json == #"{"context":"modal","n":1,"title":"New"}"#)
            #expect(r.context == .modal && r.title == "New" && r.object.keys == ["context", "n", "title"])
        }
        #expect(other.json == #"{"context":"default","n":1}"#)
        #expect(third.id == first.id, "a copy is the same answer")
        #expect(third.withAnswer { $0.cString } == first.withAnswer { $0.cString }, "whose text is made once")
        #expect(other.id != first.id)
    }

    @Test("a copy's JSON text stays valid after the result it was copied from is gone")
    func copyOutlivesOriginal() async throws {
        // The copy is made on the third lookup of the set; then the
        // configuration goes, and with it its caches and the shared result.
        let copy: PathProperties
        do {
            let config = try Self.uncached()
            copy = try await Task.detached {
                for i in 0..<3 { _ = try config.resolve("/\(i)/new") }
                return try config.resolve("/3/new")
            }.value
        }
        #expect(copy.withAnswer { String(cString: $0.cString) } == #"{"context":"modal","n":1,"title":"New"}"#)
        #expect(copy.json == copy.withAnswer { String(cString: $0.cString) })
    }

    @Test("two configurations whose rules match alike keep their own results")
    func configurationsApart() throws {
        let a = try Self.uncached()
        let b = try Self.uncached(String(Self.document.split(separator: "New").joined(separator: "Other")))
        for _ in 0..<4 {
            #expect(try a.resolve("/x/new").title == "New")
            #expect(try b.resolve("/x/new").title == "Other")
        }
    }

    @Test("threads resolving the same rule sets at once all get the right answers")
    func manyThreads() async throws {
        let config = try Self.uncached()
        let wrong = await withTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for i in 0..<2_000 {
                        let url = i % 2 == 0 ? "/t\(t)/\(i)/new" : "/t\(t)/\(i)"
                        let expected = i % 2 == 0 ? #"{"context":"modal","n":1,"title":"New"}"# : #"{"context":"default","n":1}"#
                        if (try? config.resolve(url).json) != expected { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
    }

    /// `body`'s value, run on a thread of its own: one whose table no other
    /// test has touched.
    static func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var value: T?
        Thread.detachNewThread {
            value = body()
            done.signal()
        }
        done.wait()
        return value!
    }

    /// Thirteen rules, rule i matching a URL with the segment `k<i>` and
    /// setting `k<i>`: URL `/` + the segments of the bits of `set` matches
    /// exactly the rules of those bits (8,192 distinct sets).
    static func segments() throws -> PathConfiguration {
        let rules = (0..<13).map { #"{"patterns": ["/k\#($0)/"], "properties": {"k\#($0)": \#($0)}}"# }
        return try uncached(#"{"rules": [\#(rules.joined(separator: ","))]}"#)
    }

    static func url(_ set: Int) -> String {
        "/" + (0..<13).filter { set >> $0 & 1 == 1 }.map { "k\($0)/" }.joined()
    }

    static func expected(_ set: Int) -> String {
        "{" + (0..<13).filter { set >> $0 & 1 == 1 }.map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}"
    }

    @Test("a thread that keeps evicting rule sets grows its table, up to the cap, and every answer stays right")
    func growsWhenEvicting() throws {
        let config = try Self.segments()
        let (before, after, wrong) = Self.onNewThread { () -> (Int, Int, [String]) in
            let before = ThreadResults.currentSlotCount
            var wrong: [String] = []
            for pass in 0..<3 {
                for set in 0..<8_192 {
                    let json = config.properties(for: Self.url(set)).json
                    if json != Self.expected(set) && wrong.count < 5 { wrong.append("pass \(pass), \(Self.url(set)): \(json)") }
                }
            }
            return (before, ThreadResults.currentSlotCount, wrong)
        }
        #expect(before == ThreadResults.initialSlotCount)
        #expect(after == ThreadResults.maxSlotCount, "8,192 sets evict at every size below the cap")
        #expect(wrong.isEmpty, "\(wrong)")
    }

    @Test("a thread that meets few rule sets keeps the table it started with")
    func staysSmall() throws {
        let config = try Self.segments()
        let (after, wrong) = Self.onNewThread { () -> (Int, Int) in
            var wrong = 0
            for i in 0..<40_000 where config.properties(for: Self.url(i % 64)).json != Self.expected(i % 64) { wrong += 1 }
            return (ThreadResults.currentSlotCount, wrong)
        }
        #expect(after == ThreadResults.initialSlotCount)
        #expect(wrong == 0)
    }
}
