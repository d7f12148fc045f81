//! The loader through the crate, against a real nginx on 127.0.0.1 started
//! by the test support (tests/support/nginx.rs; a missing nginx fails these
//! tests, it never skips them).
//!
//! Tests named `server_*` start nginx; the others need no server (data and
//! file sources, a raw socket that never answers) and also run under
//! valgrind (see the Makefile).

mod support;

use std::any::Any;
use std::fs;
use std::net::TcpListener;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

use pathconfig::{
    ErrorCode, EventKind, Loader, LoaderEvent, LoaderOptions, Options, PathConfiguration, Profile, Reason, Source,
    SourceKind,
};
use support::nginx::{Nginx, TempDir};

// ---- fixtures ---------------------------------------------------------------

/// A configuration under which every path resolves to
/// `{"version": NAME, "rule2": NAME}` (two rules, so a configuration that is
/// not whole would show).
fn fixture(name: &str) -> String {
    format!(
        "{{\"settings\": {{\"version\": \"{name}\"}},\n \"rules\": [\n  \
         {{\"patterns\": [\".*\"], \"properties\": {{\"version\": \"{name}\"}}}},\n  \
         {{\"patterns\": [\"^/\"], \"properties\": {{\"rule2\": \"{name}\"}}}}\n ]}}\n"
    )
}

/// The version `config` resolves "/x" to; "?" when the two rules disagree.
fn version_of(config: &PathConfiguration) -> String {
    let props = config.properties("/x").expect("resolve /x");
    match (props.get_str("version").unwrap(), props.get_str("rule2").unwrap()) {
        (Some(v), Some(r)) if v == r => v.to_string(),
        _ => "?".to_string(),
    }
}

/// The version of the loader's current configuration, "" when there is none.
fn current_version(loader: &Loader) -> String {
    loader.current().map(|c| version_of(&c)).unwrap_or_default()
}

/// What the closure saw: each event and the thread it ran on.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<(ThreadId, LoaderEvent)>>>);

impl Recorder {
    /// A recorder installed as `loader`'s callback.
    fn on(loader: &Loader) -> Recorder {
        let recorder = Recorder::default();
        let events = recorder.clone();
        loader.set_callback(Some(move |e: &LoaderEvent| {
            events.0.lock().unwrap().push((thread::current().id(), e.clone()))
        }));
        recorder
    }

    fn events(&self) -> Vec<LoaderEvent> {
        self.0.lock().unwrap().iter().map(|(_, e)| e.clone()).collect()
    }

    fn threads(&self) -> Vec<ThreadId> {
        self.0.lock().unwrap().iter().map(|(t, _)| *t).collect()
    }

    fn clear(&self) {
        self.0.lock().unwrap().clear();
    }

    fn len(&self) -> usize {
        self.0.lock().unwrap().len()
    }

    /// "file:applied server:failed ..."
    fn summary(&self) -> String {
        self.events().iter().map(|e| format!("{}:{}", e.source_kind, e.kind)).collect::<Vec<_>>().join(" ")
    }

    fn at(&self, i: usize) -> LoaderEvent {
        self.events().get(i).cloned().unwrap_or_else(|| panic!("no event {i}: {}", self.summary()))
    }
}

/// Sets a flag when dropped: shows when a closure owning it is dropped.
struct DropFlag(Arc<AtomicBool>);

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// nginx serving www/config.json, a bundled file and a cache directory.
struct Bed {
    server: Nginx,
    dir: TempDir,
    url: String,
}

impl Bed {
    fn new() -> Bed {
        let mut server = Nginx::start();
        let dir = TempDir::new("loader");
        fs::write(dir.path().join("bundle.json"), fixture("bundle")).unwrap();
        let url = server.url("config.json");
        server.put("config.json", &fixture("v1"));
        Bed { server, dir, url }
    }

    fn bundle(&self) -> PathBuf {
        self.dir.path().join("bundle.json")
    }

    fn cache_dir(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    /// The bundled file, then the server (with an Accept header).
    fn sources(&self) -> Vec<Source> {
        vec![Source::file(self.bundle()), Source::server(&self.url).header("Accept", "application/json")]
    }

    /// A generous timeout (valgrind runs everything slowly); the timeout
    /// tests set short ones themselves.
    fn options(&self) -> LoaderOptions {
        LoaderOptions::new()
            .cache_dir(self.cache_dir())
            .timeout(Duration::from_secs(60))
            .user_agent("pathconfig-rust-test")
    }

    fn loader(&self) -> Loader {
        Loader::new(&self.sources(), &self.options()).expect("Loader::new")
    }

    fn put(&mut self, version: &str) {
        self.server.put("config.json", &fixture(version));
    }

    fn cache_file(&self, loader: &Loader) -> PathBuf {
        loader.cache_file(&self.url).unwrap().expect("a cache file path")
    }
}

fn read(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn contains(bytes: &[u8], text: &str) -> bool {
    String::from_utf8_lossy(bytes).contains(text)
}

/// The text of a panic payload.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(not a string)".to_string()
    }
}

/// Waits up to 10 s for `cond`.
fn wait_for(what: &str, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        thread::sleep(Duration::from_millis(5));
    }
}

// ---- without a server -------------------------------------------------------

#[test]
fn the_loader_types_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Loader>();
    send_sync::<LoaderEvent>();
    send_sync::<LoaderOptions>();
    send_sync::<Source>();
}

#[test]
fn bad_sources_and_options_are_options_errors() {
    let file = || vec![Source::file("/nonexistent.json")];
    let cases: Vec<(Vec<Source>, LoaderOptions, &str)> = vec![
        (vec![], LoaderOptions::new(), "sources are empty"),
        (vec![Source::file("a").header("Accept", "x")], LoaderOptions::new(), r#""headers" goes with "server" only"#),
        (vec![Source::server("ftp://h/x")], LoaderOptions::new(), "is not an http:// or https:// URL"),
        (vec![Source::server("/relative.json")], LoaderOptions::new(), "is not an http:// or https:// URL"),
        (vec![Source::server("http://h/").header("Bad Name", "v")], LoaderOptions::new(), "is not a valid header name"),
        (vec![Source::server("http://h/").header("A", "b\r\nX: y")], LoaderOptions::new(), "contains a line break"),
        (file(), LoaderOptions::new().timeout(Duration::ZERO), r#""timeout_ms" must be a positive integer"#),
        (file(), LoaderOptions::new().timeout(Duration::MAX), r#""timeout_ms" must be a positive integer"#),
        (file(), LoaderOptions::new().max_body_bytes(0), r#""max_body_bytes" must be a positive integer"#),
        (file(), LoaderOptions::new().refresh_interval(Duration::ZERO), r#""refresh_interval_ms" must be"#),
        (file(), LoaderOptions::new().user_agent("a\nb"), "without control characters"),
        (file(), LoaderOptions::new().raw_option("timeout", "5"), r#"unknown option "timeout"; known options:"#),
        (file(), Options::new().raw_option("profile", r#""ios""#).into(), r#"unknown profile "ios""#),
    ];
    for (sources, options, message) in cases {
        let err = Loader::new(&sources, &options).expect_err(&format!("accepted {sources:?} {options:?}"));
        assert_eq!(err.code(), ErrorCode::Options, "{sources:?} {options:?}: {err}");
        assert!(err.message().contains(message), "{sources:?} {options:?}: {err:?} lacks {message:?}");
    }

    for (sources, options, message) in [
        ("{", None, "sources are not valid JSON"),
        (r#"{"file": "a"}"#, None, "sources must be a JSON array, found object"),
        (r#"[{"file": "a"}, {"fiel": "b"}]"#, None, r#"source 1: unknown key "fiel""#),
        (r#"[{"file": "a"}]"#, Some("[]"), "options must be a JSON object"),
    ] {
        let err = Loader::from_json(sources, options).unwrap_err();
        assert_eq!(err.code(), ErrorCode::Options, "{sources} {options:?}: {err}");
        assert!(err.message().contains(message), "{err:?} lacks {message:?}");
    }

    let err = Loader::new(&file(), &LoaderOptions::new().backend("foundation")).unwrap_err();
    assert_eq!(err.code(), ErrorCode::Backend);
    assert_eq!(Loader::new(&[Source::file("a\0b")], &LoaderOptions::new()).unwrap_err().code(), ErrorCode::Argument);
    assert_eq!(Loader::from_json("[\0]", None).unwrap_err().code(), ErrorCode::Argument);
    assert!(Loader::from_json(r#"[{"file": "a"}]"#, Some("{\"timeout_ms\": 100}")).is_ok());
}

#[test]
fn nothing_is_current_until_a_source_loads() {
    let loader = Loader::new(&[Source::file("/nonexistent.json")], &LoaderOptions::new()).unwrap();
    assert!(loader.current().is_none());
    let events = Recorder::on(&loader);
    let err = loader.load().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Io);
    assert_eq!(err.io_error_kind(), Some(std::io::ErrorKind::NotFound), "{err}");
    assert!(err.message().starts_with("file /nonexistent.json: cannot open /nonexistent.json"), "{err}");
    assert!(loader.current().is_none());
    let e = events.at(0);
    assert_eq!((e.kind, e.source_kind, e.source_index), (EventKind::Failed, SourceKind::File, 0));
    assert_eq!(e.error.as_ref().map(|e| e.code()), Some(ErrorCode::Io));
    assert_eq!((e.byte_count, e.http_status, e.reason, e.configuration.is_none()), (None, None, None, true));
}

#[test]
fn sources_with_odd_characters_reach_the_library_intact() {
    let dir = TempDir::new("odd");
    let odd = dir.path().join("we\"ird \\ dïr\t").join("bündle \"1\".json");
    fs::create_dir_all(odd.parent().unwrap()).unwrap();
    fs::write(&odd, fixture("odd-file")).unwrap();
    let name = "bundled \"data\"\n\\ ✓";
    // The document itself has quotes, backslashes (in its patterns) and newlines.
    let data = fixture("odd-data ✓").replace(".*", "\\\\.?.*");
    let loader = Loader::new(&[Source::data(&data, name), Source::file(&odd)], &LoaderOptions::new()).unwrap();
    let events = Recorder::on(&loader);
    loader.load().unwrap();
    assert_eq!(events.summary(), "data:applied file:applied");
    assert_eq!(events.at(0).location, name);
    assert_eq!(events.at(0).byte_count, Some(data.len() as u64));
    assert_eq!(version_of(events.at(0).configuration.as_ref().unwrap()), "odd-data ✓");
    assert_eq!(events.at(1).location, odd.to_str().unwrap());
    assert_eq!(current_version(&loader), "odd-file");
}

#[test]
fn load_options_apply_to_every_source() {
    let doc = r#"{"rules": [{"patterns": ["/a$", "(["], "properties": {"context": "modal"}}]}"#;
    let sources = [Source::data(doc, "d")];
    assert_eq!(Loader::new(&sources, &LoaderOptions::new()).unwrap().load().unwrap_err().code(), ErrorCode::Regex);
    let loader = Loader::new(&sources, &LoaderOptions::new().lenient(true).profile(Profile::TurboIos)).unwrap();
    loader.load().unwrap();
    let config = loader.current().unwrap();
    assert_eq!(config.profile(), "turbo-ios");
    assert_eq!(config.properties("/a").unwrap().context(), "modal");
    assert_eq!(config.warnings().unwrap().len(), 1);
}

#[test]
fn cache_file_paths() {
    let loader = Loader::new(&[Source::file("/nonexistent.json")], &LoaderOptions::new()).unwrap();
    assert_eq!(loader.cache_file("http://h/p.json").unwrap(), None);

    let dir = TempDir::new("cache");
    let loader =
        Loader::new(&[Source::file("/nonexistent.json")], &LoaderOptions::new().cache_dir(dir.path())).unwrap();
    let a = loader.cache_file("http://h/p.json?v=1").unwrap().unwrap();
    let b = loader.cache_file("http://h/p.json?v=2").unwrap().unwrap();
    assert!(a.starts_with(dir.path()), "{} in {}", a.display(), dir.path().display());
    assert_ne!(a, b, "versioned URLs never share a copy");
    assert_eq!(loader.cache_file("http://h/p.json?v=1").unwrap().unwrap(), a);
    assert_eq!(loader.cache_file("http://h/\0").unwrap_err().code(), ErrorCode::Argument);
}

#[test]
fn a_server_that_never_answers_times_out() {
    // Accepted by the kernel (backlog), never answered.
    let silent = TcpListener::bind(("127.0.0.1", 0)).unwrap();
    let url = format!("http://127.0.0.1:{}/slow.json", silent.local_addr().unwrap().port());
    let loader = Loader::new(
        &[Source::data(fixture("embedded"), "embedded"), Source::server(&url)],
        &LoaderOptions::new().timeout(Duration::from_millis(300)),
    )
    .unwrap();
    let events = Recorder::on(&loader);
    let started = Instant::now();
    loader.load().unwrap();
    assert_eq!(events.summary(), "data:applied server:failed");
    let e = events.at(1);
    assert_eq!(e.error.as_ref().map(|e| e.code()), Some(ErrorCode::Download));
    assert_eq!((e.reason, e.http_status, e.url.as_deref()), (Some(Reason::Timeout), None, Some(url.as_str())));
    assert!(started.elapsed() < Duration::from_secs(20), "the timeout bounds the download");
    let err = loader.refresh().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Download);
    assert!(err.message().contains("slow.json"), "{err}");
    assert_eq!(current_version(&loader), "embedded");
}

#[test]
fn a_panicking_callback_is_caught_and_resumed_after_the_call() {
    let loader = Loader::new(
        &[Source::data(fixture("first"), "first"), Source::data(fixture("second"), "second")],
        &LoaderOptions::new(),
    )
    .unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&calls);
    loader.set_callback(Some(move |e: &LoaderEvent| {
        if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            panic!("boom in the callback at {}", e.location);
        }
    }));
    let payload = panic::catch_unwind(AssertUnwindSafe(|| loader.load())).expect_err("load resumes the panic");
    assert_eq!(panic_text(&*payload), "boom in the callback at first");
    // The chain ran to its end in C; the closure was skipped once it had panicked.
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    assert_eq!(current_version(&loader), "second");
    assert!(loader.take_panic().is_none(), "resumed, so no longer pending");

    // The loader and its closure work again.
    loader.load().expect("load after the panic");
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[test]
fn the_callback_may_use_its_loader_and_replace_itself() {
    let loader = Arc::new(
        Loader::new(&[Source::data(fixture("a"), "a"), Source::data(fixture("b"), "b")], &LoaderOptions::new())
            .unwrap(),
    );
    let weak = Arc::downgrade(&loader);
    let first_dropped = Arc::new(AtomicBool::new(false));
    let flag = DropFlag(Arc::clone(&first_dropped));
    let second_saw = Arc::new(Mutex::new(Vec::new()));
    let inside = Arc::new(Mutex::new(Vec::new()));
    let (inside_log, second_log, dropped_seen) =
        (Arc::clone(&inside), Arc::clone(&second_saw), Arc::clone(&first_dropped));
    loader.set_callback(Some(move |e: &LoaderEvent| {
        let _keep = &flag;
        let loader = weak.upgrade().expect("the loader is alive");
        let mut log = inside_log.lock().unwrap();
        log.push(format!("load: {:?}", loader.load().map_err(|e| e.code())));
        log.push(format!("refresh: {:?}", loader.refresh().map_err(|e| e.code())));
        log.push(format!("current: {}", current_version(&loader)));
        let second = Arc::clone(&second_log);
        loader.set_callback(Some(move |e: &LoaderEvent| second.lock().unwrap().push(e.location.clone())));
        log.push(format!("dropped while running: {}", dropped_seen.load(Ordering::SeqCst)));
        log.push(format!("event: {}", e.location));
    }));
    loader.load().unwrap();
    assert_eq!(
        *inside.lock().unwrap(),
        ["load: Err(Misuse)", "refresh: Err(Misuse)", "current: a", "dropped while running: false", "event: a",]
    );
    assert!(first_dropped.load(Ordering::SeqCst), "the replaced closure is dropped once it has returned");
    assert_eq!(*second_saw.lock().unwrap(), ["b"], "the next event goes to the new closure");
}

#[test]
fn set_callback_none_removes_the_closure() {
    let loader = Loader::new(&[Source::data(fixture("a"), "a")], &LoaderOptions::new()).unwrap();
    let events = Recorder::on(&loader);
    loader.load().unwrap();
    assert_eq!(events.len(), 1);
    loader.clear_callback();
    loader.load().unwrap();
    assert_eq!(events.len(), 1);
}

// ---- against nginx ----------------------------------------------------------

#[test]
fn server_first_download_file_then_server() {
    let bed = Bed::new();
    let loader = bed.loader();
    let events = Recorder::on(&loader);
    let cache_file = bed.cache_file(&loader);
    assert!(cache_file.starts_with(bed.cache_dir()));
    assert!(!cache_file.exists());

    loader.load().expect("load");
    assert_eq!(events.summary(), "file:applied server:applied");
    let me = thread::current().id();
    assert!(events.threads().iter().all(|&t| t == me), "events arrive on the thread that loads");

    let file = events.at(0);
    assert_eq!(
        (file.source_index, file.location.as_str(), file.url.as_deref()),
        (0, bed.bundle().to_str().unwrap(), None)
    );
    assert_eq!((file.error.is_none(), file.http_status, file.reason), (true, None, None));
    assert_eq!(file.byte_count, Some(fixture("bundle").len() as u64));
    assert_eq!(version_of(file.configuration.as_ref().unwrap()), "bundle");
    assert!(file.description.contains("applied"), "{file}");

    let server = events.at(1);
    assert_eq!((server.source_kind, server.source_index), (SourceKind::Server, 1));
    assert_eq!((server.location.as_str(), server.url.as_deref()), (bed.url.as_str(), Some(bed.url.as_str())));
    assert_eq!(server.byte_count, Some(fixture("v1").len() as u64));
    assert!(server.description.contains(&bed.url), "{server}");
    assert_eq!(current_version(&loader), "v1");

    let sent =
        bed.server.log_lines(&["GET /config.json 200", "accept=[application/json]", "ua=[pathconfig-rust-test]"], 1);
    assert_eq!(sent.len(), 1, "the Accept and User-Agent headers were sent");
    assert!(contains(&read(&cache_file), "\"v1\""), "the cache file holds v1");

    // The configurations copied out of the events outlive the loader.
    drop(loader);
    assert_eq!(version_of(events.at(1).configuration.as_ref().unwrap()), "v1");
}

#[test]
fn server_not_modified_then_a_new_version() {
    let mut bed = Bed::new();
    let loader = bed.loader();
    let events = Recorder::on(&loader);
    loader.load().unwrap();
    let cache_file = bed.cache_file(&loader);
    let cached = read(&cache_file);

    events.clear();
    loader.refresh().expect("refresh");
    assert_eq!(events.summary(), "server:not-modified");
    assert_eq!(version_of(events.at(0).configuration.as_ref().expect("the known configuration")), "v1");
    assert_eq!(bed.server.log_lines(&["GET /config.json 304", "inm=[\""], 1).len(), 1, "a conditional request, 304");
    assert_eq!(current_version(&loader), "v1");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical after 304");

    events.clear();
    bed.put("v2");
    loader.refresh().expect("refresh");
    assert_eq!(events.summary(), "server:applied");
    assert_eq!(current_version(&loader), "v2");
    assert!(contains(&read(&cache_file), "\"v2\""), "the cache file holds v2");
}

#[test]
fn server_failures_keep_the_current_configuration_and_the_cache_bytes() {
    let mut bed = Bed::new();
    let loader = bed.loader();
    let events = Recorder::on(&loader);
    loader.load().unwrap();
    let cache_file = bed.cache_file(&loader);
    let cached = read(&cache_file);
    let held = loader.current().unwrap();

    // 500
    events.clear();
    bed.server.fail500(true);
    let err = loader.refresh().unwrap_err();
    bed.server.fail500(false);
    assert_eq!(err.code(), ErrorCode::Download);
    assert!(
        err.message().starts_with("server ") && err.message().contains(&bed.url) && err.message().contains("500"),
        "{err}"
    );
    assert_eq!(events.summary(), "server:failed");
    let e = events.at(0);
    assert_eq!(e.error.as_ref().map(|e| e.code()), Some(ErrorCode::Download));
    assert_eq!((e.reason, e.http_status, e.configuration.is_none()), (Some(Reason::HttpStatus), Some(500), true));
    assert_eq!(current_version(&loader), "v1", "current unchanged after 500");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical after 500");

    // Invalid JSON
    events.clear();
    let broken = "{\"rules\": [\n  {\"patterns\": [\".*\"],,}\n]}\n";
    bed.server.put("config.json", broken);
    let err = loader.refresh().unwrap_err();
    assert_eq!((err.code(), err.line()), (ErrorCode::Json, Some(2)), "{err}");
    let e = events.at(0);
    assert_eq!((e.kind, e.reason, e.byte_count), (EventKind::Failed, None, Some(broken.len() as u64)));
    assert_eq!(e.error.as_ref().map(|e| (e.code(), e.line())), Some((ErrorCode::Json, Some(2))));
    assert_eq!(current_version(&loader), "v1", "current unchanged after invalid JSON");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical after invalid JSON");

    // A schema error
    bed.server.put("config.json", r#"{"rules": [{"patterns": ".*", "properties": {}}]}"#);
    let err = loader.refresh().unwrap_err();
    assert_eq!((err.code(), err.rule_index()), (ErrorCode::Schema, Some(0)), "{err}");
    assert_eq!(current_version(&loader), "v1");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical after a schema error");

    // Too slow: a new version sent at 1 byte per second, to a second loader
    // with a short timeout (its cached copy, v1, stays current).
    bed.put("v3");
    bed.server.slow(true);
    let impatient = Loader::new(&bed.sources(), &bed.options().timeout(Duration::from_millis(700))).unwrap();
    let slow_events = Recorder::on(&impatient);
    impatient.load().expect("the file and the cache load");
    assert_eq!(slow_events.summary(), "file:applied cache:applied server:failed");
    assert_eq!(slow_events.at(2).reason, Some(Reason::Timeout), "{}", slow_events.at(2));
    assert_eq!(impatient.refresh().unwrap_err().code(), ErrorCode::Download);
    assert_eq!(current_version(&impatient), "v1", "current unchanged after a timeout");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical after a timeout");
    bed.server.slow(false);

    // Too large: a new version longer than the limit, which the cached copy
    // (v1) fits exactly (a cached copy over the limit is ignored as corrupt).
    bed.put(&"v3, a version whose name makes its document longer than v1's cache file. ".repeat(4));
    let small = Loader::new(&bed.sources(), &bed.options().max_body_bytes(cached.len() as u64)).unwrap();
    let small_events = Recorder::on(&small);
    small.load().unwrap();
    assert_eq!(small_events.summary(), "file:applied cache:applied server:failed");
    assert_eq!(small_events.at(2).reason, Some(Reason::TooLarge));
    assert_eq!(current_version(&small), "v1");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical after a body over the limit");

    // The configuration held all along is intact, and the loader recovers.
    assert_eq!(version_of(&held), "v1");
    bed.put("v3");
    loader.refresh().expect("refresh");
    assert_eq!(current_version(&loader), "v3");
    assert!(contains(&read(&cache_file), "\"v3\""));
}

#[test]
fn server_down_the_cached_copy_is_used() {
    let mut bed = Bed::new();
    let first = bed.loader();
    first.load().unwrap();
    let cache_file = bed.cache_file(&first);
    let cached = read(&cache_file);
    drop(first);

    bed.put("v2");
    bed.server.stop();
    let offline = bed.loader();
    let events = Recorder::on(&offline);
    offline.load().expect("load with the server down still succeeds");
    assert_eq!(events.summary(), "file:applied cache:applied server:failed");
    let cache = events.at(1);
    assert_eq!((cache.location.as_str(), cache.url.as_deref()), (cache_file.to_str().unwrap(), Some(bed.url.as_str())));
    assert_eq!((cache.source_index, version_of(cache.configuration.as_ref().unwrap()).as_str()), (1, "v1"));
    let server = events.at(2);
    assert_eq!(server.error.as_ref().map(|e| e.code()), Some(ErrorCode::Download));
    assert_eq!((server.reason, server.http_status), (Some(Reason::Transport), None));
    assert_eq!(current_version(&offline), "v1", "current comes from the cache");

    events.clear();
    assert_eq!(offline.refresh().unwrap_err().code(), ErrorCode::Download);
    assert_eq!(events.summary(), "server:failed");
    assert_eq!(current_version(&offline), "v1");
    assert_eq!(read(&cache_file), cached, "cache file byte-identical with the server down");

    bed.server.restart();
    offline.refresh().expect("the server is back");
    assert_eq!(current_version(&offline), "v2");
}

#[test]
fn server_a_load_refused_inside_the_callback_starts_nothing() {
    let bed = Bed::new();
    let loader =
        Arc::new(Loader::new(&bed.sources(), &bed.options().refresh_interval(Duration::from_millis(50))).unwrap());
    let weak = Arc::downgrade(&loader);
    let refused = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::new(AtomicUsize::new(0));
    let (refused_log, seen_count) = (Arc::clone(&refused), Arc::clone(&seen));
    loader.set_callback(Some(move |e: &LoaderEvent| {
        seen_count.fetch_add(1, Ordering::SeqCst);
        if e.source_kind == SourceKind::Server {
            let loader = weak.upgrade().expect("the loader is alive");
            let outcome = loader.load().map_err(|err| (err.code(), err.message().to_string()));
            refused_log.lock().unwrap().push(outcome);
        }
    }));
    // refresh() before the first load() runs the chain without polling, so
    // polling could only come from the load() refused inside the callback.
    loader.refresh().expect("refresh");
    assert_eq!(current_version(&loader), "v1");
    {
        let refused = refused.lock().unwrap();
        assert_eq!(refused.len(), 1);
        let (code, message) = refused[0].clone().expect_err("load() inside the callback is refused");
        assert_eq!(code, ErrorCode::Misuse);
        assert!(message.contains("pathconfig_loader_load") && message.contains("own callback"), "{message}");
    }
    thread::sleep(Duration::from_millis(100)); // let nginx log the last request
    let (events, requests) = (seen.load(Ordering::SeqCst), bed.server.log_lines(&["GET /config.json"], 0).len());
    thread::sleep(Duration::from_millis(400)); // eight intervals
    assert_eq!(seen.load(Ordering::SeqCst), events, "no polling event after the refused load");
    assert_eq!(bed.server.log_lines(&["GET /config.json"], 0).len(), requests, "no request after the refused load");
    // The host's own load() starts polling: the checks above would see it.
    loader.load().expect("load");
    wait_for("polling events", || seen.load(Ordering::SeqCst) >= events + 6);
    loader.clear_callback(); // waits for a callback that holds the loader
}

#[test]
fn server_threads_resolve_through_current_while_another_refreshes() {
    const READERS: usize = 4;
    const REFRESHES: usize = 20;
    let mut bed = Bed::new();
    bed.put("t0");
    let loader = Arc::new(
        Loader::new(
            &[Source::server(&bed.url)],
            &LoaderOptions::new().cache_dir(bed.cache_dir()).timeout(Duration::from_secs(60)),
        )
        .unwrap(),
    );
    loader.load().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..READERS)
        .map(|_| {
            let (loader, done) = (Arc::clone(&loader), Arc::clone(&done));
            thread::spawn(move || {
                let (mut lookups, mut last) = (0usize, 0usize);
                while !done.load(Ordering::SeqCst) || lookups == 0 {
                    let config = loader.current().expect("something is current");
                    let version = version_of(&config);
                    let n: usize = version
                        .strip_prefix('t')
                        .and_then(|n| n.parse().ok())
                        .unwrap_or_else(|| panic!("not a whole configuration: {version:?}"));
                    assert!(n >= last, "went back from t{last} to t{n}");
                    last = n;
                    lookups += 1;
                    // Lets the refreshing thread in under valgrind, which runs one
                    // thread at a time (spinning readers made this test take 30 s
                    // there); natively it costs little.
                    thread::yield_now();
                }
                lookups
            })
        })
        .collect();
    for i in 1..=REFRESHES {
        bed.put(&format!("t{i}"));
        loader.refresh().unwrap_or_else(|e| panic!("refresh {i}: {e}"));
        assert_eq!(current_version(&loader), format!("t{i}"));
    }
    done.store(true, Ordering::SeqCst);
    let lookups: usize = readers.into_iter().map(|r| r.join().expect("reader")).sum();
    assert!(lookups >= READERS);
    println!("{READERS} readers, {lookups} lookups during {REFRESHES} refreshes");
}

#[test]
fn server_a_panic_on_the_polling_thread_waits_for_the_next_call() {
    let bed = Bed::new();
    let loader =
        Loader::new(&[Source::server(&bed.url)], &bed.options().refresh_interval(Duration::from_millis(20))).unwrap();
    let me = thread::current().id();
    let polled = Arc::new(AtomicUsize::new(0));
    let (count, panicked) = (Arc::clone(&polled), Arc::new(AtomicBool::new(false)));
    let panicked_inside = Arc::clone(&panicked);
    loader.set_callback(Some(move |_: &LoaderEvent| {
        if thread::current().id() != me {
            let n = count.fetch_add(1, Ordering::SeqCst);
            if n == 0 {
                panicked_inside.store(true, Ordering::SeqCst);
                panic!("boom on the polling thread");
            }
        }
    }));
    loader.load().unwrap();
    wait_for("a polling event", || panicked.load(Ordering::SeqCst));
    // Let the polling thread run a few more refreshes: the closure is skipped
    // while the panic waits, and the process is still alive.
    thread::sleep(Duration::from_millis(100));
    assert_eq!(polled.load(Ordering::SeqCst), 1, "the closure is not called while a panic is pending");
    let payload = panic::catch_unwind(AssertUnwindSafe(|| loader.refresh())).expect_err("refresh resumes it");
    assert_eq!(panic_text(&*payload), "boom on the polling thread");
    wait_for("polling events after the panic", || polled.load(Ordering::SeqCst) >= 3);

    // take_panic instead of resuming it.
    let loader =
        Loader::new(&[Source::server(&bed.url)], &bed.options().refresh_interval(Duration::from_millis(20))).unwrap();
    let polled = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&polled);
    loader.set_callback(Some(move |_: &LoaderEvent| {
        if thread::current().id() != me && count.fetch_add(1, Ordering::SeqCst) == 0 {
            panic!("taken, not resumed");
        }
    }));
    loader.load().unwrap();
    let mut taken = None;
    wait_for("the polling thread's panic", || {
        taken = loader.take_panic();
        taken.is_some()
    });
    assert_eq!(panic_text(&*taken.unwrap()), "taken, not resumed");
    wait_for("polling events after take_panic", || polled.load(Ordering::SeqCst) >= 3);
    assert!(loader.take_panic().is_none());
    loader.refresh().expect("nothing left to resume");
}

#[test]
fn a_panic_is_resumed_on_the_thread_whose_call_ran_the_callback() {
    let loader = Loader::new(&[Source::data(fixture("a"), "a")], &LoaderOptions::new()).unwrap();
    loader.set_callback(Some(|_: &LoaderEvent| panic!("on the loading thread")));
    thread::scope(|s| {
        let worker = s.spawn(|| panic::catch_unwind(AssertUnwindSafe(|| loader.load())).map_err(|p| panic_text(&*p)));
        assert_eq!(worker.join().unwrap().unwrap_err(), "on the loading thread");
    });
    assert!(loader.take_panic().is_none(), "nothing is left for other threads");
    assert_eq!(current_version(&loader), "a");
}

#[test]
fn server_set_callback_does_not_wait_for_a_running_callback() {
    let bed = Bed::new();
    let loader =
        Loader::new(&[Source::server(&bed.url)], &bed.options().refresh_interval(Duration::from_millis(10))).unwrap();
    loader.load().unwrap();
    let inside = Arc::new(AtomicBool::new(false));
    let calls = Arc::new(AtomicUsize::new(0));
    let dropped = Arc::new(AtomicBool::new(false));
    let (inside_c, calls_c, flag) = (Arc::clone(&inside), Arc::clone(&calls), DropFlag(Arc::clone(&dropped)));
    loader.set_callback(Some(move |_: &LoaderEvent| {
        let _keep = &flag;
        inside_c.store(true, Ordering::SeqCst);
        calls_c.fetch_add(1, Ordering::SeqCst);
        thread::sleep(Duration::from_millis(100));
        inside_c.store(false, Ordering::SeqCst);
    }));
    wait_for("a polling event in the closure", || inside.load(Ordering::SeqCst));
    loader.clear_callback();
    assert!(inside.load(Ordering::SeqCst), "set_callback waited for the running closure");
    assert!(!dropped.load(Ordering::SeqCst), "the old closure was dropped while it ran");
    assert!(matches!(loader.refresh(), Err(ref e) if e.code() == ErrorCode::Misuse), "refresh while it runs is refused");
    wait_for("the running closure to return and be dropped", || dropped.load(Ordering::SeqCst));
    let n = calls.load(Ordering::SeqCst);
    thread::sleep(Duration::from_millis(100));
    assert_eq!(calls.load(Ordering::SeqCst), n, "the old closure was called after it was replaced");
}

#[test]
fn server_no_events_after_drop() {
    let mut bed = Bed::new();
    let loader =
        Loader::new(&[Source::server(&bed.url)], &bed.options().refresh_interval(Duration::from_millis(20))).unwrap();
    let events = Recorder::on(&loader);
    loader.load().unwrap();
    bed.put("p2");
    wait_for("polling to pick up p2", || current_version(&loader) == "p2");
    assert!(events
        .events()
        .iter()
        .any(|e| e.kind == EventKind::Applied && version_of(e.configuration.as_ref().unwrap()) == "p2"));
    assert!(events.threads().iter().any(|&t| t != thread::current().id()), "the polling thread delivered events");
    drop(loader);
    let n = events.len();
    bed.put("p3");
    thread::sleep(Duration::from_millis(150));
    assert_eq!(events.len(), n, "no event after drop");
}

#[test]
fn server_dropping_the_last_reference_inside_the_callback() {
    let bed = Bed::new();
    let loader = Arc::new(
        Loader::new(&[Source::server(&bed.url)], &bed.options().refresh_interval(Duration::from_millis(20))).unwrap(),
    );
    loader.load().unwrap();
    let weak = Arc::downgrade(&loader);
    let (entered, go) = (mpsc::channel::<()>(), mpsc::channel::<()>());
    let (entered_tx, go_rx) = (entered.0, Mutex::new(go.1));
    let closure_dropped = Arc::new(AtomicBool::new(false));
    let flag = DropFlag(Arc::clone(&closure_dropped));
    loader.set_callback(Some(move |_: &LoaderEvent| {
        let _keep = &flag;
        if let Some(strong) = weak.upgrade() {
            let _ = entered_tx.send(());
            let _ = go_rx.lock().unwrap().recv_timeout(Duration::from_secs(10));
            drop(strong); // the last reference: Loader::drop runs on the polling thread, inside the callback
        }
    }));
    entered.1.recv_timeout(Duration::from_secs(10)).expect("a polling event");
    drop(loader); // not the last reference: the closure holds one
    go.0.send(()).unwrap();
    wait_for("the loader to be freed after its callback returned", || closure_dropped.load(Ordering::SeqCst));
}
