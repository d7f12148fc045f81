"""Runs the benchmark of `make bench` and writes bench/results.md and
bench/results.json (bench/plot.py draws bench/scaling.png from the latter).

For each corpus size it starts three workers, one after another so that
their loads and checks never overlap: the Swift peers (pathconfig-bench
serve), the C peers (pathconfig-peers) and the Python peers
(bench/python/peers.py). Each loads everything, checks its results and
reports ready. Then, round after round, it asks each worker in turn (a
different one first in each round) to run every one of its peers for
--budget seconds: never two at once, and every peer measured in every round,
side by side. A peer's figure is the median of its rounds; ratios are ratios
of those medians. Then it loads each corpus pretty-printed and minified
(pathconfig-bench load) and measures threads (pathconfig-threads).

Siesta's corpus (bench/corpora/globs-100.json, 100 glob rules, and the 400
URLs of globs-urls-100.txt under one base URL) runs the same way, each worker
given `--options` (SIESTA_OPTIONS) and timing only the rows that read no
Hotwire key (SIESTA_PEERS).

Run by the Makefile's bench target; `python3 bench/run.py --help` lists the
options.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import platform
import subprocess
import sys
from typing import Any, Dict, List, Optional

# Every peer, in table order: key (as the workers name it), column label,
# what it times, group (the plot's line style).
PEERS = [
    ("swift_typed", "Swift typed", "libpathconfig's Swift API: `properties(for:)`, then `context` and `presentation` (the headline: a lookup plus the two typed reads a visit proposal makes)", "ours"),
    ("swift_api", "Swift lookup", "libpathconfig's Swift API: `PathConfiguration.properties(for:)` and the result's count", "ours"),
    ("swift_raw", "Swift raw", "`properties(for:)` and one raw value (`[\"context\"]`)", "ours"),
    ("swift_json", "Swift JSON", "`properties(for:)` and its JSON text (`json`)", "ours"),
    ("c_typed", "C typed", "libpathconfig's C ABI: `pathconfig_resolve`, `pathconfig_result_typed_string` of `PATHCONFIG_KEY_CONTEXT` and `_PRESENTATION`, `pathconfig_result_release` (the headline)", "ours"),
    ("c_resolve", "C resolve", "libpathconfig's C ABI: `pathconfig_resolve`, `pathconfig_result_json`, `pathconfig_result_release`", "ours"),
    ("c_raw", "C raw", "`pathconfig_resolve`, one `pathconfig_result_get_string` (`context`), release", "ours"),
    ("c_map", "C map", "`pathconfig_resolve`, then every key with its type and value through the getters (what a host's native map is built from), release", "ours"),
    ("c_resolve_cache", "C resolve, cache on", "C resolve with the default result cache (no `result_cache_size`)", "ours"),
    ("py_typed", "Python typed", "libpathconfig's Python binding: `properties(url)`, then `.context` and `.presentation` (the headline)", "ours"),
    ("py_binding", "Python binding", "libpathconfig's Python binding: `properties(url)` and `len()` of it", "ours"),
    ("py_raw", "Python raw", "`properties(url).get_str(\"context\")` (a raw getter)", "ours"),
    ("py_dict", "Python dict", "`dict(properties(url))`: the merged properties as a new `dict`", "ours"),
    ("py_json", "Python JSON", "`properties(url)` and its JSON text", "ours"),
    ("rust_lookup", "Rust lookup", "the Rust crate: `properties(url)` alone", "ours"),
    ("rust_typed", "Rust typed", "libpathconfig's Rust crate: `resolve`, then the typed `context` and `presentation` (the headline)", "ours"),
    ("rust_resolve", "Rust resolve", "the Rust crate: `resolve` and the result's JSON text", "ours"),
    ("rust_raw", "Rust raw", "the Rust crate: `resolve` and one raw string value (`context`)", "ours"),
    ("rust_map", "Rust map", "the Rust crate: `resolve` and the native map of the result", "ours"),
    ("rb_typed", "Ruby typed", "libpathconfig's Ruby gem (with its C extension): `properties(url)`, then `.context` and `.presentation` (the headline)", "ours"),
    ("rb_lookup", "Ruby lookup", "the Ruby gem: `properties(url)` alone, the answer's frozen Hash", "ours"),
    ("rb_raw", "Ruby raw", "the Ruby gem: `properties(url).get_str(\"context\")` (a raw getter)", "ours"),
    ("rb_empty", "Ruby loop alone", "the Ruby worker's timing loop around a peer that does nothing: part of every Ruby figure, and of none of the others", "ours"),
    ("rb_typed_yjit", "Ruby typed, YJIT", "Ruby typed under `ruby --yjit` (Ruby's JIT, which Rails 7.2 and later turn on where Ruby has it; empty where this Ruby has none)", "ours"),
    ("nsregex_loop", "NSRegex loop", "Swift loop over `NSRegularExpression` (ICU), compiled once", "loop"),
    ("pcre2_loop", "PCRE2-JIT loop", "C loop over PCRE2 (`PCRE2_UTF`, JIT), compiled once", "loop"),
    ("hyperscan", "hyperscan", "hyperscan through its C API, one database of every pattern", "engine"),
    ("re2set", "RE2::Set", "RE2::Set through its C++ API, every pattern", "engine"),
    ("py_re", "Py `re` loop", "Python loop over `re` patterns, compiled once, merging the matched rules' properties into a `dict`", "python"),
    ("py_re2set", "Py `re2.Set`", "`re2.Set` from PyPI's google-re2, merging the matched rules' properties into a `dict`", "python"),
    ("py_hyperscan", "Py `hyperscan`", "`hyperscan.Database` from PyPI's hyperscan, merging the matched rules' properties into a `dict`", "python"),
    ("rb_regexp", "Ruby Regexp loop", "Ruby loop over `Regexp` (Onigmo) patterns, compiled once, merging the matched rules' properties into a `Hash`", "python"),
]
#: The Ruby worker's peers that make bench keeps (bindings/ruby/bench/peers.rb
#: times more, for the gem's own bench).
RUBY_PEERS = "rb_typed,rb_lookup,rb_raw,rb_empty,rb_regexp"
#: Those of the worker under YJIT.
RUBY_YJIT_PEERS = "rb_typed_yjit"
#: The headline figure of each host: a lookup plus the two typed reads.
HEADLINE = {"Swift": "swift_typed", "C": "c_typed", "Python": "py_typed", "Rust": "rust_typed", "Ruby": "rb_typed"}
#: Each host's bare lookup, the base of its ratios.
LOOKUP = {"Swift": "swift_api", "C": "c_resolve", "Python": "py_binding", "Rust": "rust_lookup", "Ruby": "rb_lookup"}
LABEL = {key: label for key, label, _, _ in PEERS}
#: The options of the Siesta run (bench/README.md's Siesta configuration).
SIESTA_OPTIONS = {"profile": "siesta", "base_url": "https://api.example.com"}
#: Its rows, in table order: each host's lookup and the reads of an answer
#: that name no key (the typed and raw reads are Hotwire's `context`).
SIESTA_PEERS = ["swift_api", "swift_json", "c_resolve", "c_map", "c_resolve_cache", "py_binding", "py_dict", "py_json",
                "rust_lookup", "rust_resolve", "rust_map", "rb_lookup", "rb_empty"]


def has_yjit(ruby: str) -> bool:
    """Whether ``ruby --yjit`` runs Ruby's JIT (Debian's Ruby 3.1 does)."""
    probe = "exit(defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? 0 : 1)"
    return subprocess.run([ruby, "--yjit", "-e", probe], stderr=subprocess.DEVNULL).returncode == 0


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Worker:
    """One worker process and its line protocol."""

    def __init__(self, name: str, argv: List[str], env: Optional[Dict[str, str]] = None) -> None:
        self.name = name
        log(f"  starting {name}: {' '.join(argv)}")
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        self.ready = self._read()

    def _read(self) -> Dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait()
            raise SystemExit(f"bench: the {self.name} worker stopped (exit status {code}) without answering")
        return json.loads(line)

    def round(self, budget: float) -> Dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"round {budget}\n")
        self.proc.stdin.flush()
        return self._read()["round"]

    def quit(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def median(xs: List[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def run_size(args: argparse.Namespace, size: int) -> Dict[str, Any]:
    every = str(args.check_every_large if size > 1000 else 1)
    log(f"{size} rules: loading, building and checking ({'every URL' if every == '1' else f'every {every}th URL'})")
    return run_workers(args, os.path.join(args.corpus, f"rules-{size}.json"), os.path.join(args.corpus, f"urls-{size}.txt"),
                       ["--check-every", every])


def run_siesta(args: argparse.Namespace) -> Dict[str, Any]:
    log("Siesta: 100 glob rules under a base URL")
    return run_workers(args, os.path.join(args.corpus, "globs-100.json"), os.path.join(args.corpus, "globs-urls-100.txt"),
                       ["--options", json.dumps(SIESTA_OPTIONS)], ruby_peers="rb_lookup,rb_empty")


def run_workers(args: argparse.Namespace, rules: str, urls: str, extra: List[str], ruby_peers: str = "") -> Dict[str, Any]:
    """Every host's worker on one corpus, each given `extra` arguments, and
    their rounds. The Ruby worker keeps `ruby_peers`; without them, make
    bench's RUBY_PEERS, with the YJIT worker beside it."""
    workers = [
        Worker("Swift", [args.swift, "serve", "--rules", rules, "--urls", urls] + extra),
        Worker("C", [args.peers, rules, urls] + extra),
    ]
    env = dict(os.environ, PYTHONPATH=args.binding, PATHCONFIG_LIBRARY=args.lib)
    workers.append(Worker("Python", [args.python, args.python_peers, rules, urls] + extra, env=env))
    if args.rust and os.path.exists(args.rust):
        workers.append(Worker("Rust", [args.rust, rules, urls] + extra))
    if args.ruby:
        ruby_env = dict(os.environ, PATHCONFIG_LIBRARY=args.lib, PATHCONFIG_BENCH_PEERS=ruby_peers or RUBY_PEERS)
        workers.append(Worker("Ruby", [args.ruby, args.ruby_peers, rules, urls] + extra, env=ruby_env))
        if has_yjit(args.ruby) and not ruby_peers:
            yjit_env = dict(ruby_env, PATHCONFIG_BENCH_PEERS=RUBY_YJIT_PEERS)
            workers.append(Worker("Ruby (YJIT)", [args.ruby, "--yjit", args.ruby_peers, rules, urls] + extra, env=yjit_env))

    samples: Dict[str, List[float]] = {}
    for r in range(args.rounds):
        for k in range(len(workers)):
            w = workers[(k + r) % len(workers)]
            for key, seconds in w.round(args.budget).items():
                samples.setdefault(key, []).append(seconds)
        log(f"  round {r + 1}/{args.rounds}")
    for w in workers:
        w.quit()

    result: Dict[str, Any] = {
        "median_us": {key: median(xs) * 1e6 for key, xs in samples.items()},
        "rounds": {key: len(xs) for key, xs in samples.items()},
        "build_ms": {},
        "refused": {},
        "check": {},
        "notes": [],
    }
    for w in workers:
        ready = w.ready
        result["build_ms"].update(ready.get("build_ms", {}))
        result["refused"].update(ready.get("refused", {}))
        result["check"][w.name] = ready.get("check", {})
        result["notes"] += [f"{w.name}: {n}" for n in ready.get("notes", [])]
        if w.name == "C":
            result["rss_delta_bytes"] = ready["rss_delta_bytes"]
            result["rss_after_pass_bytes"] = ready.get("rss_after_pass_bytes")
            result["peak_load_bytes"] = ready.get("peak_load_bytes")
            result["document_bytes"] = ready.get("document_bytes")
            result["rules"] = ready["rules"]
            result["patterns"] = ready["patterns"]
            result["hyperscan_db_bytes"] = ready["hyperscan_db_bytes"]
        if w.name == "Python":
            result["python"] = ready.get("python")
    for key, us in sorted(result["median_us"].items(), key=lambda kv: kv[1]):
        log(f"  {us:12.3f} µs  {LABEL.get(key, key)}")
    return result


def run_load(args: argparse.Namespace) -> List[Dict[str, Any]]:
    log("loading pretty-printed and minified")
    argv = [args.swift, "load", "--corpus", args.corpus, "--sizes", ",".join(map(str, args.sizes)),
            "--generated", args.generated, "--rounds", str(max(args.rounds, 3))]
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def run_threads(args: argparse.Namespace) -> List[Dict[str, Any]]:
    log(f"threads: rules {args.thread_sizes}, {args.thread_seconds} s per measurement, {args.thread_rounds} rounds")
    argv = [args.threads, "--json", "--seconds", str(args.thread_seconds), "--rounds", str(args.thread_rounds), args.corpus]
    argv += [str(s) for s in args.thread_sizes]
    out = subprocess.run(argv, check=True, stdout=subprocess.PIPE, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


# --- the report ---------------------------------------------------------------


def fmt_us(us: Optional[float]) -> str:
    if us is None:
        return ""
    if us >= 100:
        return f"{us:,.0f}"
    if us >= 10:
        return f"{us:.1f}"
    if us >= 1:
        return f"{us:.2f}"
    return f"{us:.3f}"


def fmt_ms(ms: Optional[float]) -> str:
    if ms is None:
        return ""
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 1 else f"{ms:.2f}"


def ratio(a: Optional[float], b: Optional[float]) -> str:
    return f"{a / b:.2f}×" if a and b else ""


def best(us: Dict[str, float], keys: List[str]) -> Optional[float]:
    values = [us[k] for k in keys if k in us]
    return min(values) if values else None


def main_table(results: Dict[str, Any]) -> str:
    keys = [k for k, _, _, _ in PEERS]
    lines = ["| rules | " + " | ".join(LABEL[k] for k in keys) + " |", "|---:|" + "---:|" * len(keys)]
    for size, r in results["sizes"].items():
        us = r["median_us"]
        lines.append(f"| {int(size):,} | " + " | ".join(fmt_us(us.get(k)) for k in keys) + " |")
    return "\n".join(lines) + "\n"


def siesta_table(results: Dict[str, Any]) -> str:
    """The Siesta run: µs per URL of each row, and its ratio to C resolve;
    then what the workers' own checks found."""
    r = results.get("siesta")
    if not r:
        return "Not run: bench/corpora/globs-100.json is missing.\n"
    us = r["median_us"]
    keys = [k for k in SIESTA_PEERS if k in us]
    lines = ["| | " + " | ".join(LABEL[k] for k in keys) + " |", "|---|" + "---:|" * len(keys),
             "| µs per URL | " + " | ".join(fmt_us(us[k]) for k in keys) + " |",
             "| / C resolve | " + " | ".join(ratio(us[k], us.get("c_resolve")) for k in keys) + " |"]
    checks = [f"{name}: {sum(v for k, v in c.items() if k not in ('every', 'urls') and isinstance(v, int))} of {c['urls']} URLs differ"
              for name, c in r["check"].items() if c.get("urls")]
    return "\n".join(lines) + "\n\nThe workers' own checks of their reads against each answer's JSON text: " + (
        "; ".join(checks) if checks else "none ran") + ".\n"


def legend() -> str:
    return "\n".join(f"- **{label}**: {what}" for _, label, what, _ in PEERS) + "\n"


def check_table(results: Dict[str, Any]) -> str:
    columns = [
        ("Swift", "swift_api", "libpathconfig (Swift) vs NSRegex loop"),
        ("C", "c_resolve", "libpathconfig (C) vs PCRE2 loop"),
        ("C", "hyperscan", "hyperscan vs PCRE2 loop"),
        ("C", "re2set", "RE2::Set vs PCRE2 loop"),
        ("Python", "py_re2set", "Py `re2.Set` vs `re` loop"),
        ("Python", "py_hyperscan", "Py `hyperscan` vs `re` loop"),
        ("Ruby", "rb_regexp", "Ruby Regexp loop vs the Ruby gem"),
    ]
    lines = ["| rules | URLs checked | " + " | ".join(c[2] for c in columns) + " |", "|---:|---:|" + "---:|" * len(columns)]
    for size, r in results["sizes"].items():
        checks = r["check"]
        urls = checks.get("C", {}).get("urls", 0)
        cells = []
        for worker, key, _ in columns:
            n = checks.get(worker, {}).get(key)
            cells.append("" if n is None else str(n))
        lines.append(f"| {int(size):,} | {urls:,} | " + " | ".join(cells) + " |")
    firsts = [f"- {int(size):,} rules, {worker}: {c['first_difference']}"
              for size, r in results["sizes"].items() for worker, c in r["check"].items() if c.get("first_difference")]
    return "\n".join(lines) + "\n" + ("\nFirst difference found:\n\n" + "\n".join(firsts) + "\n" if firsts else "")


def ratio_table(results: Dict[str, Any]) -> str:
    lines = [
        "| rules | C typed / C resolve | C typed / best C engine | Swift typed / Swift lookup | Rust typed / Rust lookup | "
        "Python typed / best Python peer | Python dict / best Python peer | C resolve, cache off / default |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size, r in results["sizes"].items():
        us = r["median_us"]
        engine = best(us, ["hyperscan", "re2set"])
        python = best(us, ["py_re", "py_re2set", "py_hyperscan"])
        lines.append(
            f"| {int(size):,} | {ratio(us.get('c_typed'), us.get('c_resolve'))} | {ratio(us.get('c_typed'), engine)} | "
            f"{ratio(us.get('swift_typed'), us.get('swift_api'))} | {ratio(us.get('rust_typed'), us.get('rust_lookup'))} | "
            f"{ratio(us.get('py_typed'), python)} | {ratio(us.get('py_dict'), python)} | "
            f"{ratio(us.get('c_resolve'), us.get('c_resolve_cache'))} |"
        )
    return "\n".join(lines) + "\n"


def per_rule(r: Dict[str, Any], key: str) -> str:
    """Bytes of RSS `key` per rule of the corpus result `r`, formatted ("" when not measured)."""
    if not r.get("rules") or r.get(key) is None:
        return ""
    return f"{r[key] / r['rules']:,.0f} B"


def per_document_byte(r: Dict[str, Any]) -> str:
    """Peak RSS growth over the load per byte of the document, formatted ("" when not measured)."""
    if not r.get("document_bytes") or r.get("peak_load_bytes") is None:
        return ""
    return f"{r['peak_load_bytes'] / r['document_bytes']:.1f} B"


def load_table(results: Dict[str, Any]) -> str:
    loads = {row["load"]: row for row in results["load"] if not row["generated"]}
    lines = [
        "| rules | libpathconfig, C ABI (ms) | libpathconfig, Swift (ms) | memory per rule | memory per rule, after a pass | "
        "peak load memory per document byte | "
        "PCRE2 compile + JIT (ms) | hyperscan (ms) | RE2::Set (ms) | `re` (ms) | `re2.Set`, Python (ms) | `hyperscan`, Python (ms) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size, r in results["sizes"].items():
        b = r["build_ms"]
        memory, after_pass = (per_rule(r, key) for key in ("rss_delta_bytes", "rss_after_pass_bytes"))
        swift = loads.get(int(size), {}).get("minified_ms")
        lines.append(
            f"| {int(size):,} | {fmt_ms(b.get('c_load'))} | {fmt_ms(b.get('swift_api'))} | {memory} | {after_pass} | {per_document_byte(r)} | "
            f"{fmt_ms(b.get('pcre2_loop'))} | {fmt_ms(b.get('hyperscan'))} | {fmt_ms(b.get('re2set'))} | "
            f"{fmt_ms(b.get('py_re'))} | {fmt_ms(b.get('py_re2set'))} | {fmt_ms(b.get('py_hyperscan'))} |"
        )
    return "\n".join(lines) + "\n"


def pretty_table(results: Dict[str, Any]) -> str:
    lines = [
        "| rules | bytes (pretty / minified) | pretty (ms) | minified (ms) | minified / pretty |",
        "|---:|---:|---:|---:|---:|",
    ]
    for row in results["load"]:
        name = f"{row['load']:,}" + (" (generated)" if row["generated"] else "")
        lines.append(
            f"| {name} | {row['pretty_bytes']:,} / {row['minified_bytes']:,} | {fmt_ms(row['pretty_ms'])} | "
            f"{fmt_ms(row['minified_ms'])} | {row['minified_ms'] / row['pretty_ms']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def thread_table(results: Dict[str, Any]) -> str:
    rows = results["threads"]
    counts = sorted({row["threads"] for row in rows})
    lines = [
        "| rules | result cache | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in counts) + " |",
        "|---:|---|" + "---:|" * len(counts),
    ]
    seen: List[Any] = []
    for row in rows:
        if (row["rules"], row["cache"]) not in seen:
            seen.append((row["rules"], row["cache"]))
    for rules, cache in seen:
        cells = []
        for t in counts:
            match = [r for r in rows if r["rules"] == rules and r["cache"] == cache and r["threads"] == t]
            control = f"; control {match[0]['control_vs_one']:.2f}×" if match and "control_vs_one" in match[0] and t > 1 else ""
            cells.append(f"{match[0]['lookups_per_second'] / 1e3:,.0f}k ({match[0]['vs_one']:.2f}×{control})" if match else "")
        lines.append(f"| {rules:,} | {cache} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def targets_table(results: Dict[str, Any]) -> str:
    sizes = results["sizes"]

    def per_size(f) -> str:
        return "; ".join(f"{int(s):,}: {f(r)}" for s, r in sizes.items())

    def all_sizes(pred) -> str:
        values = [pred(r) for r in sizes.values()]
        return "yes" if values and all(v is True for v in values) else "no" if any(v is False for v in values) else "n/a"

    def engine(r):
        return best(r["median_us"], ["hyperscan", "re2set"])

    def python(r):
        return best(r["median_us"], ["py_re", "py_re2set", "py_hyperscan"])

    def us(r, key):
        return r["median_us"].get(key)

    def within(r, key, base, factor):
        a, b = us(r, key), us(r, base)
        return a <= factor * b if a is not None and b is not None else None

    rows = []
    rows.append((
        "C: lookup + two typed reads at most 1.5× lookup + JSON text, every size",
        per_size(lambda r: ratio(us(r, "c_typed"), us(r, "c_resolve"))),
        all_sizes(lambda r: within(r, "c_typed", "c_resolve", 1.5)),
    ))
    rows.append((
        "C: lookup + two typed reads at or below the best native engine's bare match, every size",
        per_size(lambda r: ratio(us(r, "c_typed"), engine(r))),
        all_sizes(lambda r: us(r, "c_typed") <= engine(r) if engine(r) and us(r, "c_typed") is not None else None),
    ))
    rows.append((
        "Python: lookup + two typed reads faster than every Python peer producing a merged `dict`, every size",
        per_size(lambda r: ratio(us(r, "py_typed"), python(r))),
        all_sizes(lambda r: us(r, "py_typed") < python(r) if python(r) and us(r, "py_typed") is not None else None),
    ))
    rows.append((
        "Python: `dict(...)` of an answer faster than every Python peer producing a merged `dict`, every size",
        per_size(lambda r: ratio(us(r, "py_dict"), python(r))),
        all_sizes(lambda r: us(r, "py_dict") < python(r) if python(r) and us(r, "py_dict") is not None else None),
    ))
    rows.append((
        "Ruby: lookup + two typed reads within 2× C's, every size (issue 39)",
        per_size(lambda r: ratio(us(r, "rb_typed"), us(r, "c_typed"))),
        all_sizes(lambda r: within(r, "rb_typed", "c_typed", 2)),
    ))
    rows.append((
        "Ruby under YJIT (`ruby --yjit`): lookup + two typed reads within 2× C's, every size (issue 39)",
        per_size(lambda r: ratio(us(r, "rb_typed_yjit"), us(r, "c_typed"))),
        all_sizes(lambda r: within(r, "rb_typed_yjit", "c_typed", 2)),
    ))
    rows.append((
        "Ruby: lookup (the answer's Hash) faster than a Ruby Regexp loop producing a merged `Hash`, every size (issue 39)",
        per_size(lambda r: ratio(us(r, "rb_lookup"), us(r, "rb_regexp"))),
        all_sizes(lambda r: us(r, "rb_lookup") < us(r, "rb_regexp") if us(r, "rb_lookup") is not None and us(r, "rb_regexp") is not None else None),
    ))
    for host in ("Swift", "Rust"):
        rows.append((
            f"{host}: lookup + two typed reads at most 1.5× its own lookup, every size",
            per_size(lambda r, h=host: ratio(us(r, HEADLINE[h]), us(r, LOOKUP[h]))),
            all_sizes(lambda r, h=host: within(r, HEADLINE[h], LOOKUP[h], 1.5)),
        ))
    big = sizes.get("10000") or sizes.get(10000)
    if big:
        load, build = big["build_ms"].get("c_load"), big["build_ms"].get("re2set")
        rows.append((
            "Loading 10,000 rules (C ABI) faster than RE2::Set builds them",
            f"{fmt_ms(load)} ms against {fmt_ms(build)} ms ({ratio(load, build)})",
            "yes" if load and build and load < build else "no",
        ))
        rows.append((
            "Memory per rule reported (RSS delta of loading 10,000 rules / rules; and after a pass of lookups)",
            f"{per_rule(big, 'rss_delta_bytes')} after the load; {per_rule(big, 'rss_after_pass_bytes')} after a pass over the URLs",
            "reported",
        ))
    threads = results["threads"]
    if threads:
        top = max(row["threads"] for row in threads)
        worst = min(row["vs_one"] for row in threads)
        at_top = [row for row in threads if row["threads"] == top]
        # The control (a loop that only counts) says how many cores the threads got.
        controls = [row["control_vs_one"] for row in threads if row["threads"] > 1 and "control_vs_one" in row]
        starved = bool(controls) and min(controls) < 0.75 * min(row["threads"] for row in threads if row["threads"] > 1)
        got = f"the control reached {min(controls):.2f}× to {max(controls):.2f}×" if controls else ""
        rows.append((
            f"Threads: 16 threads ≥ 12× one thread on 16 cores; here {top} threads on {results['meta']['cores']} cores",
            "; ".join(f"{row['rules']:,} rules, cache {row['cache']}: {row['vs_one']:.2f}×" for row in at_top)
            + (f" ({got})" if got else ""),
            "not measurable here (needs 16 cores)" if results["meta"]["cores"] < 16 else
            ("yes" if all(row["vs_one"] >= 12 for row in at_top if row["threads"] >= 16) else "no"),
        ))
        rows.append((
            "No thread count does worse than one thread",
            f"lowest ratio {worst:.2f}×" + (f"; {got}" if got else ""),
            "not measurable here (the threads did not get the cores: see the control)" if starved
            else "yes" if worst >= 1 else "no",
        ))
    ours_differ = sum(c.get(k, 0) for r in sizes.values() for c in r["check"].values() for k in ("swift_api", "c_resolve"))
    checked = "; ".join(f"{int(s):,}: {r['check'].get('C', {}).get('urls', 0):,} URLs" for s, r in sizes.items())
    rows.append((
        "Results identical to the straightforward algorithm (libpathconfig against the PCRE2 and NSRegularExpression loops)",
        f"{checked} checked; {ours_differ} differ",
        "yes" if ours_differ == 0 else "no",
    ))
    lines = ["| target | measured | met |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines) + "\n"


def report(results: Dict[str, Any]) -> str:
    meta = results["meta"]
    sizes = results["sizes"]
    notes: Dict[str, List[str]] = {}
    for size, r in sizes.items():
        for n in r["notes"]:
            notes.setdefault(n, []).append(f"{int(size):,}")
    refusals = []
    for size, r in sizes.items():
        for key, n in r["refused"].items():
            if key in LABEL and n:
                refusals.append(f"{int(size):,} rules: {LABEL[key]} refused {n} of {r['patterns']:,} patterns")
    text = f"""# Benchmark results

Produced by `{meta['command'].strip()}`, {meta['date']}, on {meta['cores']} cores ({meta['machine']}),
Python {meta['python']}. Corpora: `bench/corpora/rules-N.json` with `urls-N.txt` (10,000 URLs each);
every configuration loaded with `{{"profile":"turbo-ios","match_query_strings":true}}` and, unless a
column says otherwise, `"result_cache_size": 0`. Load average (1 min) {meta['load_average_before']:.1f}
when the run began, {meta['load_average_after']:.1f} when it ended.

![Rules against µs per URL, log-log, one line per engine](scaling.png)

## Per URL, single thread (µs, median of {meta['rounds']} rounds)

{main_table(results)}
{legend()}
## Ratios (of the medians above, same run)

{ratio_table(results)}
## Against the targets (issues 12 and 29)

{targets_table(results)}
## Siesta: 100 glob rules under a base URL (µs per URL, median of {meta['rounds']} rounds)

`bench/corpora/globs-100.json` loaded with `{json.dumps(SIESTA_OPTIONS, separators=(",", ":"))}` (and
`"result_cache_size": 0` but for "C resolve, cache on"), and the 400 URLs of `globs-urls-100.txt`,
cycling: absolute URLs on the base URL's host, which the globs' automata decide. Each host's lookup
and the reads of an answer that name no key (the legend above says which calls); the typed and raw
reads name Hotwire's `context` and are left out, and the other engines have no patterns to match.
The 400 URLs fit the default result cache (512 entries), so "C resolve, cache on" is a cache that
hits once the first pass is done.

{siesta_table(results)}
## Loading and building (ms, median of 3 unless noted)

{load_table(results)}
## Loading: pretty-printed against minified

The same configuration loaded through the Swift API (parsed and every pattern compiled, the options
above) from its pretty-printed form and from its minified form (one line), alternating in each
round; medians over {max(meta['rounds'], 3)} rounds (3 for files over 8 MiB). The generated
configurations have N one-pattern rules (200,000 is the default `maxRules`).

{pretty_table(results)}
## Threads sharing one configuration

Lookups per second of all threads together (and the ratio to one thread), each thread calling
`pathconfig_resolve` and `pathconfig_result_release` on the URLs; medians of {meta['thread_rounds']}
rounds of {meta['thread_seconds']} s (`bench/c/threads.c`). The control is the same number of
threads running a loop that only counts, right after each measurement: its ratio to one thread
says how many cores the threads actually got on this shared machine, which bounds the lookups'.

{thread_table(results)}
## Method

- **Side by side.** For each corpus size, the worker processes (Swift: `pathconfig-bench serve`,
  C: `bench/c/peers.c`, Python: `bench/python/peers.py`, Rust: the crate's `bench_worker`)
  load everything and report ready, one after another. Then in each of {meta['rounds']} rounds every peer of every worker runs in turn,
  never two at once, for {meta['budget']} s over the 10,000 URLs (cycling, each peer resuming where
  its last round stopped; a different worker and peer first in each round). A figure is the median
  of a peer's rounds; ratios are ratios of medians from this one run.
- **What is timed.** libpathconfig gets each URL as written and does everything: the string its
  profile matches, matching, merging, the result, and then what a host reads from it: in every
  host the headline is the lookup plus the two typed reads a visit proposal makes (`context`,
  `presentation`), beside the bare lookup, one raw value, the host's native map and the JSON
  text (the legend says which calls). The native engines (loops, hyperscan, RE2::Set) get the
  string libpathconfig's profile matches for the URL, worked out once before any timing, and do
  the bare match: they count the rules with a matching pattern, merging nothing. The Python peers
  do what a Python user of them must: match, then merge the matched rules' properties into a
  `dict`.
- **The loops.** NSRegularExpression (ICU, as turbo-ios compiles each pattern, compiled once,
  `firstMatch` per pattern until one matches); PCRE2 10.42 with `PCRE2_UTF`, JIT-compiled,
  `pcre2_jit_match`, the patterns as written; Python `re.search` per pattern.
- **The multi-pattern engines.** hyperscan {meta.get('hyperscan', '')} (Debian's `libhyperscan-dev`),
  one block-mode database, `HS_FLAG_SINGLEMATCH | HS_FLAG_UTF8`, each pattern tagged with its rule;
  a pattern that can match the empty string (`.*`) also gets `HS_FLAG_ALLOWEMPTY`, which keeps its
  meaning. RE2::Set (Debian's `libre2-dev`), unanchored, UTF-8, `max_mem` 512 MiB: RE2's default
  8 MiB cannot compile the 10,000-rule set. Both report every matching rule (RE2's
  `Match(text, &v)`); a set asked only whether anything matches stops at the first match, here
  rule 0's `.*`, and answers in a few nanoseconds, which is not this job. RE2 builds its DFA
  lazily and caches its states (the check warms it before timing); at 10,000 rules the states
  that 10,000 distinct URLs need outgrow the cache, which is flushed and rebuilt again and again
  (in a separate test the same set answered 100 URLs repeated over and over in about 8 µs each,
  against some 280 µs for the corpus's 10,000). The Python peers:
  `google-re2` and `hyperscan` from PyPI in `bench/.venv` (their own bundled RE2 and hyperscan).
- **The result cache.** The 10,000 URLs of a corpus are distinct and cycle, more than the
  default cache holds, so "C resolve, cache on" shows what the cache costs when it misses, not
  what it saves when URLs repeat.
- **Build times** are those of the engines' own compile calls (hyperscan's `hs_compile_multi` and
  scratch; RE2's `Add` and `Compile`; PCRE2's compile and JIT of every pattern); libpathconfig's is
  a whole load, parsing the JSON included. **Memory per rule** is the growth of the C worker's
  resident set over loading the configuration, divided by the rules (after a first tiny load has
  paid for the library's one-time setup, its patterns one of each kind: the first load of a
  pattern that is not plain runs about 64 KB of libstdc++'s code for the first time; and after the
  worker's own readings of `/proc` have run once: their first run touches about 64 KB of libc's
  code); **after a pass**, the same once every URL
  has been resolved once, which builds what a load leaves to first use (a plain pattern's automaton is
  built on its first search) and the results of each set of matching rules. **Peak load memory
  per document byte** is the highest the resident set rose while loading (its high-water mark,
  reset just before) over the document's size in bytes. It counts whole 4 KB pages: at 10 rules
  (1.5 KB) one page moves it by 2.7, and where the heap's top lies decides whether the 12 KB a
  load of those rules keeps (glibc's `mallinfo2`) touch three pages or five.
- **Checks** (before timing, table below): libpathconfig's properties against the straightforward
  algorithm on every URL up to 1,000 rules and every {args_every(meta)}th above: in C against the
  PCRE2 loop with the matching rules' properties merged in order (compared as JSON, key order
  included), in Swift against the NSRegularExpression loop (ICU, the engine turbo-ios uses); and
  the number of rules each engine finds against its loop's (hyperscan and RE2::Set against PCRE2,
  `re2.Set` and `hyperscan` against `re`).
- **Refused patterns:** {"; ".join(refusals) if refusals else "none: every engine took every pattern of every corpus"}.
- **The machine** is shared: other work may run beside the benchmark (see the load averages
  above), which the medians and the interleaving absorb only in part; thread counts above one
  suffer most. Compare figures within one run.

## Checks: URLs on which the results differ

{check_table(results)}"""
    if notes:
        text += "\n## Notes from the workers\n\n" + "\n".join(f"- {n} ({', '.join(s)} rules)" for n, s in notes.items()) + "\n"
    for n in results["meta"]["notes"]:
        text += f"\n**Note:** {n}\n"
    return text


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def args_every(meta: Dict[str, Any]) -> str:
    return str(meta["check_every_large"])


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", default=os.path.join(root, "bench", "corpora"))
    p.add_argument("--sizes", default="10,100,1000,10000")
    p.add_argument("--rounds", type=int, default=7, help="rounds per size (default 7)")
    p.add_argument("--budget", type=float, default=0.25, help="seconds per peer per round (default 0.25)")
    p.add_argument("--check-every-large", type=int, default=10,
                   help="check every K-th URL above 1,000 rules (default 10; 1 checks all)")
    p.add_argument("--swift", required=True, help="the pathconfig-bench binary")
    p.add_argument("--peers", default=os.path.join(here, "c", "build", "pathconfig-peers"))
    p.add_argument("--threads", default=os.path.join(here, "c", "build", "pathconfig-threads"))
    p.add_argument("--python", default=sys.executable, help="the interpreter for bench/python/peers.py")
    p.add_argument("--python-peers", default=os.path.join(here, "python", "peers.py"))
    p.add_argument("--binding", default=os.path.join(root, "bindings", "python", "src"))
    p.add_argument("--rust", default="", help="the Rust crate's bench worker (its rows are left empty without it)")
    p.add_argument("--ruby", default="", help="the Ruby interpreter for bindings/ruby/bench/peers.rb (its rows are left empty without it)")
    p.add_argument("--ruby-peers", default=os.path.join(root, "bindings", "ruby", "bench", "peers.rb"))
    p.add_argument("--lib", default=os.path.join(root, "out", "lib", "libpathconfig.so"))
    p.add_argument("--generated", default="80000,200000", help="generated sizes for the pretty/minified table")
    p.add_argument("--thread-sizes", default="10,100,10000")
    p.add_argument("--thread-seconds", type=float, default=0.5)
    p.add_argument("--thread-rounds", type=int, default=3)
    p.add_argument("--note", action="append", default=[], help="a note for the report (repeatable)")
    p.add_argument("--command", default="make bench")
    p.add_argument("--out", default=os.path.join(here, "results.md"))
    p.add_argument("--json", default=os.path.join(here, "results.json"))
    args = p.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",") if s]
    args.thread_sizes = [int(s) for s in args.thread_sizes.split(",") if s]
    args.corpus = os.path.abspath(args.corpus)

    hs_version = ""
    try:
        hs_version = subprocess.run(["pkg-config", "--modversion", "libhs"], stdout=subprocess.PIPE, text=True).stdout.strip()
    except OSError:
        pass
    results: Dict[str, Any] = {
        "meta": {
            "command": args.command,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "cores": os.cpu_count(),
            "machine": cpu_model(),
            "rounds": args.rounds,
            "budget": args.budget,
            "check_every_large": args.check_every_large,
            "thread_seconds": args.thread_seconds,
            "thread_rounds": args.thread_rounds,
            "hyperscan": hs_version,
            "notes": args.note,
            "load_average_before": os.getloadavg()[0],
        },
        "sizes": {},
    }
    for size in args.sizes:
        results["sizes"][str(size)] = run_size(args, size)
    if os.path.exists(os.path.join(args.corpus, "globs-100.json")):
        results["siesta"] = run_siesta(args)
    results["meta"]["python"] = next((r.get("python") for r in results["sizes"].values() if r.get("python")), "")
    results["load"] = run_load(args)
    results["threads"] = run_threads(args) if args.thread_sizes else []
    results["meta"]["load_average_after"] = os.getloadavg()[0]

    with open(args.json, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")
    text = report(results)
    # make bench-ablation's sections (## Ablation..., bench/ablation.py) are kept.
    if os.path.exists(args.out):
        with open(args.out) as f:
            kept = re.search(r"^## Ablation.*?(?=^## (?!Ablation)|\Z)", f.read(), re.M | re.S)
        if kept:
            text = text.rstrip("\n") + "\n\n" + kept.group(0).rstrip("\n") + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print("\nPer URL, single thread (µs, medians):\n")
    print(main_table(results))
    print(ratio_table(results))
    print(siesta_table(results))
    print(thread_table(results))
    print(f"Full report: {os.path.relpath(args.out)}; data: {os.path.relpath(args.json)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
