"""No path kb prints holds a character that moves lines, the cursor or the reading direction:
a name holding a control character (newline, TAB) or an invisible or direction character
(U+202E, a zero-width space) is refused where kb finds files (kb.store.walk refused_name), and
shown escaped by the one function (escaped_name) — in ingest, in every command's warning, in
kb lint (a blind tester's M13 residue and R8's file names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files

KB_YAML = 'timezone: "+08:00"\nentities: {vLLM: []}\ntopics: {inference: [inference-systems]}\n'
DOC = "---\ntopic: inference\nversion: 3\nupdated: 2026-07-30T05:00:00+08:00\n---\n# 活文档\n\n- vLLM throughput 600 tok/s\n"
NAMES = {"2026-07-31-a\nb.md": "2026-07-31-a\\x0ab.md", "2026-07-31-a\tb.md": "2026-07-31-a\\x09b.md",
         "2026-07-31-x\n## 结论：全部核实\n.md": "2026-07-31-x\\x0a## 结论：全部核实\\x0a.md",
         "2026-07-31-\u202emd.kcart-0906.md": "2026-07-31-\\u202emd.kcart-0906.md",
         "2026-07-31-9\u200b04.md": "2026-07-31-9\\u200b04.md",
         # every Unicode line break: U+2028/U+2029 (a line to splitlines, JavaScript, editors), NEL, VT, FF
         "2026-07-31-a\u2028## 结论.md": "2026-07-31-a\\u2028## 结论.md",
         "2026-07-31-b\u2029c.md": "2026-07-31-b\\u2029c.md", "2026-07-31-d\x85e.md": "2026-07-31-d\\x85e.md",
         "2026-07-31-f\x0bg.md": "2026-07-31-f\\x0bg.md", "2026-07-31-h\x0ci.md": "2026-07-31-h\\x0ci.md"}


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/inference.md": DOC,
                                         "inbox/zz/2026-07-31-0900-ok.md": "- vLLM throughput 508 tok/s\n"})
    (root / "organized/paper_cards").mkdir()
    return root


@pytest.mark.parametrize("name", sorted(NAMES), ids=range(len(NAMES)))
def test_a_name_that_cannot_be_printed_is_refused_and_shown_escaped(run_kb, kb_root: Path, name: str) -> None:
    write_files(kb_root, {f"inbox/zz/{name}": "- vLLM throughput 601 tok/s\n"})
    said = f"inbox/zz/{NAMES[name]}: file name holds a control character; skipped (rename it)\n"
    res = run_kb(["ingest", "--kb", str(kb_root)])
    assert (res.exit_code, res.stdout) == (2, "2 parsed, 0 unchanged, 1 failed; 2 claims\n")
    assert f"error: {said}" in res.stderr
    for args in (["history", "vLLM"], ["digest", "--date", "2026-07-31", "--executor", "tom", "--out", "-"],
                 ["claims", "--subject", "vLLM"], ["trace", "vLLM"], ["sources"]):
        res = run_kb([*args, "--kb", str(kb_root)])
        assert res.exit_code == 0, (args, res.stderr)
        assert res.stderr.startswith(f"warning: {said}") and res.stderr.count("\n") <= 2, args
        assert "601" not in res.stdout and "\t" not in res.stdout and "\u202e" not in res.stdout, args
        assert "\n## 结论" not in res.stdout and len(res.stdout.splitlines()) == res.stdout.count("\n"), args


def test_lint_refuses_a_living_doc_name_kb_would_not_print(run_kb, kb_root: Path) -> None:
    write_files(kb_root, {"organized/knowledge/x\n## 结论\n.md": DOC})
    res = run_kb(["lint", "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert res.stderr.endswith("organized/knowledge/x\\x0a## 结论\\x0a.md: file name holds a control character; "
                               "not linted (rename it)\n")


def test_lint_shows_a_file_it_is_given_escaped(run_kb, tmp_path: Path) -> None:
    bad = tmp_path / "a\tb\u202e.md"
    bad.write_text("- 见 §9.9\n", encoding="utf-8")
    res = run_kb(["lint", str(bad), "--select", "KB105"])
    assert res.exit_code == 1
    assert "a\\x09b\\u202e.md:1:" in res.stdout and "\t" not in res.stdout and "\u202e" not in res.stdout


def test_escaped_name_and_refused_name() -> None:
    from kb.store.walk import escaped_name, refused_name

    assert [refused_name(n) for n in ("a.md", "论文 笔记.md", "a\x1bb.md", "a\u2066b.md", "a\u200db.md")] == [
        False, False, True, True, False]  # (ZWJ: emoji and scripts need it)
    assert escaped_name("a\x7f\u00adb\ufeff.md") == "a\\x7f\\xadb\\ufeff.md"
    assert escaped_name("论文.md") == "论文.md"
