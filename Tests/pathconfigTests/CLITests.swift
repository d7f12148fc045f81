import Foundation
import HTTPTestSupport
import Testing

/// Runs the built `pathconfig` binary and checks its whole output and exit code.
struct CLI {
    static let binary: URL = {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("pathconfig-cli")
        }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("pathconfig-cli")
    }()

    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static let example = root + "/examples/path-configuration.json"

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs the binary with `arguments`, `stdin` on its standard input, in
    /// the working directory `cwd` (default: the test process's). A file
    /// `inputFile` or `outputFile` takes the place of standard input's or
    /// output's pipe (the result's `stdout` is then empty).
    static func run(_ arguments: [String], stdin: String? = nil, cwd: String? = nil,
                    inputFile: String? = nil, outputFile: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = try outputFile.map { try #require(FileHandle(forWritingAtPath: $0)) } ?? out
        process.standardError = err
        process.standardInput = try inputFile.map { try #require(FileHandle(forReadingAtPath: $0)) } ?? input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        if outputFile != nil { try out.fileHandleForWriting.close() }  // unused: nothing else will end it
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// A file holding `contents`, removed when the test process exits.
    static func temporaryFile(_ contents: String) throws -> String {
        let path = TemporaryDirectory.scratch + "/cli-\(UUID().uuidString).json"
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

@Suite("pathconfig command")
struct CLITests {
    @Test("resolve prints one compact JSON object per input, in order")
    func resolveArguments() throws {
        let r = try CLI.run(["resolve", "--config", CLI.example, "https://example.com/messages/new", "/messages/42", "/recede_historical_location"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
            {"context":"modal","pull_to_refresh_enabled":false}
            {"context":"default","pull_to_refresh_enabled":true,"view_controller":"message","title":"Message"}
            {"context":"default","pull_to_refresh_enabled":true,"presentation":"pop","historical_location":true}

            """)
    }

    @Test("resolve reads standard input when given no inputs")
    func resolveStdin() throws {
        let r = try CLI.run(["resolve", "--config", CLI.example, "--profile", "turbo-ios"], stdin: "/a/edit\r\n/sign_in\n\n")
        #expect(r.status == 0)
        #expect(r.stdout == """
            {"context":"modal","pull_to_refresh_enabled":false}
            {"context":"default","pull_to_refresh_enabled":true,"flow":"authentication","presentation":"replace_root"}
            {"context":"default","pull_to_refresh_enabled":true}

            """)
    }

    @Test("standard input's lines as explain reads them: CR LF and a last line's CR dropped, no line ending needed at the end")
    func stdinLines() throws {
        let r = try CLI.run(["explain", "--compact", "--config", CLI.example], stdin: "/a\r\n\n/b\rc\n/\u{FF}\r")
        #expect(r.status == 0)
        let inputs = r.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["input"] as? String
        }
        #expect(inputs == ["/a", "", "/b\rc", "/\u{FF}"])
    }

    @Test("resolve answers each line of standard input as it arrives, so a program can wait for each answer")
    func stdinAnsweredLineByLine() throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["resolve", "--config", CLI.example]
        let out = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardInput = input
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var received: [UInt8] = []
        /// Reads standard output until it holds a whole line more than it did, or 30 s pass.
        func nextLine() -> String? {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline {
                if let newline = received.firstIndex(of: 0x0A) {
                    defer { received.removeFirst(newline + 1) }
                    return String(decoding: received[..<newline], as: UTF8.self)
                }
                var ready = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 100) >= 0 else { return nil }
                if ready.revents != 0 {
                    let chunk = out.fileHandleForReading.availableData
                    if chunk.isEmpty { return nil }
                    received += chunk
                }
            }
            return nil
        }
        // Standard input stays open: before the fix the answers waited for its end.
        input.fileHandleForWriting.write(Data("/messages/new\n".utf8))
        #expect(nextLine() == #"{"context":"modal","pull_to_refresh_enabled":false}"#)
        input.fileHandleForWriting.write(Data("/recede_historical_location\n".utf8))
        #expect(nextLine() == #"{"context":"default","pull_to_refresh_enabled":true,"presentation":"pop","historical_location":true}"#)
        try input.fileHandleForWriting.close()
        #expect(nextLine() == nil)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("standard output that cannot be written (a full disk) ends the command with exit code 1, saying why",
          .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
          arguments: [["resolve", "--config", CLI.example, "/messages/new"], ["schema"], ["settings", "--config", CLI.example]])
    func fullDisk(_ arguments: [String]) throws {
        let r = try CLI.run(arguments, outputFile: "/dev/full")
        #expect(r.status == 1)
        #expect(r.stderr == "pathconfig: error: cannot write standard output: No space left on device\n")
    }

    @Test("standard input that cannot be read (a directory) ends the command with exit code 1, saying why")
    func unreadableStdin() throws {
        let r = try CLI.run(["resolve", "--config", CLI.example], inputFile: TemporaryDirectory.scratch)
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == "pathconfig: error: cannot read standard input: Is a directory\n")
    }

    @Test("a line of standard input over 64 MiB ends the command at that line, so that input without line breaks cannot take all memory")
    func overlongStdinLine() throws {
        let path = TemporaryDirectory.scratch + "/cli-long-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = Data("/messages/new\n".utf8)
        text.append(Data(repeating: UInt8(ascii: "a"), count: (64 << 20) + 1))
        text.append(Data("\n/messages/new\n".utf8))
        try text.write(to: URL(fileURLWithPath: path))
        let r = try CLI.run(["resolve", "--config", CLI.example], inputFile: path)
        #expect(r.status == 1)
        #expect(r.stdout == "{\"context\":\"modal\",\"pull_to_refresh_enabled\":false}\n")
        #expect(r.stderr == "<stdin>:2: error: the line is longer than 67108864 bytes, the most a line may hold\n")
    }

    @Test("a cases file that never ends fails at the limit of a configuration (64 MiB)")
    func endlessCasesFile() throws {
        let r = try CLI.run(["test", "--config", CLI.example, "/dev/zero"])
        #expect(r.status == 1)
        #expect(r.stderr == "/dev/zero: error: /dev/zero is larger than the limit of 67108864 bytes\n")
    }

    @Test("query matching can be switched on and off", arguments: [
        (["--no-query-strings"], "{\"context\":\"default\",\"pull_to_refresh_enabled\":true}\n"),
        ([], "{\"context\":\"default\",\"pull_to_refresh_enabled\":true,\"open_in_external_browser\":true}\n"),
    ])
    func queryStrings(_ flags: [String], _ expected: String) throws {
        let r = try CLI.run(["resolve", "--config", CLI.example] + flags + ["https://example.com/doc?open_in_external_browser=true"])
        #expect(r.stdout == expected)
    }

    @Test("both backends give the same answers", arguments: ["pcre2", "foundation"])
    func backends(_ backend: String) throws {
        let r = try CLI.run(["resolve", "--config", CLI.example, "--backend", backend, "/messages/7", "/x/new"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"context\":\"default\",\"pull_to_refresh_enabled\":true,\"view_controller\":\"message\",\"title\":\"Message\"}\n{\"context\":\"modal\",\"pull_to_refresh_enabled\":false}\n")
    }

    @Test("explain prints input, matched string, rules and properties")
    func explain() throws {
        let r = try CLI.run(["explain", "--compact", "--config", CLI.example, "https://example.com/messages/new?x=1#top"])
        #expect(r.status == 0)
        #expect(r.stdout == "{\"input\":\"https://example.com/messages/new?x=1#top\",\"method\":\"GET\",\"url\":\"https://example.com/messages/new?x=1#top\",\"matched_string\":\"/messages/new?x=1\",\"rules\":[{\"index\":0,\"pattern\":\".*\",\"pattern_index\":0,\"description\":\"Every page: pushed, pull to refresh\"}],\"properties\":{\"context\":\"default\",\"pull_to_refresh_enabled\":true}}\n")
    }

    @Test("explain takes several inputs, as arguments or on standard input, one explanation each in input order")
    func explainSeveral() throws {
        let inputs = ["/messages/new", "/messages/42", "/nowhere"]
        let singles = try inputs.map { input -> String in
            let r = try CLI.run(["explain", "--compact", "--config", CLI.example, input])
            #expect(r.status == 0)
            return r.stdout
        }
        let arguments = try CLI.run(["explain", "--compact", "--config", CLI.example] + inputs)
        #expect(arguments.status == 0)
        #expect(arguments.stdout == singles.joined(), "the explanations one after another, in input order")
        let stdin = try CLI.run(["explain", "--compact", "--config", CLI.example], stdin: inputs.joined(separator: "\n") + "\n")
        #expect(stdin.status == 0)
        #expect(stdin.stdout == singles.joined())
        #expect(stdin.stdout.split(separator: "\n").count == 3 && singles.allSatisfy { $0.contains("\"input\"") })
    }

    @Test("test with no cases fails: a cases file that checks nothing is an error, not a pass")
    func testWithoutCases() throws {
        let r = try CLI.run(["test", "--config", CLI.example, "-"], stdin: #"{"cases": []}"#)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == "<stdin>: error: no cases: the file checks nothing; add at least one case to \"cases\"\n")
        let one = try CLI.run(["test", "--config", CLI.example, "-"],
                              stdin: #"{"cases": [{"url": "/messages/new", "properties": {"context": "modal", "pull_to_refresh_enabled": false}}]}"#)
        #expect(one.status == 0, "one case is enough")
    }

    @Test("settings prints the settings object")
    func settings() throws {
        let r = try CLI.run(["settings", "--compact", "--config", CLI.example])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("{\"tabs\":[{\"title\":\"Messages\",\"path\":\"/messages\""))
        #expect(r.stdout.hasSuffix("\"feature_flags\":{\"new_composer\":true}}\n"))
    }

    @Test("validate: the example works in the Hotwire Native apps, with its lint warnings on standard error; turbo-android refuses it, an error")
    func validateOK() throws {
        let r = try CLI.run(["validate", "--profile", "hotwire-ios", "--profile", "hotwire-android", "--config", CLI.example])
        #expect(r.status == 0)
        #expect(r.stdout == "\(CLI.example): ok: 5 rules (+3 built-in), 5 warnings, profiles hotwire-android, hotwire-ios\n")
        // The example keeps the seed documents' habits, `$` before a query and nested settings, but
        // not their trailing commas, which the Android apps refuse or crash on.
        let kinds = r.stderr.split(separator: "\n").map { $0.split(separator: "[").last.map { "[" + $0 } ?? "" }
        #expect(kinds == Array(repeating: "[query-string-anchor]", count: 5))
        // With no --profile, lint reads it as the four mobile apps do: turbo-android ignores the file.
        let all = try CLI.run(["validate", "--config", CLI.example])
        #expect(all.status == 1)
        #expect(all.stdout == "\(CLI.example): ok: 5 rules (+3 built-in), 5 warnings, 1 error, profile hotwire-ios\n")
        #expect(all.stderr.hasPrefix("\(CLI.example):3:13: error: the turbo-android app rejects this file: setting \"tabs\" is an array;"))
    }

    @Test("validate reports FILE:LINE:COLUMN: error: MESSAGE and exits 1", arguments: [
        ("{\"rules\": [\n  {\"patterns\": [\"/a(\"], \"properties\": {}}\n]}", ":2:17: error: rule 0, pattern 0: invalid regular expression \"/a(\" at offset 3: missing closing parenthesis\n"),
        ("{\"rules\": [\n  {\"patterns\": [\"/a\"] \"properties\": {}}\n]}", ":2:23: error: unexpected character '\"', expected ',' or '}'\n"),
        ("{\"rules\": [{\"patterns\": [\"/a\"]}]}", ":1:12: error: rule 0 is missing required key \"properties\"\n"),
    ])
    func validateErrors(_ contents: String, _ expectedSuffix: String) throws {
        let file = try CLI.temporaryFile(contents)
        let r = try CLI.run(["validate", "--config", file])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == file + expectedSuffix)
    }

    @Test("warnings go to standard error with their location; the load still succeeds")
    func warnings() throws {
        let file = try CLI.temporaryFile("{\"settings\": {}, \"rules\": [{\"patterns\": [\"([\", \"/x\"], \"properties\": {}}]}")
        let r = try CLI.run(["validate", "--lenient", "--config", file])
        #expect(r.status == 0)
        // Lint says it, once for every engine that rejects it alike, pointing where the engine stopped.
        #expect(r.stderr == "\(file):1:45: warning: rule 0: pattern 0: invalid regular expression \"([\" at offset 2: missing terminating ] for character class (under hotwire-ios, turbo-ios, hotwire-android, turbo-android) [invalid-pattern]\n")
    }

    @Test("a missing file exits 1 with a message, no stack trace")
    func missingFile() throws {
        let r = try CLI.run(["resolve", "--config", "/nonexistent.json", "/a"])
        #expect(r.status == 1)
        #expect(r.stderr == "/nonexistent.json: error: cannot open /nonexistent.json: No such file or directory\n")
    }

    @Test("usage errors exit 2", arguments: [
        ["resolve"],
        ["resolve", "--config", "x", "--profile", "android"],
        ["resolve", "--config", "x", "--backend", "re2"],
        ["frobnicate"],
    ])
    func usage(_ arguments: [String]) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 2)
        #expect(r.stdout == "")
        #expect(r.stderr.contains("Usage:") || r.stderr.contains("Error:"))
    }

    @Test("--help and --version exit 0")
    func help() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("SUBCOMMANDS:"))
        for sub in ["resolve", "explain", "settings", "validate", "test", "diff"] { #expect(help.stdout.contains(sub)) }
        let version = try CLI.run(["--version"])
        #expect(version.stdout == "1.1.0\n")
    }
}
