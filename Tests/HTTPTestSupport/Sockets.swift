import Foundation

/// Loopback TCP helpers for the loader tests.
public enum FreePort {
    /// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
    public static func find() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Nginx.Unavailable(description: "socket() failed") }
        defer { close(fd) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0 else { throw Nginx.Unavailable(description: "bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// True when something accepts TCP connections on 127.0.0.1:`port`.
    public static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    /// A sockaddr_in for 127.0.0.1:`port`.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// A tiny HTTP server on a raw socket, for what nginx will not do: a body
/// cut short of its Content-Length or longer than it, a connection reset
/// mid-body, bytes written by hand, and a server that never answers.
///
/// Each connection gets the next behaviour of `script` (the last repeats):
/// a full response, a response whose body stops early, exact bytes, bytes
/// then a reset, or silence (the request is read, nothing is sent, the
/// connection is held open).
public final class RawHTTPServer: @unchecked Sendable {
    /// What one connection gets.
    public enum Behaviour {
        /// `200 OK` with the body and a correct Content-Length.
        case respond(String)
        /// `200 OK` announcing the body's length, then only its first `sent` bytes, then close.
        case truncate(String, sent: Int)
        /// Exactly these bytes (status line, headers and body as given), then close.
        case raw([UInt8])
        /// These bytes, then a moment later a reset (RST: `SO_LINGER` of 0, then close).
        case reset([UInt8])
        /// Read the request, answer nothing, keep the connection open until `stop()`.
        case silent

        /// A response with `status`, `headers` (`Content-Length` among them
        /// only when given) and `body`, as raw bytes.
        public static func response(_ status: String = "200 OK", headers: [String], body: [UInt8]) -> [UInt8] {
            Array(("HTTP/1.1 \(status)\r\n" + headers.map { $0 + "\r\n" }.joined() + "Connection: close\r\n\r\n").utf8) + body
        }
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its URL (any path gets the same answers).
    public var url: String { "http://127.0.0.1:\(port)/config.json" }
    private let listener: Int32
    private let lock = NSLock()
    private var script: [Behaviour]
    private var held: [Int32] = []
    private var requests = 0
    private let done = DispatchSemaphore(value: 0)

    /// Listens on a free port and serves `script`.
    public init(script: [Behaviour]) throws {
        self.script = script
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = FreePort.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw Nginx.Unavailable(description: "cannot listen on 127.0.0.1")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    deinit { stop() }

    /// Replaces what the next connections get.
    public func setScript(_ script: [Behaviour]) { lock.withLock { self.script = script } }

    /// How many requests arrived.
    public var requestCount: Int { lock.withLock { requests } }

    /// Stops accepting, closes held connections, waits for the thread.
    public func stop() {
        let fds: [Int32]? = lock.withLock {
            guard listener >= 0, !stopped else { return nil }
            stopped = true
            defer { held = [] }
            return held
        }
        guard let fds else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in fds { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        done.wait()
        close(listener)
    }

    private var stopped = false

    private func serve() {
        defer { done.signal() }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            readRequest(fd)
            let behaviour: Behaviour = lock.withLock {
                requests += 1
                return script.count > 1 ? script.removeFirst() : script[0]
            }
            switch behaviour {
            case .respond(let body):
                send(fd, head(length: body.utf8.count) + body)
                close(fd)
            case .truncate(let body, let sent):
                send(fd, head(length: body.utf8.count) + String(body.prefix(sent)))
                close(fd)
            case .raw(let bytes):
                send(fd, bytes)
                close(fd)
            case .reset(let bytes):
                send(fd, bytes)
                usleep(100_000)  // let the client read what was sent first
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
                close(fd)
            case .silent:
                let keep = lock.withLock { () -> Bool in
                    if stopped { return false }
                    held.append(fd)
                    return true
                }
                if !keep { close(fd) }
            }
        }
    }

    private func head(length: Int) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
    }

    /// Reads until the blank line that ends the request head.
    private func readRequest(_ fd: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.ends(with: Array("\r\n\r\n".utf8)) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            received += buffer[0..<n]
        }
    }

    private func send(_ fd: Int32, _ text: String) { send(fd, Array(text.utf8)) }

    private func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
