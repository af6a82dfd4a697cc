"""A living doc read the way kb reads it everywhere: KB109 counts no citation that sits in code, an
HTML comment or a ``<pre>`` block (the parser never reads them); a front-matter ``version`` past the
range kb reads (1 to 999,999) is named with file, line and field by lint and ``kb bump`` (exit 2),
and ingest and digest warn and go on."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files

from kb.read.livedoc import MAX_DOC_VERSION, version_problem
from kb.read.parse import unread_blanked

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
FRONT = "---\ntopic: serving\nversion: {version}\nupdated: 2026-07-30T05:00:00+08:00\ncitations: {citations}\n---\n"
BODY = ("# d\n\n## 1. Quokka\n\n- Quokka 吞吐 2.2×（<a href=\"https://arxiv.org/abs/2607.33333\">论文</a>）\n\n"
        "<pre>\nhttps://arxiv.org/abs/2607.44444\n</pre>\n\n<!--\nhttps://arxiv.org/abs/2607.55555\n-->\n\n"
        "- Quokka 另见 <!-- arXiv:2607.66666 --> 官方博客\n\n```\nhttps://arxiv.org/abs/2607.77777\n```\n\n"
        "    https://example.com/indented-code\n\n<div>\n<pre>https://arxiv.org/abs/2607.88888</pre>\n</div>\n")


def _kb(tmp_path: Path, version: str = "1", citations: int = 1) -> Path:
    doc = FRONT.format(version=version, citations=citations) + BODY
    return write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": doc})


def test_what_the_parser_never_reads_is_blanked_lines_kept() -> None:
    got = unread_blanked(BODY)
    assert len(got.split("\n")) == len(BODY.split("\n"))
    assert "2607.33333" in got and "官方博客" in got
    for gone in ("2607.44444", "2607.55555", "2607.66666", "2607.77777", "indented-code", "2607.88888"):
        assert gone not in got, gone


def test_kb109_counts_only_the_citation_kb_reads(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path, citations=1)
    res = run_kb(["lint"], cwd=root)
    assert "KB109" not in res.stdout
    root = _kb(tmp_path / "b", citations=6)
    res = run_kb(["lint"], cwd=root)
    assert [line for line in res.stdout.splitlines() if "KB109" in line] == [
        ("organized/knowledge/serving.md:5:12: KB109 [error] citations is 6 but the document cites 1 distinct sources: "
         "set `citations: 1` (kb lint --fix) (citation-count-stale)")]


@pytest.mark.parametrize(("value", "why"), [
    (1, None), (MAX_DOC_VERSION, None),
    (MAX_DOC_VERSION + 1, "is 1,000,000, over 999,999, the highest version kb reads (a typo?)"),
    (0, "must be a positive integer such as 45, got 0"), (True, "must be a positive integer such as 45, got True"),
    ("v45", "must be a positive integer such as 45, got 'v45'"),
])
def test_the_one_rule_of_a_docs_version(value: object, why: str | None) -> None:
    assert version_problem(value) == why


BIG = "99999999999999999999999"
BIG_WHY = "is 99,999,999,999,999,999,999,999, over 999,999, the highest version kb reads (a typo?)"


def test_a_version_past_the_range_is_named_everywhere(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path, version=BIG)
    res = run_kb(["lint", "--select", "KB101"], cwd=root)
    assert res.exit_code == 1
    assert res.stdout.splitlines()[0] == (f"organized/knowledge/serving.md:3: KB101 [error] 'version' {BIG_WHY} "
                                          "(front-matter-invalid)")
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0
    assert f"warning: organized/knowledge/serving.md:3: version {BIG_WHY}; the document's version is unknown" \
        in res.stderr.splitlines()
    res = run_kb(["digest", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert res.exit_code == 0
    assert (f"note: the living document has no readable version (organized/knowledge/serving.md:3: 'version' {BIG_WHY}); "
            "fix it: its version is unknown") in res.stderr.splitlines()
    before = (root / "organized/knowledge/serving.md").read_bytes()
    res = run_kb(["bump", "serving", "--updated", "2026-08-01T05:00"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr.strip() == (f"error: organized/knowledge/serving.md:3: front matter 'version' {BIG_WHY}; "
                                  "correct it, then run kb bump again")
    assert (root / "organized/knowledge/serving.md").read_bytes() == before
    assert not (root / "organized/knowledge/history").exists()
