import EntryPointFuzzing

// pathconfig-fuzz-load: `LoadFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = LoadFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("load: \(violation)") }
    return 0
}
