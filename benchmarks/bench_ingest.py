"""Ingest benchmark: markdown-it-py parse-only vs `kb ingest` cold and unchanged, on the same files.

Usage:
    python benchmarks/bench_ingest.py [KB_DIR] [--inbox 10000 --cards 2000 --docs 5]

Without KB_DIR a synthetic KB is generated (benchmarks/gen_kb.py) in a temporary folder.
Prints, in one run: parse-only seconds (markdown-it-py, the same parser options kb uses, one
process), `kb ingest` cold seconds (store deleted first) and the ratio, `kb ingest` with
nothing changed, and the peak RSS of the largest `kb` process. Targets (issue 2): cold
≤ 1.5× parse-only; no-change ≤ 1 s on 12,000 files; peak RSS ≤ 300 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)


def parse_only(root: Path) -> tuple[float, int]:
    """Seconds to read and markdown-it-parse every file kb would ingest; file count."""
    from markdown_it import MarkdownIt

    from kb.ingest import iter_kb_files

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    files = [rel for rel, _ in iter_kb_files(root)]
    t = time.perf_counter()
    for rel in files:
        md.parse((root / rel).read_bytes().decode("utf-8", errors="replace"))
    return time.perf_counter() - t, len(files)


def run_kb(root: Path, *args: str) -> tuple[float, str]:
    """Wall seconds of one `kb` process and its last output line."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "kb", "--kb", str(root), *args],
                         capture_output=True, text=True, check=True)
    return time.perf_counter() - t, out.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gen_kb.add_size_args(ap)
    ap.add_argument("--repeat", type=int, default=3, help="no-change runs (median reported)")
    a = ap.parse_args()
    with gen_kb.kb_for(a) as root:
        shutil.rmtree(root / ".kb", ignore_errors=True)
        parse_s, n = parse_only(root)
        cold_s, cold_line = run_kb(root, "ingest")
        warm = sorted(run_kb(root, "ingest")[0] for _ in range(a.repeat))
        version = sorted(run_kb(root, "--version")[0] for _ in range(a.repeat))
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"files                      {n}")
        print(f"cpus                       {os.cpu_count()}")
        print(f"parse-only (markdown-it)   {parse_s:8.2f} s")
        print(f"kb ingest, cold            {cold_s:8.2f} s   ({cold_line})")
        print(f"ratio cold / parse-only    {cold_s / parse_s:8.2f}   (target <= 1.5)")
        print(f"kb ingest, nothing changed {warm[len(warm) // 2]:8.2f} s   median of {a.repeat} (target <= 1 s)")
        print(f"kb --version               {version[len(version) // 2]:8.2f} s   median of {a.repeat}")
        print(f"peak RSS, largest process  {peak_mb:8.1f} MB (target <= 300 MB)")


if __name__ == "__main__":
    main()
