"""File paths in the brief's §4 list and next steps are escaped: a file named [x](y).md is no
link, `rm`.md no code span, a|b.md no new table cell."""

from __future__ import annotations

from pathlib import Path

from conftest import write_files
from kb.brief.render import path


def test_path_filter() -> None:
    assert path("inbox/jay/2026-07-31-[x](y).md:1") == "inbox/jay/2026-07-31-\\[x\\](y).md:1"
    assert path("inbox/jay/2026-07-31-`rm`.md") == "inbox/jay/2026-07-31-\\`rm\\`.md"
    assert path("inbox/jay/2026-07-31-a|b.md") == "inbox/jay/2026-07-31-a\\|b.md"
    assert path("inbox/jay/2026-07-31-real.md") == "inbox/jay/2026-07-31-real.md"


def test_brief_lists_odd_names_escaped(run_kb, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    kb = write_files(tmp_path / "kb", {
        "kb.yaml": 'timezone: "+08:00"\ncutoff: "22:00"\ntopics: [inference]\nentities:\n  TGI: []\n',
        "organized/knowledge/inference.md": "---\ntopic: inference\nversion: 2\nupdated: 2026-07-30T05:00:00+08:00\n"
                                            "---\n# inference\n## §1 O\n- TGI 300 tok/s.\n",
        "inbox/jay/2026-07-31-[x](y).md": "- TGI 320 tok/s.\n",
        "inbox/jay/2026-07-31-a|b.md": "- 今天天气不错。\n",
    })
    r = run_kb(["digest", "--out", "-", "--executor", "x", "--date", "2026-07-31"], cwd=kb)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert "| inbox/jay/2026-07-31-\\[x\\](y).md | 1 | TGI（矛盾/待核实） |" in lines
    assert "](y).md:1）" not in r.stdout.replace("\\](y).md:1）", "")
    assert "inbox/jay/2026-07-31-\\[x\\](y).md:1）" in r.stdout  # the next step's source
