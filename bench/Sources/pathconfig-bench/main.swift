import Foundation
import PathConfiguration

// pathconfig-bench: the Swift side of `make bench` (bench/run.py drives it).
//
//   pathconfig-bench serve --rules FILE --urls FILE [--check-every K] [--options JSON]
//   pathconfig-bench load --corpus DIR [--sizes 10,100,1000,10000] [--generated 80000,200000] [--rounds N]
//   pathconfig-bench lookups --rules FILE --urls FILE --passes N
//
// serve: loads one corpus for the Swift peers (Peers.swift), checks
// libpathconfig against the NSRegularExpression loop, prints one JSON line
// ({"ready": ...}) and then answers bench/run.py on stdin: for each line
// "round SECONDS" it runs every peer in turn for SECONDS over the URLs and
// prints one JSON line of seconds per lookup; "quit" (or end of input) ends it.
// --options loads libpathconfig with those options instead (the result cache
// still off) and runs only the rows that read no Hotwire key, without the
// loop and the check, which read patterns: for a configuration of globs
// (Siesta).
//
// load: loads each corpus pretty-printed and minified, alternating, and
// prints one JSON line per size with the median times (LoadBench.swift).
//
// lookups: the Swift twin of bench/c's pathconfig-lookups: looks up every URL
// N times as the "Swift API" column does, for a profiler to count
// instructions per lookup (run it with 1 and 3 passes under callgrind).

/// Options every configuration of the benchmark is loaded with: the issue's
/// setting (turbo-ios, query strings matched) with the result cache off.
let benchOptionsJSON = #"{"profile":"turbo-ios","match_query_strings":true,"result_cache_size":0}"#

struct Arguments {
    var mode = ""
    var rules = ""
    var urls = ""
    var checkEvery = 1
    var corpus = "bench/corpora"
    var sizes = [10, 100, 1000, 10000]
    var generated = [80_000, 200_000]
    var rounds = 5
    var passes = 1
    /// `--options`: the load options' JSON, when not `benchOptionsJSON`.
    var options: String?

    init() {
        var args = CommandLine.arguments.dropFirst().makeIterator()
        mode = args.next() ?? ""
        while let a = args.next() {
            switch a {
            case "--rules": rules = args.next() ?? rules
            case "--urls": urls = args.next() ?? urls
            case "--check-every": checkEvery = max(1, Int(args.next() ?? "") ?? checkEvery)
            case "--corpus": corpus = args.next() ?? corpus
            case "--sizes": sizes = (args.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--generated": generated = (args.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rounds": rounds = Int(args.next() ?? "") ?? rounds
            case "--passes": passes = max(1, Int(args.next() ?? "") ?? passes)
            case "--options": options = args.next()
            default: fail("unknown argument \(a)")
            }
        }
        guard ["serve", "lookups"].contains(mode) && !rules.isEmpty && !urls.isEmpty || mode == "load" else {
            fail("usage: pathconfig-bench serve --rules FILE --urls FILE [--check-every K] [--options JSON] | load --corpus DIR [--sizes ...] [--generated ...] [--rounds N]"
                 + " | lookups --rules FILE --urls FILE --passes N")
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Prints `object` as one line of JSON and flushes, for bench/run.py.
func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

/// Runs `lookup` over URL indexes `0..<count` (cycling from `cursor`) for
/// `budget` seconds (at least 3 lookups), reading the clock once per batch
/// (doubled while a batch takes under 0.1 ms); seconds per lookup.
func measure(_ lookup: (Int) -> Int, count: Int, cursor: inout Int, budget: Double) -> Double {
    var i = cursor, done = 0, batch = 1, sink = 0
    let start = now()
    var elapsed = 0.0
    while true {
        let t = now()
        for _ in 0..<batch {
            sink &+= lookup(i)
            i += 1
            if i == count { i = 0 }
        }
        done += batch
        let end = now()
        elapsed = end - start
        if elapsed >= budget && done >= 3 { break }
        if end - t < 1e-4 && batch < 1 << 20 { batch *= 2 }
    }
    if sink == -1 { print("") }
    cursor = i
    return elapsed / Double(done)
}

/// The corpus `args` names: its rules' JSON and its URLs, one per line.
func corpus(_ args: Arguments) throws -> (json: [UInt8], urls: [String]) {
    (Array(try Data(contentsOf: URL(fileURLWithPath: args.rules))),
     try String(contentsOfFile: args.urls, encoding: .utf8).split(separator: "\n").map(String.init))
}

let args = Arguments()
switch args.mode {
case "load":
    try loadBench(sizes: args.sizes, generated: args.generated, corpus: args.corpus, rounds: args.rounds)
case "lookups":
    let (json, urls) = try corpus(args)
    let config = try PathConfiguration(json: json, options: try LoadOptions(json: benchOptionsJSON))
    var checksum = 0
    let start = now()
    for _ in 0..<args.passes {
        for url in urls { checksum &+= config.properties(for: url).count }
    }
    let elapsed = now() - start
    print(String(format: "%.3f µs per lookup, checksum %d", elapsed * 1e6 / Double(args.passes * urls.count), checksum))
default:
    let (json, urls) = try corpus(args)
    let peers = try SwiftPeers(json: json, urls: urls, options: args.options)
    var ready = args.options == nil ? peers.check(every: args.checkEvery) : ["urls": urls.count]
    ready["ready"] = "swift"
    ready["peers"] = peers.lookups.map(\.key)
    ready["build_ms"] = peers.buildMilliseconds
    emit(ready)
    var cursors = Array(repeating: 0, count: peers.lookups.count)
    var round = 0
    while let line = readLine(), line.hasPrefix("round "), let budget = Double(line.dropFirst(6)) {
        var seconds: [String: Double] = [:]
        for k in peers.lookups.indices {
            let p = (k + round) % peers.lookups.count  // a different peer first in each round
            seconds[peers.lookups[p].key] = measure(peers.lookups[p].lookup, count: urls.count, cursor: &cursors[p], budget: budget)
        }
        emit(["round": seconds])
        round += 1
    }
}
