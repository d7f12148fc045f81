import PrefilterFuzzing
#if canImport(Glibc)
import Glibc
#endif

/// `make fuzz-prefilter`: the prefilter against no prefilter, one `FuzzInput`
/// at a time; a disagreement traps with a message saying which, so the
/// fuzzer keeps the input.
func check(_ bytes: [UInt8], tally: inout PrefilterDifferential.Tally) {
    guard let input = FuzzInput(bytes) else { return }
    if let first = input.compare(tally: &tally).first { fatalError("prefilter disagreement: \(first)") }
}

#if LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzer(_ argc: UnsafeMutablePointer<CInt>,
                          _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                          _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Built with `-sanitize=fuzzer -DLIBFUZZER` (`make fuzz-prefilter`):
/// libFuzzer's driver, with its usual arguments (`-max_total_time=N`, corpus
/// directories, ...), calling `check` for every input.
@main
enum LibFuzzerMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = runLibFuzzer(&argc, &argv) { data, size in
            var tally = PrefilterDifferential.Tally()
            check(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [], tally: &tally)
            return 0
        }
        exit(status)
    }
}
#else
/// Built plainly: a seeded random loop with the same contract, for machines
/// without libFuzzer. `pathconfig-fuzz-prefilter [SECONDS] [SEED]`.
@main
enum SeededLoop {
    static func main() {
        let args = CommandLine.arguments.dropFirst()
        let seconds = args.first.flatMap { Double($0) } ?? 10
        var choices = SeededChoices(seed: args.dropFirst().first.flatMap { UInt64($0) } ?? 1)
        var tally = PrefilterDifferential.Tally()
        var inputs = 0
        let clock = ContinuousClock()
        let end = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < end {
            let bytes = (0..<(8 + choices.below(120))).map { _ in UInt8(truncatingIfNeeded: choices.next()) }
            check(bytes, tally: &tally)
            inputs += 1
        }
        print("\(inputs) inputs, \(tally.compiled) patterns compiled, \(tally.lookups) lookups, \(tally.matches) matches, no disagreement")
    }
}
#endif
