import Foundation
import PathConfiguration
@testable import PathConfigCore
import Testing

/// The Android profiles read a URL as `java.net.URL` does. This runs the
/// real thing (Tests/JVM/URLProbe.java, on a JDK 17) over crafted and
/// generated strings, the conformance inputs and the bench corpus, and
/// compares what it says (no protocol, rejected, a null path, or the path
/// and query) with `JavaURL`, with the string hotwire-android's patterns see,
/// with what turbo-android's lookup does, and with the byte fast path.
@Suite("Android profiles read URLs as java.net.URL does")
struct JavaURLDifferentialTests {
    /// What the JVM said about one input.
    enum Outcome: Equatable, CustomStringConvertible {
        case noProtocol, rejected, nullPath
        case accepted(path: String, query: String?)

        init(_ line: Substring) {
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            switch words.first {
            case "N": self = .noProtocol
            case "0": self = .nullPath
            case "A": self = .accepted(path: JVM.unhex(words[1]), query: words[2] == "-" ? nil : JVM.unhex(words[2]))
            default: self = .rejected
            }
        }

        init(_ reading: JavaURL.Reading) {
            switch reading {
            case .noProtocol: self = .noProtocol
            case .rejected: self = .rejected
            case .nullPath: self = .nullPath
            case .accepted(let path, let query): self = .accepted(path: String(path), query: query.map(String.init))
            }
        }

        /// What hotwire-android's patterns see (`PathConfigurationData.path`),
        /// or, where the app has no answer, the input (matched as given) or "".
        func matched(_ input: String) -> String {
            switch self {
            case .noProtocol: return input
            case .rejected, .nullPath: return ""
            case .accepted(let path, let query): return query.map { path + "?" + $0 } ?? path
            }
        }

        var description: String {
            switch self {
            case .noProtocol: return "no protocol"
            case .rejected: return "rejected"
            case .nullPath: return "null path"
            case .accepted(let path, let query): return "path \(path.debugDescription) query \(query.debugDescription)"
            }
        }
    }

    /// Inputs written for the cases `java.net.URL` decides: ports, IPv6
    /// literals and brackets, trimming and `url:`, `//` and `////`, `#`
    /// before `?`, `\`, spaces, `jar:` URLs, protocols Android has no
    /// handler for, look-alike characters in hosts.
    static let crafted: [String] = [
        "https://x.dev:abc/new", "https://x.dev:/new", "https://x.dev:8080/new", "https://x.dev:+80/new", "https://x.dev:-1/new",
        "https://x.dev:-0/a", "https://x.dev:-2/a", "https://x.dev:2147483647/a", "https://x.dev:2147483648/a", "https://x.dev:-2147483648/a",
        "https://x.dev:999999999/a", "https://x.dev:0000000000080/a", "https://x.dev:\u{668}\u{660}/a", "https://x.dev:\u{FF18}\u{FF10}/a",
        "https://x.dev:8 0/a", "https://x.dev: 80/a", "https://x.dev:+/a", "https://x.dev:-/a", "https://x.dev:0x50/a",
        "https://x.dev:\u{1D7D6}\u{1D7CE}/a", "https://x.dev:\u{1E950}/a", "https://x.dev:1:2/a", "https://x.dev::/a", "https://:80/a",
        "http://[::1]/a", "http://[::1]:8080/a", "http://[::1]:/a", "http://[::1]x/a", "http://[::1/a", "http://[]/a", "http://[:]/a",
        "http://[::]/a", "http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[::ffff:1.2.3.4]/", "http://[::1.2.3]/",
        "http://[::256.1.1.1]/", "http://[::1.2.3.04]/", "http://[fe80::1%eth0]/", "http://[fe80::1%]/", "http://[::1]]/",
        "http://[::1]:abc/", "http://[12345::]/", "http://[:1::]/", "http://[1::2::3]/", "http://[1:2:3:4:5:6:7::]/",
        "http://[1:2:3:4:5:6:7:8::]/", "http://[::1:2:3:4:5:6:7]/", "http://[1:2:3:4:5:6:1.2.3.4]/", "http://[1:2:3:4:5:6:7:1.2.3.4]/",
        "http://[::\u{661}]/", "http://[a:b:c:d:e:f:0:1%25x]/", "http://[%1]/", "http://[::%\u{e9}]/", "http://[v1.x]/",
        "http://x[y/a", "http://x]y/a", "http://u@[::1]:80/a", "http://a@b@[/a", "http://a@b@c:xyz/a", "http://a:b@c:80/a",
        "http://a:b@c:d/a", "http://[::1]@x/a", "http://x@[::1/a",
        " https://x.dev/new ", "\t\nhttps://x.dev/new\r\n", "\u{0}https://x.dev/a\u{1F}", "\u{7F}https://x.dev/a", "\u{A0}https://x.dev/a",
        "url:https://x.dev/a", "URL:HTTPS://x.dev/a", "uRl:http://x/a", "url:url:https://x/a", "url:/new", "url:", "url:#x", "url: https://x/a",
        " url:https://x/a", "#x", " #x", "#", "https://x.dev/a b c ", "https://x.dev/a\\b", "https://x.dev\\a/b", "https://x.dev/a?b#c?d",
        "https://x.dev/a#b?c", "https://x.dev?q", "https://x.dev#f", "https://x.dev", "https://x.dev/", "http:", "http:foo", "http:/foo",
        "http:?q", "http:#f", "http:?", "http:///a", "http:////a", "http://///a", "http:////", "http:///", "http://", "http://?//",
        "http:////?a", "http://x?a/b", "http://x#a/b", "file:///etc/passwd", "file:/a", "file:a/b", "file://h/a", "FILE:/A",
        "ftp://u:p@h/a;type=i", "ftp:x", "https://x.dev/a\u{0}b", "https://x.dev/a\tb", "https://x\u{1}y/a", "http://x\u{7F}y/a",
        "http://x\u{FF0F}y/a", "http://x\u{2100}/a", "http://x\u{FE55}/a", "http://x\u{2047}/a", "http://user\u{FF20}@x/a",
        "http://a@b@x\u{1}/a", "http://x\u{1}@y/a", "http://\u{FF1A}80/a",
        "jar:file:/x.jar!/a", "jar:file:/x.jar!/a?q?r", "jar:http://x/y.jar!/", "jar:x!/", "jar:mailto:a!/b", "jar:file:/x.jar",
        "jar:jar:file:/x!/a!/b", " jar:#x", "url:jar:#x", "\tjar:#", "jar:#x", " jar:file:/x!/a", "JAR:FILE:/x!/A", "jar:file:/x.jar!/a#b!/c",
        "jar: file:/x!/a", "jar:file:/x!/a ", "jar:!/", "jar:/!/a", "jar:http://x:abc/!/a", "jar:http://[::1]/!/a", "jar:url:file:/x!/a",
        "jar: jar:file:/x!/a!/b", "jar:file:/x!/", "jar:file:/x!!/", "jar:file:/x!/!/", "jar:file:/x?q!/a", "jar:file:/x!/a?", "jar:?!/",
        "jar:file:/x!/a#", "jar:file:/x.jar!/\u{E9}?\u{E9}",
        "mailto:a@b", "tel:+1", "sms:+1", "custom-app://feature", "a+b.c-d:x", "jrt:/java.base", "jmod:x", "1http://x/a", "\u{E9}:x",
        "\u{E9}x:/a", "\u{130}x:/a", "x\u{130}:/a", "\u{FB01}le:/a", "F\u{130}LE:/a", "f\u{131}le:/a", "\u{212A}:/a", "ht\u{1D7CE}p:/a",
        "a\u{301}:/a", "a\u{300}b:/a", "\u{661}a:/a", "a\u{661}:/a", "a_b:/a", "a b:c", "http", "", " ", "/new", "new", "?x", "/a:b",
        "a/b:c", "HTTP://X.DEV/A", "hTtPs://x/a", "https://x.dev/caf%C3%A9/?q=1", "https://x.dev/\u{E9}?\u{E9}#\u{E9}",
        "https://x.dev/a?q=%zz", "https://x.dev/%", "https://\u{E9}.dev/a", "https://x.dev:\u{E9}/a", "http://a@/b", "http://@/b",
        "https://x.dev/\u{1F600}?\u{1F600}", "https://x.dev/a\u{2028}b", "http:\u{2028}//x/a",
    ]

    /// Generated inputs: a prefix to trim or skip, a scheme, `:` and slashes,
    /// an authority of user information, host and port, a path, a query, a
    /// ref, a suffix to trim; some wrapped in `jar:`.
    static func generated(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix(state: seed)
        func pick(_ xs: [String]) -> String { xs[Int(rng.next() % UInt64(xs.count))] }
        func some(_ xs: [String], _ most: Int) -> String { (0..<Int(rng.next() % UInt64(most + 1))).map { _ in pick(xs) }.joined() }
        let prefixes = ["", "", "", "", " ", "\t", "url:", "URL:", " url:", "\u{1}"]
        let schemes = ["http", "https", "HTTPS", "ftp", "file", "File", "mailto", "foo", "a+b", "x1", "jar"]
        let separators = ["://", "://", "://", ":/", ":", ":///", "://///", "://?", ":#"]
        let users = ["", "", "", "u@", "u:p@", "a@b@", "@", "\u{E9}@", "[@"]
        let hosts = ["x.dev", "x.dev", "X.Dev", "", "[::1]", "[::1", "::1]", "[1:2:3:4:5:6:7:8]", "[::ffff:1.2.3.4]", "[fe80::1%en0]",
                     "[::1]x", "a[b", "a]b", "1.2.3.4", "\u{E9}", "x\u{FF0F}y", "x y", "x\\y", "x%2Fy"]
        let ports = ["", "", "", "", ":", ":80", ":8080", ":abc", ":-1", ":-2", ":+8", ":99999999999", ":\u{668}", ":8a", ": 8"]
        let pieces = ["/", "/", "a", "B", "0", "%", "%2F", "%zz", "\u{E9}", "-", ".", "..", "~", "!", "$", "&", "'", "(", ")", "*",
                      "+", ",", ";", "=", ":", "@", "\"", "<", ">", "[", "]", "{", "}", "|", "\\", "^", "`", " ", "//", "?", "#",
                      "!/", "\t", "\u{301}"]
        let suffixes = ["", "", "", "", " ", "\n", "\u{0}", " \u{1F}"]
        return (0..<count).map { n in
            func url(_ scheme: String) -> String {
                var s = scheme + pick(separators) + pick(users) + pick(hosts) + pick(ports)
                s += (n % 4 == 0 ? "" : "/") + some(pieces, 6)
                if rng.next() % 2 == 0 { s += "?" + some(pieces, 4) }
                if rng.next() % 5 == 0 { s += "#" + some(pieces, 3) }
                return s
            }
            var s = pick(prefixes)
            if rng.next() % 6 == 0 {
                // jar: around a URL of any scheme but jrt (whose handler Android lacks and the probe cannot refuse there).
                s += "jar:" + url(pick(schemes)) + (rng.next() % 4 == 0 ? "" : "!/" + some(pieces, 3))
                if rng.next() % 3 == 0 { s += "?" + some(pieces, 2) }
            } else {
                s += url(pick(schemes))
            }
            return s + pick(suffixes)
        }
    }

    /// Every input compared: crafted, generated, the Android conformance
    /// inputs, and the bench corpus as paths and as URLs.
    static let inputs: [String] = {
        var all = crafted + generated(count: 30_000, seed: 0x4A41_5641)
        let cases = Conformance.cases(Conformance.android, "cases") { $0["input"]?.stringValue != nil }
        all += cases.compactMap { $0["input"]?.stringValue }
        let bench = (try? String(contentsOfFile: Conformance.repositoryRoot + "/bench/corpora/urls-10.txt", encoding: .utf8)) ?? ""
        let paths = bench.split(separator: "\n").prefix(2_000).map(String.init)
        all += paths + paths.map { "https://x.dev" + $0 }
        return all
    }()

    /// The JVM's outcome for every input, in order (one JVM start), and its
    /// tables of letters and digits.
    static let probe: Result<(outcomes: [Outcome], letters: Substring, digits: Substring), JVM.Failure> = {
        do {
            let lines = try JVM.run("URLProbe.java", lines: inputs.map(JVM.hex))
            guard lines.count == inputs.count + 2 else { return .failure(JVM.Failure("URLProbe wrote \(lines.count) lines for \(inputs.count) inputs")) }
            return .success((lines.dropFirst(2).map(Outcome.init), lines[0], lines[1]))
        } catch let failure as JVM.Failure {
            return .failure(failure)
        } catch {
            return .failure(JVM.Failure("\(error)"))
        }
    }()

    @Test("JavaURL reads every input as java.net.URL does")
    func reading() throws {
        let outcomes = try Self.probe.get().outcomes
        var wrong: [String] = []
        var kinds: [String: Int] = [:]
        for (input, expected) in zip(Self.inputs, outcomes) {
            kinds[String(expected.description.prefix(while: { $0 != " " })), default: 0] += 1
            let actual = Outcome(JavaURL.read(input))
            if actual != expected { wrong.append("\(input.debugDescription): JVM \(expected), JavaURL \(actual)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(Self.inputs.count) differ: \(wrong.prefix(8).joined(separator: "; "))")
        // Every outcome is well represented.
        #expect(kinds["path", default: 0] > 8_000 && kinds["rejected", default: 0] > 4_000, "\(kinds)")
        #expect(kinds["no", default: 0] > 2_000 && kinds["null", default: 0] >= 3, "\(kinds)")
    }

    @Test("hotwire-android matches what the app's path(location) gives; turbo-android throws where the app crashes")
    func profiles() throws {
        let outcomes = try Self.probe.get().outcomes
        var wrong: [String] = []
        for (input, expected) in zip(Self.inputs, outcomes) {
            let hotwire = Profile.hotwireAndroid.matchedString(for: input, matchQueryStrings: true)
            if hotwire != expected.matched(input) { wrong.append("hotwire-android \(input.debugDescription): \(hotwire.debugDescription), JVM \(expected)") }
            let turbo = Result { () throws(ResolveError) in try Profile.turboAndroid.patternSubject(for: input, matchQueryStrings: true) }
            switch (expected, turbo) {
            case (.rejected, .failure(let error)), (.nullPath, .failure(let error)):
                if error.code != .unreadableURL { wrong.append("turbo-android \(input.debugDescription): \(error)") }
            case (.noProtocol, .success(let s)), (.accepted, .success(let s)):
                if s != expected.matched(input) { wrong.append("turbo-android \(input.debugDescription): \(s.debugDescription), JVM \(expected)") }
            default:
                wrong.append("turbo-android \(input.debugDescription): \(turbo), JVM \(expected)")
            }
            let hotwireLookup = Result { () throws(ResolveError) in try Profile.hotwireAndroid.patternSubject(for: input, matchQueryStrings: true) }
            if case .failure = hotwireLookup, expected != .nullPath { wrong.append("hotwire-android throws for \(input.debugDescription)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(8).joined(separator: "; "))")
    }

    @Test("the byte fast path takes only inputs whose JVM reading is their raw path and query, and takes most plain ones")
    func fastPath() throws {
        let outcomes = try Self.probe.get().outcomes
        var wrong: [String] = []
        var taken = 0, plain = 0
        for (input, expected) in zip(Self.inputs, outcomes) where input.utf8.allSatisfy(ByteSet.isPrintable) {
            for profile in [Profile.hotwireAndroid, .turboAndroid] {
                var text = input
                let range = text.withUTF8 { profile.matchedRange(inPrintable: $0, matchQueryStrings: true) }
                if case .accepted = expected, input.hasPrefix("http"), !input.contains("["), !input.hasSuffix(" ") { plain += 1 }
                guard let range else { continue }
                taken += 1
                let bytes = String(decoding: Array(input.utf8)[range], as: UTF8.self)
                switch expected {
                case .accepted, .noProtocol:
                    if bytes != expected.matched(input) { wrong.append("\(profile) \(input.debugDescription): \(bytes.debugDescription), JVM \(expected)") }
                case .rejected, .nullPath:
                    wrong.append("\(profile) \(input.debugDescription): taken as \(bytes.debugDescription), JVM \(expected)")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ: \(wrong.prefix(8).joined(separator: "; "))")
        #expect(taken > plain / 2 && taken > 5_000, "the fast path takes \(taken) of the \(plain) plain http URLs and paths")
    }

    @Test("letters and digits as Java 17 reads a protocol and a port (Unicode 13.0)")
    func characters() throws {
        let probe = try Self.probe.get()
        var letters = "letters", digits = "digits"
        var v: UInt32 = 0
        while v <= 0xFFFF {
            defer { v += 1 }
            guard let c = Unicode.Scalar(v) else { continue }
            if JavaURL.javaIsLetter(c), v == 0 || !(Unicode.Scalar(v - 1).map(JavaURL.javaIsLetter) ?? false) {
                var end = v
                while end < 0xFFFF, let next = Unicode.Scalar(end + 1), JavaURL.javaIsLetter(next) { end += 1 }
                letters += " " + String(v, radix: 16) + "-" + String(end, radix: 16)
            }
            if let digit = JavaURL.javaDigit(c) { digits += " \(String(v, radix: 16))=\(digit)" }
        }
        #expect(probe.letters == letters[...])
        #expect(probe.digits == digits[...])
    }
}
