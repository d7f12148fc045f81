import EntryPointFuzzing

// pathconfig-fuzz-globs: `GlobFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = GlobFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("globs: \(violation)") }
    return 0
}
