"""Two builds of libpathconfig side by side in one run: the benchmark's own
C and Python workers (bench/c/build/pathconfig-peers, bench/python/peers.py)
started once against each library, their rounds interleaved, medians of
seconds per lookup printed as a Markdown table with the ratio new / old.

    python3 bench/compare.py OLD_LIB NEW_LIB [--rounds 9] [--budget 0.2] [--sizes 10,100,1000,10000]

OLD_LIB and NEW_LIB are libpathconfig.so.1 files of the same ABI (for
example `make lib` in a worktree of an older commit, and in this one). The
C worker finds its library next to itself first (DT_RPATH of $ORIGIN), so
each library gets a copy of the worker in a scratch directory beside it;
the Python worker gets PATHCONFIG_LIBRARY. Every worker also times its
peers (a PCRE2 loop, hyperscan, RE2::Set, re, ...), which run the same code
against either library: their ratios show how noisy the run was. Needs
what `make bench` builds: bench/c/build and bench/.venv. Instructions per
lookup, free of noise, come from callgrind (bench/c/lookups.c says how).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List, Tuple

BENCH = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(BENCH)
CORPUS = os.path.join(REPO, "bench", "corpora")


def workers(lib: str, scratch: str, rules: str, urls: str) -> Dict[str, subprocess.Popen]:
    """The C and the Python worker, each loading `lib`."""
    os.makedirs(scratch, exist_ok=True)
    shutil.copy(lib, os.path.join(scratch, "libpathconfig.so.1"))
    shutil.copy(os.path.join(BENCH, "c", "build", "pathconfig-peers"), scratch)
    env = dict(os.environ, PATHCONFIG_LIBRARY=os.path.join(scratch, "libpathconfig.so.1"),
               PYTHONPATH=os.path.join(REPO, "bindings", "python", "src"))
    python = os.path.join(BENCH, ".venv", "bin", "python")
    argvs = {"C": [os.path.join(scratch, "pathconfig-peers"), rules, urls],
             "Python": [python if os.path.exists(python) else sys.executable,
                        os.path.join(BENCH, "python", "peers.py"), rules, urls]}
    procs = {host: subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
             for host, argv in argvs.items()}
    for host, proc in procs.items():
        line = proc.stdout.readline()
        if not line:
            raise SystemExit(f"compare.py: the {host} worker for {lib} did not start")
        json.loads(line)
    return procs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--budget", default="0.2", help="seconds per peer per round")
    parser.add_argument("--sizes", default="10,100,1000,10000")
    args = parser.parse_args()
    table: Dict[Tuple[str, str], Dict[int, Dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            rules, urls = os.path.join(CORPUS, f"rules-{size}.json"), os.path.join(CORPUS, f"urls-{size}.txt")
            procs = {}
            for name, lib in (("old", args.old), ("new", args.new)):
                for host, proc in workers(lib, os.path.join(tmp, f"{name}-{size}"), rules, urls).items():
                    procs[(name, host)] = proc
            seconds: Dict[Tuple[str, str], Dict[str, List[float]]] = {k: {} for k in procs}
            for r in range(args.rounds):
                order = list(procs) if r % 2 == 0 else list(reversed(list(procs)))
                for key in order:
                    procs[key].stdin.write(f"round {args.budget}\n")
                    procs[key].stdin.flush()
                    for peer, s in json.loads(procs[key].stdout.readline())["round"].items():
                        seconds[key].setdefault(peer, []).append(s)
            for proc in procs.values():
                proc.stdin.write("quit\n")
                proc.stdin.flush()
                proc.wait()
            for (name, host), peers in seconds.items():
                for peer, xs in peers.items():
                    table.setdefault((host, peer), {}).setdefault(size, {})[name] = statistics.median(xs) * 1e6
    print(f"Median µs per URL, {args.rounds} interleaved rounds of {args.budget} s per peer; old: {args.old}; new: {args.new}")
    print()
    print("| host: figure | rules | old µs | new µs | new / old |")
    print("|---|---:|---:|---:|---:|")
    for (host, peer), by_size in table.items():
        for size, v in sorted(by_size.items()):
            print(f"| {host}: {peer} | {size:,} | {v['old']:.3f} | {v['new']:.3f} | {v['new'] / v['old']:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
