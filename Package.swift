// swift-tools-version:6.0
import PackageDescription

/// The umbrella `PathConfiguration` and the four targets it re-exports. The
/// library product of that name lists them all, and every target here that
/// imports the umbrella depends on them all: an incremental build
/// recompiles a target when a module it depends on directly changes, but
/// not for one it reaches only through a re-export, so a change to a type's
/// layout that leaves its interface alone (a private stored property) left
/// the umbrella's importers, ours and a client package's, running with the
/// old layout, reading past the new value's end (swiftlang/swift#89636). A
/// clean build never did.
let umbrellaTargets = ["PathConfiguration", "PathConfigCore", "PathConfigLoading", "PathConfigLint", "PathConfigPort"]
let pathConfiguration: [Target.Dependency] = umbrellaTargets.map { .target(name: $0) }

/// libpathconfig: one engine that maps URLs to path properties the way Turbo
/// and Hotwire Native apps do.
///
/// Targets by role, each depending only on targets below it (a line down is
/// "depends on"). docs/ARCHITECTURE.md ("Files") draws the same graph:
///
///     pathconfig-cli                      PathConfigurationFoundation
///                 \                         /
///                       PathConfiguration          re-exports the four below
///                      /        |         \
///     PathConfigLoading (+ CHTTP)  PathConfigLint  PathConfigPort
///                      \        |         /
///                        PathConfigCore (+ CPCRE2, CIDN2)
///
/// `PathConfigurationC` (libpathconfig.so, with `CPathConfigHeader`) depends
/// on Core and Loading: not on Lint or Port, which C never calls.
///
/// - `PathConfigCore`: the hot path, one module, with a folder per role:
///   - `Model/`: the configuration as data: JSON values and writer, rules,
///     settings, typed keys, the profiles table's facts (`Profile`),
///     `Limits`, `HTTPMethod`, `ResolveError`;
///   - `Decoding/`: reading it: the JSON reader (positions, errors), the
///     Gson reader, `ConfigurationDecoder`, files through POSIX calls
///     (`FileReader`);
///   - `Matching/`: what patterns match: the dialect translation, the
///     `RegexEngine` protocol and the default PCRE2 engine, match plans
///     (prefilter, automata), a profile's pattern subject, URL parts, globs,
///     IDNA;
///   - `Resolution/`: the public `PathConfiguration` and `LoadOptions`:
///     lookups, results, their caches, rules from code;
///   - `ThreadLocal`: a per-thread instance (Matching and Resolution use
///     it).
/// - `PathConfigLoading`: the loader: sources, cache, downloads.
/// - `PathConfigLint`: `Linter` and its checks, and the JSON Schema of a
///   configuration (`ConfigurationSchema`).
/// - `PathConfigPort`: `ConfigurationPort`, a configuration rewritten so
///   that other apps read it as a reference app reads the original
///   (`pathconfig port`).
/// - `PathConfiguration`: what Swift code imports: `@_exported import` of
///   the four, and no code of its own. No Foundation in any of them: JSON
///   through the core's own reader.
/// - `CPCRE2`: the system library libpcre2-8, found with pkg-config.
/// - `CIDN2`: the system library libidn2 (IDNA: host names beyond ASCII, as
///   Foundation's `URL(string:)` converts them, for the siesta profile),
///   found with pkg-config.
/// - `CHTTP`: a small C shim that loads libcurl at run time for downloads.
/// - `PathConfigurationFoundation`: the NSRegularExpression engine; the only
///   library target that imports Foundation (the bench and tests do too).
/// - `PathConfigurationC`: the `@_cdecl` exports that make `libpathconfig.so`,
///   the library the C header describes and the Python and Rust bindings load.
///   It links only what the C API calls (not Lint or Port).
/// - `CPathConfigHeader`: the public header, include/pathconfig.h, as a
///   module: the C boundary's structs and constants, written once.
/// - `CRuntimeHooks`: C hooks linked into `libpathconfig.so` for the Swift
///   runtime it links statically: a destructor that keeps, at exit, untagged
///   copies of the runtime's tagged table pointers, so valgrind counts those
///   tables reachable (no suppressions needed), and a fork handler that makes
///   the runtime read the forking thread's id again in the child.
/// - `pathconfig-cli`: the `pathconfig` command line tool, which links the
///   core and the Foundation engine directly, not through the C library (the
///   product name differs from the dylib's only because SwiftPM needs unique
///   product names; `make cli` builds it as `out/bin/pathconfig` and `make
///   install` installs it as `pathconfig`).
/// - `pathconfig-bench`: `make bench`, libpathconfig against the apps' own loop.
/// - `pathconfig-fuzz-prefilter`, `-load`, `-resolve`, `-globs`, `-loader`,
///   `-exchange`, `-lint`, `-port`, `-dialect`: the libFuzzer targets (`make fuzz`, one per entry point;
///   built plainly, the prefilter's is a seeded random loop and the others
///   replay the files they are given); not in `products`, though `swift
///   build --product` builds them as it does any executable target of the
///   root package.
/// - `PrefilterFuzzing`, `EntryPointFuzzing`, `DialectFuzzing`, `HTTPTestSupport`: code the tests
///   (and the fuzz targets) share; the three test targets, by what they test.
let package = Package(
    name: "libpathconfig",
    products: [
        .library(name: "PathConfiguration", targets: umbrellaTargets),
        .library(name: "PathConfigurationFoundation", targets: ["PathConfigurationFoundation"]),
        .library(name: "pathconfig", type: .dynamic, targets: ["PathConfigurationC"]),
        .executable(name: "pathconfig-cli", targets: ["pathconfig-cli"]),
        .executable(name: "pathconfig-bench", targets: ["pathconfig-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"])]
        ),
        .systemLibrary(
            name: "CIDN2",
            pkgConfig: "libidn2",
            providers: [.apt(["libidn2-dev"])]
        ),
        // HTTP for the loader: libcurl, dlopen()ed at first use, so that
        // libpathconfig.so gains no link-time dependency.
        .target(
            name: "CHTTP"
        ),
        .target(
            name: "PathConfigCore",
            dependencies: ["CPCRE2", "CIDN2"]
        ),
        .target(
            name: "PathConfigLoading",
            dependencies: ["PathConfigCore", "CHTTP"]
        ),
        .target(
            name: "PathConfigLint",
            dependencies: ["PathConfigCore"]
        ),
        .target(
            name: "PathConfigPort",
            dependencies: ["PathConfigCore"]
        ),
        .target(
            name: "PathConfiguration",
            dependencies: ["PathConfigCore", "PathConfigLoading", "PathConfigLint", "PathConfigPort"]
        ),
        .target(
            name: "PathConfigurationFoundation",
            dependencies: pathConfiguration
        ),
        // Linked into libpathconfig.so for two hooks on the Swift runtime it
        // carries: an exit-time destructor, so that valgrind reports the
        // runtime's tables as still reachable, not "possibly lost"
        // (runtime_roots.c), and a fork handler, so that a child's first use
        // of a global never spins forever (fork_thread_id.c).
        .target(
            name: "CRuntimeHooks"
        ),
        // The public header as a module: the C boundary's structs and
        // constants, read from include/pathconfig.h (module.modulemap says why).
        .systemLibrary(
            name: "CPathConfigHeader",
            path: "Sources/CPathConfigHeader"
        ),
        .target(
            name: "PathConfigurationC",
            // Only what the C API calls: not Lint or Port, which C never reaches.
            dependencies: ["PathConfigCore", "PathConfigLoading", "CRuntimeHooks",
                           "CPathConfigHeader"]
        ),
        .executableTarget(
            name: "pathconfig-cli",
            dependencies: pathConfiguration + [
                "PathConfigurationFoundation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/pathconfig"
        ),
        .executableTarget(
            name: "pathconfig-bench",
            dependencies: pathConfiguration + ["PathConfigurationFoundation"],
            path: "bench/Sources/pathconfig-bench"
        ),
        // The prefilter's differential fuzzing: a grammar of hazardous patterns and
        // the prefilter-on-against-off comparison, shared by the Swift test and
        // the fuzz target.
        .target(
            name: "PrefilterFuzzing",
            dependencies: pathConfiguration + ["PathConfigurationFoundation"],
            path: "Tests/PrefilterFuzzing"
        ),
        .executableTarget(
            name: "pathconfig-fuzz-prefilter",
            dependencies: ["PrefilterFuzzing"],
            path: "Fuzz/PrefilterDifferential",
            exclude: ["seeds"]
        ),
        // The entry points' fuzzing: one check per fuzz target, each taking the
        // fuzzer's bytes and returning the property broken, if any; shared by
        // the targets below and the Swift suite, which replays their seeds and
        // every crash they found.
        .target(
            name: "EntryPointFuzzing",
            dependencies: pathConfiguration + ["PathConfigurationFoundation", "PathConfigurationC"],
            path: "Tests/EntryPointFuzzing"
        ),
        .executableTarget(
            name: "pathconfig-fuzz-load",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Load",
            exclude: ["seeds", "crashes"]
        ),
        .executableTarget(
            name: "pathconfig-fuzz-resolve",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Resolve",
            exclude: ["seeds", "crashes"]
        ),
        .executableTarget(
            name: "pathconfig-fuzz-globs",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Globs",
            exclude: ["seeds", "crashes"]
        ),
        .executableTarget(
            name: "pathconfig-fuzz-loader",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Loader",
            exclude: ["seeds", "crashes"]
        ),
        .executableTarget(
            name: "pathconfig-fuzz-exchange",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Exchange",
            exclude: ["seeds"]  // and "crashes" once an input has broken it
        ),
        .executableTarget(
            name: "pathconfig-fuzz-lint",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Lint",
            exclude: ["seeds", "crashes"]
        ),
        .executableTarget(
            name: "pathconfig-fuzz-port",
            dependencies: ["EntryPointFuzzing"],
            path: "Fuzz/Port",
            exclude: ["seeds"]  // and "crashes" once an input has broken it
        ),
        // The dialects' differential fuzzing: patterns from the grammar the ICU
        // and Java dialects accept, pcre2 against ICU (Foundation) and against
        // the JDK (batched JVM runs of DialectOracle.java); shared by the fuzz
        // target and the Swift suite, which replays its seeds.
        .target(
            name: "DialectFuzzing",
            dependencies: pathConfiguration + ["PathConfigurationFoundation", "PrefilterFuzzing", "EntryPointFuzzing"],
            path: "Tests/DialectFuzzing",
            exclude: ["DialectOracle.java"]
        ),
        .executableTarget(
            name: "pathconfig-fuzz-dialect",
            dependencies: ["DialectFuzzing"],
            path: "Fuzz/Dialect",
            exclude: ["seeds", "crashes"]
        ),
        // A real nginx and a raw-socket HTTP server, for the loader's tests.
        .target(
            name: "HTTPTestSupport",
            path: "Tests/HTTPTestSupport"
        ),
        .testTarget(
            name: "PathConfigurationTests",
            dependencies: pathConfiguration + ["PathConfigurationFoundation", "HTTPTestSupport", "PrefilterFuzzing", "EntryPointFuzzing", "DialectFuzzing"]
        ),
        // The C ABI's lists against the core's tables they are made from, and
        // against the header's constants.
        .testTarget(
            name: "PathConfigurationCTests",
            dependencies: pathConfiguration + ["PathConfigurationC"]
        ),
        .testTarget(
            name: "pathconfigTests",
            dependencies: ["pathconfig-cli", "HTTPTestSupport"]
        ),
    ]
)
