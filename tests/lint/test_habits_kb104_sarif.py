"""KB104 is one finding per document (count and ids), `group: false` and inline comments still
work per id; SARIF rules carry the rule page as help and an absolute helpUri from kb.yaml."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import write_files
from kb.lint.run import lint_paths

DOC = "organized/knowledge/t.md"
TEXT = ("---\ntopic: t\nversion: 1\nupdated: 2026-08-01\n---\n# T\n\n## §1 论文\n\n"
        "- A：见 arXiv:2401.10774。\n"          # line 10
        "- B：见 arXiv:2402.00001 与 arXiv:2401.10774。\n"  # line 11
        "<!-- kb-lint disable-next-line KB104 -->\n"
        "- C：见 arXiv:2403.00002。\n"          # line 13: disabled
        "- D：见 arXiv:2404.00003。\n")         # line 14


def _kb(tmp_path: Path, kb_yaml: str = "topics: [t]\n") -> Path:
    return write_files(tmp_path / "kb", {"kb.yaml": kb_yaml, DOC: TEXT, "organized/paper_cards/.keep": ""})


def test_one_finding_per_document_with_count_and_ids(tmp_path: Path) -> None:
    root = _kb(tmp_path)
    [f] = lint_paths([root / DOC], select=["KB104"]).findings
    assert (f.line, f.code) == (10, "KB104")
    assert f.message == ("3 arXiv ids have no paper card: arXiv:2401.10774 (line 10, 2 mentions), "
                         "arXiv:2402.00001 (line 11), arXiv:2404.00003 (line 14); "
                         "add cards under organized/paper_cards/ (kb card new ID)")


def test_show_and_group_options(tmp_path: Path) -> None:
    root = _kb(tmp_path, "topics: [t]\nlint:\n  rules:\n    KB104: {show: 1}\n")
    [f] = lint_paths([root / DOC], select=["KB104"]).findings
    assert f.message.startswith("3 arXiv ids have no paper card: arXiv:2401.10774 (line 10, 2 mentions), "
                                "… and 2 more (kb lint --verbose lists them);")
    root = _kb(tmp_path / "b", "topics: [t]\nlint:\n  rules:\n    KB104: {group: false}\n")
    found = lint_paths([root / DOC], select=["KB104"]).findings
    assert [(f.line, f.message.split()[0]) for f in found] == [
        (10, "arXiv:2401.10774"), (11, "arXiv:2402.00001"), (14, "arXiv:2404.00003")]


def test_sarif_help_uri_from_kb_yaml_and_no_relative_paths(tmp_path: Path, run_kb) -> None:  # type: ignore[no-untyped-def]
    root = _kb(tmp_path, "topics: [t]\nlint:\n  docs_url: https://example.org/kb/blob/v1/docs/rules/\n")
    r = run_kb(["lint", DOC, "--format", "sarif"], cwd=root)
    rules = {x["id"]: x for x in json.loads(r.stdout)["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["KB104"]["helpUri"] == "https://example.org/kb/blob/v1/docs/rules/KB104.md"
    assert "[docs/diff.md](https://example.org/kb/blob/v1/docs/diff.md)" in rules["KB104"]["help"]["markdown"]
    plain = _kb(tmp_path / "p")
    r = run_kb(["lint", DOC, "--format", "sarif"], cwd=plain)
    rules = json.loads(r.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert not any("helpUri" in x for x in rules)
    assert not any(re.search(r"\]\((?!https?:)", x["help"]["markdown"]) or "docs/rules/" in x["help"]["text"]
                   for x in rules)  # no link to a path that exists only in kb's repository
    assert all(x["help"]["text"].startswith("## What it does") for x in rules)


def test_a_relative_docs_url_is_a_config_error(tmp_path: Path, run_kb) -> None:  # type: ignore[no-untyped-def]
    root = _kb(tmp_path, "topics: [t]\nlint:\n  docs_url: docs/rules/\n")
    r = run_kb(["lint", DOC], cwd=root)
    assert r.exit_code == 2 and "docs_url" in r.stderr
