"""What ``kb ingest`` could not read is counted as failed (exit 2, docs/cli.md), never dropped
in silence: a folder it cannot list keeps the files stored from it (they were deleted with
their claims, exit 0, and the brief went on without them), and a file whose name is not valid
UTF-8 fails on every ingest (it said so, but exited 0)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import write_files

from kb.store import walk

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01T00:00:00+08:00\n---\n# d\n\n## 1. Quokka\n\n- Quokka 吞吐 1.1×。\n"
TOM = {"inbox/tom/2026-07-31T0900-a.md": "- Quokka 在长上下文下吞吐 1.4×。\n",
       "inbox/tom/deep/2026-07-31T0910-b.md": "- Quokka 解码 61 tok/s。\n"}


def _kb(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC,
                                         "inbox/ana/2026-07-31T0800-c.md": "- Quokka 预填 870 tok/s。\n", **TOM})
    (root / "organized/paper_cards").mkdir(parents=True)
    return root


def _unlistable(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """``folder`` cannot be listed (root lists anything: EACCES simulated in the walk)."""
    real = os.scandir

    def scandir(path: str) -> object:
        if Path(path) == folder:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(walk.os, "scandir", scandir)


def test_the_files_stored_from_a_folder_that_cannot_be_listed_are_kept_and_failed(
        tmp_path: Path, run_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=root).stdout.strip() == "4 parsed, 0 unchanged, 0 failed; 4 claims"
    claims = run_kb(["claims", "--format", "json"], cwd=root).stdout
    _unlistable(monkeypatch, root / "inbox/tom")
    for _ in range(2):  # every run, not only the first
        res = run_kb(["ingest"], cwd=root)
        assert res.exit_code == 2
        assert res.stdout.strip() == "0 parsed, 2 unchanged, 2 failed; 4 claims"
        assert res.stderr.splitlines() == [
            "error: inbox/tom/: folder cannot be read (Permission denied); the files stored from it are kept"]
    assert run_kb(["claims", "--format", "json"], cwd=root).stdout == claims  # (the claims are kept)
    monkeypatch.undo()
    again = run_kb(["ingest"], cwd=root)
    assert (again.exit_code, again.stdout.strip()) == (0, "0 parsed, 4 unchanged, 0 failed; 4 claims")


def test_a_folder_that_cannot_be_listed_and_holds_nothing_stored_is_one_failure(
        tmp_path: Path, run_kb, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _kb(tmp_path)
    (root / "inbox/zed").mkdir()
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    _unlistable(monkeypatch, root / "inbox/zed")
    res = run_kb(["ingest", "--format", "json"], cwd=root)
    assert res.exit_code == 2
    got = json.loads(res.stdout)
    assert (got["parsed"], got["unchanged"], got["failed"], got["removed"]) == (0, 4, 1, 0)


def test_a_file_name_that_is_not_utf8_fails_every_ingest(tmp_path: Path, run_kb) -> None:
    root = _kb(tmp_path)
    (root / "inbox/zz").mkdir()
    with open(os.path.join(os.fsencode(root / "inbox/zz"), b"2026-07-31-lat\xe9.md"), "wb") as f:
        f.write("- Quokka 吞吐 2,000 tok/s。\n".encode())
    for parsed, unchanged in ((4, 0), (0, 4)):
        res = run_kb(["ingest"], cwd=root)
        assert res.exit_code == 2
        assert res.stdout.strip() == f"{parsed} parsed, {unchanged} unchanged, 1 failed; 4 claims"
        assert res.stderr.splitlines()[-1] == (
            "error: inbox/zz/2026-07-31-lat\\xe9.md: file name is not valid UTF-8; skipped (rename it)")


def test_a_file_name_holding_a_newline_or_tab_is_refused_and_never_printed(tmp_path: Path, run_kb) -> None:
    """``inbox/zz/2026-07-31-a\\nb.md`` was stored, and its name printed raw in ``kb digest`` (the
    brief got a line chosen by whoever named the file) and ``kb history``."""
    root = _kb(tmp_path)
    write_files(root, {"inbox/zz/2026-07-31-a\nb.md": "- Quokka 吞吐 2.0×。\n",
                       "inbox/zz/2026-07-31-c\td.md": "- Quokka 吞吐 2.1×。\n",
                       "inbox/zz/2026-07-31-e\x7ff.md": "- Quokka 吞吐 2.2×。\n"})
    for parsed, unchanged in ((4, 0), (0, 4)):
        res = run_kb(["ingest"], cwd=root)
        assert res.exit_code == 2
        assert res.stdout.strip() == f"{parsed} parsed, {unchanged} unchanged, 3 failed; 4 claims"
        assert sorted(res.stderr.splitlines()) == [
            f"error: inbox/zz/2026-07-31-{shown}.md: file name holds a control character; skipped (rename it)"
            for shown in ("a\\x0ab", "c\\x09d", "e\\x7ff")]
    for args in (["digest", "serving", "--date", "2026-07-31", "--out", "-"], ["history", "Quokka"]):
        out = run_kb(args, cwd=root)
        assert out.exit_code == 0, out.stderr
        assert "inbox/zz" not in out.stdout
        # what the command lacks is said (escaped), every run: never a raw name
        assert sorted(out.stderr.splitlines()) == [
            f"warning: inbox/zz/2026-07-31-{shown}.md: file name holds a control character; skipped (rename it)"
            for shown in ("a\\x0ab", "c\\x09d", "e\\x7ff")]
