"""Every reader of a night's files reads front matter through the one bounded reader
(:func:`kb.core.frontmatter.split`): a front matter of 200,000 keys is reported once at its
line and never loaded, and the file's body is still read by ingest and by the brief."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import write_files

import kb.core.frontmatter as fmmod
from kb.core.frontmatter import MAX_BYTES, MAX_LINES, body_lines, split

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Wombat: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. Wombat\n\n- Wombat 吞吐 1.1×。\n"
HUGE = "inbox/ana/2026-08-02T0900-wide.md"


def _huge(keys: int) -> str:
    return "---\n" + "".join(f"f{i}: {'w' * 40}\n" for i in range(keys)) + "---\n# wide\n\n- Wombat 吞吐 7 tok/s\n"


def test_a_long_front_matter_is_never_given_to_the_yaml_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[int] = []
    real = fmmod.load_yaml
    monkeypatch.setattr(fmmod, "load_yaml", lambda src, *a, **k: loaded.append(len(src)) or real(src, *a, **k))
    fm, body = split(_huge(MAX_LINES + 1), "inbox/x.md")
    assert loaded == []
    assert fm.data == {} and fm.raw == {} and fm.present
    assert [str(p) for p in fm.problems] == [
        "inbox/x.md:2: front matter runs 10,001 lines, more than 10,000; front matter ignored, body read"]
    assert body.split("\n")[MAX_LINES + 2:] == ["", "# wide", "", "- Wombat 吞吐 7 tok/s", ""]
    wide, _ = split("---\nnote: " + "z" * MAX_BYTES + "\n---\n", "inbox/y.md")
    assert [str(p) for p in wide.problems] == [
        "inbox/y.md:2: front matter holds 1,000,007 characters, more than 1,000,000; front matter ignored, body read"]
    assert loaded == []
    at_bound, _ = split(_huge(MAX_LINES), "inbox/z.md")  # at the bound it is loaded (and holds too many values)
    assert loaded == [len("".join(f"f{i}: {'w' * 40}\n" for i in range(MAX_LINES)))]
    assert [str(p) for p in at_bound.problems] == [
        "inbox/z.md:2: front matter holds more than 10,000 values (YAML aliases?); ignored"]


def test_body_lines_blank_the_front_matter_and_keep_line_numbers() -> None:
    data = "---\ntitle: Wombat 只能看相对位置\n---\r\n# t\r\n- Wombat 吞吐 3 tok/s\r\n".encode("utf-16")
    assert body_lines(data, "inbox/u.md") == ["", "", "", "# t", "- Wombat 吞吐 3 tok/s", ""]


def test_a_night_with_200000_front_matter_keys_is_briefed_quickly(tmp_path: Path, run_kb,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``kb digest`` loaded the 200,000 keys again in each reader and read every key line as
    prose (minutes on a loaded machine); now no reader loads it and the brief reads the body."""
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC, HUGE: _huge(200_000)})
    loaded: list[int] = []
    real = fmmod.load_yaml
    monkeypatch.setattr(fmmod, "load_yaml", lambda src, *a, **k: loaded.append(len(src)) or real(src, *a, **k))
    res = run_kb(["ingest"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.splitlines() == [
        f"warning: {HUGE}:2: front matter runs 200,000 lines, more than 10,000; front matter ignored, body read"]
    res = run_kb(["digest", "serving", "--date", "2026-08-02", "--out", "-"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert "- Wombat 吞吐 7 tok/s — `" in res.stdout and f"{HUGE}:200005" in res.stdout
    assert max(loaded, default=0) < 1000  # only kb.yaml and the living doc's front matter were loaded
