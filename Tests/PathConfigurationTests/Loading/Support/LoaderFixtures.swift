import Foundation
import HTTPTestSupport
import PathConfiguration
import Synchronization

/// Configurations whose every resolved value names where they came from.
enum Fixture {
    /// The "bundled" configuration: every path resolves to `{"version":"bundle"}`.
    static let bundle = version("bundle")

    /// A configuration every path resolves to `{"version":"NAME","rule2":"NAME"}` under.
    static func version(_ name: String) -> String {
        """
        {"settings": {"version": "\(name)"},
         "rules": [
           {"patterns": [".*"], "properties": {"version": "\(name)"}},
           {"patterns": ["^/"], "properties": {"rule2": "\(name)"}}
         ]}
        """
    }

    /// The version named in a configuration's settings.
    static func versionOf(_ configuration: PathConfiguration?) -> String? {
        configuration?.settings["version"]?.stringValue
    }

    /// A file holding `contents`, in `directory`.
    static func file(_ contents: String, in directory: String, name: String = "bundle.json") throws -> String {
        let path = directory + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

/// Collects the events a loader reports, from any thread.
final class EventLog: Sendable {
    private let events = Locked<[LoaderEvent]>([])

    /// The handler to give the loader.
    var handler: ConfigurationLoader.EventHandler { { [self] event in events.withLock { $0.append(event) } } }

    /// Everything reported so far.
    var all: [LoaderEvent] { events.withLock { $0 } }

    /// Forgets what was reported.
    func clear() { events.withLock { $0.removeAll() } }
}

/// A short, comparable summary of an event: `server:applied`, `cache:warning`, ...
func summary(_ event: LoaderEvent) -> String {
    let outcome: String
    switch event.outcome {
    case .applied: outcome = "applied"
    case .superseded: outcome = "superseded"
    case .notModified: outcome = "notModified"
    case .failed: outcome = "failed"
    case .warning: outcome = "warning"
    }
    return "\(event.origin):\(outcome)"
}

/// The bytes of a file, nil when it does not exist.
func bytes(of path: String?) -> [UInt8]? {
    guard let path, let data = FileManager.default.contents(atPath: path) else { return nil }
    return [UInt8](data)
}

/// A counter threads and closures can share.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    /// Adds `n`.
    func add(_ n: Int) { count.add(n, ordering: .sequentiallyConsistent) }

    /// The current count.
    var value: Int { count.load(ordering: .sequentiallyConsistent) }
}

/// Lines of text threads and closures can share, in the order added.
final class Notes: Sendable {
    private let lines = Locked<[String]>([])

    /// Adds `line`.
    func add(_ line: String) { lines.withLock { $0.append(line) } }

    /// Everything added so far.
    var all: [String] { lines.withLock { $0 } }
}
