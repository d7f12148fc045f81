//! One configuration shared by many threads; clones and drops across threads;
//! results read from several threads; errors kept per thread.

mod support;

use std::sync::{Arc, Barrier};
use std::thread;

use pathconfig::{Error, ErrorCode, Options, PathConfiguration, Properties, Warning};
use support::Json;

const URLS: [&str; 8] = [
    "https://example.com/messages/new",
    "https://example.com/messages/42",
    "https://example.com/messages/42/edit",
    "https://example.com/sign_in",
    "https://example.com/files/report.pdf",
    "https://example.com/page?open_in_external_browser=true",
    "/recede_historical_location",
    "https://example.com/",
];

const THREADS: usize = 8;
const ROUNDS: usize = 200;

fn example() -> PathConfiguration {
    PathConfiguration::from_file(support::example_config(), &Options::new()).expect("examples/path-configuration.json")
}

/// What one URL resolves to, read through every accessor.
fn snapshot(config: &PathConfiguration, url: &str) -> String {
    let p = config.properties(url).unwrap();
    format!(
        "{} {} {} {} {:?} {:?} {} {} {}",
        p.json(),
        p.context(),
        p.presentation(),
        p.modal_style(),
        p.view_controller(),
        p.title(),
        p.pull_to_refresh_enabled(),
        p.historical_location(),
        config.matched_string(url).unwrap(),
    )
}

#[test]
fn the_handle_types_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<PathConfiguration>();
    send_sync::<Properties>();
    send_sync::<Error>();
    send_sync::<Options>();
    send_sync::<Warning>();
}

#[test]
fn threads_share_one_configuration_through_arc() {
    let config = Arc::new(example());
    let expected: Vec<String> = URLS.iter().map(|u| snapshot(&config, u)).collect();
    // Sanity: the URLs do resolve differently.
    assert!(expected[0].contains("modal") && expected[1].contains("\"message\""), "{expected:?}");
    let start = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let (config, expected, start) = (Arc::clone(&config), expected.clone(), Arc::clone(&start));
            thread::spawn(move || {
                start.wait();
                for round in 0..ROUNDS {
                    let i = (t + round) % URLS.len();
                    assert_eq!(snapshot(&config, URLS[i]), expected[i], "thread {t}, round {round}");
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker panicked");
    }
}

#[test]
fn threads_share_one_configuration_through_clones() {
    let config = example();
    let expected: Vec<String> = URLS.iter().map(|u| snapshot(&config, u)).collect();
    let workers: Vec<_> = (0..THREADS)
        .map(|t| {
            let (config, expected) = (config.clone(), expected.clone());
            thread::spawn(move || {
                for round in 0..ROUNDS {
                    let i = (t * 3 + round) % URLS.len();
                    assert_eq!(snapshot(&config, URLS[i]), expected[i]);
                    let explain = Json::parse(&config.explain(URLS[i]).unwrap());
                    assert_eq!(explain.at("input").as_str(), Some(URLS[i]));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker panicked");
    }
    // Still whole after every clone was dropped on another thread.
    assert_eq!(snapshot(&config, URLS[0]), expected[0]);
}

#[test]
fn clones_and_drops_balance_across_threads() {
    let config = example();
    let expected = snapshot(&config, URLS[1]);
    // Many clones made here and dropped there, and made and dropped there.
    let batches: Vec<Vec<PathConfiguration>> =
        (0..THREADS).map(|_| (0..500).map(|_| config.clone()).collect()).collect();
    let workers: Vec<_> = batches
        .into_iter()
        .enumerate()
        .map(|(t, batch)| {
            thread::spawn(move || {
                let mut mine: Vec<PathConfiguration> = batch.iter().map(PathConfiguration::clone).collect();
                // Drop in an order that differs per thread.
                if t % 2 == 0 {
                    mine.reverse();
                }
                let survivor = mine.pop().unwrap();
                drop(mine);
                drop(batch);
                snapshot(&survivor, URLS[1])
            })
        })
        .collect();
    for w in workers {
        assert_eq!(w.join().unwrap(), expected);
    }
    // Every clone is gone; the original is alive and intact.
    assert_eq!(snapshot(&config, URLS[1]), expected);
}

#[test]
fn properties_outlive_their_configuration_and_cross_threads() {
    let config = example();
    let props = config.properties(URLS[1]).unwrap();
    let json = props.json().to_string();
    drop(config); // the last reference: the configuration is freed
    let props = thread::spawn(move || {
        assert_eq!(props.json(), json);
        assert_eq!(props.view_controller(), Some("message"));
        props // Send: moved back out of the thread
    })
    .join()
    .unwrap();
    assert_eq!(props.title(), Some("Message"));
}

#[test]
fn one_result_read_from_many_threads() {
    let config = example();
    let props = Arc::new(config.properties(URLS[1]).unwrap());
    let json = props.json().to_string();
    let title_ptr = props.get_str("title").unwrap().unwrap().as_ptr() as usize;
    let start = Arc::new(Barrier::new(THREADS));
    let workers: Vec<_> = (0..THREADS)
        .map(|_| {
            let (props, json, start) = (Arc::clone(&props), json.clone(), Arc::clone(&start));
            thread::spawn(move || {
                start.wait();
                for _ in 0..ROUNDS {
                    assert_eq!(props.json(), json);
                    // Borrowed strings are stable: the same key gives the same pointer on every thread.
                    assert_eq!(props.get_str("title").unwrap().unwrap().as_ptr() as usize, title_ptr);
                    assert_eq!(props.keys().count(), props.len());
                    assert_eq!(props.typed_str("view_controller").unwrap(), Some("message"));
                    for (k, v) in props.iter() {
                        assert_eq!(props.get_json(k).unwrap(), Some(v));
                    }
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("worker panicked");
    }
}

#[test]
fn errors_stay_on_their_thread() {
    let config = Arc::new(example());
    let start = Arc::new(Barrier::new(2));
    let failing = {
        let (config, start) = (Arc::clone(&config), Arc::clone(&start));
        thread::spawn(move || {
            start.wait();
            let props = config.properties(URLS[0]).unwrap();
            for _ in 0..2000 {
                assert_eq!(props.typed_str("no-such-key").unwrap_err().code(), ErrorCode::Argument);
                let e = PathConfiguration::from_json("{", &Options::new()).unwrap_err();
                assert_eq!(e.code(), ErrorCode::Json);
            }
        })
    };
    let succeeding = {
        let (config, start) = (Arc::clone(&config), Arc::clone(&start));
        thread::spawn(move || {
            start.wait();
            let props = config.properties(URLS[0]).unwrap();
            for _ in 0..2000 {
                // NULL with a clear last error means "no value": another thread's
                // error must never show up here.
                assert_eq!(props.typed_str("title").unwrap(), None);
                assert_eq!(props.get_str("nothing").unwrap(), None);
            }
        })
    };
    failing.join().unwrap();
    succeeding.join().unwrap();
}
