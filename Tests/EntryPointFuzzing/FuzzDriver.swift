#if canImport(Glibc)
import Glibc
#endif

/// A property an entry point broke for one input: what the fuzz targets trap
/// on and the regression tests expect never to see.
public struct Violation: Error, CustomStringConvertible, Sendable {
    /// Which check failed, and on what.
    public let description: String

    /// A violation described by `description`.
    public init(_ description: String) { self.description = description }
}

/// The loop every `Fuzz/<Target>/main.swift` runs: libFuzzer's driver when
/// built with `-sanitize=fuzzer -DLIBFUZZER` (`make fuzz`), otherwise a
/// replay of the files and directories named on the command line.
///
/// The target's `body` traps (`fatalError`) on a violation, so the fuzzer
/// keeps the input; the library never traps on purpose.
public enum FuzzDriver {
    /// Runs `body` on every input and exits with the driver's status.
    public static func run(_ body: @escaping @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        #if LIBFUZZER
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runLibFuzzer(&argc, &argv, body))
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in FuzzFiles.inputs(at: path) {
                guard let bytes = FuzzFiles.read(file) else {
                    print("cannot read \(file)")
                    exit(2)
                }
                bytes.withUnsafeBufferPointer { _ = body($0.baseAddress, $0.count) }
                count += 1
            }
        }
        print("\(count) inputs replayed, no violation")
        exit(0)
        #endif
    }

    /// `data` and `size` as the fuzzer passes them, as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }
}

#if LIBFUZZER
@_silgen_name("LLVMFuzzerRunDriver")
private func runLibFuzzer(_ argc: UnsafeMutablePointer<CInt>,
                          _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                          _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt
#endif
