import Foundation
import HTTPTestSupport
import PathConfiguration
import Synchronization
import Testing

@Suite("Loader: concurrent readers while configurations swap")
struct LoaderConcurrencyTests {
    /// Two configurations that differ in every rule: every value of A is
    /// "A", every value of B is "B"; a result mixing them would be torn.
    static func whole(_ letter: String) -> String {
        """
        {"settings": {"version": "\(letter)"},
         "rules": [
           {"patterns": [".*"], "properties": {"r0": "\(letter)", "shared": "\(letter)0"}},
           {"patterns": ["/items/"], "properties": {"r1": "\(letter)", "shared": "\(letter)1"}},
           {"patterns": ["/items/\\\\d+$"], "properties": {"r2": "\(letter)", "shared": "\(letter)2"}},
           {"patterns": ["^/items/\(letter == "A" ? "" : "(?:)")"], "properties": {"r3": "\(letter)"}}
         ]}
        """
    }

    @Test("readers resolving in a loop always see one whole configuration while the loader swaps")
    func readersSeeWholeConfigurations() throws {
        let bed = try LoaderTestBed(serving: Self.whole("A"))
        let loader = try bed.loader(sources: [.server(bed.url)])
        try loader.load()
        let first = try #require(loader.current)
        let expected = [
            "A": "{\"r0\":\"A\",\"shared\":\"A2\",\"r1\":\"A\",\"r2\":\"A\",\"r3\":\"A\"}",
            "B": "{\"r0\":\"B\",\"shared\":\"B2\",\"r1\":\"B\",\"r2\":\"B\",\"r3\":\"B\"}",
        ]
        #expect(first.properties(for: "/items/42").json == expected["A"])

        let shared = ReaderState()
        let finished = DispatchGroup()
        for reader in 0..<3 {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                var n = 0
                while !shared.stop.load(ordering: .relaxed) {
                    guard let configuration = loader.current else { continue }
                    // A different path each time, so the result cache is exercised and missed.
                    let json = configuration.properties(for: "/items/\(reader * 1_000_000 + n)").json
                    let letter = Fixture.versionOf(configuration) ?? "?"
                    if json != expected[letter] { shared.torn.withLock { $0.append("\(letter): \(json)") } }
                    shared.seen.withLock { _ = $0.insert(letter) }
                    n += 1
                }
                shared.reads.add(n, ordering: .relaxed)
            }
        }

        var applied = 0
        for round in 1...60 {
            let letter = round % 2 == 1 ? "B" : "A"
            try bed.nginx.put("config.json", Self.whole(letter))
            let events = try loader.refresh()
            if events.map(summary) == ["server:applied"] { applied += 1 }
            #expect(Fixture.versionOf(loader.current) == letter)
        }
        shared.stop.store(true, ordering: .relaxed)
        finished.wait()

        #expect(applied == 60)
        #expect(shared.torn.withLock { $0 }.isEmpty, "torn results: \(shared.torn.withLock { $0.prefix(3) })")
        #expect(shared.seen.withLock { $0 } == ["A", "B"])
        #expect(shared.reads.load(ordering: .relaxed) > 100)
        // A host holding the first configuration keeps a valid one.
        #expect(first.properties(for: "/items/7").json == expected["A"])
    }
}

/// What the reader threads share with the test.
private final class ReaderState: Sendable {
    let stop = Atomic<Bool>(false)
    let reads = Atomic<Int>(0)
    let torn = Locked<[String]>([])
    let seen = Locked<Set<String>>([])
}
