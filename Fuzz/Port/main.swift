import EntryPointFuzzing

// pathconfig-fuzz-port: `PortFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = PortFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("port: \(violation)") }
    return 0
}
