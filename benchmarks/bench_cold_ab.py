"""Cold ``kb ingest`` CPU of two source trees, in alternating runs, beside the markdown-it floor.

Usage:
    python benchmarks/bench_cold_ab.py BASE_SRC [NEW_SRC] [--cold-inbox 800] [--rounds 5] [--kb DIR]

``BASE_SRC`` and ``NEW_SRC`` are folders holding a ``kb`` package (a tree's ``src/``; e.g.
``git archive main src | tar -x -C /tmp/base``); ``NEW_SRC`` defaults to this tree's ``src/``.
Without ``--kb`` the KB is :mod:`gen_kb`'s, of ``--cold-inbox`` files (seed 7, as
``bench_table.py``'s cold rows). Each round runs the parse-only floor once, then a cold ingest
(store deleted first) of each tree with ``--jobs 1`` and with the default workers, in
alternating order; it prints the medians of user+sys CPU (the process and its workers) and
each over the floor. On a shared machine read the medians and ratios, never one run: CPU time
of a loaded machine varies by ±10 % from run to run.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)


def run(cmd: list[str], src: str) -> tuple[float, float]:
    """Wall and user+sys CPU seconds of ``cmd`` run with ``src`` first on ``PYTHONPATH`` (bytecode
    written and read, as an installed kb runs)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = src
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base")
    ap.add_argument("new", nargs="?", default=str(HERE.parent / "src"))
    ap.add_argument("--cold-inbox", type=int, default=800)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--kb", type=Path, default=None)
    a = ap.parse_args()
    trees = {"base": a.base, "new": a.new}
    for src in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", src], check=True, stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as tmp:
        root = a.kb or Path(tmp) / "kb"
        if a.kb is None:
            gen_kb.generate(root, a.cold_inbox, a.cold_inbox // 5, 5, seed=7)
        floor = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); import bench_ingest; "
                                       f"from pathlib import Path; bench_ingest.parse_only(Path({str(root)!r}))"]
        got: dict[object, list[tuple[float, float]]] = {}
        for i in range(a.rounds):
            got.setdefault("floor", []).append(run(floor, trees["new"]))
            for jobs in (["--jobs", "1"], []):
                for who in ("base", "new") if i % 2 == 0 else ("new", "base"):
                    shutil.rmtree(root / ".kb", ignore_errors=True)
                    got.setdefault((who, bool(jobs)), []).append(
                        run([sys.executable, "-m", "kb", "--kb", str(root), "ingest", *jobs], trees[who]))
        shutil.rmtree(root / ".kb", ignore_errors=True)
    floor_cpu = statistics.median(c for _, c in got["floor"])
    print(f"markdown-it parse-only CPU (floor)      {floor_cpu:7.3f} s   median of {a.rounds}")
    for jobs in (True, False):
        for who in ("base", "new"):
            cpus = [c for _, c in got[(who, jobs)]]
            cpu = statistics.median(cpus)
            label = "jobs 1" if jobs else "default workers"
            print(f"{who:<4} cold kb ingest CPU, {label:<16} {cpu:7.3f} s   {cpu / floor_cpu:5.2f}× floor   "
                  f"runs {' '.join(f'{c:.2f}' for c in cpus)}")


if __name__ == "__main__":
    main()
