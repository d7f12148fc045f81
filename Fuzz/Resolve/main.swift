import EntryPointFuzzing

// pathconfig-fuzz-resolve: `ResolveFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = ResolveFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("resolve: \(violation)") }
    return 0
}
