import EntryPointFuzzing

// pathconfig-fuzz-lint: `LintFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = LintFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("lint: \(violation)") }
    return 0
}
