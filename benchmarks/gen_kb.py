"""Generate a synthetic knowledge base of a given size for benchmarks (deterministic per seed).

Usage:
    python benchmarks/gen_kb.py OUT [--inbox 10000] [--cards 2000] [--docs 5] [--seed 7]

Writes OUT/kb.yaml, OUT/inbox/<author>/<stamp>-<slug>.md, OUT/organized/paper_cards/…,
OUT/organized/knowledge/<topic>.md: mixed Chinese/English text with arXiv ids, quantities,
dates, entities, tables and nested lists, in the shapes of the demo KB. The newest inbox day
is 2026-07-31; files spread backwards over about a year, ~25 a night.
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from pathlib import Path

def as_installed() -> None:
    """Run kb in benchmarks as an installed kb runs: with its modules compiled to ``.pyc``.

    ``pip install`` writes the bytecode of what it installs, but an editable install compiles
    on first import, and a shell with ``PYTHONDONTWRITEBYTECODE=1`` (some CI images, some
    sandboxes) compiles every module from source on every run: about 0.3-0.5 s more per kb
    process, which would be measured as kb's own cost. This drops the variable for the kb
    processes a benchmark starts and compiles kb's package once, before any timing."""
    import compileall
    import os

    import kb

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(str(Path(kb.__file__).parent), quiet=1)


AUTHORS = ["jay", "spark", "tom", "flyp", "stephen", "ana", "li", "mo"]
ENTITIES = ["vLLM", "SGLang", "TGI", "TensorRT-LLM", "Ollama", "LMDeploy", "LMCache", "FlashInfer", "Colibri", "vllm-mlx"]
TOPICS = ["inference", "llm-infra", "rag", "agent", "multimodal"]
CATS = ["inference-systems", "inference-efficient", "llm-infra", "rag", "agent", "multimodal", "evaluation"]
METRICS = ["吞吐", "TTFT", "TPOT", "准确率", "延迟", "显存", "throughput", "latency", "accuracy"]
CUES = ["上游摘要称", "论文报告", "据", "reportedly", "the paper reports", "二手摘要报告", "", "", ""]
WORDS = ("推理 引擎 调度 缓存 量化 投机解码 批处理 前缀 复用 路由 专家 稀疏 内核 编译 部署 服务 集群 "
         "serving scheduler kernel prefill decode batch cache offload quantization speculative routing").split()


def best_of(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.process_time) -> float:
    """Least seconds of ``repeat`` calls of ``fn()`` by ``clock`` (CPU time by default; the
    machine may be shared, and noise only adds): the one timing loop of the benchmarks."""
    out = float("inf")
    for _ in range(repeat):
        t = clock()
        fn()
        out = min(out, clock() - t)
    return out


def arxiv_id(rng: random.Random, end: date) -> str:
    d = end - timedelta(days=rng.randint(0, 700))
    return f"{d.year % 100:02d}{d.month:02d}.{rng.randint(1, 39999):05d}"


def number(rng: random.Random) -> str:
    return rng.choice([
        f"{rng.uniform(1.05, 6.5):.2f}×", f"-{rng.uniform(5, 80):.1f}%", f"{rng.uniform(50, 99):.1f}%",
        f"{rng.uniform(100, 900):.1f} tok/s", f"{rng.randint(1, 40):,}{rng.choice(['', ',000'])} commits",
        f"{rng.randint(2, 2000):,} 万", f"{rng.uniform(0.1, 2):.2f} 个百分点", f"{rng.uniform(1, 9):.1f}k",
        f"{rng.randint(60, 80):.1f}%–{rng.randint(81, 95):.1f}%",
    ])


def phrase(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def sentence(rng: random.Random, end: date) -> str:
    kind = rng.random()
    ent = rng.choice(ENTITIES)
    if kind < 0.35:
        return (f"{rng.choice(CUES)} arXiv:{arxiv_id(rng, end)} 在 {ent} 上 {rng.choice(METRICS)} "
                f"{number(rng)}，{phrase(rng, 4)}。")
    if kind < 0.6:
        return f"{ent} {phrase(rng, 3)} {rng.choice(METRICS)} {number(rng)}（{phrase(rng, 2)}）。"
    if kind < 0.7:
        d = end - timedelta(days=rng.randint(0, 400))
        return f"{ent} 于 {d.isoformat()} 发布 {phrase(rng, 3)}；{phrase(rng, 5)}。"
    if kind < 0.8:
        return f"★★ 建议补：{phrase(rng, 4)}，候选升档 C{rng.randint(100, 300)}。"
    return f"{phrase(rng, 8)}，{phrase(rng, 6)}。"


def inbox_file(rng: random.Random, day: date, author: str, n: int) -> str:
    out: list[str] = []
    if rng.random() < 0.3:
        out += ["---", f"author: {author}", f"created: {day.isoformat()}T{rng.randint(8, 21):02d}:{rng.randint(0, 59):02d}:00+08:00",
                f"topic: {rng.choice(TOPICS)}", "---", ""]
    out += [f"# {phrase(rng, 3)} briefing #{n}", ""]
    for sec in range(rng.randint(2, 4)):
        out += [f"## {sec + 1}. {phrase(rng, 2)} {rng.choice(ENTITIES)}", ""]
        out += [" ".join(sentence(rng, day) for _ in range(rng.randint(2, 4))), ""]
        for _ in range(rng.randint(2, 5)):
            out.append(f"- {sentence(rng, day)}")
            if rng.random() < 0.4:
                out.append(f"  - {sentence(rng, day)}")
        out.append("")
        if rng.random() < 0.4:
            out += ["| 项目 | 数字 | 类型 | 来源 |", "|---|---|---|---|"]
            for _ in range(rng.randint(2, 5)):
                out.append(f"| {rng.choice(ENTITIES)} {phrase(rng, 1)} | {number(rng)} | "
                           f"{rng.choice(['论文事实', '摘要转述', '内部评级'])} | arXiv:{arxiv_id(rng, day)} |")
            out.append("")
    out.append(f"来源：inbox/{rng.choice(AUTHORS)}/{day.isoformat()}-{phrase(rng, 1)}.md、https://example.org/{rng.randint(1, 999)}")
    return "\n".join(out) + "\n"


def card_file(rng: random.Random, card: int, aid: str, created: datetime) -> str:
    cat = rng.choice(CATS)
    also = rng.choice(CATS)
    return "\n".join([
        "---", f"card: {card}", f'arxiv: "{aid}"', f"title: {phrase(rng, 5).title()}",
        f"aliases: [{phrase(rng, 1).title()}{card}]", f"category: {cat}", f"also: [{also}]",
        f"form: {rng.choice(['method', 'system', 'survey', 'benchmark'])}", f"created: {created.isoformat()}", "---", "",
        "## 问题", "", sentence(rng, created.date()), "", "## 方法", "",
        *[f"- {sentence(rng, created.date())}" for _ in range(rng.randint(2, 5))], "", "## 结果", "",
        f"论文报告 {rng.choice(METRICS)} {number(rng)}，{phrase(rng, 4)}。", "", "## 局限", "", phrase(rng, 10) + "。", "",
    ])


def living_doc(rng: random.Random, topic: str, ids: list[str], end: date) -> str:
    out = ["---", f"topic: {topic}", "version: 45", "updated: 2026-07-31T05:00:00+08:00", "citations: 300", "---", "",
           f"# {topic} 活文档", ""]
    for s in range(1, 9):
        out += [f"## §{s} {phrase(rng, 2)}", ""]
        for sub in range(1, rng.randint(3, 8)):
            out += [f"### §{s}.{sub} {rng.choice(ENTITIES)} {phrase(rng, 2)}", ""]
            for _ in range(rng.randint(3, 8)):
                out.append(f"- arXiv:{rng.choice(ids)} {sentence(rng, end)}")
            out.append("")
    return "\n".join(out) + "\n"


def generate(out: Path, inbox: int, cards: int, docs: int, seed: int,
             end: date = date(2026, 7, 31), card_base: int = 0) -> None:
    """Write the synthetic KB to ``out`` (created; existing files are overwritten).

    ``end`` is the newest inbox day and card date (files go backwards from it); cards are
    numbered from ``card_base + 1``."""
    rng = random.Random(seed)
    (out / "inbox").mkdir(parents=True, exist_ok=True)
    (out / "organized/paper_cards").mkdir(parents=True, exist_ok=True)
    (out / "organized/knowledge").mkdir(parents=True, exist_ok=True)
    (out / "kb.yaml").write_text(
        "timezone: '+08:00'\ncutoff: '22:00'\n"
        "topics: {inference: [inference-systems, inference-efficient], llm-infra: [llm-infra], rag: [rag], agent: [agent], multimodal: [multimodal]}\n"
        "entities: {TGI: [Text Generation Inference], TensorRT-LLM: [TRT-LLM], vllm-mlx: [vLLM-MLX], vLLM: [], SGLang: [], "
        "Ollama: [], LMDeploy: [], LMCache: [], FlashInfer: [], Colibri: []}\n",
        encoding="utf-8",
    )
    per_day = 25
    for i in range(inbox):
        day = end - timedelta(days=i // per_day)
        author = AUTHORS[i % len(AUTHORS)]
        hhmm = f"{8 + (i % 13):02d}{(i * 7) % 60:02d}"
        folder = out / "inbox" / author
        folder.mkdir(exist_ok=True)
        (folder / f"{day.isoformat()}T{hhmm}-{author}-brief-{i}.md").write_text(inbox_file(rng, day, author, i), encoding="utf-8")
    ids: list[str] = []
    for c in range(cards):
        created = datetime(end.year, end.month, end.day, 16, 30) - timedelta(hours=4 * c)
        aid = arxiv_id(rng, created.date())
        ids.append(aid)
        yymm, seq = aid.split(".")
        (out / "organized/paper_cards" / f"{card_base + c + 1}-{yymm}-{seq}.md").write_text(
            card_file(rng, card_base + c + 1, aid, created.replace(tzinfo=None)).replace(created.isoformat(), created.isoformat() + "+08:00"),
            encoding="utf-8")
    for d in range(docs):
        topic = TOPICS[d % len(TOPICS)] if d < len(TOPICS) else f"topic{d}"
        (out / "organized/knowledge" / f"{topic}.md").write_text(living_doc(rng, topic, ids or ["2607.26627"], end), encoding="utf-8")


def demo_in_background(demo: Path, out: Path, inbox: int, cards: int, docs: int) -> None:
    """The demo KB's nights inside a synthetic KB of the given size, all of it dated before them.

    ``demo`` is a KB folder (the repo's root); its ``kb.yaml``, ``organized/`` and ``inbox/`` are
    copied over a synthetic KB that ends on 2026-07-24, with cards numbered from 1001, so the
    2026-07-30/31 windows hold exactly the demo's files: a digest of them does the demo's work
    plus whatever grows with the KB around it (issue 11: nightly cost flat in KB size)."""
    generate(out, inbox, cards, docs, seed=7, end=date(2026, 7, 24), card_base=1000)
    shutil.copy2(demo / "kb.yaml", out / "kb.yaml")
    for part in ("organized", "inbox"):
        shutil.copytree(demo / part, out / part, dirs_exist_ok=True)


def add_size_args(ap: argparse.ArgumentParser) -> None:
    """The options every benchmark shares: an existing KB, or the size of a synthetic one."""
    ap.add_argument("kb", nargs="?", type=Path, help="an existing KB (default: generate one)")
    ap.add_argument("--inbox", type=int, default=10000)
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--docs", type=int, default=5)


@contextmanager
def kb_for(args: argparse.Namespace) -> Iterator[Path]:
    """``args.kb``, or a synthetic KB of ``args``' size in a temporary folder removed after."""
    if args.kb is not None:
        yield args.kb
        return
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-"))
    try:
        generate(tmp / "kb", args.inbox, args.cards, args.docs, seed=7)
        yield tmp / "kb"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--inbox", type=int, default=10000)
    ap.add_argument("--cards", type=int, default=2000)
    ap.add_argument("--docs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    generate(a.out, a.inbox, a.cards, a.docs, a.seed)
    print(f"wrote {a.inbox} inbox files, {a.cards} cards, {a.docs} living docs to {a.out}")


if __name__ == "__main__":
    main()
