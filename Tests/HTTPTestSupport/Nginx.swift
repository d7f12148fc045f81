import Foundation

/// A real nginx on 127.0.0.1, started by a test in its own temporary prefix
/// and stopped when the value is released (or by `stop()`).
///
/// The document root is `www/`; files written with `put` get strictly
/// increasing modification times, so that every version has its own ETag
/// and Last-Modified (nginx derives both from mtime and size). Two switches
/// change what `/config.json`-style requests get, per request:
/// `fail(with: 500)` makes every request answer 500 (nginx `return 500;`).
/// Fixed locations: `/redirect.json` redirects to `/config.json` on the same
/// host, `/elsewhere.json` to `/config.json` on another (`localhost` instead
/// of `127.0.0.1`), `/loop.json` to itself; `/gzip/NAME` serves `NAME`
/// gzip-compressed to a client that accepts it. On the HTTPS port,
/// `/downgrade.json` redirects to `/config.json` over plain HTTP.
/// The access log records, per request: method, URI, status and the
/// If-None-Match, If-Modified-Since, Accept, X-Test, User-Agent, Host,
/// Authorization and Accept-Encoding headers, and the Content-Encoding and
/// body bytes sent.
public final class Nginx: @unchecked Sendable {
    /// Why the test cannot run; fails the test (never skips it).
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The temporary directory nginx runs in.
    public let prefix: String
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The HTTPS port, when started with `tls: true`.
    public let tlsPort: Int?
    /// The self-signed certificate (for 127.0.0.1) the HTTPS port presents.
    public var certificate: String { prefix + "/cert.pem" }
    /// The document root.
    public var www: String { prefix + "/www" }
    /// The access log file.
    public var accessLogPath: String { prefix + "/access.log" }
    private var process: Process?
    private var mtime = Date().timeIntervalSince1970.rounded(.down) - 100_000

    /// The base URL, `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The URL of `name` under the document root.
    public func url(_ name: String) -> String { "\(baseURL)/\(name)" }

    /// The https:// URL of `name` (needs `tls: true`).
    public func httpsURL(_ name: String) -> String { "https://127.0.0.1:\(tlsPort ?? 0)/\(name)" }

    /// Creates the prefix and configuration and starts nginx; with `tls`,
    /// also an HTTPS port with a fresh self-signed certificate (made with
    /// the openssl command).
    public init(tls: Bool = false) throws {
        binary = try Self.binary()
        prefix = try TemporaryDirectory.make("nginx")
        port = try FreePort.find()
        tlsPort = tls ? try FreePort.find() : nil
        for dir in ["www", "tmp"] { try FileManager.default.createDirectory(atPath: prefix + "/" + dir, withIntermediateDirectories: true) }
        if tls { try Self.makeCertificate(in: prefix) }
        try configuration().write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        try start()
    }

    private let binary: String

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: prefix)
    }

    /// Starts (or restarts) nginx on the same port and waits until it accepts connections.
    public func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !p.isRunning {
                let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
                throw Unavailable(description: "nginx exited with status \(p.terminationStatus) on port \(port): \(log)")
            }
            if FreePort.accepts(port) { return }
            usleep(10_000)
        }
        stop()
        throw Unavailable(description: "nginx did not accept connections on port \(port) within 10 s")
    }

    /// Stops nginx and waits for it to exit. Idempotent.
    ///
    /// SIGKILL, not SIGTERM: the test runner's threads block signals, the
    /// child inherits that mask, and nginx without a master process never
    /// unblocks them. One process, nothing to clean up after it.
    public func stop() {
        guard let p = process else { return }
        process = nil
        if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        p.waitUntilExit()
    }

    /// Writes `contents` to `www/name` (atomically) with a modification time
    /// later than every earlier `put`.
    public func put(_ name: String, _ contents: String) throws {
        try put(name, Data(contents.utf8))
    }

    /// Writes bytes to `www/name` (atomically) with a fresh modification time.
    public func put(_ name: String, _ data: Data) throws {
        let path = www + "/" + name
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        mtime += 1
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: mtime)], ofItemAtPath: path)
    }

    /// Makes every request answer `status` (nginx `return`), or serve files again with nil.
    public func fail(with status: Int?) throws {
        let flag = www + "/.fail500"
        if status != nil {
            try Data().write(to: URL(fileURLWithPath: flag))
        } else {
            try? FileManager.default.removeItem(atPath: flag)
        }
    }

    /// The access log, one line per request.
    ///
    /// nginx writes a request's line after sending the response, so a client
    /// can finish before the line exists: `waitingFor` waits (up to 5 s)
    /// until the log has that many lines.
    public func accessLog(waitingFor count: Int = 0) -> [String] {
        let deadline = Date().addingTimeInterval(5)
        while true {
            let text = (try? String(contentsOfFile: accessLogPath, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map(String.init)
            if lines.count >= count || Date() > deadline { return lines }
            usleep(2_000)
        }
    }

    private func configuration() -> String {
        """
        daemon off;
        master_process off;
        worker_processes 1;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log;
        events { worker_connections 64; }
        http {
            log_format probe escape=none '$request_method $request_uri $status inm=[$http_if_none_match] ims=[$http_if_modified_since] accept=[$http_accept] x-test=[$http_x_test] ua=[$http_user_agent] host=[$http_host] auth=[$http_authorization] ae=[$http_accept_encoding] ce=[$sent_http_content_encoding] sent=[$body_bytes_sent]';
            access_log \(prefix)/access.log probe;
            client_body_temp_path \(prefix)/tmp/client;
            proxy_temp_path \(prefix)/tmp/proxy;
            fastcgi_temp_path \(prefix)/tmp/fastcgi;
            uwsgi_temp_path \(prefix)/tmp/uwsgi;
            scgi_temp_path \(prefix)/tmp/scgi;
            types { application/json json; }
            default_type application/octet-stream;
            server {
                listen 127.0.0.1:\(port);
                root \(prefix)/www;
                location / {
                    if (-f $document_root/.fail500) { return 500; }
                }
                location = /redirect.json { return 302 /config.json; }
                location = /elsewhere.json { return 302 http://localhost:\(port)/config.json; }
                location = /loop.json { return 302 /loop.json; }
                location ~ ^/gzip/(.+)$ {
                    gzip on;
                    gzip_types application/json;
                    gzip_min_length 1;
                    try_files /$1 =404;
                }
                location = /needs-accept.json {
                    if ($http_accept != "application/json") { return 406; }
                    try_files /config.json =404;
                }
            }
        \(tlsServer)
        }
        """
    }

    private var tlsServer: String {
        guard let tlsPort else { return "" }
        return """
            server {
                listen 127.0.0.1:\(tlsPort) ssl;
                ssl_certificate \(prefix)/cert.pem;
                ssl_certificate_key \(prefix)/key.pem;
                root \(prefix)/www;
                location = /downgrade.json { return 302 http://127.0.0.1:\(port)/config.json; }
            }
        """
    }

    /// A self-signed certificate for 127.0.0.1 (cert.pem, key.pem in `directory`).
    private static func makeCertificate(in directory: String) throws {
        let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let openssl else {
            throw Unavailable(description: "openssl is not installed, and the HTTPS test needs it to make a certificate: run scripts/install-deps.sh (or apt-get install openssl)")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: openssl)
        p.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                       "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                       "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw Unavailable(description: "openssl could not make a test certificate (status \(p.terminationStatus))") }
    }

    /// The nginx executable: $PATHCONFIG_TEST_NGINX, or nginx in the usual
    /// places. Missing nginx is an error that says how to install it.
    public static func binary() throws -> String {
        var candidates: [String] = []
        if let env = ProcessInfo.processInfo.environment["PATHCONFIG_TEST_NGINX"], !env.isEmpty { candidates.append(env) }
        candidates += ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx", "/usr/bin/nginx"]
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        candidates += path.split(separator: ":").map { "\($0)/nginx" }
        for c in candidates where FileManager.default.isExecutableFile(atPath: c) { return c }
        throw Unavailable(description: "nginx is not installed, and the loader tests need a real HTTP server: run scripts/install-deps.sh (or apt-get install nginx-light), or set PATHCONFIG_TEST_NGINX to an nginx binary")
    }
}

/// Temporary directories for tests.
public enum TemporaryDirectory {
    /// A new empty directory under the system's temporary directory.
    public static func make(_ label: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "pathconfig-\(label)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Nginx.Unavailable(description: "mkdtemp failed: \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }

    /// One directory for this test process, made on first use and removed,
    /// with everything in it, when the process exits: for files a test hands
    /// to a command and does not need once it has checked the answer.
    public static let scratch: String = {
        let directory = try! make("scratch")
        atexit { try? FileManager.default.removeItem(atPath: TemporaryDirectory.scratch) }
        return directory
    }()
}
