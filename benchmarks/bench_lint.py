"""Benchmark ``kb lint``: a ~2 MB living document against markdown-it-py parse-only, and the
living documents of a synthetic KB.

Usage:
    python benchmarks/bench_lint.py [--size-mb 2] [--kb-inbox 300 --kb-cards 150 --kb-docs 5]

Prints, from one run: markdown-it-py parse-only time, ``kb lint`` time of the same file
(parse + every rule, KB rules included), their ratio (target ≤ 2×), the time of each rule,
and the lint of every living document of a synthetic KB (``benchmarks/gen_kb.py`` when
present, else a KB of copies of the generated document). Deterministic text (seed 7).
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from markdown_it import MarkdownIt

from kb.core.config import load_config
from kb.lint.engine import Linter, build_settings
from kb.lint.kbfacts import load_facts
from kb.lint.run import lint_paths
from kb.store.workspace import open_kb

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_kb  # noqa: E402  (beside this file)

ENTITIES = ["vLLM", "SGLang", "TGI", "TensorRT-LLM", "Ollama", "LMDeploy", "LMCache", "FlashInfer"]
WORDS = ("推理 引擎 调度 缓存 量化 投机解码 批处理 前缀 复用 路由 专家 稀疏 内核 编译 部署 服务 集群 "
         "serving scheduler kernel prefill decode batch cache offload quantization speculative routing").split()
METRICS = ["吞吐", "TTFT", "TPOT", "准确率", "延迟", "显存", "throughput", "latency"]


def _aid(rng: random.Random) -> str:
    return f"{rng.randint(23, 26)}{rng.randint(1, 12):02d}.{rng.randint(1, 39999):05d}"


def _num(rng: random.Random) -> str:
    return rng.choice([f"{rng.uniform(1.05, 6.5):.2f}×", f"-{rng.uniform(5, 80):.1f}%", f"{rng.uniform(50, 99):.1f}%",
                       f"{rng.uniform(100, 900):.1f} tok/s", f"{rng.randint(60, 80)}%–{rng.randint(81, 95)}%"])


def _words(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def make_doc(size: int, seed: int = 7) -> str:
    """A synthetic living document of about ``size`` bytes (UTF-8), mixed zh/en, with ``§``
    sections, list items, tables, arXiv ids, numbers, dates, references and a consensus section."""
    rng = random.Random(seed)
    out = ["---", "topic: big", "version: 2", "updated: 2026-07-31T05:00:00+08:00", "citations: 1", "---", "",
           "# big 活文档", ""]
    s = 0
    while sum(len(x.encode()) + 1 for x in out) < size:
        s += 1
        out += [f"## §{s} {_words(rng, 2)}", ""]
        for sub in range(1, rng.randint(3, 7)):
            ent = rng.choice(ENTITIES)
            out += [f"### §{s}.{sub} {ent} {_words(rng, 2)}（arXiv:{_aid(rng)}）", ""]
            for _ in range(rng.randint(3, 7)):
                out.append(f"- {ent} {_words(rng, 3)} {rng.choice(METRICS)} {_num(rng)}（来源：arXiv:{_aid(rng)} · "
                           f"https://example.org/{rng.randint(1, 5000)}）。")
            if rng.random() < 0.5:
                out.append(f"- {_words(rng, 5)}，见 §{rng.randint(1, s)}；{ent} 于 2026-0{rng.randint(1, 7)}-1{rng.randint(0, 9)} "
                           f"发布 **{_num(rng)}** 的结果。")
            out.append("")
            if rng.random() < 0.3:
                out += ["| 项目 | 数字 | 来源 |", "|---|---|---|"]
                for _ in range(rng.randint(2, 5)):
                    out.append(f"| {rng.choice(ENTITIES)} {_words(rng, 1)} | {_num(rng)} | arXiv:{_aid(rng)} |")
                out.append("")
            out += [f"{_words(rng, 12)}。{rng.choice(ENTITIES)} {_words(rng, 6)}，{_words(rng, 8)}。", ""]
    out += [f"## §{s + 1} 共识", ""]
    out += [f"- C{100 + i} {rng.choice(ENTITIES)} 吞吐领先 {_num(rng)}（上游摘要称，来源：https://example.org/c{i}）。" for i in range(40)]
    return "\n".join(out) + "\n"


def _time(fn, repeat: int = 3) -> float:
    """Least wall seconds of ``repeat`` calls of ``fn()`` (:func:`gen_kb.best_of`)."""
    return gen_kb.best_of(fn, repeat, time.perf_counter)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=float, default=2.0)
    ap.add_argument("--kb-inbox", type=int, default=300)
    ap.add_argument("--kb-cards", type=int, default=150)
    ap.add_argument("--kb-docs", type=int, default=5)
    args = ap.parse_args()
    text = make_doc(int(args.size_mb * 1_000_000))
    data = text.encode()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "kb"
        (root / "organized/knowledge").mkdir(parents=True)
        (root / "organized/paper_cards").mkdir(parents=True)
        doc = root / "organized/knowledge/big.md"
        doc.write_bytes(data)
        md = MarkdownIt("commonmark", {"html": True}).enable("table")
        t_parse = _time(lambda: md.parse(text))
        config = load_config(root)
        settings = build_settings(config.lint)

        def facts():
            opened = open_kb(root)
            try:
                return load_facts(root, opened.store)
            finally:
                opened.close()

        linter = Linter(config, settings, facts=facts, root=root)
        linter.facts()  # the KB's store is read once per run, not per file: timed below with the KB
        result = None

        def lint_once() -> None:
            nonlocal result
            result = linter.lint_bytes("organized/knowledge/big.md", data, file=doc)

        t_lint = _time(lint_once)  # Linter.lint_bytes: decode, parse once, every rule, directives
        lines = text.count("\n")
        print(f"document: {len(data) / 1e6:.2f} MB, {lines} lines, {len(result.findings)} findings")
        print(f"markdown-it-py parse-only: {t_parse:.3f} s")
        print(f"kb lint (parse + all rules): {t_lint:.3f} s")
        print(f"ratio: {t_lint / t_parse:.2f}x (target <= 2x)")
        _per_rule(linter, data, doc, text)
        print()
        _whole_kb(Path(tmp), args, text)


def _per_rule(linter: Linter, data: bytes, doc: Path, text: str) -> None:
    """Where the lint time goes (collector paused, as the engine does)."""
    import gc

    from kb.lint.base import LintContext
    from kb.lint.lines import LineIndex
    from kb.read.livedoc import parse_living_doc

    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    gc.disable()
    try:
        t_md = _time(lambda: md.parse(text))
        t_text = _time(lambda: linter.parser.parse_text("organized/knowledge/big.md", text, []), 1)
        t = time.perf_counter()
        parsed = parse_living_doc(linter.parser, "organized/knowledge/big.md", text)
        t_livedoc = time.perf_counter() - t
        lines = text.split("\n")
        ctx = LintContext("organized/knowledge/big.md", parsed, lines, LineIndex(lines, {h.line for h in parsed.headings}),
                          linter.config, linter.facts(), linter.root, doc)
        print("breakdown, collector paused:")
        print(f"  markdown-it-py parse-only:                      {t_md:.3f} s")
        print(f"  Parser.parse_text (markdown-it + claims):       {t_text:.3f} s")
        print(f"  kb.read.livedoc.parse_living_doc (what lint uses):   {t_livedoc:.3f} s")
        total = 0.0
        for rule in linter.settings.rules:
            t = time.perf_counter()
            n = sum(1 for _ in rule().check(ctx, linter.settings.options[rule.code]))
            dt = time.perf_counter() - t
            total += dt
            print(f"  {rule.code} {rule.name:34s} {dt:.3f} s  {n} findings")
        print(f"  all rules:                                      {total:.3f} s")
    finally:
        gc.enable()


def _whole_kb(tmp: Path, args: argparse.Namespace, text: str) -> None:
    root = tmp / "synthetic"
    gen = Path(__file__).with_name("gen_kb.py")
    if gen.is_file():
        subprocess.run([sys.executable, str(gen), str(root), "--inbox", str(args.kb_inbox), "--cards",
                        str(args.kb_cards), "--docs", str(args.kb_docs)], check=True, capture_output=True)
        how = f"gen_kb.py --inbox {args.kb_inbox} --cards {args.kb_cards} --docs {args.kb_docs}"
    else:
        (root / "organized/knowledge").mkdir(parents=True)
        for i in range(args.kb_docs):
            (root / f"organized/knowledge/doc{i}.md").write_text(text[: len(text) // args.kb_docs], encoding="utf-8")
        how = f"{args.kb_docs} slices of the document (gen_kb.py absent)"
    docs = sorted((root / "organized/knowledge").glob("*.md"))
    size = sum(p.stat().st_size for p in docs)
    t = time.perf_counter()
    run = lint_paths([], kb=root)
    cold = time.perf_counter() - t
    t = time.perf_counter()
    run = lint_paths([], kb=root)
    warm = time.perf_counter() - t
    print(f"synthetic KB ({how}): {len(docs)} living docs, {size / 1e6:.2f} MB, {len(run.findings)} findings")
    print(f"kb lint of all living docs: {cold:.3f} s with the first ingest of the KB, {warm:.3f} s with the store up to date")
    shutil.rmtree(root / ".kb", ignore_errors=True)


if __name__ == "__main__":
    main()
