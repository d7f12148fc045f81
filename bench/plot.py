"""Draws bench/scaling.png from bench/results.json: rules against µs per URL,
log-log, one line per engine (libpathconfig's solid, the others dashed).
libpathconfig's line per host is its headline, a lookup plus the two typed
reads a visit proposal makes (run.HEADLINE); the table has its other rows.

    python3 bench/plot.py [RESULTS_JSON] [OUT_PNG]

Needs matplotlib (Debian's python3-matplotlib, which `make bench` installs).
"""

from __future__ import annotations

import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from run import HEADLINE, PEERS  # noqa: E402  (labels, groups and the headline, one place)

STYLE = {
    "ours": dict(linestyle="-", linewidth=2.4),
    "loop": dict(linestyle=":", linewidth=1.6),
    "engine": dict(linestyle="--", linewidth=1.6),
    "python": dict(linestyle="-.", linewidth=1.4),
}
MARKERS = "osD^vP*Xh<>pd"
# Thirteen distinct colours (matplotlib's default cycle repeats after ten).
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#6b8e23", "#b8860b"]


def main() -> int:
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "results.json")
    target = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "scaling.png")
    with open(source) as f:
        results = json.load(f)
    sizes = sorted(int(s) for s in results["sizes"])
    fig, ax = plt.subplots(figsize=(10, 6.5), dpi=110)
    for n, (key, label, _, group) in enumerate(PEERS):
        if group == "ours" and key not in HEADLINE.values():
            continue
        points = [(s, results["sizes"][str(s)]["median_us"].get(key)) for s in sizes]
        points = [(s, us) for s, us in points if us]
        if not points:
            continue
        ax.plot([s for s, _ in points], [us for _, us in points], marker=MARKERS[n % len(MARKERS)],
                color=COLORS[n % len(COLORS)], label=label.replace("`", ""), **STYLE[group])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sizes)
    ax.set_xticklabels([f"{s:,}" for s in sizes])
    ax.set_xlabel("rules")
    ax.set_ylabel("µs per URL (median, single thread)")
    meta = results["meta"]
    ax.set_title(f"A URL's properties: libpathconfig (solid: lookup + two typed reads, per host) and the alternatives\n"
                 f"turbo-ios, query strings on, result cache off unless labelled; {meta['cores']} cores, {meta['date'][:10]}",
                 fontsize=10)
    ax.grid(True, which="major", alpha=0.4)
    ax.grid(True, which="minor", alpha=0.15)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(target)
    print(f"wrote {os.path.relpath(target)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
