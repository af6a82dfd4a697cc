"""Adversarial input shapes: time per KB must stay flat as the input doubles (flat = linear).

Usage:
    python benchmarks/bench_adversarial.py [--start-kb 8] [--steps 4] [--budget 20] [--only NAME ...]

For every shape (years, dates, stars with numbers, wide tables, long digit and dot runs,
``v1v1…``, full-width digits, quote marks, brackets) and both pipelines (``parse``: what
``kb ingest`` does to one inbox file; ``lint``: ``kb lint`` of one living document), prints
the time per KB (best of ``--repeat``) at sizes ``start-kb``, 2×, 4×, … and the growth: time
per KB at the largest size over the smallest seen (≈1 = linear; quadratic doubles it per
doubling: 8 after three). A shape whose step takes longer than ``--budget`` seconds is stopped
there and marked SLOW. Exit code 1 when a growth is above 1.8 or a shape was SLOW.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kb.core.config import load_config
from kb.lint.engine import Linter, build_settings
from kb.read.parse import Parser

SHAPES: dict[str, Callable[[int], str]] = {}
"""name -> function(size in bytes) -> Markdown text of about that size."""


def shape(name: str, unit: str, *, head: str = "", tail: str = "") -> None:
    """Register a shape: ``unit`` repeated to ``size`` bytes, between ``head`` and ``tail``."""

    def make(size: int) -> str:
        n = max(1, size // max(1, len(unit.encode())))
        return head + unit * n + tail

    SHAPES[name] = make


def _wide_table(size: int) -> str:
    cols = 60
    head = "| " + " | ".join(f"c{i}" for i in range(cols)) + " |\n"
    sep = "|" + "---|" * cols + "\n"
    row = "| " + " | ".join(f"vLLM {i}.5×" for i in range(cols)) + " |\n"
    return head + sep + row * max(1, (size - len(head) - len(sep)) // len(row))


shape("years-zh", "2026 年 ", head="# t\n\n")
shape("dates", "2026-07-31 ", head="# t\n\n")
shape("stars-num", "★★ 3", head="# t\n\n")
SHAPES["wide-table"] = _wide_table
shape("quote-marks", ">", head="# t\n\n", tail=" x\n")
shape("digits", "1234567890", head="# t\n\n")
shape("one-dot", "1.", head="# t\n\n")
shape("one-comma", "1,", head="# t\n\n")
shape("id-dot", "2607.", head="# t\n\n")
shape("section-num", "§1.1", head="# t\n\n")
shape("brackets", "[", head="# t\n\n")
shape("v1v1", "v1", head="# t\n\nvLLM ")
shape("fullwidth-digits", "１２３４５６７８９０", head="# t\n\n")
shape("percent-run", "5%", head="# t\n\n")
shape("times-run", "2×", head="# t\n\n")
shape("arxiv-ish", "arXiv:2607.", head="# t\n\n")
shape("many-lines", "vLLM 吞吐 1.5× 于 2026-07-31。\n", head="# t\n\n")
shape("hf-spaces", " ", head="# t\n\nHF", tail="x\n")
shape("internal-ids", "C101 ", head="# t\n\n")
shape("entity-numbers", "vLLM 1.5× ", head="# t\n\nSGLang ")
shape("word-dashes", "a-", head="# t\n\nvLLM 1.5× ")
shape("parens", "(", head="# t\n\n")
shape("list-items", "- vLLM 1.5× arXiv:2607.01234\n", head="# t\n\n")


class Runner:
    """The two pipelines on one throw-away KB."""

    def __init__(self, root: Path) -> None:
        (root / "organized/knowledge").mkdir(parents=True)
        (root / "inbox/jay").mkdir(parents=True)
        self.config = load_config(root)
        self.parser = Parser(self.config)
        self.linter = Linter(self.config, build_settings(self.config.lint), facts=None, root=None)

    def parse(self, text: str) -> None:
        """What ``kb ingest`` does to one inbox file (parse + extract + claims)."""
        self.parser.parse_bytes("inbox/jay/2026-07-31-x.md", text.encode())

    def lint(self, text: str) -> None:
        """``kb lint`` of one living document (the rules that need no KB store)."""
        self.linter.lint_bytes("organized/knowledge/x.md", text.encode(), in_kb=False)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start-kb", type=float, default=8)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--only", nargs="*", default=None, help="shape names (default: all)")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs per size (1 run past 1 s)")
    ap.add_argument("--pipeline", choices=["parse", "lint", "both"], default="both")
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        run = Runner(Path(tmp) / "kb")
        pipes = ["parse", "lint"] if args.pipeline == "both" else [args.pipeline]
        sizes = [int(args.start_kb * 1024 * 2**i) for i in range(args.steps)]
        print(f"{'shape':<18} {'pipe':<6} " + " ".join(f"{s // 1024:>7}KB" for s in sizes) + "  growth  (ms per KB)")
        for name, make in SHAPES.items():
            if args.only and name not in args.only:
                continue
            for pipe in pipes:
                fn = getattr(run, pipe)
                per_kb: list[float] = []
                slow = False
                for size in sizes:
                    text = make(size)
                    dt = float("inf")
                    for _ in range(args.repeat):  # best of: the machine is shared, noise only adds
                        t = time.perf_counter()
                        fn(text)
                        dt = min(dt, time.perf_counter() - t)
                        if dt > 1.0:
                            break
                    per_kb.append(dt * 1000 / (len(text.encode()) / 1024))
                    if dt > args.budget:
                        slow = True
                        break
                # growth: time per KB at the largest size over the smallest time per KB seen; a
                # linear shape stays near 1 however many doublings, a quadratic one doubles per step
                ratio = per_kb[-1] / min(per_kb) if len(per_kb) > 1 and min(per_kb) > 0 else float("nan")
                mark = "SLOW" if slow else ("" if ratio <= 1.8 else "GROWS")
                bad += bool(mark)
                cells = " ".join(f"{x:>9.3f}" for x in per_kb) + " " * 10 * (len(sizes) - len(per_kb))
                print(f"{name:<18} {pipe:<6} {cells}  {ratio:6.2f} {mark}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
