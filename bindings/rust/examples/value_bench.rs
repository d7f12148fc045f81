//! The measurement behind the crate's own [`Value`] and [`Map`]: reading a
//! result's properties into them or into `serde_json::Value` /
//! `serde_json::Map`, side by side (the README's "Why its own Value").
//!
//! ```text
//! make value-bench [RUNS=21]      (both serde_json builds, see the Makefile)
//! cargo run --release --features serde --example value_bench -- [RUNS] [CORPORA_DIR]
//! ```
//!
//! For every result of two sets, each variant reads all its keys and values
//! and drops what it built; the variants take turns (a different one first
//! in each run) and each prints the median over RUNS runs of nanoseconds per
//! result:
//!
//! - `own_map`, `serde_map`: the walk of [`Properties::map`] (the C API's
//!   count, keys, types and typed getters; arrays and objects parsed from
//!   their JSON text), done here with the public [`sys`] functions, into a
//!   [`Map`] or a `serde_json::Map`: the same calls, only the container
//!   differs;
//! - `own_parse`, `serde_parse`: the answer's JSON text parsed whole,
//!   [`Value::from_json`] or `serde_json::from_str`.
//!
//! The sets: the URLs of the bench corpus `urls-1000.txt` against
//! `rules-1000.json` (2 to 4 string and bool keys per answer), and 10,000
//! answers of 10 keys (strings, bools, an integer, a float, an array of
//! objects, an object). [`Properties::map`] itself does this walk once per
//! answer and thread and caches the map; these numbers are that first time.

use std::ffi::{c_char, c_double, c_int, CStr};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use pathconfig::{sys, Binding, Map, Options, PathConfiguration, Profile, Properties, Value};

/// One top-level value as the C API gives it.
enum Leaf<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    /// An array or object: its JSON text.
    Nested(&'a str),
}

/// Calls `f` with each key and value of `props`, in order, as
/// `Properties::map` reads them.
fn walk<'a>(props: &'a Properties, mut f: impl FnMut(&'a str, Leaf<'a>)) {
    let res = props.raw();
    let text = |p: *const c_char| {
        // SAFETY: a NUL-terminated UTF-8 string borrowed from `res`, alive while `props` is.
        unsafe { CStr::from_ptr(p) }.to_str().expect("UTF-8")
    };
    for i in 0..props.len() {
        // SAFETY (every call below): a live result, `i` below its count, the
        // i-th key as the library gave it and writable out parameters.
        let key = unsafe { sys::pathconfig_result_key(res, i) };
        let leaf = match unsafe { sys::pathconfig_result_type(res, i) } {
            sys::PATHCONFIG_TYPE_BOOL => {
                let mut out: c_int = 0;
                unsafe { sys::pathconfig_result_get_bool(res, key, &mut out) };
                Leaf::Bool(out != 0)
            }
            sys::PATHCONFIG_TYPE_INT => {
                let mut out: i64 = 0;
                unsafe { sys::pathconfig_result_get_int64(res, key, &mut out) };
                Leaf::Int(out)
            }
            sys::PATHCONFIG_TYPE_DOUBLE => {
                let mut out: c_double = 0.0;
                unsafe { sys::pathconfig_result_get_double(res, key, &mut out) };
                Leaf::Float(out)
            }
            sys::PATHCONFIG_TYPE_STRING => {
                let (mut out, mut len): (*const c_char, usize) = (std::ptr::null(), 0);
                unsafe { sys::pathconfig_result_get_string(res, key, &mut out, &mut len) };
                // SAFETY: `len` bytes borrowed from the result.
                let bytes = unsafe { std::slice::from_raw_parts(out.cast::<u8>(), len) };
                Leaf::Str(std::str::from_utf8(bytes).expect("UTF-8"))
            }
            sys::PATHCONFIG_TYPE_ARRAY | sys::PATHCONFIG_TYPE_OBJECT => {
                let mut out: *const c_char = std::ptr::null();
                unsafe { sys::pathconfig_result_get_json(res, key, &mut out) };
                Leaf::Nested(text(out))
            }
            _ => Leaf::Null,
        };
        f(text(key), leaf);
    }
}

fn own_map(props: &Properties) -> usize {
    let mut map = Map::with_capacity(props.len());
    walk(props, |key, leaf| {
        let value = match leaf {
            Leaf::Null => Value::Null,
            Leaf::Bool(b) => Value::Bool(b),
            Leaf::Int(n) => Value::Int(n),
            Leaf::Float(x) => Value::Float(x),
            Leaf::Str(s) => Value::String(s.to_owned()),
            Leaf::Nested(json) => Value::from_json(json).expect("JSON"),
        };
        map.insert(key, value);
    });
    black_box(map).len()
}

fn serde_map(props: &Properties) -> usize {
    use serde_json::Value as J;
    let mut map = serde_json::Map::with_capacity(props.len());
    walk(props, |key, leaf| {
        let value = match leaf {
            Leaf::Null => J::Null,
            Leaf::Bool(b) => J::Bool(b),
            Leaf::Int(n) => J::from(n),
            Leaf::Float(x) => J::from(x),
            Leaf::Str(s) => J::String(s.to_owned()),
            Leaf::Nested(json) => serde_json::from_str(json).expect("JSON"),
        };
        map.insert(key.to_owned(), value);
    });
    black_box(map).len()
}

fn own_parse(props: &Properties) -> usize {
    black_box(Value::from_json(props.json()).expect("JSON")).as_object().map_or(0, Map::len)
}

fn serde_parse(props: &Properties) -> usize {
    let value: serde_json::Value = serde_json::from_str(props.json()).expect("JSON");
    black_box(value).as_object().map_or(0, serde_json::Map::len)
}

type Variant = (&'static str, fn(&Properties) -> usize);

const VARIANTS: [Variant; 4] =
    [("own_map", own_map), ("serde_map", serde_map), ("own_parse", own_parse), ("serde_parse", serde_parse)];

fn measure(name: &str, results: &[Properties], runs: usize) {
    let mut times: Vec<Vec<f64>> = vec![Vec::with_capacity(runs); VARIANTS.len()];
    let mut sink = 0usize;
    for run in 0..runs {
        for k in 0..VARIANTS.len() {
            let v = (k + run) % VARIANTS.len();
            let start = Instant::now();
            for props in results {
                sink = sink.wrapping_add((VARIANTS[v].1)(props));
            }
            times[v].push(start.elapsed().as_secs_f64() * 1e9 / results.len() as f64);
        }
    }
    let keys: usize = results.iter().map(Properties::len).sum();
    println!(
        "{name}: {} results, {:.1} keys each, median of {runs} runs, ns per result ({sink} keys read)",
        results.len(),
        keys as f64 / results.len() as f64
    );
    let medians: Vec<f64> = times
        .iter_mut()
        .map(|t| {
            t.sort_by(f64::total_cmp);
            t[t.len() / 2]
        })
        .collect();
    for ((label, _), median) in VARIANTS.iter().zip(&medians) {
        println!("  {label:<12} {median:>8.0}");
    }
    println!(
        "  serde_map / own_map {:.2}, serde_parse / own_parse {:.2}",
        medians[1] / medians[0],
        medians[3] / medians[2]
    );
}

/// 200 rules of 10 properties each, one answer per rule.
fn rich_rules() -> String {
    let rules: Vec<String> = (0..200)
        .map(|i| {
            format!(
                r#"{{"patterns": ["^/r{i}/"], "properties": {{"context": "modal", "presentation": "replace",
                   "title": "Item {i}", "pull_to_refresh_enabled": false, "retry": {i}, "ratio": 1.5,
                   "view_controller": "web", "flow": "authentication",
                   "tabs": [{{"title": "Posts", "path": "/posts"}}, {{"title": "Tags", "path": "/tags"}}],
                   "headers": {{"Accept": "application/json", "X-Item": "{i}"}}}}}}"#
            )
        })
        .collect();
    format!(r#"{{"rules": [{}]}}"#, rules.join(","))
}

fn main() -> Result<(), pathconfig::Error> {
    let args: Vec<String> = std::env::args().collect();
    let runs = args.get(1).and_then(|r| r.parse::<usize>().ok()).unwrap_or(21).max(1);
    let corpora = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/corpora")));
    println!("serde_json::Map: {}", map_kind());

    let options = Options::new().profile(Profile::TurboIos).match_query_strings(true).result_cache_size(0);
    let config = PathConfiguration::from_file(corpora.join("rules-1000.json"), &options)?;
    let urls = std::fs::read_to_string(corpora.join("urls-1000.txt"))
        .unwrap_or_else(|e| panic!("{}: {e}", corpora.join("urls-1000.txt").display()));
    let results =
        urls.lines().filter(|l| !l.is_empty()).map(|url| config.properties(url)).collect::<Result<Vec<_>, _>>()?;
    measure("bench corpus (rules-1000, urls-1000)", &results, runs);

    let config = PathConfiguration::from_json(&rich_rules(), &options)?;
    let results = (0..10_000).map(|i| config.properties(&format!("/r{}/x", i % 200))).collect::<Result<Vec<_>, _>>()?;
    measure("10-key answers", &results, runs);
    Ok(())
}

/// Whether this build's serde_json keeps key order (its `preserve_order`
/// feature) or sorts the keys.
fn map_kind() -> &'static str {
    let map: serde_json::Map<String, serde_json::Value> =
        [("b".to_owned(), serde_json::Value::Null), ("a".to_owned(), serde_json::Value::Null)].into_iter().collect();
    if map.keys().next().map(String::as_str) == Some("b") {
        "key order kept (preserve_order, an IndexMap)"
    } else {
        "keys sorted (a BTreeMap)"
    }
}
