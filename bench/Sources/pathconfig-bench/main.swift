import Foundation
import PathConfiguration

// pathconfig-bench: libpathconfig against the reference apps' own loop, on the
// shared corpora (rules-N.json, urls-N.txt), side by side in one run.
//
//   pathconfig-bench [--corpus DIR] [--sizes 10,100,1000,10000] [--generated 80000,200000] [--rounds N] [--out FILE]
//
// Each round runs every peer once, in turn, for a time budget over the URL
// list; the table reports each peer's median time per lookup over the rounds,
// and its speed-up against the shipped app loop and the precompiled loop,
// computed from those medians. A second table loads each corpus pretty-printed
// and minified (LoadBench.swift).

struct Arguments {
    var corpus = "../shared/bench"
    var sizes = [10, 100, 1000, 10000]
    var generated = [80_000, 200_000]
    var rounds = 5
    var budget = 0.25
    var out: String?

    init() {
        var args = CommandLine.arguments.dropFirst().makeIterator()
        while let a = args.next() {
            switch a {
            case "--corpus": corpus = args.next() ?? corpus
            case "--sizes": sizes = (args.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--generated": generated = (args.next() ?? "").split(separator: ",").compactMap { Int($0) }
            case "--rounds": rounds = Int(args.next() ?? "") ?? rounds
            case "--budget": budget = Double(args.next() ?? "") ?? budget
            case "--out": out = args.next()
            default:
                FileHandle.standardError.write(Data("unknown argument \(a)\n".utf8))
                exit(2)
            }
        }
    }
}

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Runs `lookup` over `urls` (cycling from `start`) until `budget` seconds
/// pass (at least 3 lookups); returns seconds per lookup and the next start.
func measure(_ lookup: (String) -> Int, _ urls: [String], from start: Int, budget: Double) -> (Double, Int) {
    var i = start, n = 0, sink = 0
    let t0 = now()
    var elapsed = 0.0
    repeat {
        for _ in 0..<8 {
            sink &+= lookup(urls[i % urls.count])
            i += 1
            n += 1
        }
        elapsed = now() - t0
    } while elapsed < budget || n < 3
    if sink == -1 { print("") }
    return (elapsed / Double(n), i)
}

let args = Arguments()
let peers: [any Peer] = [AppLoop(), PrecompiledAppLoop()] + Library.all
var report = """
# Benchmark results

Produced by `make bench` (`pathconfig-bench --rounds \(args.rounds)`), \(Date().formatted(.iso8601)) on \
\(ProcessInfo.processInfo.activeProcessorCount) cores. Corpora: `../shared/bench/rules-N.json` with `urls-N.txt` \
(10,000 URLs each), profile `hotwire-ios`. Each round runs every peer in turn for \(args.budget) s over the URLs; \
the figures are medians over \(args.rounds) rounds, speed-ups are ratios of those medians. Load is parsing plus \
compiling every pattern (the shipped app loop compiles nothing up front).

| rules | peer | load (ms) | median per lookup (µs) | vs shipped loop | vs precompiled loop |
|---:|---|---:|---:|---:|---:|

"""

for size in args.sizes {
    let json = Array(try Data(contentsOf: URL(fileURLWithPath: "\(args.corpus)/rules-\(size).json")))
    let urls = try String(contentsOfFile: "\(args.corpus)/urls-\(size).txt", encoding: .utf8).split(separator: "\n").map(String.init)
    var lookups: [(String) -> Int] = []
    var loads: [Double] = []
    for peer in peers {
        var times: [Double] = []
        var lookup: ((String) -> Int)?
        for _ in 0..<3 {
            let t0 = now()
            lookup = try peer.prepare(json)
            times.append(now() - t0)
        }
        lookups.append(lookup!)
        loads.append(median(times))
    }
    var samples = Array(repeating: [Double](), count: peers.count)
    var cursors = Array(repeating: 0, count: peers.count)
    for _ in 0..<args.rounds {
        for (p, lookup) in lookups.enumerated() {
            let (t, next) = measure(lookup, urls, from: cursors[p], budget: args.budget)
            samples[p].append(t)
            cursors[p] = next
        }
    }
    let medians = samples.map(median)
    for (p, peer) in peers.enumerated() {
        let us = medians[p] * 1e6
        let vsApp = medians[0] / medians[p]
        let vsPre = medians[1] / medians[p]
        let row = "| \(size) | \(peer.name) | \(String(format: "%.1f", loads[p] * 1e3)) | \(String(format: us < 10 ? "%.3f" : "%.1f", us)) | \(String(format: "%.1f×", vsApp)) | \(String(format: "%.1f×", vsPre)) |\n"
        report += row
        FileHandle.standardError.write(Data(row.utf8))
    }
}

report += try loadTable(sizes: args.sizes, generated: args.generated, corpus: args.corpus, rounds: args.rounds)

print(report, terminator: "")
if let out = args.out { try report.write(toFile: out, atomically: true, encoding: .utf8) }
