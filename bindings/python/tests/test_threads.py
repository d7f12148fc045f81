"""A shared configuration used from several threads; per-thread errors; close
racing with use."""

from __future__ import annotations

import json
import os
import signal
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List

from pathconfig import ClosedError, ConfigError, ErrorCode, PathConfiguration, _result

THREADS = 8
ROUNDS = 1500
URLS = [
    "https://example.com/",
    "https://example.com/messages/new",
    "https://example.com/messages/42",
    "https://example.com/messages/42/edit?x=1",
    "/messages/7",
    "https://example.com/recede_historical_location",
    "mailto:someone@example.com",
]


def expected_for(cfg: PathConfiguration) -> Dict[str, Any]:
    return {url: (dict(cfg.properties(url)), cfg.matched_string(url)) for url in URLS}


def test_shared_configuration(sample: PathConfiguration) -> None:
    expected = expected_for(sample)
    contexts = {url: sample.properties(url).context for url in URLS}
    start = threading.Barrier(THREADS)

    def work(seed: int) -> int:
        start.wait()
        checked = 0
        for i in range(ROUNDS):
            url = URLS[(seed + i) % len(URLS)]
            props, matched = expected[url]
            assert json.loads(sample.properties_json(url)) == props
            result = sample.properties(url)
            assert result == props
            assert result.context == contexts[url]
            if i % 10 == 0:
                assert sample.matched_string(url) == matched
                assert sample.explain(url)["properties"] == props
            checked += 1
        return checked

    with ThreadPoolExecutor(THREADS) as pool:
        assert sum(pool.map(work, range(THREADS))) == THREADS * ROUNDS


def test_results_shared_between_threads(sample: PathConfiguration) -> None:
    props = sample.properties("https://example.com/messages/42")
    expected = dict(props)

    def read(_: int) -> None:
        for _ in range(500):
            assert props == expected
            assert props.view_controller == "message" and props.title == "Message"

    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(read, range(THREADS)))


def test_errors_are_per_thread(sample_json: str) -> None:
    """One thread's failures never show up as another's, and each thread sees
    its own error's details."""
    bad = {
        0: ('{"rules": x}', ErrorCode.E_JSON),
        1: ('{"rules": [{"patterns": ["(["], "properties": {}}]}', ErrorCode.E_REGEX),
        2: ('{"rules": [{"patterns": [1], "properties": {}}]}', ErrorCode.E_SCHEMA),
    }
    start = threading.Barrier(THREADS)

    def work(n: int) -> List[str]:
        start.wait()
        problems = []
        for i in range(300):
            kind = (n + i) % 4
            if kind == 3:
                with PathConfiguration.from_json(sample_json) as cfg:
                    if cfg.properties("/messages/1")["title"] != "Message":
                        problems.append("wrong properties")
                continue
            text, code = bad[kind]
            try:
                PathConfiguration.from_json(text)
                problems.append("no error")
            except ConfigError as err:
                if err.code != code:
                    problems.append(f"expected {code!r}, got {err!r}")
        return problems

    with ThreadPoolExecutor(THREADS) as pool:
        assert [p for ps in pool.map(work, range(THREADS)) for p in ps] == []


def test_close_while_in_use_never_crashes(sample_json: str) -> None:
    """Closing from one thread while others call: every call either completes
    or raises ClosedError."""
    for _ in range(20):
        cfg = PathConfiguration.from_json(sample_json)
        start = threading.Barrier(5)
        outcomes: List[str] = []

        def use() -> None:
            start.wait()
            for _ in range(200):
                try:
                    props = cfg.properties("/messages/3")
                    props.title
                    cfg.properties("/messages/new")
                except ClosedError:
                    outcomes.append("closed")
                    return
            outcomes.append("done")

        threads = [threading.Thread(target=use) for _ in range(4)]
        for t in threads:
            t.start()
        start.wait()
        cfg.close()
        for t in threads:
            t.join()
        assert len(outcomes) == 4 and cfg.closed


def test_a_child_of_fork_gets_the_bindings_locks_free(sample_json: str) -> None:
    """fork() copies only the thread that calls it (multiprocessing's default
    on Linux, from a process whose threads look URLs up). A lock of the
    binding that another thread held then is free in the child: it makes a
    new answer and closes a configuration. (Before, 32 children of 400
    forked beside three threads making answers, at a switch interval of
    1 µs, waited for good at their first new answer.)"""
    cfg = PathConfiguration.from_json(sample_json)  # no answer made yet
    other = PathConfiguration.from_json(sample_json)
    held, done = threading.Event(), threading.Event()

    def hold() -> None:
        with _result._answers_lock:
            held.set()
            done.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait()
    try:
        with warnings.catch_warnings():  # Python 3.12 warns of fork() with threads running
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: a hang ends in SIGALRM; nothing returns to pytest
            signal.alarm(20)
            code = 1
            try:
                code = 0 if cfg.properties("/messages/new").context == "modal" else 2
                other.close()
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
    finally:
        done.set()
        holder.join()
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"the child: status {status}"
