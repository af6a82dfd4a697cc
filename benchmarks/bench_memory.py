"""Memory benchmark (issue 12): peak RSS of `kb ingest` against the size of the largest file read.

Usage (by hand, not in CI; a 100 MB file takes a while to write):
    python benchmarks/bench_memory.py [--mb 100] [--limit-mb 20]

Writes a throw-away KB whose inbox holds one generated file of ``--mb`` MB (real-looking
briefing lines: numbers, arXiv ids, sections) and runs ``kb ingest`` with ``max_file_mb`` =
``--limit-mb`` in a child process. Prints the file size, whether it was parsed or skipped,
the child's peak RSS and peak RSS / largest file read (target: under ~20×). A file over the
limit is not read: the largest file read is then the small one beside it.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINES = (
    "## §{n} 推理引擎\n",
    "- vLLM v0.{n} 合并 1,918 commits，吞吐提升 2.03×（arXiv:2607.{n:05d}）。\n",
    "- 据上游摘要，TGI 于 2026-03-21 进入维护模式，P99 延迟 {n} ms。\n",
    "| 框架 | 状态 | 来源 |\n|---|---|---|\n| SGLang | v{n} | https://github.com/sgl-project/sglang |\n",
    "\n",
)


def write_kb(root: Path, mb: float, limit_mb: float) -> tuple[Path, int]:
    """A KB with one ``mb`` MB inbox file and one small one; returns (big file, its size)."""
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "kb.yaml").write_text(f'timezone: "+08:00"\nmax_file_mb: {limit_mb}\n', encoding="utf-8")
    (root / "inbox/tom").mkdir(parents=True)
    (root / "inbox/tom/2026-07-31T0900-small.md").write_text("- TGI 进入维护模式。\n", encoding="utf-8")
    big = root / "inbox/tom/2026-07-31T1000-big.md"
    target = int(mb * 1_000_000)
    with big.open("w", encoding="utf-8") as fh:
        written, n = 0, 0
        while written < target:
            chunk = "".join(line.format(n=n % 99999) for line in LINES)
            fh.write(chunk)
            written += len(chunk.encode("utf-8"))
            n += 1
    return big, big.stat().st_size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=100.0, help="size of the generated file (MB)")
    ap.add_argument("--limit-mb", type=float, default=20.0, help="kb.yaml max_file_mb")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        big, size = write_kb(root, a.mb, a.limit_mb)
        t = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "kb", "--kb", str(root), "ingest", "--jobs", "1"],
                             capture_output=True, text=True)
        seconds = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # Linux: KiB
        skipped = "over the limit" in out.stderr
        largest = (root / "inbox/tom/2026-07-31T0900-small.md").stat().st_size if skipped else size
        print(f"file {size / 1e6:.1f} MB, limit {a.limit_mb:g} MB: {'skipped' if skipped else 'parsed'} "
              f"(exit {out.returncode}, {seconds:.1f} s)")
        if skipped:
            print(f"peak RSS {peak / 1e6:.0f} MB (the file was not read; largest file read {largest:,} bytes)")
        else:
            print(f"peak RSS {peak / 1e6:.0f} MB; peak / file = {peak / size:.0f}x; "
                  f"(peak - 60 MB interpreter baseline) / file = {(peak - 60e6) / size:.0f}x (target < ~20x)")
        print(out.stdout.strip().splitlines()[-1] if out.stdout.strip() else out.stderr.strip()[-300:])


if __name__ == "__main__":
    main()
