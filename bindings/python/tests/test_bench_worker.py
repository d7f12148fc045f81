"""bench/python/peers.py, the Python worker of ``make bench``, speaks its
protocol on the smallest corpus: loaded, the other engines' answers checked
against the ``re`` loop's, one short round timing every peer. ``make bench`` is not part of
``make test``: a change to the binding that breaks the worker fails here
instead (the Ruby worker once stopped that way for a day unseen)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

import pathconfig

WORKER = REPO / "bench" / "python" / "peers.py"
CORPUS = REPO / "bench" / "corpora"


def test_the_worker_checks_and_times_every_peer() -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(pathconfig.__file__).resolve().parent.parent))
    result = subprocess.run(
        [sys.executable, str(WORKER), str(CORPUS / "rules-10.json"), str(CORPUS / "urls-10.txt"),
         "--check-every", "50"],
        input="round 0.02\nquit\n", capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    ready, round_line = (json.loads(line) for line in result.stdout.splitlines())
    assert ready["ready"] == "python" and ready["check"]["urls"] == 200, ready
    # The worker's check of the other engines' dicts against the re loop's (where installed).
    assert "first_difference" not in ready["check"], ready["check"]
    assert all(v == 0 for k, v in ready["check"].items() if k not in ("every", "urls")), ready["check"]
    rounds = round_line["round"]
    assert sorted(rounds) == sorted(ready["peers"])
    assert {"py_binding", "py_typed", "py_raw", "py_dict", "py_json", "py_re"} <= set(rounds)
    assert all(seconds > 0 for seconds in rounds.values()), rounds
