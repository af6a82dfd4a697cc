"""A night's file that cannot be read any more after ``kb ingest`` stored its claims (``chmod
000``), or reads shorter than the line numbers stored for it: the brief reads it through one
reader (kb.store.lines.file_lines), renders, and says which file with a ``warning:``; it was an
IndexError in the brief's table-title look-up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_files

from kb.store import lines as store_lines
from kb.store.lines import file_lines

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01T00:00:00+08:00\n---\n# d\n\n## 1. Quokka\n\n- Quokka 吞吐 1.1×。\n"
TABLE_PATH = "inbox/ana/2026-07-31T1000-table.md"
TABLE = ("# 表\n\n| # | arXiv | 标题 | 方向 |\n|---|---|---|---|\n| 1 | 2607.25668 | Critic-guided code review | coding |\n"
         "| 2 | 2607.25669 | Quokka serving | serving |\n")


def _kb(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC, TABLE_PATH: TABLE})
    (root / "organized/paper_cards").mkdir(parents=True)
    return root


def _deny(monkeypatch: pytest.MonkeyPatch, root: Path) -> None:
    """The table file cannot be read (root reads anything: EACCES simulated where kb reads it again)."""
    real = store_lines.read_inside

    def read_inside(base: Path, rel: str, *, what: str = "file") -> bytes:
        if rel == TABLE_PATH:
            raise PermissionError(13, "Permission denied")
        return real(base, rel, what=what)

    monkeypatch.setattr(store_lines, "read_inside", read_inside)


WARNING = (f"warning: {TABLE_PATH}: cannot be read (Permission denied): the brief reads its lines as they are now "
           "(table titles, caveats and hints of missing lines are left out)")


def test_a_night_file_unreadable_since_ingest_renders_the_brief_with_a_warning(
        tmp_path: Path, run_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    whole = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert whole.exit_code == 0 and "### 增量 1【净新增】Quokka serving（arXiv:2607.25669）" in whole.stdout
    _deny(monkeypatch, root)
    res = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.splitlines() == [WARNING]
    assert "### 增量 1【净新增】arXiv:2607.25669" in res.stdout.splitlines()  # no table title: the bare id
    js = run_kb(["digest", "serving", "--date", "2026-07-31", "--format", "json"], cwd=root)
    assert js.exit_code == 0 and js.stderr.splitlines() == [WARNING]
    assert json.loads(js.stdout)["executor"] == "ana"


def test_file_lines_pads_a_file_shorter_than_its_stored_lines_and_says_why(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", {"inbox/a.md": "---\nx: 1\n---\none\ntwo\n"})
    assert file_lines(root, "inbox/a.md") == (["", "", "", "one", "two", ""], None)
    assert file_lines(root, "inbox/a.md", 6) == (["", "", "", "one", "two", ""], None)
    assert file_lines(root, "inbox/a.md", 8) == (
        ["", "", "", "one", "two", "", "", ""], "has 6 lines, fewer than the 8 kb ingest read (changed since)")
    assert file_lines(root, "inbox/gone.md", 2) == (["", ""], "cannot be read (No such file or directory)")
