"""Title-only citations: known titles (cards, arXiv-link texts, the arXiv cache), candidate
texts of a line, the normalised exact + fuzzy match, and the diff holding a paper cited by title."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import write_files
from kb.store.titles import TitleIndex, cited_by_title, known_titles, link_titles, title_candidates
from kb.extract.titles import title_similarity
from kb.store.workspace import open_kb

TITLES = [
    ("arxiv:2205.14135", "FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness"),
    ("arxiv:2404.14469", "SnapKV: LLM Knows What You are Looking for Before Generation"),
    ("arxiv:2401.00001", "大模型推理加速：一个系统综述"),
    ("arxiv:2402.00002", "Attention in $\\mathcal{O}(n)$ Time"),
    ("arxiv:2403.00003", "Bole"),
    ("arxiv:2405.00005", "Scissorhands: Exploiting the Persistence of Importance Hypothesis"),
    ("arxiv:2406.00006", "Scissorhands: A Second Paper With the Same Short Name"),
]
LINES = [
    "# Doc",
    "1. [**ＦｌａｓｈＡｔｔｅｎｔｉｏｎ：Fast and Memory-Efficient Exact Attention with IO-Awareness.**](https://openreview.net/x)",
    "- **SnapKV** is neat",                                          # unique title before the colon
    "| 大模型推理加速：一个系统综述 | 2024 |",                            # table cell, CJK
    "见《大模型推理加速:一个系统 综述》",                                  # quoted, half-width colon, a space
    'We cite "Attention in O(n) time" here.',                        # TeX title written plainly
    "- *SnapKV: LLM Knows What You Are Looking For Before Generaton*",  # a typo: fuzzy
    "```",
    "**SnapKV**",                                                    # in a code fence: passed over
    "```",
    "**Bole**",                                                      # too short to match alone
    "**Scissorhands**",                                              # two papers share the name
    "- [**Keep the Cost Down: A Review**](https://arxiv.org/abs/2407.18003)",  # unknown title
]


def test_title_candidates_of_one_line() -> None:
    assert title_candidates(LINES[1]) == [
        "ＦｌａｓｈＡｔｔｅｎｔｉｏｎ：Fast and Memory-Efficient Exact Attention with IO-Awareness"]
    assert title_candidates(LINES[3]) == ["大模型推理加速：一个系统综述", "2024"]
    assert title_candidates('| [*A Title Here*](u) | "Quoted Words" |') == ["A Title Here", "Quoted Words"]
    assert title_candidates("plain text without marks") == []


def test_cited_by_title_exact_values() -> None:
    index = TitleIndex(TITLES, 0.9)
    assert cited_by_title(LINES, index) == {
        "arxiv:2205.14135": [(2, True)],
        "arxiv:2404.14469": [(3, True), (7, True)],
        "arxiv:2401.00001": [(4, True), (5, False)],
        "arxiv:2402.00002": [(6, False)],
    }
    assert cited_by_title(LINES, index, skip=[2, 3]) == {
        "arxiv:2404.14469": [(7, True)], "arxiv:2401.00001": [(4, True), (5, False)], "arxiv:2402.00002": [(6, False)]}
    # the typo'd line (a missing "i") scores 0.991 against the title: no citation at 0.995
    assert title_similarity(LINES[6][3:-1], TITLES[1][1]) == 0.991
    assert cited_by_title(LINES[6:7], TitleIndex(TITLES[1:2], 0.995)) == {}
    assert cited_by_title(LINES, TitleIndex([], 0.9)) == {}


def test_known_titles_cards_links_and_cache(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", {
        "kb.yaml": "topics: [inference]\n",
        "organized/paper_cards/1-2607-26627.md":
            '---\ncard: 1\narxiv: "2607.26627v2"\ntitle: "Lossy Verification Revisited"\naliases: [LossyV]\n---\n# 1\n',
        "organized/paper_cards/2-2607-00002.md": '---\ncard: 2\narxiv: "bad"\ntitle: "No Id Here"\n---\n# 2\n',
        "inbox/jay/2026-07-31-a.md": "# a\n\n- [**Tree Attention Serving.**](https://arxiv.org/abs/2607.11111v1) 很好\n"
                                     "- [code](https://github.com/x/y) and [Other Paper](https://arxiv.org/pdf/2607.22222)\n"
                                     "- [论文](https://arxiv.org/abs/2607.55555)、[arXiv:2607.55555](https://arxiv.org/abs/2607.55555)\n",
    })
    kb = open_kb(root)
    try:
        kb.store.cache_put("2607.33333", "2026-07-31T00:00:00+00:00", "found", {"title": "Cached Paper Title"})
        kb.store.cache_put("2607.44444", "2026-07-31T00:00:00+00:00", "missing", None)
        assert known_titles(kb.store) == [
            ("arxiv:2607.26627", "Lossy Verification Revisited"), ("arxiv:2607.26627", "LossyV"),
            ("arxiv:2607.11111", "Tree Attention Serving"), ("arxiv:2607.22222", "Other Paper"),
            ("arxiv:2607.33333", "Cached Paper Title"),
        ]
        # read once per content: with the file gone but its hash unchanged, the table answers
        (root / "inbox/jay/2026-07-31-a.md").unlink()
        assert link_titles(kb.store) == [("arxiv:2607.11111", "Tree Attention Serving"), ("arxiv:2607.22222", "Other Paper")]
    finally:
        kb.close()


KB_YAML = 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: {inference: [inference-systems]}\n'
DOC = """\
---
topic: inference
version: 7
updated: 2026-07-31T05:00:00+08:00
---
# 活文档

## §1 投机解码

- **Ｒｅｖｉｓｉｔｉｎｇ Lossy Verification in Speculative Decoding**（2026）
- 另见 "Tree Attention for Serving at Scale" 一文
"""
CARD = """\
---
card: 900
arxiv: "2607.26627"
title: "Revisiting Lossy Verification in Speculative Decoding"
category: inference-systems
created: 2026-07-31T16:30:00+08:00
---
# 900

- 论文报告：端到端加速 1.38×。
"""


@pytest.mark.parametrize("threshold,expected", [
    # the card's 1.38× is not in the doc: update; the link-text paper is a list item: covered
    (0.9, {"arxiv:2607.26627": ("update", ["§1"]), "arxiv:2607.11111": ("covered", ["§1"])}),
    # "…at Scale" vs the link text "…at Scales" is 0.986: not a citation at 1.0
    (1.0, {"arxiv:2607.26627": ("update", ["§1"]), "arxiv:2607.11111": ("adjacent", [])}),
])
def test_diff_counts_title_only_citations(tmp_path: Path, run_kb, threshold: float,  # noqa: ANN001
                                          expected: dict) -> None:
    root = write_files(tmp_path / "kb", {
        "kb.yaml": KB_YAML + f"diff: {{title_threshold: {threshold}}}\n",
        "organized/knowledge/inference.md": DOC,
        "organized/paper_cards/900-2607-26627.md": CARD,
        "inbox/jay/2026-07-31T0900-a.md": "# 日报\n\n- [Tree Attention for Serving at Scales](https://arxiv.org/abs/2607.11111)\n",
    })
    res = run_kb(["diff", "inference", "--date", "2026-07-31", "--format", "json"], cwd=root)
    assert res.exit_code == 0, res.stderr
    out = json.loads(res.stdout)
    assert {s["key"]: (s["outcome"], s["doc_sections"]) for s in out["subjects"]} == expected


def test_unknown_diff_config_key_is_an_error(tmp_path: Path, run_kb) -> None:  # noqa: ANN001
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML + "diff: {title_treshold: 0.9}\n",
                                         "organized/knowledge/inference.md": DOC})
    res = run_kb(["diff", "inference", "--date", "2026-07-31"], cwd=root)
    assert res.exit_code == 2
    assert "title_treshold" in res.stderr


def test_real_lists_cited_by_title_only(shared: Path) -> None:
    """Real paper lists with their arXiv URLs removed: every paper whose link text is a known
    title is found again, on its own line, and nothing else."""
    link = re.compile(r"\[([^\[\]\n]{4,400})\]\(https?://arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{4,5})")
    # (the other real lists link "[[pdf]]" and keep titles in table cells)
    for path in sorted((shared / "realdata" / "living-docs").glob("October2001_*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        titles, want = [], {}
        for no, line in enumerate(lines, 1):
            for m in link.finditer(line):
                titles.append((f"arxiv:{m[2]}", m[1]))
                want.setdefault(f"arxiv:{m[2]}", []).append(no)
        index = TitleIndex(titles, 0.9)
        bare = [re.sub(r"\]\(https?://arxiv\.org/[^)]*\)", "](https://example.org/)", ln) for ln in lines]
        got = {k: [n for n, _ in v] for k, v in cited_by_title(bare, index).items()}
        for key, nos in want.items():
            assert set(nos) & set(got.get(key, [])), (path.name, key)
        assert set(got) <= set(want), (path.name, sorted(set(got) - set(want)))
        assert len(want) > 100


def test_link_titles_on_a_store_that_cannot_be_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    root = write_files(tmp_path / "kb", {
        "kb.yaml": "topics: [inference]\n",
        "inbox/jay/2026-07-31-a.md": "# a\n\n- [Tree Attention Serving](https://arxiv.org/abs/2607.11111)\n"})
    kb = open_kb(root)
    try:
        def refuse() -> None:
            raise sqlite3.OperationalError("attempt to write a readonly database")

        monkeypatch.setattr(kb.store, "tx", refuse)
        assert link_titles(kb.store) == [("arxiv:2607.11111", "Tree Attention Serving")]
        assert kb.store.db.execute("SELECT name FROM sqlite_master WHERE name='link_titles'").fetchone() is None
    finally:
        kb.close()


def test_link_titles_follow_new_changed_and_removed_files(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", {
        "kb.yaml": "topics: [inference]\n",
        "inbox/jay/2026-07-30-a.md": "# a\n\n- [Tree Attention Serving](https://arxiv.org/abs/2607.11111)\n",
        "inbox/jay/2026-07-30-b.md": "# b\n\n- [Paged Prefix Caching](https://arxiv.org/abs/2607.22222)\n"})

    def titles() -> list[tuple[str, str]]:
        kb = open_kb(root)  # brings the store up to date, as every command does
        try:
            return link_titles(kb.store)
        finally:
            kb.close()

    assert titles() == [("arxiv:2607.11111", "Tree Attention Serving"), ("arxiv:2607.22222", "Paged Prefix Caching")]
    write_files(root, {"inbox/jay/2026-07-31-c.md": "# c\n\n- [Sparse KV Eviction](https://arxiv.org/abs/2607.33333)\n",
                       "inbox/jay/2026-07-30-a.md": "# a\n\n- 2607.11111 without a link\n"})
    (root / "inbox/jay/2026-07-30-b.md").unlink()
    assert titles() == [("arxiv:2607.33333", "Sparse KV Eviction")]
