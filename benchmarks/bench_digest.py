"""Nightly benchmark: `kb digest` for one night on a large KB after a warm ingest, next to `kb --version`.

Usage:
    python benchmarks/bench_digest.py [KB_DIR] [--inbox 10000 --cards 2000 --docs 5] [--repeat 5]

Without KB_DIR a synthetic KB is generated (benchmarks/gen_kb.py) in a temporary folder. The
store is brought up to date first (`kb ingest`, untimed), then, in one run, it times the
median of ``--repeat`` runs each of `kb --version`, `kb digest --out -` for the night of the
newest inbox day, and `kb diff --format json` for the same night. Target (issue 3): digest
≤ 3× `kb --version`; the nightly cost must not grow with the size of the KB (only the window
and the subjects in it are queried).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import gen_kb  # noqa: E402  (beside this file)

gen_kb.as_installed()


def timed(root: Path, *args: str) -> tuple[float, str]:
    """Wall seconds of one `kb` process and its stdout."""
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "kb", "--kb", str(root), *args],
                         capture_output=True, text=True, check=True)
    return time.perf_counter() - t, out.stdout


def median(root: Path, repeat: int, *args: str) -> tuple[float, str]:
    runs = [timed(root, *args) for _ in range(repeat)]
    runs.sort(key=lambda r: r[0])
    return runs[len(runs) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    gen_kb.add_size_args(ap)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    with gen_kb.kb_for(a) as root:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "kb", "--kb", str(root), "ingest"], check=True, capture_output=True)
        ingest_s = time.perf_counter() - t0
        version_s, _ = median(root, a.repeat, "--version")
        digest_s, brief = median(root, a.repeat, "digest", "--executor", "bench", "--out", "-")
        diff_s, _ = median(root, a.repeat, "diff", "--format", "json")
        # issue 8: a new card must not make the nightly run reparse the KB (cards are read at diff time)
        cards = root / "organized" / "paper_cards"
        cards.mkdir(parents=True, exist_ok=True)
        (cards / "99999-2607-99999.md").write_text(
            "---\ncard: 99999\narxiv: \"2607.99999\"\ntitle: \"Benchmark Card\"\ncategory: inference\n---\n\n"
            "- 论文报告：吞吐 1.5×。\n", encoding="utf-8")
        card_s, _ = timed(root, "digest", "--executor", "bench", "--out", "-")
        files = sum(1 for _ in root.rglob("*.md"))
        head = brief.splitlines()
        print(f"files                       {files}")
        print(f"kb ingest (untimed setup)   {ingest_s:8.2f} s")
        print(f"kb --version                {version_s:8.3f} s   median of {a.repeat}")
        print(f"kb digest --out -           {digest_s:8.3f} s   median of {a.repeat}")
        print(f"kb diff --format json       {diff_s:8.3f} s   median of {a.repeat}")
        print(f"ratio digest / --version    {digest_s / version_s:8.2f}   (target <= 3)")
        print(f"digest after one new card   {card_s:8.3f} s   one run (ingests the card)")
        print(f"ratio new-card / --version  {card_s / version_s:8.2f}   (target <= 2, issue 8)")
        title = next((line for line in head if line.startswith("# ")), "(empty)")
        print(f"brief                       {title} · {len(head)} lines")


if __name__ == "__main__":
    main()
