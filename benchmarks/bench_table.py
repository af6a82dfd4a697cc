"""Every row of issue 11's table in one run: kb beside the floor measured in the same run.

Usage:
    python benchmarks/bench_table.py [KB_DIR] [--inbox 10000 --cards 2000 --docs 5] [--repeat 7]
                                     [--cold-inbox 1500] [--lint-mb 2] [--no-cold]

Without KB_DIR a synthetic KB is generated (benchmarks/gen_kb.py). The machine may be shared
and loaded: each row times kb and its floor in *paired, alternating* runs (kb, floor, kb,
floor …) and prints both medians and their ratio; read the ratios, not the seconds. Rows:

- ``kb --version`` / ``kb --help`` vs ``python -c 'import typer, pydantic, rich'`` (target ≤ 1.5×)
  and bare ``python -c pass``;
- ``kb ingest`` with nothing changed vs a Python ``os.scandir`` walk that stats every file;
  the freshness check in-process (``kb.store.ingest.ingest``; target ≤ 0.3 s);
- ``kb verify --offline ID`` and ``kb claims --subject ID`` vs ``rg -F ID`` over the KB
  (``grep -rF`` without rg; target ≤ 3×), each followed by its floor: the same argv with the
  command's body a no-op plus the stat walk (``_floors.cli_only``), and kb's own work (the
  difference);
- ``kb digest --out -`` on the repo's demo KB and on the big KB, each over ``kb --version``
  (the big KB's night is its own, with more claims than the demo's); and the demo's nights in
  a KB grown to the big KB's size around them (gen_kb.demo_in_background), over the demo's
  (target: ≤ 1.2×: nightly cost flat in KB size);
- cold ``kb ingest`` CPU (user+sys of the process and its workers) on a ``--cold-inbox`` KB,
  ``--jobs 1`` and default workers, vs markdown-it-py parse-only CPU (targets ≤ 2×, wall
  with workers ≤ 1.25×);
- ``kb lint`` of a ``--lint-mb`` living document vs markdown-it-py parse-only (bench_lint.py).
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
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)
from _floors import stat_walk  # noqa: E402,F401  (beside this file; bench_table.stat_walk for callers)

gen_kb.as_installed()

KB = [sys.executable, "-m", "kb"]


def run(cmd: list[str], cwd: Path | None = None) -> tuple[float, float]:
    """(wall s, CPU s of the child and its children) of one process; output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(a: list[str], b: list[str], repeat: int, cwd: Path | None = None) -> tuple[float, float]:
    """Medians of ``a`` and ``b`` run alternately ``repeat`` times each (after one warm-up)."""
    run(a, cwd), run(b, cwd)
    ta, tb = [], []
    for _ in range(repeat):
        ta.append(run(a, cwd)[0])
        tb.append(run(b, cwd)[0])
    return statistics.median(ta), statistics.median(tb)


def row(what: str, kb_s: float, floor: str, floor_s: float, target: str = "") -> None:
    ratio = kb_s / floor_s if floor_s else float("nan")
    print(f"{what:<38} {kb_s:8.3f} s | {floor:<40} {floor_s:8.3f} s | {ratio:6.2f}× {target}", flush=True)


def _cli_floor(argv: list[str], walk: Path) -> list[str]:
    """The child process of ``_floors.cli_only`` (argv run with a no-op body, after a stat walk)."""
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); import _floors; "
                                  f"_floors.cli_only({argv!r}, {str(walk)!r})"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gen_kb.add_size_args(ap)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--cold-inbox", type=int, default=1500)
    ap.add_argument("--lint-mb", type=float, default=2.0, help="0 skips the lint row")
    ap.add_argument("--no-cold", action="store_true", help="skip the cold-ingest rows (slow)")
    a = ap.parse_args()
    r = a.repeat
    floor_stack = [sys.executable, "-c", "import typer, pydantic, rich"]
    kb_s, fl_s = paired(KB + ["--version"], floor_stack, r)
    row("kb --version", kb_s, "import typer, pydantic, rich", fl_s, "(target <= 1.5x)")
    kb_s, fl_s = paired(KB + ["--help"], floor_stack, r)
    row("kb --help", kb_s, "import typer, pydantic, rich", fl_s, "(target <= 1.5x)")
    kb_s, fl_s = paired(KB + ["--version"], [sys.executable, "-c", "pass"], r)
    row("kb --version", kb_s, "bare python", fl_s)
    with gen_kb.kb_for(a) as root:
        files = sum(1 for _ in root.rglob("*.md"))
        print(f"KB: {root} · {files} Markdown files", flush=True)
        run(KB + ["--kb", str(root), "ingest"])  # untimed: bring the store up to date
        walker = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r}); import _floors; "
                                        f"_floors.stat_walk(__import__('pathlib').Path({str(root)!r}))"]
        kb_s, fl_s = paired(KB + ["--kb", str(root), "ingest"], walker, r)
        row("kb ingest, nothing changed", kb_s, "os.scandir walk + stat (python)", fl_s)
        kb_s, fl_s = paired(KB + ["--kb", str(root), "ingest"], KB + ["--version"], r)
        row("kb ingest, nothing changed", kb_s, "kb --version", fl_s)
        from kb.store.ingest import ingest

        times = []
        for _ in range(r):
            t = time.perf_counter()
            ingest(root)
            times.append(time.perf_counter() - t)
        t_walk = []
        for _ in range(r):
            t = time.perf_counter()
            stat_walk(root)
            t_walk.append(time.perf_counter() - t)
        row("freshness check (in-process)", statistics.median(times), "os.scandir walk + stat (in-process)",
            statistics.median(t_walk), "(target <= 0.3 s)")
        st_id = _some_id(root)
        # every match listed (output discarded), as a user searching would: no -q early exit
        rg = ["rg", "-F", st_id, str(root)] if shutil.which("rg") else ["grep", "-rF", st_id, str(root)]
        name = "rg -F ID" if rg[0] == "rg" else "grep -rF ID (no rg)"
        for argv in (["verify", "--offline", st_id], ["claims", "--subject", st_id, "--format", "json"]):
            what = f"kb {' '.join(argv[:3])}"
            argv = ["--kb", str(root), *argv]
            kb_s, fl_s = paired(KB + argv, rg, r)
            row(what, kb_s, name, fl_s, "(target <= 3x)")
            cli_s, fl2_s = paired(_cli_floor(argv, root), rg, r)
            row("  its floor: CLI parse + stat walk", cli_s, name, fl2_s,
                f"(kb's own work {kb_s - cli_s:.3f} s)")
        with tempfile.TemporaryDirectory() as tmp:
            demo = Path(tmp) / "demo"
            shutil.copytree(REPO, demo, ignore=shutil.ignore_patterns(".venv", ".git", ".kb", "src", "tests", "benchmarks", "docs"))
            run(KB + ["--kb", str(demo), "ingest"])
            d_s, v_s = paired(KB + ["--kb", str(demo), "digest", "--out", "-"], KB + ["--version"], r)
            row("kb digest --out -, demo", d_s, "kb --version", v_s)
            b_s, v2_s = paired(KB + ["--kb", str(root), "digest", "--out", "-"], KB + ["--version"], r)
            row(f"kb digest --out -, {files} files", b_s, "kb --version", v2_s)
            print(f"{'digest big / demo (each over --version)':<38} {(b_s / v2_s) / (d_s / v_s):8.2f}×   "
                  "(its own night: more claims than the demo's)")
            # the same night with the KB grown around it: what the digest pays for KB size alone
            grown = Path(tmp) / "grown"
            gen_kb.demo_in_background(demo, grown, a.inbox, a.cards, a.docs)
            run(KB + ["--kb", str(grown), "ingest"])
            g_s, d2_s = paired(KB + ["--kb", str(grown), "digest", "--out", "-"],
                               KB + ["--kb", str(demo), "digest", "--out", "-"], r)
            row("kb digest, demo nights in a grown KB", g_s, "kb digest, demo", d2_s, "(target <= 1.2x)")
    if not a.no_cold:
        _cold(a)
    if a.lint_mb <= 0:
        return
    print("kb lint row (benchmarks/bench_lint.py):", flush=True)
    subprocess.run([sys.executable, str(HERE / "bench_lint.py"), "--size-mb", str(a.lint_mb)], check=False)


def _some_id(root: Path) -> str:
    """An arXiv id the KB mentions (the most mentioned), for the verify/claims rows."""
    import sqlite3

    db = sqlite3.connect(root / ".kb" / "kb.sqlite")
    try:
        got = db.execute("SELECT arxiv_id FROM mentions GROUP BY arxiv_id ORDER BY count(*) DESC LIMIT 1").fetchone()
    finally:
        db.close()
    return got[0] if got else "2607.26627"


def _cold(a: argparse.Namespace) -> None:
    """Cold ingest CPU and wall vs markdown-it-py parse-only, on a KB of ``--cold-inbox`` files."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "kb"
        gen_kb.generate(root, a.cold_inbox, a.cold_inbox // 5, a.docs, seed=7)
        code = ("import sys, time; sys.path.insert(0, %r); import bench_ingest; from pathlib import Path; "
                "bench_ingest.parse_only(Path(%r))") % (str(HERE), str(root))
        parse_wall, parse_cpu = min(run([sys.executable, "-c", code]) for _ in range(3))
        for jobs in (["--jobs", "1"], []):
            best = (float("inf"), 0.0)
            for _ in range(3):
                shutil.rmtree(root / ".kb", ignore_errors=True)
                best = min(best, run(KB + ["--kb", str(root), "ingest", *jobs]))
            label = "jobs 1" if jobs else "default workers"
            row(f"cold kb ingest CPU, {label}", best[1], "markdown-it-py parse-only CPU", parse_cpu, "(target <= 2x)")
            row(f"cold kb ingest wall, {label}", best[0], "markdown-it-py parse-only wall", parse_wall,
                "(target <= 1.25x with workers)")


if __name__ == "__main__":
    main()
