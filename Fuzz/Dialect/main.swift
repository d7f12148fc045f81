import DialectFuzzing
import EntryPointFuzzing
#if canImport(Glibc)
import Glibc
#endif

// pathconfig-fuzz-dialect: `DialectFuzzTarget.run` on every input: pcre2
// against ICU at once, against the JDK in batches (see DialectFuzzTarget for
// how a batch's disagreement is reported); a violation traps here, so
// libFuzzer keeps the input. With PATHCONFIG_FUZZ_EXPLAIN set, each input
// given is described instead (every engine's answer on every subject).
//
// Under libFuzzer, `-detect_leaks=0` is added unless the command line sets
// it: an input that reaches code not run before leaves the Swift runtime's
// and ICU's one-time caches allocated, and libFuzzer then runs it again and
// scans the heap with LeakSanitizer, which took half the time and kept a
// 20 s run (`make fuzz-short`) to about 400 inputs instead of 3,000.
// LeakSanitizer still checks for leaks at exit (with Tests/Sanitizers/lsan.supp).
#if LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzer(_ argc: UnsafeMutablePointer<CInt>,
                          _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                          _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

if getenv("PATHCONFIG_FUZZ_EXPLAIN") == nil {
    var arguments = CommandLine.arguments
    if !arguments.contains(where: { $0.hasPrefix("-detect_leaks=") }) { arguments.insert("-detect_leaks=0", at: 1) }
    var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    var argc = CInt(arguments.count)
    let status = pointers.withUnsafeMutableBufferPointer { buffer in
        var argv = buffer.baseAddress!
        return runLibFuzzer(&argc, &argv) { data, size in
            DialectFuzzTarget.run(FuzzDriver.bytes(data, size))
            return 0
        }
    }
    exit(status)
}
#endif

if getenv("PATHCONFIG_FUZZ_EXPLAIN") != nil {
    FuzzDriver.run { data, size in
        print(DialectFuzzer.explain(FuzzDriver.bytes(data, size)))
        return 0
    }
}
FuzzDriver.run { data, size in
    DialectFuzzTarget.run(FuzzDriver.bytes(data, size))
    return 0
}
