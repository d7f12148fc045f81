import Foundation
import PathConfiguration

/// An HTTP server on 127.0.0.1 that answers each connection with the next
/// response of a script, byte for byte (the last one repeats), so the
/// loader's HTTP handling sees the fuzzer's bytes through a real libcurl.
///
/// One server per process, started on first use. In raw responses a line
/// that starts `Location:` is rewritten to point back here (its value is the
/// fuzzer's otherwise), so redirects are followed without leaving the machine.
final class LoopbackServer: Sendable {
    /// The server of this process, or nil when it cannot listen.
    static let shared: LoopbackServer? = try? LoopbackServer()

    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let state = Locked(State())

    private struct State {
        var script: [[UInt8]] = []
        var requests: [[UInt8]] = []
    }

    /// Where a source should point.
    var url: String { "http://127.0.0.1:\(port)/config.json" }

    /// Where rewritten redirects point.
    var redirectURL: String { "http://127.0.0.1:\(port)/redirected" }

    private struct Unavailable: Error {}

    private init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unavailable() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw Unavailable()
        }
        var length = size
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    /// Sets what the next connections get and forgets the requests seen;
    /// `raw` responses get their `Location` lines rewritten.
    func reset(script: [[UInt8]], raw: Bool = false) {
        let location = Array(redirectURL.utf8)
        state.withLock {
            $0.script = raw ? script.map { Self.rewritingLocation($0, to: location) } : script
            $0.requests = []
        }
    }

    /// The request heads received since `reset`, in order.
    var requests: [[UInt8]] { state.withLock { $0.requests } }

    private func serve() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = readHead(fd)
            let response: [UInt8] = state.withLock { s in
                s.requests.append(request)
                guard !s.script.isEmpty else { return [] }
                return s.script.count > 1 ? s.script.removeFirst() : s.script[0]
            }
            send(fd, response)
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    /// Reads until the blank line that ends a request head.
    private func readHead(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65_536, !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return received
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// `response` with the value of every line that starts `Location:`
    /// replaced by `location`.
    static func rewritingLocation(_ response: [UInt8], to location: [UInt8]) -> [UInt8] {
        let name = Array("location:".utf8)
        var out: [UInt8] = []
        var start = 0
        while start < response.count {
            let newline = response[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? response.count
            var line = Array(response[start..<newline])
            // Every such line, not only the first head's (after a 1xx
            // response comes another head), bodies' too.
            let lowered = line.prefix(name.count).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            if lowered == name {
                line = Array("Location: ".utf8) + location + (line.last == 0x0A ? Array("\r\n".utf8) : [])
            }
            out += line
            start = newline
        }
        return out
    }
}
