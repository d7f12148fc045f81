//! Every error path of the safe API: codes, positions, indices, messages.

mod support;

use std::error::Error as _;

use pathconfig::{error_name, Error, ErrorCode, Options, PathConfiguration, Profile, WarningKind};

fn load(json: &str) -> Result<PathConfiguration, Error> {
    PathConfiguration::from_json(json, &Options::new())
}

fn load_err(json: &str, options: &Options) -> Error {
    match PathConfiguration::from_json(json, options) {
        Ok(c) => panic!("{json:?} loaded: {c:?}"),
        Err(e) => e,
    }
}

const OK_DOC: &str = r#"{"rules": [{"patterns": ["/new$"], "properties": {"context": "modal", "n": 1.5, "i": 7, "b": true, "s": "x"}}]}"#;

#[test]
fn bad_json_has_line_and_column() {
    let e = load_err("{\"rules\": [}", &Options::new());
    assert_eq!(e.code(), ErrorCode::Json);
    assert_eq!(e.raw_code(), 1);
    assert_eq!((e.line(), e.column()), (Some(1), Some(12)));
    assert_eq!((e.rule_index(), e.pattern_index()), (None, None));
    assert!(e.message().contains("unexpected character"), "{e}");
    assert_eq!(e.to_string(), format!("1:12: {}", e.message()));

    // Further down, with multi-byte characters before the fault: columns count Unicode scalars.
    let e = load_err("{\n  \"settings\": {\"é\": \"ü\"},\n  \"rules\": [1 2]\n}", &Options::new());
    assert_eq!(e.code(), ErrorCode::Json);
    assert_eq!((e.line(), e.column()), (Some(3), Some(15)), "{e}");

    let e = load_err("", &Options::new());
    assert_eq!(e.code(), ErrorCode::Json, "{e}");
}

#[test]
fn json_bytes_that_are_not_utf8() {
    let e = PathConfiguration::from_slice(b"{\"rules\": [], \"x\": \"\xff\"}", &Options::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Json, "{e}");
    assert_eq!(e.line(), Some(1));
    // A NUL inside the text is just an invalid character: the length is passed, not a terminator.
    let e = load_err("{\"rules\": []}\0", &Options::new());
    assert_eq!(e.code(), ErrorCode::Json, "{e}");
    let config = PathConfiguration::from_slice(OK_DOC.as_bytes(), &Options::new()).unwrap();
    assert_eq!(config.document_rule_count(), 1);
}

#[test]
fn schema_error_names_the_rule() {
    let json = "{\"rules\": [\n  {\"patterns\": [\"/a\"], \"properties\": {}},\n  {\"patterns\": \"/b\", \"properties\": {}}\n]}";
    let e = load_err(json, &Options::new());
    assert_eq!(e.code(), ErrorCode::Schema);
    assert_eq!(e.rule_index(), Some(1));
    assert_eq!(e.pattern_index(), None);
    assert_eq!(e.line(), Some(3), "{e}");
    assert!(e.column().is_some());
    assert!(e.message().contains("patterns"), "{e}");

    for bad in [r#"{}"#, r#"[]"#, r#"{"rules": {}}"#, r#"{"rules": [1]}"#, r#"{"rules": [{"patterns": ["/a"]}]}"#] {
        let e = load_err(bad, &Options::new());
        assert_eq!(e.code(), ErrorCode::Schema, "{bad}: {e}");
        assert!(e.code().is_document_error());
    }
}

#[test]
fn regex_error_names_rule_and_pattern() {
    let json = "{\"rules\": [\n  {\"patterns\": [\"/a\"], \"properties\": {}},\n  {\"patterns\": [\"/b\", \"(unclosed\"], \"properties\": {}}\n]}";
    let e = load_err(json, &Options::new());
    assert_eq!(e.code(), ErrorCode::Regex);
    assert_eq!((e.rule_index(), e.pattern_index()), (Some(1), Some(1)));
    assert_eq!((e.line(), e.column()), (Some(3), Some(23)), "{e}"); // the pattern string's opening quote
    assert!(e.message().contains("offset"), "{e}");
    assert!(e.source().is_none());

    // Lenient: skipped, reported as a warning with the same indices.
    let config = PathConfiguration::from_json(json, &Options::new().lenient(true)).unwrap();
    let warnings = config.warnings().unwrap();
    let w = warnings.iter().find(|w| w.kind == WarningKind::SkippedPattern).expect("a skipped-pattern warning");
    assert_eq!((w.rule_index, w.pattern_index, w.line), (Some(1), Some(1), Some(3)));
    assert!(w.to_string().starts_with("3:23: "), "{w}");
    // The rule still matches through its valid pattern.
    assert!(support::Json::parse(&config.explain("/b").unwrap()).at("rules").as_array().len() == 1);
}

#[test]
fn duplicate_keys_warn() {
    let config = load(r#"{"rules": [{"patterns": ["/a"], "properties": {"k": 1, "k": 2}}]}"#).unwrap();
    let warnings = config.warnings().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].kind, WarningKind::DuplicateKey);
    assert_eq!(warnings[0].kind.as_str(), "duplicate-key");
    assert!(warnings[0].line.is_some() && warnings[0].column.is_some());
    assert_eq!(warnings[0].rule_index, Some(0), "the rule it is in");
    assert_eq!(config.properties("/a").unwrap().get_i64("k").unwrap(), Some(1), "the first value is kept");
    assert!(load(OK_DOC).unwrap().warnings().unwrap().is_empty());
}

#[test]
fn limits() {
    let deep = format!("{{\"rules\": [], \"settings\": {}{}}}", "[".repeat(300), "]".repeat(300));
    let e = load_err(&deep, &Options::new());
    assert_eq!(e.code(), ErrorCode::Limit, "{e}");

    let long = format!(r#"{{"rules": [{{"patterns": ["{}"], "properties": {{}}}}]}}"#, "a".repeat(20_000));
    let e = load_err(&long, &Options::new());
    assert_eq!(e.code(), ErrorCode::Limit, "{e}");
    assert_eq!(e.rule_index(), Some(0), "{e}");
}

#[test]
fn urls_the_app_crashes_on() {
    // turbo-android has no try around java.net.URL: a URL it rejects crashes
    // the app, and the lookup fails; hotwire-android matches "" for it.
    let doc = r#"{"rules": [{"patterns": ["^$"], "properties": {"home": "y"}}]}"#;
    let turbo = PathConfiguration::from_json(doc, &Options::new().profile(Profile::TurboAndroid)).unwrap();
    let hotwire = PathConfiguration::from_json(doc, &Options::new().profile(Profile::HotwireAndroid)).unwrap();
    for url in ["mailto:a@x.dev", "https://x.dev:abc/new", "https://[::1/new"] {
        let e = turbo.properties(url).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Url, "{url}: {e}");
        assert!(e.message().starts_with("turbo-android crashes on this URL: java.net.URL rejects it ("), "{e}");
        assert_eq!(turbo.matched_string(url).unwrap(), "");
        assert_eq!(hotwire.properties(url).unwrap().get_str("home").unwrap(), Some("y"), "{url}");
    }
    assert!(turbo.properties(" url:https://x.dev/ ").unwrap().is_empty());
}

#[test]
fn bad_options() {
    // Unknown key, malformed value, malformed JSON: all PATHCONFIG_E_OPTIONS from the library.
    for (key, value) in [("bogus", "1"), ("lenient", "\"yes\""), ("match_query_strings", "1"), ("lenient", "maybe")] {
        let options = Options::new().raw_option(key, value);
        let e = load_err(OK_DOC, &options);
        assert_eq!(e.code(), ErrorCode::Options, "{}: {e}", options.to_json());
        assert_eq!((e.line(), e.rule_index()), (None, None));
    }
    // A well-formed raw option reaches the library as written.
    let config = PathConfiguration::from_json(OK_DOC, &Options::new().raw_option("profile", "\"turbo-ios\"")).unwrap();
    assert_eq!(config.profile(), "turbo-ios");
    // match_query_strings(None) is the profile's default (omitted).
    assert_eq!(Options::new().match_query_strings(None).to_json(), "{}");
}

#[test]
fn unknown_profile() {
    // A misspelt profile does not compile (Profile is an enum); one named
    // through raw_option reaches the library, which words the error.
    let e = load_err(OK_DOC, &Options::new().raw_option("profile", "\"nope\""));
    assert_eq!(e.code(), ErrorCode::Options);
    assert!(e.message().contains("unknown profile \"nope\""), "{e}");
    assert_eq!(Profile::named("nope"), None);
    for &p in Profile::all() {
        assert!(e.message().contains(p.name()), "the library's message lists {p}: {e}");
        assert_eq!(Profile::named(p.name()), Some(p));
        assert_eq!(p.to_string(), p.name());
        let config = PathConfiguration::from_json(OK_DOC, &Options::new().profile(p)).unwrap();
        assert_eq!(config.profile(), p);
    }
    assert_eq!(Profile::default(), Profile::all()[0]);
    assert_eq!(load(OK_DOC).unwrap().profile(), Profile::default());
}

#[test]
fn foundation_backend_is_not_built_in() {
    let e = load_err(OK_DOC, &Options::new().backend("foundation"));
    assert_eq!(e.code(), ErrorCode::Backend);
    assert_eq!(e.raw_code(), 7);
    assert!(e.message().contains("foundation"), "{e}");
    assert!(!pathconfig::backends().contains(&"foundation"));
    for backend in pathconfig::backends() {
        assert!(PathConfiguration::from_json(OK_DOC, &Options::new().backend(backend)).is_ok(), "{backend}");
    }
    let e = load_err(OK_DOC, &Options::new().backend("re2"));
    assert_eq!(e.code(), ErrorCode::Options, "{e}");
}

#[test]
fn nul_in_strings_is_an_argument_error() {
    let config = load(OK_DOC).unwrap();
    let check = |e: Error| {
        assert_eq!(e.code(), ErrorCode::Argument, "{e}");
        assert_eq!(e.raw_code(), 8);
        assert!(e.message().contains("NUL"), "{e}");
    };
    check(config.properties("/a\0b").unwrap_err());
    check(config.request_properties("/a\0b", pathconfig::Method::Post).unwrap_err());
    check(config.explain("/a\0b").unwrap_err());
    check(config.matched_string("/a\0b").unwrap_err());
    check(PathConfiguration::from_file("/tmp/a\0b.json", &Options::new()).unwrap_err());
    check(PathConfiguration::from_json(OK_DOC, &Options::new().raw_option("x", "\"a\0b\"")).unwrap_err());
    // A NUL in an option key is escaped (\u0000), so it reaches the library as an unknown key.
    let e = PathConfiguration::from_json(OK_DOC, &Options::new().raw_option("x\0y", "1")).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Options, "{e}");
    assert_eq!(Options::new().raw_option("x\0y", "1").to_json(), r#"{"x\u0000y":1}"#);
    let props = config.properties("/new").unwrap();
    check(props.get_str("con\0text").unwrap_err());
    check(props.get_bool("b\0").unwrap_err());
    check(props.get_i64("i\0").unwrap_err());
    check(props.get_f64("n\0").unwrap_err());
    check(props.get_json("s\0").unwrap_err());
    check(props.contains_key("s\0").unwrap_err());
    check(props.typed_str("con\0text").unwrap_err());
    check(props.typed_bool("animated\0").unwrap_err());
    // From<NulError> directly.
    let e: Error = std::ffi::CString::new("ab\0").unwrap_err().into();
    assert_eq!(e.code(), ErrorCode::Argument);
    assert!(e.message().contains("byte 2"), "{e}");
}

#[test]
fn missing_file_is_io() {
    let path = std::env::temp_dir().join("pathconfig-rs-no-such-file.json");
    let e = PathConfiguration::from_file(&path, &Options::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Io, "{e}");
    assert_eq!(e.raw_code(), 5);
    assert_eq!(e.line(), None);
    assert!(!e.message().is_empty());
    assert_eq!(e.io_error_kind(), Some(std::io::ErrorKind::NotFound), "{e}");
    // It names the file, as Python's FileError does.
    assert_eq!(e.path(), Some(path.as_path()));
    assert!(e.to_string().contains(&path.display().to_string()), "{e}");
    // A directory is not a readable file either.
    let e = PathConfiguration::from_file(std::env::temp_dir(), &Options::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Io, "{e}");
    // A file's own errors keep their positions.
    let bad = std::env::temp_dir().join(format!("pathconfig-rs-bad-{}.json", std::process::id()));
    std::fs::write(&bad, "{\n\"rules\": [}").unwrap();
    let e = PathConfiguration::from_file(&bad, &Options::new()).unwrap_err();
    std::fs::remove_file(&bad).unwrap();
    assert_eq!((e.code(), e.line(), e.column()), (ErrorCode::Json, Some(2), Some(11)), "{e}");
    // "PATH:LINE:COLUMN: MESSAGE", as Python's ConfigError prints it.
    assert_eq!(e.path(), Some(bad.as_path()));
    assert_eq!(e.to_string(), format!("{}:2:11: {}", bad.display(), e.message()));
    // From text there is no file to name.
    let e = PathConfiguration::from_json("{\n\"rules\": [}", &Options::new()).unwrap_err();
    assert_eq!((e.path(), e.to_string()), (None, format!("2:11: {}", e.message())));
}

/// The library's errno for an unreadable path is the one std's own read of
/// the same path reports, and so is the `io::ErrorKind` made of it.
#[test]
fn io_errors_carry_the_os_error() {
    let missing = std::env::temp_dir().join("pathconfig-rs-no-such-file.json");
    let paths = [missing.as_path(), std::path::Path::new("/"), std::path::Path::new("/dev/null/pc.json")];
    for path in paths {
        let std_err = std::fs::read(path).unwrap_err();
        let e = PathConfiguration::from_file(path, &Options::new()).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Io, "{}: {e}", path.display());
        assert!(e.raw_os_error().is_some(), "{}: no os error", path.display());
        assert_eq!(e.raw_os_error(), std_err.raw_os_error(), "{}: {e} / {std_err}", path.display());
        assert_eq!(e.io_error_kind(), Some(std_err.kind()), "{}", path.display());
    }
    // Errors that are not I/O have none.
    let e = load_err("{", &Options::new());
    assert_eq!((e.raw_os_error(), e.io_error_kind()), (None, None));
    let e = PathConfiguration::from_file("/dev/null", &Options::new()).unwrap_err();
    assert_eq!((e.code(), e.raw_os_error()), (ErrorCode::Json, None), "{e}");
    assert_eq!(Error::new(ErrorCode::Io, "made here").raw_os_error(), None);
}

#[test]
fn path_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let path = std::path::Path::new(std::ffi::OsStr::from_bytes(b"/tmp/\xff.json"));
    let e = PathConfiguration::from_file(path, &Options::new()).unwrap_err();
    assert_eq!(e.code(), ErrorCode::Argument, "{e}");
    assert!(e.message().contains("UTF-8"), "{e}");
}

#[test]
fn getter_type_errors() {
    let config = load(OK_DOC).unwrap();
    let props = config.properties("/new").unwrap();
    let type_error = |e: Error| assert_eq!(e.code(), ErrorCode::Type, "{e}");
    type_error(props.get_str("n").unwrap_err());
    type_error(props.get_bool("s").unwrap_err());
    type_error(props.get_i64("n").unwrap_err()); // 1.5 is not an integer
    type_error(props.get_f64("s").unwrap_err());
    assert_eq!(props.get_f64("i").unwrap(), Some(7.0)); // an integer is a number
    assert_eq!(props.get_json("n").unwrap(), Some("1.5"));
    assert_eq!(props.get_i64("absent").unwrap(), None);
    // Typed accessors by name: an unknown key is an argument error, the wrong kind a type error.
    assert_eq!(props.typed_str("colour").unwrap_err().code(), ErrorCode::Argument);
    assert_eq!(props.typed_bool("colour").unwrap_err().code(), ErrorCode::Argument);
    type_error(props.typed_str("animated").unwrap_err());
    type_error(props.typed_bool("context").unwrap_err());
    // The failures do not leak into the next successful call.
    assert_eq!(props.typed_str("title").unwrap(), None);
    assert_eq!(props.typed_str("context").unwrap(), Some("modal"));
}

#[test]
fn codes_and_names() {
    let codes = [
        (1, ErrorCode::Json, "PATHCONFIG_E_JSON"),
        (2, ErrorCode::Schema, "PATHCONFIG_E_SCHEMA"),
        (3, ErrorCode::Regex, "PATHCONFIG_E_REGEX"),
        (4, ErrorCode::Options, "PATHCONFIG_E_OPTIONS"),
        (5, ErrorCode::Io, "PATHCONFIG_E_IO"),
        (6, ErrorCode::Limit, "PATHCONFIG_E_LIMIT"),
        (7, ErrorCode::Backend, "PATHCONFIG_E_BACKEND"),
        (8, ErrorCode::Argument, "PATHCONFIG_E_ARGUMENT"),
        (9, ErrorCode::NoMem, "PATHCONFIG_E_NOMEM"),
        (10, ErrorCode::Internal, "PATHCONFIG_E_INTERNAL"),
        (11, ErrorCode::Type, "PATHCONFIG_E_TYPE"),
        (12, ErrorCode::Download, "PATHCONFIG_E_DOWNLOAD"),
        (13, ErrorCode::Cache, "PATHCONFIG_E_CACHE"),
        (14, ErrorCode::Misuse, "PATHCONFIG_E_MISUSE"),
        (15, ErrorCode::Callback, "PATHCONFIG_E_CALLBACK"),
        (16, ErrorCode::Url, "PATHCONFIG_E_URL"),
        (17, ErrorCode::Crash, "PATHCONFIG_E_CRASH"),
        (18, ErrorCode::Forked, "PATHCONFIG_E_FORKED"),
    ];
    for (n, code, name) in codes {
        assert_eq!(ErrorCode::from_raw(n), code);
        assert_eq!(ErrorCode::from_raw(-n), ErrorCode::Unknown, "1.0 has no negated codes");
        assert_eq!(code.raw(), Some(n));
        assert_eq!(code.name(), name);
        assert_eq!(code.to_string(), name);
        assert_eq!(error_name(n), name);
        assert_eq!(error_name(-n), "PATHCONFIG_E_UNKNOWN");
    }
    assert_eq!(error_name(0), "PATHCONFIG_OK");
    assert_eq!(error_name(pathconfig::sys::PATHCONFIG_NOT_FOUND), "PATHCONFIG_NOT_FOUND");
    assert_eq!(error_name(99), "PATHCONFIG_E_UNKNOWN");
    assert_eq!(ErrorCode::from_raw(99), ErrorCode::Unknown);
    assert_eq!(ErrorCode::from_raw(i32::MIN), ErrorCode::Unknown);
    assert_eq!(ErrorCode::Unknown.raw(), None);
    assert_eq!(ErrorCode::Unknown.name(), "PATHCONFIG_E_UNKNOWN");
}

#[test]
fn error_is_a_std_error() {
    let e = load_err("{", &Options::new());
    let boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e.clone());
    assert_eq!(boxed.to_string(), e.to_string());
    // `?` into Box<dyn Error>.
    fn run() -> Result<(), Box<dyn std::error::Error>> {
        PathConfiguration::from_json("nope", &Options::new())?;
        Ok(())
    }
    assert!(run().unwrap_err().to_string().starts_with("1:1: "));
    // Without a position, Display is the message alone.
    let e = load_err(OK_DOC, &Options::new().backend("foundation"));
    assert_eq!(e.to_string(), e.message());
    let debug = format!("{e:?}");
    assert!(debug.contains("Backend") && debug.contains("raw_code: 7"), "{debug}");
}
