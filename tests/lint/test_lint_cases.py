"""CASES.md C03, C08, C10, C12, C13 through kb lint, and KB102 against git (--base)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from kb.lint.run import lint_paths

FRONT = "---\ntopic: t\nversion: 1\nupdated: 2026-07-31T05:00:00+08:00\n---\n"


def _lint(tmp_path: Path, data: bytes | str, select: list[str], name: str = "t.md"):
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True, exist_ok=True)
    doc = root / "organized" / "knowledge" / name
    doc.write_bytes(data.encode() if isinstance(data, str) else data)
    return lint_paths([doc], select=select).findings


def test_c03_malformed_ids_with_line_and_column(tmp_path: Path) -> None:
    line = "0704.0001 1412.9999 1501.00001 2301.00001v1 | 0703.0001 1501.0001 1412.00001 2313.00001"
    found = _lint(tmp_path, FRONT + line + "\n", ["KB103"])
    cols = [line.index(x) + 1 for x in ("0703.0001", "1501.0001", "1412.00001", "2313.00001")]
    assert [(f.line, f.column) for f in found] == [(6, c) for c in cols]
    assert [f.message.split(": ", 1)[1] for f in found] == [
        "new-style ids start at 0704",
        "4-digit sequence after 1412 (5 digits from 1501)",
        "5-digit sequence before 1501",
        "month 13 does not exist",
    ]


def test_c08_bom_and_crlf_front_matter_is_valid(tmp_path: Path) -> None:
    good = b"\xef\xbb\xbf" + FRONT.replace("\n", "\r\n").encode() + "正文 2.03×\r\n".encode()
    assert _lint(tmp_path, good, ["KB101"]) == []
    no_updated = good.replace(b"updated: 2026-07-31T05:00:00+08:00\r\n", b"")
    [f] = _lint(tmp_path, no_updated, ["KB101"], "u.md")
    assert (f.line, f.message) == (4, "front matter has no 'updated': add e.g. `updated: 2026-07-31T05:00:00+08:00`")


def test_c10_duplicate_keys_and_tabs_name_their_line(tmp_path: Path) -> None:
    [dup] = _lint(tmp_path, "---\ntitle: 初版\ntitle: 修订版\n---\n# t\n", ["KB101"], "a.md")
    assert (dup.line, dup.message) == (3, "duplicate front-matter key 'title' (first at line 2); front matter ignored")
    [tab] = _lint(tmp_path, "---\ntags:\n\t- llm\n---\n# t\n", ["KB101"], "b.md")
    assert (tab.line, tab.column) == (3, 1) and tab.message.startswith("tab used for indentation in front matter")


def test_missing_front_matter(tmp_path: Path) -> None:
    [f] = _lint(tmp_path, "# 没有头\n\n- 正文\n", ["KB101"])
    assert (f.line, f.code, f.severity) == (1, "KB101", "error")


def test_c12_cjk_emphasis_lines_1_to_3(tmp_path: Path) -> None:
    text = "- **“引用”**后的结论\n- 结论：**2.03×**加速\n- 延迟降低**−67.6%**以上\n"
    found = _lint(tmp_path, text, ["KB114"])
    assert [(f.line, f.code, f.severity) for f in found] == [(1, "KB114", "warning"), (2, "KB114", "warning"),
                                                             (3, "KB114", "warning")]
    assert _lint(tmp_path, "- 结论：**2.03×** 加速\n- **2.03×**，加速\n", ["KB114"], "ok.md") == []


def test_c13_raw_cell_count(tmp_path: Path, run_kb) -> None:
    table = "| 方法 | 命令 | 来源 |\n|---|---|---|\n| A | `grep a \\| wc` | paper |\n| B | `grep b | wc` | paper |\n"
    [f] = _lint(tmp_path, table, ["KB115"])
    assert (f.line, f.code, f.severity) == (4, "KB115", "error")
    assert f.message.startswith("4 cells, header has 3: markdown-it drops 'paper'")
    r = run_kb(["lint", "organized/knowledge/t.md", "--select", "KB115"], cwd=tmp_path / "kb")
    assert r.exit_code == 1  # a lint finding (DESIGN.md exit codes), not a usage error


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.email=t@example.org", "-c", "user.name=t", "-C", str(cwd), *args],
                   check=True, capture_output=True)


def test_kb102_against_history_and_git_base(tmp_path: Path, run_kb) -> None:
    root = tmp_path / "kb"
    hist = root / "organized" / "knowledge" / "history" / "t"
    hist.mkdir(parents=True)
    (hist / "v1.md").write_text(FRONT + "# v1\n", encoding="utf-8")
    doc = root / "organized" / "knowledge" / "t.md"
    doc.write_text(FRONT + "# t\n", encoding="utf-8")
    [f] = lint_paths([doc], select=["KB102"]).findings
    assert (f.line, f.message) == (3, "version 1 is not greater than the newest snapshot history/t/v1.md: set `version: 2`")
    (hist / "v1.md").unlink()
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "v1")
    assert lint_paths([doc], select=["KB102"], base="HEAD").findings == []  # unchanged since HEAD
    doc.write_text(FRONT + "# t\n\n- 新增一条。\n", encoding="utf-8")
    [g] = lint_paths([doc], select=["KB102"], base="HEAD").findings
    assert g.message == "the document changed since HEAD but version 1 is not greater than 1 there: set `version: 2`"
    doc.write_text(FRONT.replace("version: 1", "version: 2") + "# t\n\n- 新增一条。\n", encoding="utf-8")
    assert lint_paths([doc], select=["KB102"], base="HEAD").findings == []
    bad = run_kb(["lint", "--select", "KB102", "--base", "no-such-rev"], cwd=root)
    assert bad.exit_code == 2 and "--base no-such-rev: not a git commit" in bad.stderr


@pytest.mark.parametrize("rev", ["HEAD"])
def test_kb102_new_file_at_base_is_fine(tmp_path: Path, rev: str) -> None:
    root = tmp_path / "kb"
    (root / "organized" / "knowledge").mkdir(parents=True)
    (root / "README.md").write_text("x\n", encoding="utf-8")
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "init")
    doc = root / "organized" / "knowledge" / "t.md"
    doc.write_text(FRONT + "# t\n", encoding="utf-8")
    assert lint_paths([doc], select=["KB102"], base=rev).findings == []


def test_kb108_a_card_rating_is_no_paper_fact_support(tmp_path: Path) -> None:
    """Issue 19: lint's paper facts are the diff's facts (kb.facts.fact.is_fact), no second copy.
    A card's vote count (``HF 票 为 80%``: a rating) no longer supports a consensus throughput of
    ``> 80%``; the diff never counted it as a fact. (The line relays, ``据报道``: a line citing
    the paper itself would be first-hand cited, kb.facts.firsthand, and not checked.)"""
    (tmp_path / "kb.yaml").write_text("topics: [serving]\nentities: {vLLM: []}\n", encoding="utf-8")
    doc = tmp_path / "organized" / "knowledge" / "serving.md"
    doc.parent.mkdir(parents=True)
    doc.write_text("---\ntopic: serving\nversion: 1\nupdated: 2026-07-31\n---\n\n## 共识\n\n"
                   "- 据报道 vLLM arXiv:2607.26627 吞吐 > 80%\n", encoding="utf-8")
    cards = tmp_path / "organized" / "paper_cards"
    cards.mkdir(parents=True)
    (cards / "901-2607-26627.md").write_text('---\narxiv: "2607.26627"\ntitle: T\n---\n\nvLLM 的 HF 票 为 80%。\n',
                                             encoding="utf-8")
    findings = lint_paths([doc], kb=tmp_path, select=["KB108"]).findings
    assert [(f.code, f.line, f.message.split(" in consensus")[0]) for f in findings] == [("KB108", 9, "'80%'")]
