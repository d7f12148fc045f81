//! The Rust side of `make bench` for one corpus size: what a Rust host does
//! with each answer, timed through the crate, with the result cache off.
//!
//! ```text
//! bench_worker RULES_JSON URLS_TXT [--check-every K] [--options JSON]
//! ```
//!
//! It speaks the JSON-lines protocol of bench/run.py's other workers
//! (bench/c/peers.c, bench/python/peers.py): it loads the configuration
//! (profile turbo-ios, query strings on, `result_cache_size` 0), checks every
//! K-th URL's read paths against its JSON text, prints one line
//! `{"ready": "rust", ...}`, then for each line `round SECONDS` on stdin runs
//! every peer in turn for SECONDS over the URLs (cycling, each resuming
//! where its last round stopped; a different peer first in each round) and
//! prints `{"round": {KEY: seconds per URL, ...}}`; `quit` or the end of
//! stdin ends it. The peers, each one lookup plus:
//!
//! - `rust_lookup`: nothing (the result dropped at once);
//! - `rust_resolve`: the JSON text (`Properties::json`);
//! - `rust_typed`: the typed `context` and `presentation` (the headline);
//! - `rust_raw`: one raw string value (`get_str("context")`);
//! - `rust_map`: the native map (`Properties::map`).
//!
//! `--options JSON` loads the configuration with those options instead (the
//! result cache still off) and runs only the peers that read no Hotwire key
//! (`rust_lookup`, `rust_resolve`, `rust_map`): a configuration of globs
//! (Siesta).
//!
//! Its own output is built as a [`Value`], never as text.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use pathconfig::{Map, Options, PathConfiguration, Profile, Properties, Value};

/// One timed way of reading the answer: a name and what it does with one URL
/// (its return value is summed, so that the work is not optimised away).
type Peer = (&'static str, fn(&PathConfiguration, &str) -> usize);

fn resolve(config: &PathConfiguration, url: &str) -> Properties {
    config.properties(url).unwrap_or_else(|e| panic!("{url}: {e}"))
}

const PEERS: [Peer; 5] = [
    ("rust_lookup", |config, url| {
        drop(std::hint::black_box(resolve(config, url)));
        1
    }),
    ("rust_resolve", |config, url| resolve(config, url).json().len()),
    ("rust_typed", |config, url| {
        let props = resolve(config, url);
        props.context().len() + props.presentation().len()
    }),
    ("rust_raw", |config, url| resolve(config, url).get_str("context").ok().flatten().map_or(0, str::len)),
    ("rust_map", |config, url| resolve(config, url).map().len()),
];

/// Runs `peer` over the URLs from `cursor` for `budget` seconds (at least 3
/// lookups), reading the clock once per batch (doubled while a batch takes
/// under 0.1 ms); seconds per lookup.
fn measure(
    config: &PathConfiguration,
    urls: &[String],
    peer: &Peer,
    cursor: &mut usize,
    budget: f64,
    sink: &mut usize,
) -> f64 {
    let (mut i, mut done, mut batch) = (*cursor, 0usize, 1usize);
    let start = Instant::now();
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            *sink = sink.wrapping_add((peer.1)(config, &urls[i]));
            i += 1;
            if i == urls.len() {
                i = 0;
            }
        }
        done += batch;
        let elapsed = start.elapsed().as_secs_f64();
        if elapsed >= budget && done >= 3 {
            *cursor = i;
            return elapsed / done as f64;
        }
        if t.elapsed().as_secs_f64() < 1e-4 && batch < (1 << 20) {
            batch *= 2;
        }
    }
}

/// Every `every`-th URL: the native map, each value and the typed and raw
/// reads agree with the JSON text. The number of URLs that disagree, per peer.
fn check(config: &PathConfiguration, urls: &[String], every: usize) -> Map {
    let (mut checked, mut map_differs, mut raw_differs, mut typed_differs) = (0i64, 0i64, 0i64, 0i64);
    for url in urls.iter().step_by(every) {
        let props = resolve(config, url);
        let from_text = Value::from_json(props.json()).expect("the JSON text parses");
        let map = props.map();
        if Value::Object(map.clone()) != from_text {
            map_differs += 1;
        }
        if props.get_str("context").ok().flatten() != map["context"].as_str() {
            raw_differs += 1;
        }
        // turbo-ios reads context and presentation strictly: a listed value
        // is read as written, anything else as the default.
        let typed = |key: &str, got: &str| match map[key].as_str() {
            Some(v) if v == got => true,
            _ => got == "default",
        };
        if !typed("context", props.context()) || !typed("presentation", props.presentation()) {
            typed_differs += 1;
        }
        checked += 1;
    }
    [
        ("every", Value::Int(every as i64)),
        ("urls", Value::Int(checked)),
        ("rust_map", Value::Int(map_differs)),
        ("rust_raw", Value::Int(raw_differs)),
        ("rust_typed", Value::Int(typed_differs)),
    ]
    .into_iter()
    .collect()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: bench_worker RULES_JSON URLS_TXT [--check-every K] [--options JSON]");
        return ExitCode::from(2);
    }
    let every = args
        .iter()
        .position(|a| a == "--check-every")
        .and_then(|i| args.get(i + 1))
        .and_then(|k| k.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    let urls: Vec<String> = match std::fs::read_to_string(&args[2]) {
        Ok(text) => text.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned).collect(),
        Err(e) => {
            eprintln!("{}: {e}", args[2]);
            return ExitCode::FAILURE;
        }
    };
    let given = args.iter().position(|a| a == "--options").and_then(|i| args.get(i + 1));
    let options = match given.map(|text| Value::from_json(text)) {
        None => Options::new().profile(Profile::TurboIos).match_query_strings(true),
        Some(Ok(Value::Object(members))) => {
            members.iter().fold(Options::new(), |o, (k, v)| o.raw_option(k, &v.to_string()))
        }
        Some(_) => {
            eprintln!("--options: not a JSON object");
            return ExitCode::from(2);
        }
    }
    .result_cache_size(0);
    let peers: Vec<&Peer> =
        PEERS.iter().filter(|(key, _)| given.is_none() || !matches!(*key, "rust_typed" | "rust_raw")).collect();
    let mut loads = Vec::new();
    let mut config = None;
    for _ in 0..3 {
        let t = Instant::now();
        match PathConfiguration::from_file(&args[1], &options) {
            Ok(c) => config = Some(c),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
        loads.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let config = config.expect("loaded");
    loads.sort_by(f64::total_cmp);

    let ready: Map = [
        ("ready", Value::from("rust")),
        ("version", Value::from(pathconfig::version())),
        ("urls", Value::Int(urls.len() as i64)),
        ("peers", Value::Array(peers.iter().map(|(key, _)| Value::from(*key)).collect())),
        ("build_ms", Value::Object([("rust_load", Value::Float(loads[1]))].into_iter().collect())),
        ("check", Value::Object(check(&config, &urls, every))),
        ("notes", Value::Array(Vec::new())),
    ]
    .into_iter()
    .collect();
    let mut out = io::stdout().lock();
    if writeln!(out, "{ready}").and_then(|()| out.flush()).is_err() {
        return ExitCode::FAILURE;
    }

    let mut cursors = vec![0usize; peers.len()];
    let mut sink = 0usize;
    for (round, line) in io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else { break };
        let Some(budget) = line.strip_prefix("round ").and_then(|b| b.trim().parse::<f64>().ok()) else { break };
        let mut seconds = vec![0.0; peers.len()];
        for k in 0..peers.len() {
            let p = (k + round) % peers.len(); // a different peer first in each round
            seconds[p] = measure(&config, &urls, peers[p], &mut cursors[p], budget, &mut sink);
        }
        let times: Map = peers.iter().zip(seconds).map(|((key, _), s)| (*key, Value::Float(s))).collect();
        let reply: Map = [("round", Value::Object(times))].into_iter().collect();
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    if sink == 42 {
        eprint!(" ");
    }
    ExitCode::SUCCESS
}
