"""Faults a blind breaker found after the store, pipes and shapes were fixed: a night holding a
UTF-16 file, front matter nested past what the YAML parser survives, arXiv settings out of range
in the environment, and a claim row in the store that kb did not write."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import write_files

from kb.core.frontmatter import MAX_DEPTH, split

KB_YAML = 'timezone: "+08:00"\nexecutor: ana\ntopics: {serving: [serving]}\nentities: {Quokka: []}\n'
DOC = "---\ntopic: serving\nversion: 1\nupdated: 2026-01-01\n---\n# d\n\n## 1. Quokka\n\n- Quokka 吞吐 1.1×。\n"
NOTE = "# 夜班笔记\n\n- Quokka 在长上下文下吞吐 1.4×。\n"


def _kb(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    root = write_files(tmp_path / "kb", {"kb.yaml": KB_YAML, "organized/knowledge/serving.md": DOC})
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return root


def test_a_utf16_file_in_the_night_is_read_by_the_brief_as_ingest_reads_it(tmp_path: Path, run_kb) -> None:
    """The brief read lines as UTF-8 only: a UTF-16 file (which ingest accepts with a warning)
    gave it no lines, and a claim's line number indexed past them (IndexError)."""
    root = _kb(tmp_path, {"inbox/ana/2026-07-31T0900-notes.md": NOTE.encode("utf-16")})
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    res = run_kb(["digest", "serving", "--date", "2026-07-31", "--out", "-"], cwd=root)
    assert res.exit_code == 0, res.stderr
    assert "Quokka 在长上下文下吞吐 1.4×。" in res.stdout


def test_front_matter_nested_past_the_limit_is_ignored_with_its_line() -> None:
    """100,000 nested brackets ended ``kb ingest`` with SIGSEGV in the YAML parser; now the front
    matter is ignored with a problem naming file and line, and the body is still read."""
    text = "---\nx: " + "[" * 100_000 + "]" * 100_000 + "\n---\n# body\n"
    fm, body = split(text, "inbox/a.md")
    assert fm.data == {}
    assert [str(p) for p in fm.problems] == [
        f"inbox/a.md:2: front matter nests brackets more than {MAX_DEPTH} deep; front matter ignored"]
    assert body.strip() == "# body"
    fine, _ = split("---\nx: " + "[" * 3 + "1" + "]" * 3 + "\n---\n", "inbox/b.md")
    assert fine.data == {"x": [[[1]]]} and fine.problems == []


@pytest.mark.parametrize(("name", "value", "message"), [
    ("KB_ARXIV_API", "http://[::1", "error: environment KB_ARXIV_API: 'http://[::1' is not an http(s) URL of the "
                                    "arXiv query endpoint (e.g. http://export.arxiv.org/api/query)"),
    ("KB_ARXIV_API", "http://%zz/", "error: environment KB_ARXIV_API: 'http://%zz/' is not an http(s) URL of the "
                                    "arXiv query endpoint (e.g. http://export.arxiv.org/api/query)"),
    ("KB_ARXIV_TIMEOUT", "nan", "error: environment KB_ARXIV_TIMEOUT='nan': expected a number from 0 to 600"),
    ("KB_ARXIV_TIMEOUT", "-1", "error: environment KB_ARXIV_TIMEOUT='-1': expected a number from 0 to 600"),
    ("KB_ARXIV_RETRIES", "99999999999999999999",
     "error: environment KB_ARXIV_RETRIES='99999999999999999999': expected a number from 0 to 20"),
    ("KB_ARXIV_DELAY", "-3", "error: environment KB_ARXIV_DELAY='-3': expected a number from 0 to 60"),
    ("KB_ARXIV_DELAY", "1e400", "error: environment KB_ARXIV_DELAY='1e400': expected a number from 0 to 60"),
    ("KB_ARXIV_DELAY", "99999", "error: environment KB_ARXIV_DELAY='99999': expected a number from 0 to 60"),
])
def test_arxiv_settings_out_of_range_stop_with_exit_2(tmp_path: Path, run_kb, monkeypatch: pytest.MonkeyPatch,
                                                      name: str, value: str, message: str) -> None:
    """A bad IPv6 URL and ``nan`` were tracebacks; a negative timeout or delay was taken as it
    came, and 10**20 retries held ``kb verify`` on a 429 server until it was killed."""
    root = _kb(tmp_path, {})
    monkeypatch.setenv(name, value)
    res = run_kb(["verify", "2601.00001"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr.strip() == message


def test_a_claim_row_kb_did_not_write_stops_readers_with_exit_2(tmp_path: Path, run_kb) -> None:
    """A claim row changed in ``.kb/kb.sqlite`` (here an unknown kind) was a pydantic traceback
    in every reader; it is never trusted: exit 2 naming the store and how to rebuild it. (Here
    the change comes after this run's ingest looked: a change before it is parsed again,
    tests/test_robust_claim_rows.py.)"""
    from kb.store.filerow import _generations

    root = _kb(tmp_path, {"inbox/ana/2026-07-31T0900-notes.md": NOTE})
    assert run_kb(["ingest"], cwd=root).exit_code == 0
    store = root / ".kb" / "kb.sqlite"
    with sqlite3.connect(store) as db:
        db.execute("""UPDATE claims SET json = replace(json, '"kind":"', '"kind":"bogus')""")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('files_checked', ?)", (_generations(db),))
    res = run_kb(["claims"], cwd=root)
    assert res.exit_code == 2
    assert res.stderr.strip() == (
        f"error: {store}: a claim row does not decode (1 validation error for Claim); kb did not write it. "
        "The store is a cache of the KB's files: delete it and run `kb ingest` to rebuild it")
    store.unlink()
    assert run_kb(["claims"], cwd=root).exit_code == 0
