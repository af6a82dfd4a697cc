"""The brief an analyst signs says what its sources say, and its parts agree: §3's first source
is the line written first (not the first path), a row naming papers on several lines cites each
line. Wording fresh (a storage-engine KB), exact lines."""

from __future__ import annotations

import re

import pytest
from conftest import write_files

from kb.brief.papers import first_written
from kb.core.claims import Claim, Provenance

CARD = """\
---
card: 12
arxiv: "2606.04321"
title: "Tidepool: Log-Structured Merging without Write Stalls"
category: storage-engines
created: 2026-06-10T12:00:00+08:00
---
# 12 · Tidepool

- [论文事实] 写停顿从 1.9 s 降到 0.2 s。
"""
FILES = {
    "kb.yaml": ('timezone: "+08:00"\ncutoff: "22:00"\nexecutor: noor\ntopics: {storage: [storage-engines]}\n'
                "entities: {Wren: []}\n"),
    "organized/knowledge/storage.md": ("---\ntopic: storage\nversion: 3\nupdated: 2026-06-10T05:00:00+08:00\n---\n"
                                       "# 存储活文档\n\n## §1 引擎\n\n- Wren 压缩吞吐 410 MB/s（来源：https://wren.example.org/blog）。\n"),
    "organized/paper_cards/012-2606-04321.md": CARD,
    # alphabetically first, written last
    "inbox/amy/2026-06-10T2000-amy-storage.md": ("# 存储雷达（2026-06-10 20:00）\n\n"
                                                 "- Tidepool（arXiv:2606.04321）把写停顿压到 0.2 s，值得入 §1。\n"),
    # alphabetically last, written first: a daily page listing three off-topic papers on three lines
    "inbox/zoe/2026-06-10T0700-zoe-daily.md": (
        "# Daily papers（2026-06-10 07:00）\n\n"
        "| # | arXiv | 标题 | 票 |\n|---|---|---|---|\n"
        "| 1 | 2606.04321 | Tidepool | 61 |\n"
        "| 2 | 2606.05555 | Sketching recipes for robots | 40 |\n"
        "| 3 | 2606.06666 | Poems about glaciers | 33 |\n"
        "| 4 | 2606.07777 | Chess openings revisited | 21 |\n"),
}
ZOE = "inbox/zoe/2026-06-10T0700-zoe-daily.md"


@pytest.fixture(scope="module")
def brief(tmp_path_factory: pytest.TempPathFactory) -> str:
    from typer.testing import CliRunner

    from kb.cli import app

    kb = write_files(tmp_path_factory.mktemp("trust") / "kb", FILES)
    res = CliRunner().invoke(app, ["digest", "--date", "2026-06-10", "--out", "-", "--kb", str(kb)])
    assert res.exit_code == 0, res.output
    return re.sub(r"\[([^\]]+)\]\([^)\s]+\)", r"\1", res.stdout)


def _line(text: str, start: str) -> str:
    return next(x for x in text.splitlines() if x.startswith(start))


def _claim(path: str, line: int, when: str | None) -> Claim:
    return Claim(id=f"{path}{line}", kind="secondhand", kind_reason="t", text="x",
                 provenance=Provenance(path=path, line=line, end_line=line, written_at=when))


def test_first_written_is_by_moment_then_place() -> None:
    late = _claim("inbox/a/x.md", 3, "2026-06-10T20:00:00+08:00")
    early = _claim("inbox/z/y.md", 9, "2026-06-10T07:00:00+08:00")
    utc = _claim("inbox/m/u.md", 1, "2026-06-09T23:30:00+00:00")  # 07:30 at +08:00
    undated = _claim("inbox/0/n.md", 1, None)
    assert first_written([late, undated, utc, early]) is early
    assert first_written([late, undated, utc]) is utc
    assert first_written([undated, _claim("inbox/0/n.md", 0, None)]).provenance.line == 0
    assert first_written([]) is None


def test_section3_first_source_is_the_earliest_line(brief: str) -> None:
    row = _line(brief, "| 2606.04321 |")
    assert row.endswith(f"| `secondhand` {ZOE}:5 |"), row


def test_offtopic_rows_cite_each_papers_line(brief: str) -> None:
    cites = f"`secondhand` {ZOE}:6；`secondhand` {ZOE}:7；`secondhand` {ZOE}:8"  # in file order
    row = _line(brief, "- Sketching recipes for robots（arXiv:2606.05555）、Poems")
    assert row.endswith("不作增量 — " + cites), row
    assert _line(brief, "| 2606.05555、2606.06666、2606.07777 |").endswith(f"| {cites} |")
