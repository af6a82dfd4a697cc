"""Adversarial input shapes: time per KB must stay flat as the input doubles (flat = linear).

Usage:
    python benchmarks/bench_adversarial.py [--start-kb 8] [--steps 4] [--budget 20] [--only NAME ...]
    python benchmarks/bench_adversarial.py --kb-shapes [--steps 3] [--only values dense]   # whole commands

``--kb-shapes`` times whole commands on generated KBs that double each step (run by hand, not in
CI): ``kb sources`` over N files all stating one subject (``files``), ``kb digest`` of a night
with N values of one subject (``values``), the parse of one line of N KB dense with numbers and
ids (``long-line``), ``kb digest`` of a night of N lines each about another paper
(``subjects``), ``kb trace`` of one subject over N files citing five sites (``files (kb trace)``),
``kb digest`` of a night whose one line of N KB holds distinct numbers and
hundreds of arXiv ids (``dense line``), ``kb digest`` of a night of N lines each naming one
arXiv id and no value (``ids``), ``kb digest`` of a night holding a file whose front matter
has N keys (``front keys``), ``kb trace`` and ``kb digest`` of a night of N sections each a
heading naming vLLM over a one-value paragraph (``headings``), ``kb sources`` of N topics each
with a living doc and an inbox file naming vLLM (``topics``; ``--steps 4``: 50 to 400 topics), the
same with each topic's own subject (``own topics``: one night per topic reads that subject's claims) and
with each topic's own brief in the inbox too (``brief topics``), ``kb digest`` and ``kb diff`` of a
night of N values against a living doc whose table holds N values of that subject (``doc rows``),
``kb digest`` of a night whose one line names N papers with a value each (``line papers``), or
N arXiv ids and no value after an entity or a plain word (``id line``, ``plain id line``),
the same N ids in one table cell, of a row naming vLLM with a value (``id cell``) or of a
one-column table of papers (``plain id cell``),
``kb digest`` of a night of N values against a living doc of N headings, one subject each, the
values under those names (``doc headings``: each subject's placement looks the doc up once a
night, not once per subject), the same night with a hint line holding no claim (``- 建议归入
§7``) after each value, all in one heading block (``bare hints``: the file's hint lines found
once a night), and with a caveat line instead (``- 这组数只能看个趋势，先别升级。``: ``mood lines``, the
block's moods read once a night by the subject they are about); it prints the time at each size and the ratio per doubling (target ≤ 2.5×;
quadratic is 4×). Exit code 1 when a ratio is above 2.5.

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
shape("image-brackets", "![", head="# t\n\n")
shape("brackets-closed", "[", head="# t\n\n", tail="]")  # one ``]`` at the end: every label scan may end
shape("list-items", "- vLLM 1.5× arXiv:2607.01234\n", head="# t\n\n")
# one line of inline HTML tags: what follows each tag read in one pass, not a scan of the rest per tag
shape("br-tags", "1<br>", head="# t\n\nTGI ", tail=" tok/s\n")
shape("bold-tags", "<b>1", head="# t\n\nTGI ", tail=" tok/s\n")
shape("sup-words", "a<sup>nd</sup> ", head="# t\n\nTGI ", tail=" tok/s\n")
shape("sub-tags", "<sub>1", head="# t\n\nTGI ", tail=" tok/s\n")
shape("sup-tags", "<sup>1", head="# t\n\nTGI ", tail=" tok/s\n")
shape("sup-closed", "<sup>1</sup>", head="# t\n\nTGI 1", tail=" tok/s\n")
shape("del-tags", "<del>1", head="# t\n\nTGI ", tail=" tok/s\n")  # each struck tag: is it closed later?


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


KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {inference: [inference-systems]}\nentities: {vLLM: [], SGLang: []}\n'
DOC = "---\ntopic: inference\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. vLLM\n\n- vLLM 吞吐 1.1×。\n"
LONG_UNIT = "vLLM 1.5× arXiv:2607.01234 C101 2026-07-31 300 tok/s [2] v0.6.1 "


def _kb(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"kb.yaml": KB_YAML, "organized/knowledge/inference.md": DOC, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    (root / "organized/paper_cards").mkdir(parents=True, exist_ok=True)
    return root


def _files(n: int) -> dict[str, str]:
    """n secondhand files over half a year, each stating vLLM's throughput and TTFT, citing a site."""
    out = {}
    for i in range(n):
        stamp = f"2026-{1 + (i // 28) % 6:02d}-{1 + i % 28:02d}T{i % 20:02d}{i % 60:02d}"
        out[f"inbox/a{i % 7}/{stamp}-f{i}.md"] = (f"# f{i}\n\n- 据悉 vLLM 吞吐 {1 + (i % 97) / 10:.1f}×，TTFT {100 + i} ms"
                                                  f"（https://site{i % 5}.com/x）。\n")
    return out


def _values(n: int) -> dict[str, str]:
    """One night's file stating n throughput values of vLLM."""
    return {"inbox/ana/2026-07-31-big.md": "# big\n\n" + "".join(f"- 据悉 vLLM 吞吐 {1 + i / 1000:.3f}×。\n" for i in range(n))}


def _subjects(n: int) -> dict[str, str]:
    """One night's file of n lines, each about another paper (its arXiv id) with two values."""
    return {"inbox/ana/2026-07-31-subs.md": "# subs\n\n" + "".join(
        f"- 据悉 arXiv:2607.{i:05d} 吞吐 {1 + i % 50 / 10:.1f}×，TTFT {100 + i} ms。\n" for i in range(n))}


def _ids(n: int) -> dict[str, str]:
    """One night's file of n lines, each one arXiv id beside vLLM (no card, no value): a subject
    per id, each needing the window's lines that name it."""
    return {"inbox/ana/2026-07-31-ids.md": "".join(f"- arXiv:2607.{10000 + i} vLLM\n" for i in range(n))}


def _front_keys(n: int) -> dict[str, str]:
    """One night's file whose front matter holds n keys above a one-line body (past
    :data:`kb.core.frontmatter.MAX_LINES` it is reported and never loaded; every reader still
    reads the body)."""
    return {"inbox/ana/2026-07-31-keys.md": "---\n" + "".join(f"k{i}: {'v' * 50}\n" for i in range(n))
            + "---\n- vLLM 吞吐 9 tok/s\n"}


def _entities(n: int) -> dict[str, str]:
    """n kb.yaml entities, each with a throughput in the living doc and another tonight: n doc
    conflicts, each row looked up in one index (not by a scan of the doc per subject)."""
    names = [f"Eng{i}x" for i in range(n)]
    return {"kb.yaml": KB_YAML.replace("{vLLM: [], SGLang: []}", "{" + ", ".join(f"{x}: []" for x in names) + "}"),
            "organized/knowledge/inference.md": DOC + "".join(f"- {x} throughput 1 tok/s\n" for x in names),
            "inbox/ana/2026-07-31-ents.md": "".join(f"- {x} throughput {i + 2} tok/s\n\n" for i, x in enumerate(names))}


def _sites(n: int) -> dict[str, str]:
    """One night's file of n values of vLLM, each citing a site of its own."""
    return {"inbox/ana/2026-07-31-sites.md": "".join(
        f"- 据悉 vLLM 吞吐 {i + 2} tok/s https://site{i}.example.com/p\n\n" for i in range(n))}


def _one_line(n: int) -> dict[str, str]:
    """One night's file whose one line states n throughputs of vLLM (a history row per value)."""
    return {"inbox/ana/2026-07-31-line.md": "- vLLM " + "，".join(f"throughput {i + 2} tok/s" for i in range(n)) + "\n"}


def _dense_line(kb: int) -> dict[str, str]:
    """One night's file holding one line of ``kb`` KB dense with distinct numbers and ids (a
    subject per arXiv id: the digest must not read the line once per subject)."""
    parts, size, i = [], 0, 0
    while size < kb * 1024:
        unit = (f"vLLM {i % 90 + 1}.{i % 7}× arXiv:2607.{i:05d} C{i} 2026-07-{1 + i % 28:02d} {300 + i} tok/s "
                f"[{i}] v0.{i}.1 ")
        parts.append(unit)
        size, i = size + len(unit.encode()), i + 1
    return {"inbox/ana/2026-07-31-long.md": "# t\n\n" + "".join(parts) + "\n"}


def _headings(n: int) -> dict[str, str]:
    """One night's file of n sections, each a heading naming vLLM over a paragraph of one value
    (a claim per section: its section's source line found by a bisection of the headings)."""
    return {"inbox/ana/2026-07-31-heads.md": "".join(
        f"{'#' * (i % 6 + 1)} vLLM part {i}\n\nthroughput {i + 2} tok/s\n\n" for i in range(n))}


def _topics(n: int, own: bool = False, briefs: bool = False) -> dict[str, str]:
    """n kb.yaml topics, each with a living doc stating vLLM's throughput and an inbox file of
    its own (front matter ``topic:``) stating another: ``kb sources`` diffs every topic over
    every file, the per-file work read once for all topics. ``own``: each topic about a system of
    its own (``Sys7q``; its file names the next one's too); ``briefs``: each topic's own brief too."""
    name = [f"Sys{i}q" if own else "vLLM" for i in range(n)]
    yaml = KB_YAML.replace("topics: {inference: [inference-systems]}",
                           "topics: {" + ", ".join(f"t{i}: [t{i}]" for i in range(n)) + "}")
    out = {"kb.yaml": yaml.replace("vLLM: [], SGLang: []", ", ".join(f"{x}: []" for x in name)) if own else yaml}
    for i in range(n):
        out[f"organized/knowledge/t{i}.md"] = (f"---\ntopic: t{i}\nversion: 1\nupdated: 2026-07-30T05:00:00+08:00\n---\n"
                                               f"# t{i}\n\n## 共识\n\n- {name[i]} throughput {i + 1} tok/s\n")
        out[f"inbox/a/2026-07-31-{i // 60 % 24:02d}{i % 60:02d}-x{i}.md"] = (
            f"---\ntopic: t{i}\n---\n- {name[i]} throughput {i + 2} tok/s https://s{i}.example.com\n"
            + (f"- {name[(i + 1) % n]} throughput 9 tok/s\n" if own else ""))
        if briefs:
            out[f"inbox/ana/2026-07-31-t{i}-e1prep.md"] = f"- {name[i]} throughput {i + 3} tok/s\n"
    return out


def _doc_rows(n: int) -> dict[str, str]:
    """A living doc whose table holds n throughputs of vLLM and a night of n items, one value
    each (each new value looked up among the doc's, not compared with every row)."""
    return {"organized/knowledge/inference.md": DOC.split("## 1.")[0] + "## 共识\n\n| engine | metric | value |\n"
            "| --- | --- | --- |\n" + "".join(f"| vLLM | throughput | {i + 1} tok/s |\n" for i in range(n)),
            "inbox/ana/2026-07-31-rows.md": "".join(f"- vLLM throughput {i + 2} tok/s\n\n" for i in range(n))}


def _line_papers(n: int) -> dict[str, str]:
    """One night's file whose one line names n papers (arXiv ids), one throughput each (whether
    the line is led by an opinion is read once, not once per claim on it)."""
    return {"inbox/ana/2026-07-31-papers.md": "；".join(f"arXiv:2607.{10000 + i} throughput {i + 2} tok/s"
                                                       for i in range(n)) + "\n"}


def _id_line(n: int, lead: str = "vLLM") -> dict[str, str]:
    """One night's file whose one line writes n arXiv ids and no value, after ``lead`` (an
    entity, or a word naming none): one claim under n subjects, each asking it the same
    questions (its ids, whether it is a metadata row), answered once a night."""
    return {"inbox/ana/2026-07-31-idline.md": f"{lead} " + " ".join(f"2607.{10000 + i}" for i in range(n)) + "\n"}


def _id_cell(n: int, lead: str | None = "vLLM") -> dict[str, str]:
    """One night's file whose one table row holds n arXiv ids in one cell: under ``| Engine | paper
    | tok/s |`` beside ``lead`` and a value, or (``lead`` None) the one cell of a ``| paper |``
    table. One claim under n subjects: its title cell, where its label ends, where a passing word
    stands and whether it names the topic are read once a row, not once an id."""
    ids = " ".join(f"2607.{10000 + i}" for i in range(n))
    table = f"| Engine | paper | tok/s |\n|---|---|---|\n| {lead} | {ids} | 300 |\n" if lead else f"| paper |\n|---|\n| {ids} |\n"
    return {"inbox/ana/2026-07-31-idcell.md": table}


def _doc_headings(n: int) -> dict[str, str]:
    """A living doc of n sections, each a heading naming a subject (``## Sys7q``) over one value,
    and a night of n items stating another value of each (the brief places each subject in the
    doc: looked up in the doc read once a night, not by a scan of the doc per subject)."""
    return {"kb.yaml": KB_YAML.replace("entities: {vLLM: [], SGLang: []}", "entities: {vLLM: []}"),
            "organized/knowledge/inference.md": DOC.split("## 1.")[0] + "".join(
                f"## Sys{i}q\n\n- throughput {i + 1} tok/s\n\n" for i in range(n)),
            "inbox/ana/2026-07-31-heads.md": "".join(f"- Sys{i}q throughput {i + 2} tok/s\n\n" for i in range(n))}


def _bare_hints(n: int) -> dict[str, str]:
    """:func:`_doc_headings` with numbered headings (``## §8 Sys7q``) and a hint line holding no
    claim after each value of the night (``- 建议归入 §8``): one heading block of n subjects and
    n hint lines (each subject's placement takes the block's first hint, found once a night)."""
    return {**_doc_headings(n),
            "organized/knowledge/inference.md": DOC.split("## 1.")[0] + "".join(
                f"## §{i + 1} Sys{i}q\n\n- throughput {i + 1} tok/s\n\n" for i in range(n)),
            "inbox/ana/2026-07-31-heads.md": "".join(f"- Sys{i}q throughput {i + 2} tok/s\n- 建议归入 §{i + 1}\n\n"
                                                     for i in range(n))}


def _mood_lines(n: int) -> dict[str, str]:
    """:func:`_doc_headings` with a caveat line holding no claim after each value of the night:
    one heading block of n subjects and n mood lines, each about the value above it."""
    return {**_doc_headings(n),
            "inbox/ana/2026-07-31-heads.md": "".join(f"- Sys{i}q throughput {i + 2} tok/s\n"
                                                     "- 这组数只能看个趋势，先别升级。\n\n" for i in range(n))}


def _kb_command(root: Path, *args: str) -> float:
    """Seconds of CPU of ``kb ARGS`` in a fresh process (after an ingest that is not timed)."""
    import os
    import resource
    import subprocess

    env = {**os.environ, "KB_ARXIV_API": "http://127.0.0.1:9/api/query"}
    subprocess.run([sys.executable, "-m", "kb", "ingest"], cwd=root, env=env, capture_output=True, check=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "kb", *args], cwd=root, env=env, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _digest(root: Path, files: dict[str, str]) -> float:
    """CPU seconds of tonight's ``kb digest`` of the KB holding ``files`` (:func:`_kb_command`)."""
    return _kb_command(_kb(root, files), "digest", "inference", "--date", "2026-07-31", "--out", "-")


def kb_shapes(steps: int, only: list[str] | None = None) -> int:
    """The whole-command shapes of issue 24 (see the module docstring); ``only``: the shapes
    whose name starts with one of these words (``values``, ``dense``)."""
    shapes: list[tuple[str, int, Callable[[Path, int], float]]] = [
        ("files (kb sources)", 150, lambda root, n: _kb_command(_kb(root, _files(n)), "sources")),
        ("values (kb digest)", 2000, lambda root, n: _digest(root, _values(n))),
        ("long-line (parse KB)", 128, lambda root, n: _parse_line(root, n)),
        ("files (kb trace)", 300, lambda root, n: _kb_command(_kb(root, _files(n)), "trace", "vLLM")),
        ("subjects (kb digest)", 500, lambda root, n: _digest(root, _subjects(n))),
        ("dense line (digest KB)", 8, lambda root, n: _digest(root, _dense_line(n))),
        ("ids (kb digest)", 500, lambda root, n: _digest(root, _ids(n))),
        ("front keys (kb digest)", 25000, lambda root, n: _digest(root, _front_keys(n))),
        ("headings (kb trace)", 2000, lambda root, n: _kb_command(_kb(root, _headings(n)), "trace", "vLLM")),
        ("headings (kb digest)", 2000, lambda root, n: _digest(root, _headings(n))),
        ("topics (kb sources)", 50, lambda root, n: _kb_command(_kb(root, _topics(n)), "sources")),
        ("own topics (kb sources)", 50, lambda root, n: _kb_command(_kb(root, _topics(n, True)), "sources")),
        ("brief topics (kb sources)", 50, lambda root, n: _kb_command(_kb(root, _topics(n, True, True)), "sources")),
        ("entities (kb digest)", 500, lambda root, n: _digest(root, _entities(n))),
        ("sites (kb digest)", 1000, lambda root, n: _digest(root, _sites(n))),
        ("one line (kb history)", 4000, lambda root, n: _kb_command(_kb(root, _one_line(n)), "history", "vLLM")),
        ("one line (kb digest)", 4000, lambda root, n: _digest(root, _one_line(n))),
        ("doc rows (kb digest)", 1000, lambda root, n: _digest(root, _doc_rows(n))),
        ("doc rows (kb diff)", 1000, lambda root, n: _kb_command(_kb(root, _doc_rows(n)), "diff", "inference",
                                                                 "--date", "2026-07-31")),
        ("line papers (kb digest)", 1000, lambda root, n: _digest(root, _line_papers(n))),
        ("id line (kb digest)", 3000, lambda root, n: _digest(root, _id_line(n))),
        ("plain id line (kb digest)", 3000, lambda root, n: _digest(root, _id_line(n, "note"))),
        ("id cell (kb digest)", 4000, lambda root, n: _digest(root, _id_cell(n))),
        ("plain id cell (kb digest)", 4000, lambda root, n: _digest(root, _id_cell(n, None))),
        ("doc headings (kb digest)", 1000, lambda root, n: _digest(root, _doc_headings(n))),
        ("bare hints (kb digest)", 1000, lambda root, n: _digest(root, _bare_hints(n))),
        ("mood lines (kb digest)", 1000, lambda root, n: _digest(root, _mood_lines(n))),
    ]
    bad = 0
    for name, start, run in shapes:
        if only and not name.startswith(tuple(only)):
            continue
        sizes = [start * 2**i for i in range(steps)]
        times = []
        for size in sizes:
            with tempfile.TemporaryDirectory() as tmp:
                times.append(run(Path(tmp) / "kb", size))
        ratios = [b / a if a > 0 else float("nan") for a, b in zip(times, times[1:])]
        worst = max(ratios, default=0.0)
        bad += worst > 2.5
        print(f"{name:<24} " + "  ".join(f"{n:>6}: {t:6.2f} s" for n, t in zip(sizes, times))
              + "   per doubling: " + " ".join(f"{r:.2f}×" for r in ratios) + ("  GROWS" if worst > 2.5 else ""), flush=True)
    return 1 if bad else 0


def _parse_line(root: Path, kb: int) -> float:
    (root / "inbox/jay").mkdir(parents=True)
    (root / "organized/knowledge").mkdir(parents=True)
    parser = Parser(load_config(root))
    text = "# t\n\n" + LONG_UNIT * (kb * 1024 // len(LONG_UNIT.encode())) + "\n"
    t = time.process_time()
    parser.parse_bytes("inbox/jay/2026-07-31-x.md", text.encode())
    return time.process_time() - t


def main() -> int:
    if "--kb-shapes" in sys.argv:
        steps = int(sys.argv[sys.argv.index("--steps") + 1]) if "--steps" in sys.argv else 3
        only = sys.argv[sys.argv.index("--only") + 1:] if "--only" in sys.argv else None
        return kb_shapes(steps, only)
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
