//! A real nginx on 127.0.0.1 for the loader tests, as the C and Swift tests
//! run it (Tests/CTests/server.c, Tests/HTTPTestSupport/Nginx.swift): a
//! temporary prefix, a free port, and
//! `nginx -p DIR -c DIR/nginx.conf -e DIR/error.log -g 'daemon off;'` as a
//! child process (one process: `master_process off`), killed on Drop.
//!
//! The document root is DIR/www. Files written with [`Nginx::put`] get
//! strictly increasing modification times, so every version has its own
//! ETag and Last-Modified (nginx derives both from mtime and size). Two flag
//! files change what every request gets: `www/.fail500` answers 500,
//! `www/.slow` sends bodies at 1 byte per second (`$limit_rate`), a server
//! that does not answer in time. The access log has one line per request:
//! `METHOD URI STATUS inm=[If-None-Match] ims=[If-Modified-Since] accept=[Accept] ua=[User-Agent]`.
//!
//! The binary is `$PATHCONFIG_TEST_NGINX`, or nginx in /usr/sbin,
//! /usr/local/sbin, /usr/local/bin, /usr/bin or on PATH. A missing nginx
//! fails the test with instructions; it never skips.

use std::fs::{self, File};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub struct Nginx {
    binary: PathBuf,
    /// The temporary prefix (removed on Drop).
    pub prefix: PathBuf,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
    child: Option<Child>,
    /// The modification time of the last `put`.
    mtime: SystemTime,
}

impl Nginx {
    /// Makes a prefix, picks a free port, starts nginx and waits until it
    /// accepts connections. Panics (failing the test) when it cannot.
    pub fn start() -> Nginx {
        let binary = binary();
        let prefix = TempDir::new("nginx").keep();
        for dir in ["www", "tmp"] {
            fs::create_dir(prefix.join(dir)).expect("nginx prefix subdirectory");
        }
        let mut nginx =
            Nginx { binary, prefix, port: 0, child: None, mtime: SystemTime::now() - Duration::from_secs(100_000) };
        // The free port may be taken by someone else (another test's nginx)
        // before nginx binds it: then try another.
        for attempt in 1.. {
            nginx.port = free_port();
            fs::write(nginx.prefix.join("nginx.conf"), nginx.configuration()).expect("write nginx.conf");
            match nginx.launch() {
                Ok(()) => break,
                Err(why) if attempt < 5 && why.contains("Address already in use") => continue,
                Err(why) => panic!("{why}"),
            }
        }
        nginx
    }

    fn configuration(&self) -> String {
        let p = self.prefix.display();
        format!(
            "master_process off;
worker_processes 1;
pid {p}/nginx.pid;
error_log {p}/error.log;
events {{ worker_connections 64; }}
http {{
    log_format probe escape=none '$request_method $request_uri $status inm=[$http_if_none_match] ims=[$http_if_modified_since] accept=[$http_accept] ua=[$http_user_agent]';
    access_log {p}/access.log probe;
    client_body_temp_path {p}/tmp/client;
    proxy_temp_path {p}/tmp/proxy;
    fastcgi_temp_path {p}/tmp/fastcgi;
    uwsgi_temp_path {p}/tmp/uwsgi;
    scgi_temp_path {p}/tmp/scgi;
    types {{ application/json json; }}
    default_type application/octet-stream;
    server {{
        listen 127.0.0.1:{port};
        root {p}/www;
        location / {{
            if (-f $document_root/.fail500) {{ return 500; }}
            if (-f $document_root/.slow) {{ set $limit_rate 1; }}
        }}
    }}
}}
",
            port = self.port
        )
    }

    /// Starts nginx again (after `stop`) on the same port and waits until it
    /// accepts connections (10 s at most).
    pub fn restart(&mut self) {
        if let Err(why) = self.launch() {
            panic!("{why}");
        }
    }

    fn launch(&mut self) -> Result<(), String> {
        assert!(self.child.is_none(), "nginx is already running");
        let p = &self.prefix;
        let mut command = Command::new(&self.binary);
        command
            .arg("-p")
            .arg(p)
            .arg("-c")
            .arg(p.join("nginx.conf"))
            .arg("-e")
            .arg(p.join("error.log"))
            .args(["-g", "daemon off;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: the hook runs in the child between fork and exec and only
        // makes one async-signal-safe system call, so that nginx dies with
        // the test thread that started it even if the test process is
        // killed before Drop runs (as the C tests do).
        unsafe {
            command.pre_exec(|| {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                Ok(())
            });
        }
        let mut child = command.spawn().map_err(|e| format!("cannot run {}: {e}", self.binary.display()))?;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = child.try_wait().expect("wait for nginx") {
                let log = fs::read_to_string(p.join("error.log")).unwrap_or_else(|_| "(no error log)".into());
                return Err(format!("nginx exited ({status}) on port {}: {log}", self.port));
            }
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("nginx did not accept connections on port {} within 10 s", self.port));
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.child = Some(child);
        Ok(())
    }

    /// Stops nginx (SIGKILL: one process, nothing to clean up) and waits
    /// for it. Idempotent.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// `http://127.0.0.1:PORT/name`.
    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }

    pub fn www(&self) -> PathBuf {
        self.prefix.join("www")
    }

    /// Writes `contents` to www/name atomically, with a modification time
    /// later than every earlier `put`.
    pub fn put(&mut self, name: &str, contents: &str) {
        let path = self.www().join(name);
        let temporary = self.www().join(format!(".{name}.tmp"));
        let mut file = File::create(&temporary).expect("create");
        file.write_all(contents.as_bytes()).expect("write");
        self.mtime += Duration::from_secs(1);
        file.set_modified(self.mtime).expect("set mtime");
        drop(file);
        fs::rename(&temporary, &path).expect("rename");
    }

    /// Every request answers 500 (on) or files are served again (off).
    pub fn fail500(&self, on: bool) {
        self.flag(".fail500", on);
    }

    /// Every body is sent at 1 byte per second (on), or at full speed (off).
    pub fn slow(&self, on: bool) {
        self.flag(".slow", on);
    }

    fn flag(&self, name: &str, on: bool) {
        let path = self.www().join(name);
        if on {
            fs::write(path, "").expect("flag file");
        } else {
            let _ = fs::remove_file(path);
        }
    }

    /// The access log lines containing every one of `parts`; waits (up to
    /// 5 s) for at least `expected` of them, since nginx writes a request's
    /// line after sending the response.
    pub fn log_lines(&self, parts: &[&str], expected: usize) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let text = fs::read_to_string(self.prefix.join("access.log")).unwrap_or_default();
            let lines: Vec<String> =
                text.lines().filter(|l| parts.iter().all(|p| l.contains(p))).map(String::from).collect();
            if lines.len() >= expected || Instant::now() > deadline {
                return lines;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        self.stop();
        let _ = fs::remove_dir_all(&self.prefix);
    }
}

const PR_SET_PDEATHSIG: std::ffi::c_int = 1;
const SIGKILL: std::ffi::c_int = 9;

extern "C" {
    fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
}

/// The nginx executable; panics with instructions when there is none.
fn binary() -> PathBuf {
    if let Some(env) = std::env::var_os("PATHCONFIG_TEST_NGINX").filter(|v| !v.is_empty()) {
        let path = PathBuf::from(env);
        assert!(is_executable(&path), "PATHCONFIG_TEST_NGINX={} is not an executable file", path.display());
        return path;
    }
    let mut candidates: Vec<PathBuf> =
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx", "/usr/bin/nginx"]
            .map(PathBuf::from)
            .into();
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|dir| dir.join("nginx")));
    }
    candidates.into_iter().find(|c| is_executable(c)).unwrap_or_else(|| {
        panic!(
            "nginx is not installed, and the loader tests need a real HTTP server (they fail rather than skip): \
             run scripts/install-deps.sh (or apt-get install nginx-light), or set PATHCONFIG_TEST_NGINX to an \
             nginx binary"
        )
    })
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A port on 127.0.0.1 that was free a moment ago (bound to port 0, then released).
pub fn free_port() -> u16 {
    let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind 127.0.0.1:0");
    listener.local_addr().expect("local address").port()
}

/// A temporary directory, removed on Drop unless kept.
pub struct TempDir(Option<PathBuf>);

impl TempDir {
    /// A new empty directory under the system's temporary directory.
    pub fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        for _ in 0..100 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("pathconfig-rust-{label}-{}-{nanos}-{n}", std::process::id()));
            match fs::create_dir(&dir) {
                Ok(()) => return TempDir(Some(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => panic!("cannot create {}: {e}", dir.display()),
            }
        }
        panic!("cannot create a temporary directory");
    }

    pub fn path(&self) -> &Path {
        self.0.as_deref().expect("temporary directory")
    }

    /// The path, no longer removed on Drop.
    pub fn keep(mut self) -> PathBuf {
        self.0.take().expect("temporary directory")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            let _ = fs::remove_dir_all(dir);
        }
    }
}
