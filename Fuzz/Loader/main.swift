import EntryPointFuzzing

// pathconfig-fuzz-loader: `LoaderFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = LoaderFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("loader: \(violation)") }
    return 0
}
