#!/usr/bin/env python3
"""make bench-ablation: each speed layer switched off alone against every
layer on, on the C ABI and the Python binding (issue 28).

For each variant it builds libpathconfig in release, as `make lib` does,
into a scratch path of its own (`.build-ablate/NAME`, with
`-Xswiftc -DPATHCONFIG_ABLATE_NAME` for a layer switched off at build time),
and `pathconfig-lookups` next to it. Then, per corpus size:

- instructions per lookup: `pathconfig-lookups RULES URLS 3` under
  callgrind (SWIFT_DETERMINISTIC_HASHING=1) on the first --callgrind-urls
  URLs; it dumps its counts after loading, after the first pass and after
  the other two, so the last dump over twice the URLs is (3 passes - 1
  pass) / lookups. The load dump is the load's instructions;
- median microseconds per URL, side by side in one run: one C worker
  (`pathconfig-lookups serve`: resolve, result_json, free, as make bench's
  "C resolve") and one Python worker (`properties(url)` and `len()`, as its
  "Python binding") per variant, all started once per size, the rounds
  going round the variants;
- for the layers that exist for threads, `pathconfig-threads` at 1 and 2
  threads (the cores this machine has).

Layers with a runtime switch need no build of their own: the per-lookup
result cache (`result_cache_size`), the Python
binding's C extension (`PATHCONFIG_PURE_PYTHON=1`) and its decoded-result
cache (capacity 0, set inside the worker).
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import time
from typing import Any, Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OPTIONS = {"profile": "turbo-ios", "match_query_strings": True, "result_cache_size": 0}

# name, what is switched off, how: ("build", FLAG) | ("options", JSON) | ("pure",) | ("decoded",)
VARIANTS: List[Any] = [
    ("base", "nothing: every layer on", ("build", None)),
    ("bytes", "byte fast path (resolveFromBytes)", ("build", "BYTES")),
    ("automaton", "PlanAutomaton", ("build", "AUTOMATON")),
    ("prefilter", "prefilter (RequiredLiteral, LiteralMatcher, MatchScratch)", ("build", "PREFILTER")),
    ("smallpattern", "SmallPattern in a plan's run (the automaton keeps its own)", ("build", "SMALLPATTERN")),
    ("deferred", "DeferredPattern (every pattern compiled at load)", ("build", "DEFERRED")),
    ("rulesets", "rule-set results (merge and JSON per lookup)", ("build", "RULESETS")),
    ("threadresults", "ThreadResults (the shared rule-set map on every lookup)", ("build", "THREADRESULTS")),
    ("lasterror", "last-error skip (every success writes its buffer)", ("build", "LASTERROR")),
    ("lookupcache", "per-lookup ResultCache turned ON (default result_cache_size)", ("options", {"profile": "turbo-ios", "match_query_strings": True})),
    ("py-pure", "Python C extension _speedups (PATHCONFIG_PURE_PYTHON=1)", ("pure",)),
    ("py-decoded", "Python decoded-result cache (capacity 0)", ("decoded",)),
]
# A row's ratio is to every layer on, except these.
BASELINE: Dict[str, str] = {}
THREAD_VARIANTS = ["base", "threadresults"]


def log(msg: str) -> None:
    print(f"[ablation {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def build_dir(name: str) -> str:
    return os.path.join(ROOT, ".build-ablate", name)


def stage(name: str) -> str:
    return os.path.join(build_dir(name), "stage")


def lib_variant(name: str, how: Any) -> str:
    """The build a variant runs against: its own, or base's for a runtime switch."""
    return name if how[0] == "build" else "base"


def build(name: str, flag: Optional[str], jobs: str) -> None:
    cmd = ["swift", "build", "-j", jobs, "-c", "release", "--product", "pathconfig", "--scratch-path", build_dir(name),
           "--disable-local-rpath", "-Xswiftc", "-static-stdlib", "-Xlinker", "-soname=libpathconfig.so.1",
           "-Xlinker", f"--version-script={ROOT}/packaging/pathconfig.map", "-Xlinker", "-z", "-Xlinker", "nodelete"]
    if flag:
        cmd += ["-Xswiftc", f"-DPATHCONFIG_ABLATE_{flag}"]
    t = time.time()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    s = stage(name)
    os.makedirs(s, exist_ok=True)
    so = os.path.join(s, "libpathconfig.so.1")
    # Stripped, as `make lib` ships it (callgrind, valgrind 3.19, gives up on
    # the unstripped library's debug information).
    subprocess.run(["strip", "--strip-unneeded", "-o", so, os.path.join(build_dir(name), "release", "libpathconfig.so")],
                   check=True)
    if not os.path.exists(os.path.join(s, "libpathconfig.so")):
        os.symlink("libpathconfig.so.1", os.path.join(s, "libpathconfig.so"))
    rpath = ["-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN"]
    c = os.path.join(HERE, "c")
    for prog, srcs, extra in (("pathconfig-lookups", ["lookups.c", "corpus.c"], []),
                              ("pathconfig-threads", ["threads.c", "corpus.c"], ["-pthread"])):
        subprocess.run(["cc", "-std=c11", "-O2", "-g", f"-I{ROOT}/include", *extra, "-o", os.path.join(s, prog),
                        *[os.path.join(c, x) for x in srcs], f"-L{s}", "-lpathconfig", *rpath], check=True)
    log(f"built {name} ({time.time() - t:.0f} s)")


def callgrind_total(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    raise RuntimeError(f"{path}: no totals")


def instructions(name: str, rules: str, urls: str, count: int, how: Any, workdir: str) -> Dict[str, float]:
    """Instructions per lookup and of the load, under callgrind."""
    out = os.path.join(workdir, f"cg-{name}")
    for old in glob.glob(out + "*"):
        os.remove(old)
    argv = [os.path.join(stage(lib_variant(name, how)), "pathconfig-lookups"), rules, urls, "3"]
    if how[0] == "options":
        argv.append(json.dumps(how[1]))
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dumps = {}
    for path in glob.glob(out + ".*"):
        with open(path) as f:
            head = f.read(4096)
        m = re.search(r"^desc: Trigger: Client Request: (.*)$", head, re.M)
        if m:
            dumps[m.group(1).strip()] = callgrind_total(path)
    return {"per_lookup": dumps["passes"] / (2 * count), "load": dumps["load"],
            "first_pass_extra": dumps["first pass"] - dumps["passes"] / 2}


class Worker:
    def __init__(self, argv: List[str], env: Dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            raise RuntimeError(f"{argv}: {line!r}")

    def round(self, seconds: float) -> float:
        self.proc.stdin.write(f"round {seconds}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def quit(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait()


def workers(name: str, how: Any, rules: str, urls: str, python: str) -> Dict[str, Worker]:
    s = stage(lib_variant(name, how))
    made: Dict[str, Worker] = {}
    env = dict(os.environ)
    env.pop("PATHCONFIG_PURE_PYTHON", None)
    if how[0] in ("build", "options"):
        argv = [os.path.join(s, "pathconfig-lookups"), rules, urls, "serve"]
        if how[0] == "options":
            argv.append(json.dumps(how[1]))
        made["c"] = Worker(argv, env)
    if how[0] in ("build", "pure", "decoded"):
        penv = dict(env, PYTHONPATH=os.path.join(ROOT, "bindings", "python", "src"),
                    PATHCONFIG_LIBRARY=os.path.join(s, "libpathconfig.so"))
        if how[0] == "pure":
            penv["PATHCONFIG_PURE_PYTHON"] = "1"
        argv = [python, os.path.abspath(__file__), "--py-worker", rules, urls] + (["--no-decoded-cache"] if how[0] == "decoded" else [])
        made["py"] = Worker(argv, penv)
    return made


def py_worker(rules: str, urls: str, decoded: bool) -> int:
    import pathconfig  # type: ignore
    from pathconfig import _result  # type: ignore

    if not decoded:
        _result._CAPACITY = 0
    with open(rules, "rb") as f:
        config = pathconfig.PathConfiguration.from_json(f.read(), **OPTIONS)
    with open(urls, encoding="utf-8") as f:
        lines = [line.rstrip("\r\n") for line in f if line.strip()]
    props = config.properties
    for u in lines:
        len(props(u))
    print("ready", flush=True)
    for line in sys.stdin:
        parts = line.split()
        if len(parts) != 2 or parts[0] != "round":
            break
        budget, n, start = float(parts[1]), 0, time.perf_counter()
        while True:
            for u in lines:
                len(props(u))
            n += len(lines)
            elapsed = time.perf_counter() - start
            if elapsed >= budget:
                break
        print(f"{elapsed * 1e6 / n:.4f}", flush=True)
    return 0


def threads(name: str, corpus: str, sizes: List[str]) -> List[Dict[str, Any]]:
    exe = os.path.join(stage(name), "pathconfig-threads")
    out = subprocess.run([exe, "--threads", "1,2", "--seconds", "0.5", "--rounds", "3", "--cache", "off", "--json", corpus, *sizes],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def ratio(x: Optional[float], base: Optional[float]) -> str:
    return f"{x / base:.2f}×" if x and base else "–"


def report(res: Dict[str, Any]) -> str:
    sizes = res["sizes"]
    out = [f"Command: `{res['command']}`; {res['date']}; {res['host']}; callgrind over the first "
           f"{res['callgrind_urls']} URLs of each corpus; µs: median of {res['rounds']} rounds of {res['budget']} s.", ""]
    tables = (
        ("per_lookup", "Instructions per lookup (callgrind, (3 passes - 1 pass) / lookups), and the ratio to every "
                       "layer on (above 1: the layer saves that much):", lambda v: f"{v:,.0f}"),
        ("load", "Instructions to load (callgrind, the load dump), ratio to every layer on:",
         lambda v: f"{v / 1e6:,.1f} M"),
    )
    for key, title, shown in tables:
        if key == "load":
            out.append("")
        out += [title, "", "| layer switched off | " + " | ".join(f"{int(s):,}" for s in sizes) + " |",
                "|---|" + "---:|" * len(sizes)]
        for name, what, how in VARIANTS:
            if name not in res["instructions"]:
                continue
            cells = []
            for s in sizes:
                v, b = res["instructions"][name].get(s), res["instructions"]["base"].get(s)
                cells.append(f"{shown(v[key])} ({ratio(v[key], b[key])})" if v else "–")
            out.append(f"| {what} | " + " | ".join(cells) + " |")
    for col, title in (("c", "C ABI (resolve, result_json, free)"), ("py", "Python binding (properties(url), len())")):
        out.append("")
        out.append(f"Median µs per URL, {title}, ratio to every layer on:")
        out.append("")
        out.append("| layer switched off | " + " | ".join(f"{int(s):,}" for s in sizes) + " |")
        out.append("|---|" + "---:|" * len(sizes))
        for name, what, how in VARIANTS:
            cells, any_cell = [], False
            for s in sizes:
                v = res["us"].get(s, {}).get(name, {}).get(col)
                b = res["us"].get(s, {}).get(BASELINE.get(name, "base"), {}).get(col)
                if v is not None:
                    any_cell = True
                cells.append(f"{v:.3f} ({ratio(v, b)})" if v is not None else "–")
            if any_cell:
                out.append(f"| {what} | " + " | ".join(cells) + " |")
    if res.get("threads"):
        out.append("")
        out.append("Threads (`pathconfig-threads --threads 1,2 --cache off`), lookups per second, all threads:")
        out.append("")
        out.append("| layer switched off | rules | 1 thread | 2 threads | 2 / 1 | control 2 / 1 |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for name, rows in res["threads"].items():
            what = next(w for n, w, _ in VARIANTS if n == name)
            by = {}
            for r in rows:
                by.setdefault(r["rules"], {})[r["threads"]] = r
            for rules, t in sorted(by.items()):
                one, two = t.get(1), t.get(2)
                out.append(f"| {what} | {rules:,} | {one['lookups_per_second']:,.0f} | {two['lookups_per_second']:,.0f} | "
                           f"{two['vs_one']:.2f}× | {two.get('control_vs_one', 0):.2f}× |")
    return "\n".join(out) + "\n"


def write_section(path: str, table: str) -> None:
    """`table` as the section "## Ablation" of the Markdown file at `path`."""
    section = "## Ablation\n\nEach speed layer switched off alone against every layer on " \
              "(`make bench-ablation`, bench/README.md).\n\n" + table
    text = open(path).read() if os.path.exists(path) else ""
    found = re.search(r"^## Ablation\n.*?(?=^## |\Z)", text, re.M | re.S)
    if found:
        text = text[:found.start()] + section + "\n" + text[found.end():]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    with open(path, "w") as f:
        f.write(text.rstrip("\n") + "\n")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--py-worker", nargs=2, metavar=("RULES", "URLS"), help=argparse.SUPPRESS)
    p.add_argument("--no-decoded-cache", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--corpus", default=os.path.join(ROOT, "bench", "corpora"))
    p.add_argument("--sizes", default="10,100,1000,10000")
    p.add_argument("--variants", default=",".join(n for n, _, _ in VARIANTS), help="which rows (default: all)")
    p.add_argument("--callgrind-urls", type=int, default=400, help="URLs per size under callgrind (default 400)")
    p.add_argument("--rounds", type=int, default=5, help="timing rounds per size (default 5)")
    p.add_argument("--budget", type=float, default=0.2, help="seconds per worker per round (default 0.2)")
    p.add_argument("--python", default="/usr/bin/python3")
    p.add_argument("--jobs", default="2")
    p.add_argument("--no-build", action="store_true", help="use the builds already in .build-ablate")
    p.add_argument("--no-callgrind", action="store_true")
    p.add_argument("--no-timing", action="store_true")
    p.add_argument("--no-threads", action="store_true")
    p.add_argument("--json", default=os.path.join(ROOT, ".build-ablate", "ablation.json"))
    p.add_argument("--command", default="make bench-ablation")
    p.add_argument("--results", help="also write the table into this file's section \"## Ablation\" (bench/results.md), "
                   "replacing it or adding it at the end; other sections, \"## Ablation: ...\" among them, are left as they are")
    a = p.parse_args()
    if a.py_worker:
        return py_worker(*a.py_worker, decoded=not a.no_decoded_cache)

    started = time.time()
    chosen = set(a.variants.split(",")) | {"base"}
    variants = [v for v in VARIANTS if v[0] in chosen]
    sizes = a.sizes.split(",")
    workdir = os.path.join(ROOT, ".build-ablate", "runs")
    os.makedirs(workdir, exist_ok=True)
    if not a.no_build:
        for name, _, how in variants:
            if how[0] == "build":
                build(name, how[1], a.jobs)
    res: Dict[str, Any] = {"sizes": sizes, "command": a.command, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                           "host": f"{os.cpu_count()} cores", "callgrind_urls": a.callgrind_urls, "rounds": a.rounds,
                           "budget": a.budget, "instructions": {}, "us": {}, "threads": {}}
    for s in sizes:
        rules = os.path.join(a.corpus, f"rules-{s}.json")
        urls = os.path.join(a.corpus, f"urls-{s}.txt")
        if not a.no_callgrind:
            head = os.path.join(workdir, f"urls-{s}-head.txt")
            with open(urls) as f, open(head, "w") as h:
                h.writelines(line for _, line in zip(range(a.callgrind_urls), f))
            n = sum(1 for line in open(head) if line.strip())
            for name, _, how in variants:
                if how[0] in ("pure", "decoded"):
                    continue
                res["instructions"].setdefault(name, {})[s] = instructions(name, rules, head, n, how, workdir)
                log(f"{s} rules, {name}: {res['instructions'][name][s]['per_lookup']:,.0f} instructions per lookup")
        if not a.no_timing:
            running = {name: workers(name, how, rules, urls, a.python) for name, _, how in variants}
            samples: Dict[str, Dict[str, List[float]]] = {n: {} for n in running}
            order = list(running)
            for r in range(a.rounds):
                for name in order[r % len(order):] + order[:r % len(order)]:
                    for col, w in running[name].items():
                        samples[name].setdefault(col, []).append(w.round(a.budget))
            for ws in running.values():
                for w in ws.values():
                    w.quit()
            res["us"][s] = {n: {c: statistics.median(v) for c, v in cols.items()} for n, cols in samples.items()}
            log(f"{s} rules: timed")
    if not a.no_threads:
        for name in THREAD_VARIANTS:
            if name in chosen:
                res["threads"][name] = threads(name, a.corpus, sizes)
        log("threads: done")
    res["seconds"] = round(time.time() - started)
    with open(a.json, "w") as f:
        json.dump(res, f, indent=1)
    table = report(res)
    sys.stdout.write(table)
    if a.results:
        write_section(a.results, table)
    log(f"{res['seconds']} s in all; figures in {a.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
