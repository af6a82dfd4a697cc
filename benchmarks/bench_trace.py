"""Relay benchmark: `kb trace` and the brief's relay step (kb.facts.relay) on a large KB.

Usage:
    python benchmarks/bench_trace.py [KB_DIR] [--inbox 10000 --cards 2000 --docs 5] [--repeat 3]

Without KB_DIR a synthetic KB is generated (benchmarks/gen_kb.py) in a temporary folder and
ingested (untimed). Prints the median of ``--repeat`` runs of `kb trace vLLM --metric
throughput --format json` (one process each), and, in-process, the seconds
:func:`kb.facts.relay.changes` adds to building the brief of the newest night (its own Attributor,
the conflicts' and secondhand-only rows' subjects and metrics).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gen_kb.add_size_args(ap)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    with gen_kb.kb_for(a) as root:
        subprocess.run([sys.executable, "-m", "kb", "--kb", str(root), "ingest"], check=True, capture_output=True)
        runs, out = [], ""
        for _ in range(a.repeat):
            t = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "kb", "--kb", str(root), "trace", "vLLM", "--metric",
                                  "throughput", "--format", "json"], check=True, capture_output=True, text=True).stdout
            runs.append(time.perf_counter() - t)
        result = json.loads(out)
        hops = sum(len(c["hops"]) for c in result["chains"])

        from kb.night.run import pick_window, run_night
        from kb.brief.steps import relay_changes
        from kb.store.workspace import open_kb

        kb = open_kb(root)
        topic = kb.config.first_topic()
        night = run_night(kb, topic, pick_window(kb, topic))
        steps = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            relay_changes(night)
            steps.append(time.perf_counter() - t)
        print(f"kb trace vLLM --metric throughput  {statistics.median(runs):8.2f} s   median of {a.repeat}; "
              f"{len(result['chains'])} chains, {hops} hops")
        print(f"brief relay step (kb.facts.relay)        {statistics.median(steps):8.3f} s   median of {a.repeat}; "
              f"{len(night.result.conflicts)} conflicts, {len(night.result.secondhand_only)} secondhand-only numbers")


if __name__ == "__main__":
    main()
