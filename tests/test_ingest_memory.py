"""Issue 12, the memory bound of ingest: tokens one top-level block at a time, long lists and
tables read in pieces, claims streamed to the store in batches — with the same claims and rows.

The figure itself (peak RSS against the largest file, a 20 MB and a 100 MB file) is printed by
``benchmarks/bench_memory.py``; here a tracemalloc peak checks the bound under a generous factor.
"""

from __future__ import annotations

import importlib.util
import random
import sqlite3
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import kb.perf.mdblocks as mdblocks_mod
import kb.read.walk as walk_mod
import kb.store.ingest as ingest_mod
import kb.store.parsing as parsing_mod
from kb.core.config import KbConfig
from kb.perf.mdblocks import _blocks
from kb.read.parse import Parser, _md
from kb.store.ingest import ingest
from kb.store.writer import FileWriter

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_memory", REPO / "benchmarks" / "bench_memory.py")
assert _spec is not None and _spec.loader is not None
bench_memory = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_memory)


def _flat(tokens: list[Any]) -> list[tuple[Any, ...]]:
    return [(t.type, t.tag, t.nesting, t.level, t.map, t.content, t.markup, t.info, t.hidden, dict(t.attrs),
             [(c.type, c.content, dict(c.attrs), c.markup) for c in (t.children or [])]) for t in tokens]


EDGE_TEXTS = [
    "[a] 1.5×\n\n[a]: /u 'T'\n",  # a reference used above its definition
    "x\n[b][c] 2.0×\n\n- [c]: http://x\n",  # ... defined in a list item
    "> [q]: /q\n\n[q] 3%\n",  # ... in a blockquote
    "a\r\nb 1.2×\r\n\r\nc\0d\n",  # CRLF and NUL: markdown-it's normalize
    "",
    "   \n\n",
    "".join("  " * i + f"- x{i} 1.{i}×\n" for i in range(60)) + "after 2.0×\n",  # past the nesting limit
    "```\n## x\n```\n# h\n<pre>\n\n# x\n</pre>\n[z]\n[z]: /z\n",
]


def test_blocks_are_markdown_its_own_tokens() -> None:
    md = _md()
    texts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "inbox").rglob("*.md"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((REPO / "organized").rglob("*.md"))]
    assert len(texts) > 10
    for text in texts + EDGE_TEXTS:
        assert _flat([t for block in _blocks(md, text) for t in block]) == _flat(md.parse(text))
    # the reference defined below its use is a link, as in one whole parse
    first = [t for block in _blocks(md, EDGE_TEXTS[0]) for t in block]
    assert [(c.type, c.attrs.get("href")) for c in first[1].children][:2] == [("link_open", "/u"), ("text", None)]


_PIECES = [
    "- item {n} vLLM 1.{n}×\n", "* star {n} arXiv:2607.{n:05d}\n", "+ plus {n}\n", "1. one {n}\n", "2) two {n} 3.5 ms\n",
    "  - nested {n} 2.{n}×\n", "  lazy {n} 45%\n", "lazy0 {n} TGI\n", "\n", "- - -\n", "---\n", "-\n", "  ```\n", "```\n",
    "    indented {n}\n", "> quote {n} 7%\n", "- > q {n}\n", "- a | b\n", "# H {n} 2026-03-0{d}\n", "para {n} 1.{n}%\n",
    "- [x] task {n}\n", "-\tTab {n}\n", "[r{n}]: /u{n}\n", "see [r{n}] 2.0×\n", "   - three {n}\n",
]
_TABLE_HEADS = ["| 框架 | 吞吐 | 论文 |\n|---|---|---|\n", "| a | b | 类型 |\n|:-|-:|:-:|\n", "| SGLang | vLLM | x |\n|---|---|---|\n"]
_ROWS = ["| vLLM {n} | 1.{n}× | arXiv:2607.{n:05d} |\n", "| TGI | {n} ms |\n", "| a | b | c | d {n} |\n",
         "| esc \\| pipe {n} | 3 | 4% |\n", "| 类型 | secondhand | {n} |\n", "| x {n} | 2.{n} | z |\n", "| x {n} | y | 9 |\n"]


def _random_doc(rng: random.Random) -> str:
    out: list[str] = []
    for part in range(rng.randint(1, 4)):
        if rng.random() < 0.5:
            out += [rng.choice(_PIECES).format(n=i, d=i % 9 + 1) for i in range(rng.randint(3, 40))]
        else:
            out.append(rng.choice(_TABLE_HEADS))
            rows = _ROWS if rng.random() < 0.3 else _ROWS[-2:]
            out += [rng.choice(rows).format(n=i) for i in range(rng.randint(0, 30))]
        out.append("\n")
    return "".join(out)


def test_long_lists_and_tables_read_in_pieces_give_the_same_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    parser = Parser(KbConfig(entities={"vLLM": [], "SGLang": [], "TGI": []}))
    rng = random.Random(12)
    pieces = 0
    for _ in range(250):
        text = _random_doc(rng)
        with monkeypatch.context() as m:
            m.setattr(mdblocks_mod, "LONG_TEXT_LINES", 10**9)
            whole = parser.parse_text("inbox/tom/2026-07-31-x.md", text)
            n_whole = sum(1 for _ in _blocks(_md(), text))
        with monkeypatch.context() as m:
            m.setattr(mdblocks_mod, "LONG_TEXT_LINES", 2)
            cut = rng.choice([1, 2, 3])
            m.setattr(mdblocks_mod, "LIST_CUT_LINES", cut)
            m.setattr(mdblocks_mod, "TABLE_CUT_ROWS", cut)
            piecewise = parser.parse_text("inbox/tom/2026-07-31-x.md", text)
            pieces += sum(1 for _ in _blocks(_md(), text)) - n_whole
        assert [c.model_dump() for c in piecewise.claims] == [c.model_dump() for c in whole.claims]
        assert (piecewise.mentions, piecewise.problems, piecewise.headings, piecewise.invalid_ids) == (
            whole.mentions, whole.problems, whole.headings, whole.invalid_ids)
    assert pieces > 500  # lists and tables really were cut


def _dump(root: Path) -> dict[str, list[tuple[Any, ...]]]:
    db = sqlite3.connect(root / ".kb/kb.sqlite")
    try:
        out = {"files": db.execute("SELECT * FROM files ORDER BY path").fetchall()}
        for table in ("claims", "subjects", "quantities", "mentions"):
            out[table] = db.execute(f"SELECT * FROM {table} ORDER BY path, rowid").fetchall()
        return out
    finally:
        db.close()


def test_streamed_and_pooled_ingest_store_the_same_rows(demo_kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parsing_mod, "STREAM_BATCH", 3)  # many batches per file
    first = ingest(demo_kb, jobs=1)  # no pool: every file streamed in this process
    streamed = _dump(demo_kb)
    (demo_kb / ".kb/kb.sqlite").unlink()
    monkeypatch.setattr(ingest_mod, "PARALLEL_MIN", 1)
    monkeypatch.setattr(ingest_mod, "STREAM_MIN", 10**12)  # every file to a worker, stored whole by put()
    second = ingest(demo_kb, jobs=2)
    assert (first.parsed, first.claims) == (second.parsed, second.claims)
    assert first.claims == len(streamed["claims"]) > 300
    assert _dump(demo_kb) == streamed
    assert sum(r[-1] for r in streamed["files"]) == first.claims  # n_claims counts streamed claims


def test_a_file_failing_midway_leaves_none_of_its_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "kb"
    (root / "inbox/tom").mkdir(parents=True)
    (root / "inbox/tom/2026-07-31-ok.md").write_text("- vLLM 1.5× (arXiv:2607.00001)\n", encoding="utf-8")
    bad = "".join(f"- vLLM 吞吐 {i}.5×（arXiv:2607.{i:05d}）\n" for i in range(1, 40)) + "\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    (root / "inbox/tom/2026-07-31-bad.md").write_text(bad, encoding="utf-8")
    monkeypatch.setattr(parsing_mod, "STREAM_BATCH", 5)

    def boom(self: Any, tokens: Any, i: int) -> int:
        raise RuntimeError("boom in a table")

    monkeypatch.setattr(walk_mod._FileCtx, "_table", boom)
    added: list[int] = []
    real_add = FileWriter.add
    monkeypatch.setattr(FileWriter, "add", lambda self, claims, *rest: (added.append(len(claims)),
                                                                       real_add(self, claims, *rest))[1])
    report = ingest(root, jobs=1)
    assert sum(added) == 40  # the bad file's 39 claims were in the store before its table failed
    assert (report.parsed, report.failed, report.claims) == (1, 1, 1)
    assert [str(p) for p in report.problems] == [
        "inbox/tom/2026-07-31-bad.md: could not be parsed (RuntimeError: boom in a table); skipped — please report this file"]
    rows = _dump(root)
    assert {r[0] for r in rows["files"]} == {"inbox/tom/2026-07-31-ok.md"}
    assert {r[1] for r in rows["claims"]} == {"inbox/tom/2026-07-31-ok.md"}
    assert [r[3] for r in rows["mentions"]] == ["2607.00001"]
    monkeypatch.undo()
    again = ingest(root, jobs=1)  # failed, so parsed again next run
    assert (again.parsed, again.unchanged, again.failed, again.claims) == (1, 1, 0, 40)


def test_ingest_peak_memory_is_a_bounded_multiple_of_the_file(tmp_path: Path) -> None:
    """Sections of bullets, tables and paragraphs, then one long list and one long table: the
    traced peak of ``ingest`` stays under 30x the file (before issue 12: about 90x)."""
    root = tmp_path / "kb"
    bench_memory.write_kb(root, 0, 20, "mixed", big=False)
    ingest(root, jobs=1)  # imports and caches first: the baseline is not the file's
    big = root / bench_memory.BIG
    with big.open("w", encoding="utf-8") as fh:
        for shape, target in (("mixed", 300_000), ("one-list", 120_000), ("one-table", 120_000)):
            written = 0
            for chunk in bench_memory.chunks(shape):
                fh.write(chunk)
                written += len(chunk.encode("utf-8"))
                if written >= target:
                    break
            fh.write("\n")
    size = big.stat().st_size
    tracemalloc.start()
    try:
        report = ingest(root, jobs=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (report.parsed, report.failed) == (1, 0)
    assert report.claims > 4000
    print(f"traced peak {peak / 1e6:.1f} MB = {peak / size:.1f}x the file of {size:,} bytes")
    assert peak < 30 * size, f"traced peak {peak / size:.1f}x the file"
