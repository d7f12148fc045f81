import Foundation
import HTTPTestSupport
import PathConfiguration
import Synchronization
import Testing

/// The event handler's guarantees, which the C callback and the bindings'
/// trampolines rely on and do not repeat: a handler is never released while
/// it runs; nothing waits for a running handler (replacing it, closing the
/// loader, from another thread or from inside); load and refresh refuse to
/// start while it runs.
@Suite("Loader: the event handler")
struct LoaderHandlerTests {
    /// Two data sources: two events per load.
    private static func twoSources() throws -> ConfigurationLoader {
        try ConfigurationLoader(sources: [.data(Array(Fixture.version("a").utf8), name: "a"),
                                          .data(Array(Fixture.version("b").utf8), name: "b")])
    }

    @Test("replaced from another thread: returns at once; the old handler is released by its call's thread when it returns")
    func replacedFromAnotherThread() throws {
        let loader = try Self.twoSources()
        let entered = DispatchSemaphore(value: 0)
        let finished = Counter()
        let released = Flag()
        loader.setEventHandler { [capture = Tracked(released)] _ in
            _ = capture
            entered.signal()
            usleep(200_000)
            finished.add(1)
        }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            #expect(throws: Never.self) { try loader.load() }
            done.signal()
        }
        entered.wait()
        loader.setEventHandler(nil)
        #expect(finished.value == 0, "setEventHandler waited for the running handler")
        #expect(!released.isSet, "the old handler was released while it ran")
        #expect(throws: LoaderError.handlerRunning) { try loader.refresh() }
        done.wait()
        #expect(finished.value == 1, "the old handler was called after it was removed")
        #expect(released.isSet, "the old handler is released once its call has returned")
    }

    @Test("a handler that waits for another thread to close the loader: no deadlock, and no event after")
    func closedByAThreadTheHandlerWaitsFor() throws {
        let loader = try Self.twoSources()
        let calls = Counter()
        let refused = Flag()
        loader.setEventHandler { [weak loader] _ in
            calls.add(1)
            let done = DispatchSemaphore(value: 0)
            let target = loader
            Thread.detachNewThread {
                // As ruby-ffi runs a callback's body: on a thread of its own.
                do { try target?.load() } catch LoaderError.handlerRunning { refused.set() } catch {}
                target?.close()
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 20) == .success, "close() or load() waited for this handler")
        }
        try loader.load()
        #expect(refused.isSet, "load() while the handler runs elsewhere throws .handlerRunning")
        #expect(calls.value == 1, "no event after close()")
    }

    @Test("replaced from inside: no wait, the next event goes to the new handler, the old one is released after its call")
    func replacedFromInside() throws {
        let loader = try Self.twoSources()
        let notes = Notes()
        let released = Flag()
        loader.setEventHandler { [weak loader, capture = Tracked(released)] event in
            _ = capture
            loader?.setEventHandler { event in notes.add("second: \(event.location)") }
            notes.add("first: \(event.location), released while running: \(released.isSet)")
        }
        try loader.load()
        #expect(notes.all == ["first: a, released while running: false", "second: b"])
        #expect(released.isSet, "the replaced handler is released once its call has returned")
    }

    @Test("removed from inside: the running call ends normally and nothing is called after")
    func removedFromInside() throws {
        let loader = try Self.twoSources()
        let calls = Counter()
        loader.setEventHandler { [weak loader] _ in
            loader?.setEventHandler(nil)  // no deadlock
            calls.add(1)
        }
        try loader.load()
        try loader.load()
        #expect(calls.value == 1)
    }

    @Test("replaced while no call runs: the old handler is released at once, on the calling thread")
    func replacedIdle() throws {
        let loader = try Self.twoSources()
        let released = Flag()
        loader.setEventHandler { [capture = Tracked(released)] _ in _ = capture }
        try loader.load()
        #expect(!released.isSet)
        loader.setEventHandler { _ in }
        #expect(released.isSet)
    }

    @Test("stop() from inside the handler does not wait for a polling thread that waits for this operation; no refresh follows")
    func stopFromInsideWhilePollingWaits() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.refreshInterval = .milliseconds(20) }
        try loader.load()  // starts polling
        let stopping = Flag()
        let after = Counter()
        loader.setEventHandler { [weak loader] _ in
            if stopping.isSet { after.add(1); return }
            stopping.set()
            usleep(150_000)  // several intervals: the polling thread now waits for this refresh
            loader?.stop()
        }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? loader.refresh()
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 20) == .success, "refresh() never returned: stop() waited for the polling thread")
        let requests = bed.requestCounts(over: 300_000)
        #expect(requests.later == requests.settled, "nothing polls after stop()")
        #expect(after.value == 0, "no event after stop(): the waiting tick did not refresh")
    }

    @Test("stop() from inside the handler during load(): load() returns and starts no polling")
    func stopFromInsideLoad() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.refreshInterval = .milliseconds(20) }
        let stoppedOnce = Flag()
        let after = Counter()
        loader.setEventHandler { [weak loader] _ in
            if stoppedOnce.isSet { after.add(1); return }
            stoppedOnce.set()
            loader?.stop()
        }
        try loader.load()
        let requests = bed.requestCounts(over: 300_000)  // fifteen intervals
        #expect(requests.later == requests.settled, "load() started polling after the handler stopped the loader")
        #expect(after.value <= 1, "only the load's own remaining event, no polling events")
        loader.setEventHandler(nil)
        try loader.load()  // a later load() starts polling again
        usleep(300_000)
        #expect(bed.nginx.accessLog().count > requests.settled + 1, "a load() after stop() polls again")
    }

    @Test("stop() from inside the handler on the polling thread ends polling without waiting for itself")
    func stopFromInsideOnThePollingThread() throws {
        let bed = try LoaderTestBed()
        let loader = try bed.loader { $0.refreshInterval = .milliseconds(20) }
        let caller = pthread_self()
        let stopped = DispatchSemaphore(value: 0)
        let after = Counter()
        let done = Flag()
        loader.setEventHandler { [weak loader] _ in
            guard pthread_equal(pthread_self(), caller) == 0 else { return }
            if done.isSet { after.add(1); return }
            done.set()
            loader?.stop()
            stopped.signal()
        }
        try loader.load()
        #expect(stopped.wait(timeout: .now() + 10) == .success, "a polling event reached the handler, and stop() returned")
        let requests = bed.requestCounts(over: 300_000)
        #expect(requests.later == requests.settled, "nothing polls after stop()")
        #expect(after.value == 0, "no event after stop()")
    }

    @Test("the handler's call is as deep at the 4,000th event as at the first (a long-polling loader once overflowed its stack)")
    func callDepthStaysFlat() throws {
        let loader = try Self.twoSources()
        // How many frames each call of the handler finds below it: counted,
        // not read from a local's address, which AddressSanitizer may move
        // to its fake stack. Foundation counts at most 128.
        let depths = Locked<[Int]>([])
        loader.setEventHandler { _ in
            let depth = Thread.callStackReturnAddresses.count
            depths.withLock { $0.append(depth) }
        }
        // On a thread with room to spare, so that the growth this test
        // looks for shows as a number, not as a crash of the test runner.
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<2_000 { #expect(throws: Never.self) { try loader.load() } }
            done.signal()
        }
        thread.stackSize = 256 << 20
        thread.start()
        done.wait()
        let all = depths.withLock { $0 }
        try #require(all.count == 4_000)
        try #require(all[0] < 128, "the first call is already as deep as Foundation counts")
        // Every load() is called from the same place, so each event's call
        // starts at the same depth. The handler was read once per event
        // from a lock holding the bare function, and each withLock wrapped
        // it in two more reabstraction thunks: 18,000 events later a call
        // of it overflowed the polling thread's 8 MiB stack.
        #expect(all.max()! == all[0], "the call sank from \(all[0]) to \(all.max()!) frames over \(all.count) events")
    }
}

/// A flag threads and closures can share.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    /// Raises the flag.
    func set() { value.store(true, ordering: .sequentiallyConsistent) }

    /// Whether it is raised.
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}

/// Raises its flag when released: a handler's capture, to see when the
/// handler is.
private final class Tracked: Sendable {
    private let flag: Flag

    init(_ flag: Flag) { self.flag = flag }

    deinit { flag.set() }
}
