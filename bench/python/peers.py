"""The Python side of ``make bench`` for one corpus size: libpathconfig's
Python binding, read as a host reads an answer, beside what a Python program
could use instead (a loop over ``re``, ``re2.Set`` from google-re2,
``hyperscan`` from PyPI), each giving the merged ``dict`` a host needs.

    python peers.py RULES_JSON URLS_TXT [--check-every K] [--options JSON]

Loads and builds everything, checks the peers against each other, prints one
JSON line (``{"ready": ...}``) and then answers bench/run.py on stdin: for
each line ``round SECONDS`` it runs every peer in turn for SECONDS over the
URLs and prints one JSON line of seconds per lookup; ``quit`` ends it.

The binding is imported from bindings/python/src (bench/run.py sets
PYTHONPATH and PATHCONFIG_LIBRARY). google-re2 and hyperscan come from
bench/.venv; a peer whose module is missing is left out with a note. The
configuration is loaded with profile turbo-ios, query strings on and the
result cache off. The binding's rows, each a lookup of the URL and then:

    py_binding    len() of the answer
    py_typed      .context and .presentation (the typed accessors): the headline
    py_raw        .get_str("context") (a raw getter)
    py_dict       dict() of it
    py_json       its JSON text (.json)

The other peers get the string that profile matches for each URL
(``matched_string``, worked out once before any timing) and give what a
user of them has to make: the properties of the rules whose patterns match,
merged in rule order into a new ``dict`` (later rules replace whole keys, as
the profile's shallow merge does). The check compares re2.Set's and
hyperscan's dicts with the ``re`` loop's.

``--options JSON`` loads the binding with those options instead (the result
cache still off) and runs only the rows that read no Hotwire key
(py_binding, py_dict, py_json), without the other peers and the check: they
read patterns, which a configuration of globs (Siesta) has none of.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import pathconfig

OPTIONS = {"profile": "turbo-ios", "match_query_strings": True, "result_cache_size": 0}

notes: List[str] = []


def note(text: str) -> None:
    if text not in notes:
        notes.append(text)


def load_binding(text: bytes) -> pathconfig.PathConfiguration:
    """The configuration through the binding's public loader when it takes
    ``result_cache_size``; otherwise through the same C call with the same
    options JSON (the binding's own private wrapper), with a note."""
    if "result_cache_size" in inspect.signature(pathconfig.PathConfiguration.from_json).parameters:
        return pathconfig.PathConfiguration.from_json(text, **OPTIONS)
    from pathconfig import _ffi  # the binding's signature table

    note(
        "the Python binding's from_json() takes no result_cache_size yet: the configuration is loaded "
        "through its own pathconfig_load_json wrapper with the same options JSON"
    )
    err = _ffi.ErrorStruct()
    ptr = _ffi.lib.pathconfig_load_json(text, len(text), json.dumps(OPTIONS).encode(), err)
    return pathconfig.PathConfiguration._wrap(ptr)


def median(xs: List[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def timed(build: Callable[[], Any], times: int = 3) -> Tuple[Any, float]:
    """build() run `times` times: its last result and the median time (ms)."""
    samples, result = [], None
    for _ in range(times):
        t0 = time.perf_counter()
        result = build()
        samples.append((time.perf_counter() - t0) * 1e3)
    return result, median(samples)


class Peers:
    def __init__(self, rules_path: str, urls_path: str, library_only: bool = False) -> None:
        with open(rules_path, "rb") as f:
            text = f.read()
        with open(urls_path, encoding="utf-8") as f:
            self.urls = [line.rstrip("\r\n") for line in f if line.strip()]
        self.build_ms: Dict[str, float] = {}
        self.refused: Dict[str, int] = {}
        self.lookups: List[Tuple[str, Callable[[int], Any]]] = []

        self.config, self.build_ms["py_binding"] = timed(lambda: load_binding(text))

        urls = self.urls
        properties = self.config.properties

        def typed(i: int) -> Any:
            props = properties(urls[i])
            return props.context, props.presentation

        self.lookups += [
            ("py_binding", lambda i: len(properties(urls[i]))),
            ("py_typed", typed),
            ("py_raw", lambda i: properties(urls[i]).get_str("context")),
            ("py_dict", lambda i: dict(properties(urls[i]))),
            ("py_json", lambda i: properties(urls[i]).json),
        ]
        note(
            "the Python binding calls the library through its C extension (pathconfig._speedups)"
            if getattr(pathconfig, "SPEEDUPS", False)
            else "the Python binding calls the library through ctypes alone: its C extension is not built "
            "(make -C bindings/python speedups) or PATHCONFIG_PURE_PYTHON is set"
        )
        if library_only:  # the rows that read no Hotwire key, and nothing else
            self.lookups = [(k, f) for k, f in self.lookups if k not in ("py_typed", "py_raw")]
            return
        self.subjects = [self.config.matched_string(u) for u in self.urls]
        document = json.loads(text)
        # (rule index, pattern) for every pattern, in file order.
        self.patterns = [(r, p) for r, rule in enumerate(document["rules"]) for p in rule["patterns"]]
        self.rule_count = len(document["rules"])
        #: Each rule's properties, what the peers merge.
        self.rule_properties: List[Dict[str, Any]] = [rule.get("properties") or {} for rule in document["rules"]]
        self._build_re()
        self._build_re2()
        self._build_hyperscan()

    # --- re: the loop a Python user writes ----------------------------------

    def _build_re(self) -> None:
        def build() -> Tuple[List[List["re.Pattern[str]"]], int]:
            re.purge()
            rules: List[List["re.Pattern[str]"]] = [[] for _ in range(self.rule_count)]
            refused = 0
            for r, p in self.patterns:
                try:
                    rules[r].append(re.compile(p))
                except re.error:
                    refused += 1
            return rules, refused

        (rules, self.refused["py_re"]), self.build_ms["py_re"] = timed(build)
        if self.refused["py_re"]:
            note(f"re refused {self.refused['py_re']} of {len(self.patterns)} patterns")
        subjects, rule_properties = self.subjects, self.rule_properties
        rule_list = list(zip(rules, rule_properties))

        def loop(i: int) -> Dict[str, Any]:
            s, merged = subjects[i], {}
            for regexes, props in rule_list:
                for regex in regexes:
                    if regex.search(s):
                        merged.update(props)
                        break
            return merged

        self.re_rules = loop
        self.lookups.append(("py_re", loop))

    # --- re2.Set ------------------------------------------------------------

    def _build_re2(self) -> None:
        try:
            import re2
        except ImportError as exc:
            note(f"re2.Set left out: google-re2 is not installed ({exc})")
            return

        def build() -> Tuple[Any, List[int], int]:
            options = re2.Options()
            options.max_mem = 512 << 20  # as the C peer: RE2's 8 MiB cannot compile 10,000 patterns
            s = re2.Set.SearchSet(options)
            rule_of, refused = [], 0
            for r, p in self.patterns:
                try:
                    s.Add(p)
                    rule_of.append(r)
                except re2.error:
                    refused += 1
            s.Compile()
            return s, rule_of, refused

        try:
            (s, rule_of, self.refused["py_re2set"]), self.build_ms["py_re2set"] = timed(build, times=1)
        except re2.error as exc:
            note(f"re2.Set left out: {exc}")
            return
        if self.refused["py_re2set"]:
            note(f"re2.Set refused {self.refused['py_re2set']} of {len(self.patterns)} patterns")
        subjects, rule_properties = self.subjects, self.rule_properties

        def match(i: int) -> Dict[str, Any]:
            merged: Dict[str, Any] = {}
            hits = s.Match(subjects[i])
            if hits:
                for r in sorted({rule_of[h] for h in hits}):
                    merged.update(rule_properties[r])
            return merged

        self.re2_rules = match
        self.lookups.append(("py_re2set", match))

    # --- hyperscan ----------------------------------------------------------

    def _build_hyperscan(self) -> None:
        try:
            import hyperscan
        except ImportError as exc:
            note(f"hyperscan (Python) left out: the hyperscan package is not installed ({exc})")
            return
        base = hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_UTF8
        exprs = [p.encode("utf-8") for _, p in self.patterns]
        ids = [r for r, _ in self.patterns]
        # hyperscan refuses a pattern that can match the empty string (".*")
        # without HS_FLAG_ALLOWEMPTY, which keeps its meaning; re finds them.
        flags = []
        for _, p in self.patterns:
            try:
                empty = re.compile(p).search("") is not None
            except re.error:
                empty = False
            flags.append(base | hyperscan.HS_FLAG_ALLOWEMPTY if empty else base)
        allow_empty = sum(f != base for f in flags)

        def compile_db(indexes: List[int]) -> Any:
            db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
            db.compile(
                expressions=[exprs[k] for k in indexes],
                ids=[ids[k] for k in indexes],
                elements=len(indexes),
                flags=[flags[k] for k in indexes],
            )
            return db

        def refused_among(indexes: List[int]) -> List[int]:
            """The patterns hyperscan refuses, by halving (its Python error
            does not say which expression failed)."""
            try:
                compile_db(indexes)
                return []
            except hyperscan.error:
                if len(indexes) == 1:
                    return indexes
                half = len(indexes) // 2
                return refused_among(indexes[:half]) + refused_among(indexes[half:])

        kept = list(range(len(exprs)))
        try:
            db, self.build_ms["py_hyperscan"] = timed(lambda: compile_db(kept), times=1)
        except hyperscan.error:
            bad = set(refused_among(kept))
            kept = [k for k in kept if k not in bad]
            note(f"hyperscan (Python) refused {len(bad)} of {len(exprs)} patterns; their rules never match through it")
            if not kept:
                return
            db, self.build_ms["py_hyperscan"] = timed(lambda: compile_db(kept), times=1)
        self.refused["py_hyperscan"] = len(exprs) - len(kept)
        if allow_empty:
            note(f"hyperscan (Python): {allow_empty} pattern(s) can match the empty string; compiled with HS_FLAG_ALLOWEMPTY")
        scratch = hyperscan.Scratch(db)
        data = [s.encode("utf-8") for s in self.subjects]

        rule_properties = self.rule_properties

        def on_match(id: int, start: int, end: int, flags: int, context: Set[int]) -> None:
            context.add(id)

        def scan(i: int) -> Dict[str, Any]:
            found: Set[int] = set()
            db.scan(data[i], match_event_handler=on_match, context=found, scratch=scratch)
            merged: Dict[str, Any] = {}
            for r in sorted(found):
                merged.update(rule_properties[r])
            return merged

        self.hs_rules = scan
        self.lookups.append(("py_hyperscan", scan))

    # --- check --------------------------------------------------------------

    def check(self, every: int) -> Dict[str, Any]:
        """The dicts re2.Set and hyperscan merge against the re loop's, on
        every `every`-th URL (libpathconfig itself is checked in C and
        Swift); the first URL where one differs, when any does."""
        result: Dict[str, Any] = {"every": every, "urls": 0}
        peers = [(key, fn) for key, fn in (("py_re2set", getattr(self, "re2_rules", None)),
                                           ("py_hyperscan", getattr(self, "hs_rules", None))) if fn]
        for key, _ in peers:
            result[key] = 0
        for i in range(0, len(self.urls), every):
            expected = self.re_rules(i)
            for key, fn in peers:
                got = fn(i)
                if got != expected:
                    result[key] += 1
                    result.setdefault("first_difference", f"{key} on {self.urls[i]!r}: {got!r}, re: {expected!r}")
            result["urls"] += 1
        return result


def measure(lookup: Callable[[int], Any], count: int, cursor: int, budget: float) -> Tuple[float, int]:
    """lookup over URL indexes from cursor (cycling) for budget seconds, at
    least 3 lookups, reading the clock once per batch (doubled while a batch
    takes under 0.1 ms); seconds per lookup and the next cursor."""
    i, done, batch = cursor, 0, 1
    clock = time.perf_counter
    start = clock()
    while True:
        t = clock()
        for _ in range(batch):
            lookup(i)
            i += 1
            if i == count:
                i = 0
        done += batch
        end = clock()
        if end - start >= budget and done >= 3:
            return (end - start) / done, i
        if end - t < 1e-4:
            batch *= 2


def main(argv: List[str]) -> int:
    if len(argv) < 3:
        print("usage: peers.py RULES_JSON URLS_TXT [--check-every K] [--options JSON]", file=sys.stderr)
        return 2
    every = int(argv[argv.index("--check-every") + 1]) if "--check-every" in argv else 1
    library_only = "--options" in argv
    if library_only:
        OPTIONS.clear()
        OPTIONS.update(json.loads(argv[argv.index("--options") + 1]), result_cache_size=0)
    peers = Peers(argv[1], argv[2], library_only)
    ready = {
        "ready": "python",
        "python": sys.version.split()[0],
        "peers": [k for k, _ in peers.lookups],
        "build_ms": peers.build_ms,
        "refused": peers.refused,
        "check": {} if library_only else peers.check(max(1, every)),
        "notes": notes,
    }
    print(json.dumps(ready), flush=True)
    cursors = [0] * len(peers.lookups)
    for round_number, line in enumerate(sys.stdin):
        if not line.startswith("round "):
            break
        budget = float(line.split()[1])
        seconds: Dict[str, float] = {}
        n = len(peers.lookups)
        for k in range(n):
            p = (k + round_number) % n  # a different peer first in each round
            key, lookup = peers.lookups[p]
            seconds[key], cursors[p] = measure(lookup, len(peers.urls), cursors[p], budget)
        print(json.dumps({"round": seconds}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
