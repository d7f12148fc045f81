import EntryPointFuzzing

// pathconfig-fuzz-exchange: `ExchangeFuzzer.check` on every input (see its documentation
// for what it checks); a violation traps here, so libFuzzer keeps the input.
FuzzDriver.run { data, size in
    if let violation = ExchangeFuzzer.check(FuzzDriver.bytes(data, size)) { fatalError("exchange: \(violation)") }
    return 0
}
