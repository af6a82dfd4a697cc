"""A living document that is no regular file (a named pipe, a folder) is an error naming it in
every command that reads living docs — never a command blocked on the pipe, nor a doc read as
missing (a blind tester's R10; kb.core.paths read_inside / regular_file)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import write_files

KB_YAML = 'timezone: "+08:00"\nentities: {vLLM: []}\ntopics: {inference: [inference-systems]}\n'
DOC = "organized/knowledge/inference.md"
COMMANDS = [["diff", "inference", "--date", "2026-07-31"],
            ["digest", "--date", "2026-07-31", "--executor", "tom", "--out", "-"],
            ["lint"], ["bump", "inference"], ["history", "vLLM"], ["sources"],
            ["export", "bibtex", "inference"]]


@pytest.fixture
def kb_root(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "inbox/zz/2026-07-31-0900-a.md": "- vLLM ttft 12 ms\n"})
    (root / "organized/paper_cards").mkdir(parents=True)
    (root / "organized/knowledge").mkdir(parents=True)
    return root


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_living_doc_that_is_a_named_pipe_is_an_error(run_kb, kb_root: Path, args: list[str]) -> None:
    os.mkfifo(kb_root / DOC)
    res = run_kb([*args, "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert f"error: {DOC}: not a regular file (a named pipe)\n" in res.stderr


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: a[0])
def test_a_living_doc_that_is_a_folder_is_an_error(run_kb, kb_root: Path, args: list[str]) -> None:
    (kb_root / DOC).mkdir()
    res = run_kb([*args, "--kb", str(kb_root)])
    assert res.exit_code == 2
    assert f"error: {DOC}: not a regular file (a folder)\n" in res.stderr


def test_read_inside_never_waits_on_a_pipe(tmp_path: Path) -> None:
    from kb.core.errors import InputError
    from kb.core.paths import read_inside

    os.mkfifo(tmp_path / "p.md")
    with pytest.raises(InputError, match=r"^p\.md: not a regular file \(a named pipe\)$"):
        read_inside(tmp_path, "p.md")
    (tmp_path / "f.md").write_bytes(b"x" * 3_000_000)
    assert read_inside(tmp_path, "f.md") == b"x" * 3_000_000
