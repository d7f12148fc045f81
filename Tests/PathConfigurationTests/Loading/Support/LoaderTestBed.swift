import Foundation
import HTTPTestSupport
import PathConfiguration

/// One test's world: a real nginx serving `/config.json`, a bundled file,
/// an empty cache directory, and an event log.
final class LoaderTestBed: @unchecked Sendable {
    let nginx: Nginx
    let directory: String
    let cacheDirectory: String
    let bundle: String
    let log = EventLog()

    /// The server URL the loaders use.
    var url: String { nginx.url("config.json") }

    /// Starts nginx (serving `initial` as /config.json when given) and writes the bundled file.
    init(serving initial: String? = Fixture.version("v1")) throws {
        nginx = try Nginx()
        directory = try TemporaryDirectory.make("loader")
        cacheDirectory = directory + "/cache"
        bundle = try Fixture.file(Fixture.bundle, in: directory)
        if let initial { try nginx.put("config.json", initial) }
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A loader over [bundled file, server URL] with the test bed's cache and event log.
    func loader(sources: [ConfigurationSource]? = nil, _ configure: (inout LoaderOptions) -> Void = { _ in }) throws -> ConfigurationLoader {
        var options = LoaderOptions(cacheDirectory: cacheDirectory, timeout: .seconds(10))
        configure(&options)
        return try ConfigurationLoader(sources: sources ?? [.file(bundle), .server(url)], options: options, onEvent: log.handler)
    }

    /// How many requests nginx has logged once the last one in flight is in
    /// its log (it writes a line a moment after answering).
    func settledRequestCount() -> Int {
        usleep(100_000)
        return nginx.accessLog().count
    }

    /// The settled request count, and the count again after `quiet`
    /// microseconds: equal when nothing polls in between.
    func requestCounts(over quiet: UInt32) -> (settled: Int, later: Int) {
        let settled = settledRequestCount()
        usleep(quiet)
        return (settled, nginx.accessLog().count)
    }

    /// The cache file of `url` (default: the test bed's URL).
    func cacheFile(_ url: String? = nil) -> String {
        // Any loader computes the same name; this one is never loaded.
        let probe = try? ConfigurationLoader(sources: [.server(url ?? self.url)], options: LoaderOptions(cacheDirectory: cacheDirectory))
        return probe?.cacheFile(for: url ?? self.url) ?? ""
    }
}
