//! App versions (libpathconfig 1.1.0): `Options::version` (`"profile":
//! "APP@VERSION"`), `PathConfiguration::profile` and `version` on a versioned
//! name, the release lines the catalog lists (`Profile::releases`, read from
//! the library), and typed reads the profile's app crashes on
//! (`ErrorCode::Crash`). docs/app-versions.md describes them.
//!
//! The release checks walk the library's own lists, so a line added to the
//! library is tested here without an edit.

mod support;

use std::ffi::CStr;

use pathconfig::{sys, ErrorCode, Options, PathConfiguration, Profile, Release, TypedKey, TypedValue};

const NUMBERS: &str = r#"{"rules":[{"patterns":["/numbers$"],"properties":{"view_controller":"numbers"}}]}"#;
const NUMBERS_URL: &str = "https://hotwire-native-demo.dev/numbers/";

fn load(json: &str, options: &Options) -> PathConfiguration {
    PathConfiguration::from_json(json, options).unwrap_or_else(|e| panic!("{}: {e}", options.to_json()))
}

fn rules(properties: &str) -> String {
    format!(r#"{{"rules": [{{"patterns": [".*"], "properties": {properties}}}]}}"#)
}

// --- versions in options ------------------------------------------------------------------

#[test]
fn the_options_name_the_version() {
    assert_eq!(
        Options::new().profile(Profile::HotwireIos).version("1.2.2").to_json(),
        r#"{"profile":"hotwire-ios@1.2.2"}"#
    );
    assert_eq!(
        Options::new().version("main").profile(Profile::TurboAndroid).lenient(true).to_json(),
        r#"{"profile":"turbo-android@main","lenient":true}"#,
        "the order of the setters does not matter"
    );
    // A version without a profile applies to the default profile.
    assert_eq!(Options::new().version("1.2.2").to_json(), format!(r#"{{"profile":"{}@1.2.2"}}"#, Profile::default()));
    assert_eq!(Options::new().profile(Profile::Siesta).to_json(), r#"{"profile":"siesta"}"#);
    // A quote in a version is escaped, and refused by the library.
    let options = Options::new().version("1\"2");
    assert_eq!(options.to_json(), r#"{"profile":"hotwire-ios@1\"2"}"#);
    assert_eq!(PathConfiguration::from_json(NUMBERS, &options).unwrap_err().code(), ErrorCode::Options);
}

#[test]
fn a_trailing_slash_answers_by_version() {
    let cases = [
        (
            Options::new().profile(Profile::HotwireIos).version("1.2.2"),
            Some("1.2.2"),
            r#"{"view_controller":"numbers"}"#,
            "/numbers",
        ),
        (Options::new().profile(Profile::HotwireIos).version("main"), Some("main"), "{}", "/numbers/"),
        (Options::new().version("main"), Some("main"), "{}", "/numbers/"),
        (Options::new().profile(Profile::HotwireIos), None, r#"{"view_controller":"numbers"}"#, "/numbers"),
        (
            Options::new().profile(Profile::HotwireIos).version("1.0.0"),
            Some("1.0.0"),
            r#"{"view_controller":"numbers"}"#,
            "/numbers",
        ),
    ];
    for (options, version, json, matched) in cases {
        let config = load(NUMBERS, &options);
        assert_eq!(config.profile(), Profile::HotwireIos, "{}: no panic on a versioned name", options.to_json());
        assert_eq!(config.version().as_deref(), version, "{}", options.to_json());
        let props = config.properties(NUMBERS_URL).unwrap();
        assert_eq!(props.json(), json, "{}", options.to_json());
        assert_eq!(props.view_controller(), Some(if json == "{}" { "web" } else { "numbers" }));
        assert_eq!(config.matched_string(NUMBERS_URL).unwrap(), matched, "{}", options.to_json());
    }
    let main = load(NUMBERS, &Options::new().version("main"));
    assert_eq!(main.matched_string("https://x.dev/caf%C3%A9").unwrap(), "/caf%C3%A9");
    let released = load(NUMBERS, &Options::new().version("1.2.2"));
    assert_eq!(released.matched_string("https://x.dev/caf%C3%A9").unwrap(), "/caf\u{e9}");
}

#[test]
fn the_versioned_name_is_reported_and_loads_again() {
    let config = load(NUMBERS, &Options::new().profile(Profile::HotwireAndroid).version("1.1.3"));
    assert!(config.options().contains(r#""profile":"hotwire-android@1.1.3""#), "{}", config.options());
    assert!(format!("{config:?}").contains(r#"profile: "hotwire-android@1.1.3""#), "{config:?}");
    let again =
        PathConfiguration::from_json(NUMBERS, &Options::new().raw_option("profile", r#""hotwire-android@1.1.3""#))
            .unwrap();
    assert_eq!((again.profile(), again.version()), (Profile::HotwireAndroid, Some("1.1.3".to_string())));
}

#[test]
fn an_unknown_version_is_an_options_error_listing_the_releases() {
    for (profile, version) in [
        (Profile::HotwireIos, "1.4.0"),
        (Profile::HotwireAndroid, "1.1.9"),
        (Profile::Siesta, "2.0.0"),
        (Profile::TurboIos, "latest"),
    ] {
        let e = PathConfiguration::from_json(NUMBERS, &Options::new().profile(profile).version(version)).unwrap_err();
        assert_eq!(e.code(), ErrorCode::Options, "{profile}@{version}: {e}");
        assert!(e.message().contains(version) && e.message().contains("releases"), "{e}");
        for line in profile.release_lines() {
            for tag in line.tags() {
                assert!(e.message().contains(tag), "{profile}: {tag} not in {e}");
            }
        }
        assert!(e.message().contains("main"), "{e}");
    }
}

// --- the release catalog ------------------------------------------------------------------

fn c_str(p: *const std::ffi::c_char) -> Option<&'static str> {
    // SAFETY: NULL or a static NUL-terminated string from the catalog.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap())
}

#[test]
fn the_releases_are_the_librarys() {
    for (i, &profile) in Profile::all().iter().enumerate() {
        // SAFETY: i < pathconfig_profile_count() (the enum is the catalog).
        let count = unsafe { sys::pathconfig_profile_release_count(i) };
        assert!(count >= 1, "{profile}");
        // SAFETY: i and j within range.
        let names: Vec<&str> =
            (0..count).map(|j| c_str(unsafe { sys::pathconfig_profile_release_name(i, j) }).unwrap()).collect();
        assert_eq!(profile.releases(), names.as_slice(), "{profile}");
        assert_eq!(profile.release_lines().len(), count);
        // SAFETY: i < the profile count.
        let default = unsafe { sys::pathconfig_profile_default_release(i) };
        assert_eq!(profile.default_release_index(), default);
        assert_eq!(profile.default_release(), names[default]);
        for (j, line) in profile.release_lines().iter().enumerate() {
            assert_eq!(line.name(), names[j]);
            // SAFETY: within range.
            let (tags, commit) = unsafe {
                (c_str(sys::pathconfig_profile_release_tags(i, j)), c_str(sys::pathconfig_profile_release_commit(i, j)))
            };
            assert_eq!(Some(line.tags().join(" ").as_str()), tags);
            assert_eq!(Some(line.commit()), commit);
            assert!(!line.commit().is_empty(), "{}", line.name());
        }
        // Out of range: NULL and PATHCONFIG_E_ARGUMENT.
        // SAFETY: any index may be passed.
        unsafe {
            assert!(sys::pathconfig_profile_release_name(i, count).is_null());
            assert_eq!((*sys::pathconfig_last_error()).code, sys::PATHCONFIG_E_ARGUMENT);
            assert!(sys::pathconfig_profile_release_tags(i, count).is_null());
            assert!(sys::pathconfig_profile_release_commit(i, count).is_null());
        }
    }
    let n = Profile::all().len();
    // SAFETY: any index may be passed.
    unsafe {
        assert_eq!((sys::pathconfig_profile_release_count(n), sys::pathconfig_profile_default_release(n)), (0, 0));
        assert!(sys::pathconfig_profile_release_name(n, 0).is_null());
        assert_eq!((*sys::pathconfig_last_error()).code, sys::PATHCONFIG_E_ARGUMENT);
    }
}

#[test]
fn every_release_line_and_tag_loads() {
    for &profile in Profile::all() {
        let lines: &[Release] = profile.release_lines();
        assert_eq!(lines.last().map(Release::name), Some(format!("{profile}@main").as_str()), "the main branch last");
        for line in lines {
            let (app, version) = line.name().split_once('@').unwrap();
            assert_eq!((app, version), (profile.name(), line.version()));
            if version == "main" {
                assert!(line.tags().is_empty());
            } else {
                assert_eq!(line.tags()[0], version, "a line is named by its first tag");
            }
            let config = load(NUMBERS, &Options::new().profile(profile).version(version));
            assert_eq!((config.profile(), config.version().as_deref()), (profile, Some(version)));
            for tag in line.tags() {
                let config = load(NUMBERS, &Options::new().profile(profile).version(tag));
                assert_eq!(config.version().as_deref(), Some(*tag));
            }
        }
    }
}

#[test]
fn the_bare_profile_answers_as_its_default_release() {
    let json = r#"{"rules": [
        {"patterns": ["/numbers$", "^/café$"], "properties": {"view_controller": "numbers"}},
        {"patterns": ["/flags$"], "properties": {"pull_to_refresh_enabled": "true", "animated": 0, "title": 5.0}}]}"#;
    let urls = [
        "https://x.dev/numbers/",
        "https://x.dev/caf%C3%A9",
        "https://x.dev/flags",
        "https://x.dev/recede_historical_location",
        "https://x.dev/a?b=1",
        "/nothing",
    ];
    for &profile in Profile::all() {
        let default = &profile.release_lines()[profile.default_release_index()];
        assert!(!default.tags().is_empty() && default.version() != "main", "{profile}: a tagged release");
        let bare = load(json, &Options::new().profile(profile));
        let versioned = load(json, &Options::new().profile(profile).version(default.version()));
        assert_eq!(bare.rule_count(), versioned.rule_count());
        for url in urls {
            let (a, b) = (bare.properties(url).unwrap(), versioned.properties(url).unwrap());
            assert_eq!(a.json(), b.json(), "{profile} {url}");
            assert_eq!(bare.matched_string(url).unwrap(), versioned.matched_string(url).unwrap(), "{profile} {url}");
            for key in TypedKey::all() {
                let read = |p: &pathconfig::Properties| match p.typed(key.name()) {
                    Ok(v) => format!("{v:?}"),
                    Err(e) => format!("{:?} {}", e.code(), e.message()),
                };
                assert_eq!(read(&a), read(&b), "{profile} {url} {key}");
            }
        }
    }
    assert_eq!(Profile::HotwireIos.default_release(), "hotwire-ios@1.2.0");
    assert_eq!(Profile::HotwireIos.releases().first(), Some(&"hotwire-ios@1.0.0"));
    assert!(Profile::HotwireIos.release_lines()[Profile::HotwireIos.default_release_index()].tags().contains(&"1.2.2"));
}

// --- typed reads that crash the app -------------------------------------------------------

#[test]
fn hotwire_android_crashes_reading_a_boolean_that_is_not_one() {
    for value in [r#""true""#, "1", "1.0", r#""false""#] {
        let config = load(
            &rules(&format!(r#"{{"pull_to_refresh_enabled": {value}, "animated": {value}, "context": "modal"}}"#)),
            &Options::new().profile(Profile::HotwireAndroid),
        );
        let props = config.properties("/a").unwrap();
        for _ in 0..3 {
            let e = props.typed_bool("pull_to_refresh_enabled").unwrap_err();
            assert_eq!(e.code(), ErrorCode::Crash, "{value}: {e}");
            assert_eq!(e.raw_code(), 17);
            assert!(
                e.message()
                    .starts_with("the app crashes reading \"pull_to_refresh_enabled\": java.lang.ClassCastException: "),
                "{e}"
            );
            assert_eq!((e.line(), e.rule_index()), (None, None));
            assert_eq!(props.typed("pull_to_refresh_enabled").unwrap_err().code(), ErrorCode::Crash);
            // The accessors do not panic: the Android default.
            assert!(!props.pull_to_refresh_enabled());
            assert!(props.animated(), "animated's default is true, not the 0 of the failed read");
        }
        assert_eq!(props.context(), "modal");
        assert_eq!(props.typed("context").unwrap(), TypedValue::Str(Some("modal")));
        assert!(props.get_json("pull_to_refresh_enabled").unwrap().is_some(), "the raw value is there");
        // Another lookup of the same answer crashes alike.
        assert_eq!(config.properties("/b").unwrap().typed_bool("animated").unwrap_err().code(), ErrorCode::Crash);
    }
    let e = load(&rules(r#"{"pull_to_refresh_enabled": "true"}"#), &Options::new().profile(Profile::HotwireAndroid))
        .properties("/a")
        .unwrap()
        .typed_bool("pull_to_refresh_enabled")
        .unwrap_err();
    assert_eq!(
        e.message(),
        "the app crashes reading \"pull_to_refresh_enabled\": java.lang.ClassCastException: java.lang.String cannot be \
         cast to java.lang.Boolean"
    );
}

#[test]
fn hotwire_android_reads_json_booleans_and_string_keys_as_java_prints_them() {
    let options = Options::new().profile(Profile::HotwireAndroid);
    let props = load(&rules(r#"{"title": 5, "pull_to_refresh_enabled": true}"#), &options).properties("/a").unwrap();
    assert_eq!((props.title(), props.typed_bool("pull_to_refresh_enabled").unwrap()), (Some("5"), true));
    assert_eq!(load(&rules(r#"{"title": 5.0}"#), &options).properties("/a").unwrap().title(), Some("5.0"));
    let huge = load(&rules(r#"{"title": 12345678901234567890}"#), &options).properties("/a").unwrap();
    assert_eq!(huge.typed_str("title").unwrap(), Some("1.2345678901234567E19"));
}

#[test]
fn hotwire_android_before_1_2_reads_strings() {
    let options = Options::new().profile(Profile::HotwireAndroid).version("1.1.3");
    let props = load(&rules(r#"{"pull_to_refresh_enabled": "true", "animated": "FALSE", "title": 5}"#), &options)
        .properties("/a")
        .unwrap();
    assert!(props.typed_bool("pull_to_refresh_enabled").unwrap());
    assert!(!props.typed_bool("animated").unwrap());
    assert!(props.pull_to_refresh_enabled() && !props.animated());
    assert_eq!(props.title(), Some("5"));
    let props = load(&rules(r#"{"pull_to_refresh_enabled": 1, "title": 5.0}"#), &options).properties("/a").unwrap();
    assert_eq!((props.typed_bool("pull_to_refresh_enabled").unwrap(), props.title()), (false, Some("5.0")));
}

#[test]
fn turbo_android_crashes_reading_a_missing_uri() {
    let config = PathConfiguration::from_json(
        r#"{"rules": [{"patterns": ["^/given$"], "properties": {"uri": "app://x"}}]}"#,
        &Options::new().profile(Profile::TurboAndroid),
    )
    .unwrap();
    let props = config.properties("/missing").unwrap();
    for _ in 0..2 {
        let e = props.typed_str("uri").unwrap_err();
        assert_eq!(e.code(), ErrorCode::Crash, "{e}");
        assert!(e.message().contains("\"uri\"") && e.message().contains("java.lang.NullPointerException"), "{e}");
        assert_eq!(props.uri(), None, "the accessor: the default, no panic");
    }
    assert_eq!(props.fallback_uri(), None);
    assert_eq!(props.typed_str("fallback_uri").unwrap(), None);
    assert_eq!(config.properties("/given").unwrap().uri(), Some("app://x"));
}

#[test]
fn ios_never_crashes() {
    let props = load(&rules(r#"{"pull_to_refresh_enabled": "true"}"#), &Options::new()).properties("/a").unwrap();
    assert!(props.typed_bool("pull_to_refresh_enabled").unwrap(), "not a boolean on iOS: the default");
}
