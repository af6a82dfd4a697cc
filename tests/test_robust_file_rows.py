"""A ``files`` row of the store that kb did not write (edited with ``sqlite3``): every column
decodes in one place (kb.store.filerow). ``kb ingest`` (which every command runs first) parses
such a file again with a note; a reader that still meets one stops with exit 2 naming the store,
the file and the column, never a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import get_args

import pytest
from conftest import write_files

from kb.core.claims import Role
from kb.store.filerow import ROLES

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. Quokka\n\n- Quokka 吞吐 1.1×。\n"
NOTE_PATH = "inbox/ana/2026-07-31T0900-notes.md"
NOTE = "# 夜班笔记\n\n- Quokka 在长上下文下吞吐 1.4×。\n"

CASES = [
    ("front", "'{bad'", "front: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("headings", "'{bad'",
     "headings: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("headings", """'[{"level": 1}]'""", 'headings: {"level": 1} is no heading'),
    ("problems", "'{bad'",
     "problems: not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
    ("problems", "'{}'", "problems: not a JSON array"),
    ("invalid_ids", "'[[1]]'", "invalid_ids: [1] is no (line, column, id, reason)"),
    ("written_at", "'garbage'", 'written_at: "garbage" is no ISO time'),
    ("written_at", "'2026-07-31 09:00:00+08:00'", 'written_at: "2026-07-31 09:00:00+08:00" is no ISO time'),
    ("role", "'bogus'", 'role: "bogus" is none of card, inbox, living-doc, other'),
    ("n_claims", "'many'", 'n_claims: "many" is no count'),
    ("mtime_ns", "'x'", 'mtime_ns: "x" is no time'),
]


def _kb(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC, NOTE_PATH: NOTE})
    (root / "organized/paper_cards").mkdir(parents=True)
    return root


def _tamper(root: Path, column: str, value: str, *, trusted: bool = False) -> None:
    """Change one column of the note's row; with ``trusted``, also mark the table as checked
    (as if the change came after this run's ingest looked: the readers' own guard answers)."""
    with sqlite3.connect(root / ".kb/kb.sqlite") as db:
        db.execute(f"UPDATE files SET {column}={value} WHERE path=?", (NOTE_PATH,))
        if trusted:
            from kb.store.filerow import _generations

            db.execute("INSERT OR REPLACE INTO meta VALUES ('files_checked', ?)", (_generations(db),))


@pytest.mark.parametrize(("column", "value", "why"), CASES)
def test_a_file_row_kb_did_not_write_is_parsed_again_with_a_note(tmp_path: Path, run_kb, column: str, value: str,
                                                                 why: str) -> None:
    """``front='{bad'`` (and the other JSON columns) was a JSONDecodeError traceback in claims,
    diff, digest, history, trace, sources, verify, lint and export; ``written_at='garbage'`` a
    ValueError in ``kb sources`` and an empty brief; ``role='bogus'`` an empty brief, no note."""
    root = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    before = run_kb(["claims", "--format", "json"], cwd=root).stdout
    _tamper(root, column, value)
    res = run_kb(["claims", "--format", "json"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert res.stderr.splitlines() == [
        (f"note: {root / '.kb/kb.sqlite'}: a file row ({NOTE_PATH}) does not decode ({why}); kb did not write it: "
         "parsed again")]
    assert res.stdout == before
    again = run_kb(["ingest"], cwd=root)
    assert (again.exit_code, again.stderr) == (0, "")
    assert again.stdout.strip() == "0 parsed, 2 unchanged, 0 failed; 2 claims"


@pytest.mark.parametrize("args", [["sources"], ["digest", "serving", "--date", "2026-07-31", "--out", "-"],
                                  ["verify", "--all", "--offline"], ["diff"]])
@pytest.mark.parametrize(("column", "value", "why"), [CASES[0], CASES[2], CASES[4], CASES[5]])
def test_a_reader_meeting_a_file_row_that_does_not_decode_stops_with_exit_2(
        tmp_path: Path, run_kb, args: list[str], column: str, value: str, why: str) -> None:
    """A row changed after ingest looked (the table marked as checked): every reader's decode
    goes through kb.store.filerow and names the store, the file and the column."""
    root = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    _tamper(root, column, value, trusted=True)
    res = run_kb(args, cwd=root)
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert res.stderr.splitlines()[-1] == (
        f"error: {root / '.kb/kb.sqlite'}: a file row ({NOTE_PATH}) does not decode ({why}); kb did not write it. "
        "The store is a cache of the KB's files: delete it and run `kb ingest` to rebuild it")


@pytest.mark.parametrize("args", [["sources"], ["digest", "serving", "--date", "2026-07-31", "--out", "-"]])
def test_a_written_at_that_is_no_time_stops_the_span_of_the_kb_with_exit_2(tmp_path: Path, run_kb,
                                                                           args: list[str]) -> None:
    """``kb sources`` ended in ``ValueError: Invalid isoformat string`` (the ledger's span)."""
    root = _kb(tmp_path)
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    _tamper(root, "written_at", "'garbage'", trusted=True)
    res = run_kb(args, cwd=root)
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert res.stderr.splitlines()[-1] == (
        f"error: {root / '.kb/kb.sqlite'}: a file row ({NOTE_PATH}) does not decode (written_at: \"garbage\" is no "
        "ISO time); kb did not write it. The store is a cache of the KB's files: delete it and run `kb ingest` to "
        "rebuild it")


def test_the_roles_a_file_row_may_have_are_the_claim_roles() -> None:
    assert ROLES == frozenset(get_args(Role))
