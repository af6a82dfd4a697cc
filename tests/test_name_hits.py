"""The store's memo of name hits (kb.store.name_hits): ``Store.claims(text_like=…)`` answers what the
``LIKE`` over every claim answers, and stays so as files are added, changed and removed, as
kb.yaml changes, and on a store that cannot be written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conftest import write_files
from kb.store import name_hits
from kb.store.name_hits import like_pattern
from kb.store.workspace import open_kb

FILES = {
    "kb.yaml": "topics: [inference]\nentities:\n  TGI: [Text Generation Inference]\n",
    "inbox/jay/2026-07-30-a.md": "# a\n\n- Bole 把 TTFT 降低 21%。\n- EAGLE-3 吞吐 2.1×。\n- 无关 3 条\n",
    "inbox/jay/2026-07-30-b.md": "# Bole 专题\n\n- 吞吐 383.7 tok/s\n- TGI 维护模式 2025-12\n",
    "inbox/tom/2026-07-31-c.md": "# c\n\n- text-generation-inference 进入维护模式\n- eagle_3 又快了 1.4×\n",
}


def scan(db: sqlite3.Connection, names: list[str]) -> list[tuple[str, int, str]]:
    """``(path, line, text)`` of the claims whose JSON matches one of ``names`` by the plain LIKE."""
    likes = " OR ".join("json LIKE ? ESCAPE '\\'" for _ in names)
    rows = db.execute(f"SELECT path, line, json FROM claims WHERE {likes} ORDER BY path, line, rowid",
                      [like_pattern(n) for n in names])
    return [(p, line, js) for p, line, js in rows]


def memo(root: Path, names: list[str]) -> tuple[list[tuple[str, int, str]], list[tuple[str, int, str]]]:
    """(claims the memo answers, claims the plain LIKE answers), on the store brought up to date."""
    kb = open_kb(root)
    try:
        got = [(c.provenance.path, c.provenance.line, c.model_dump_json(exclude_defaults=True))
               for c in kb.store.claims(text_like=names)]
        return got, scan(kb.store.db, names)
    finally:
        kb.close()


def memo_rows(root: Path) -> tuple[list[str], list[tuple[str, str]]]:
    db = sqlite3.connect(root / ".kb" / "kb.sqlite")
    try:
        if db.execute("SELECT 1 FROM sqlite_master WHERE name='name_memo'").fetchone() is None:
            return [], []
        patterns = [r[0] for r in db.execute("SELECT pattern FROM name_memo ORDER BY pattern")]
        hits = list(db.execute("SELECT pattern, path FROM name_hits ORDER BY pattern, path"))
        return patterns, hits
    finally:
        db.close()


def test_like_pattern_escapes_and_folds_spaces() -> None:
    assert like_pattern("eagle 3") == "%eagle_3%"
    assert like_pattern("50% off_x\\y") == "%50\\%_off\\_x\\\\y%"


def test_memo_answers_what_the_scan_answers_and_keeps_it(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", FILES)
    got, want = memo(root, ["bole", "eagle 3"])
    assert [(p, line) for p, line, _ in got] == [
        ("inbox/jay/2026-07-30-a.md", 3), ("inbox/jay/2026-07-30-a.md", 4),
        ("inbox/jay/2026-07-30-b.md", 3), ("inbox/jay/2026-07-30-b.md", 4),  # under "# Bole 专题"
        ("inbox/tom/2026-07-31-c.md", 4)]  # eagle_3: the space matches any one character
    assert got == want
    patterns, hits = memo_rows(root)
    assert patterns == ["%bole%", "%eagle_3%"]
    assert ("%eagle_3%", "inbox/tom/2026-07-31-c.md") in hits
    got2, want2 = memo(root, ["bole"])  # a second run reads the memo
    assert got2 == want2 == [g for g in got if "Bole" in g[2] or "bole" in g[2]]


def test_memo_follows_new_changed_and_removed_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_files(tmp_path / "kb", FILES)
    monkeypatch.setattr(name_hits, "RESCAN_FACTOR", 100.0)  # a small KB: rescanning is always cheaper here
    memo(root, ["bole", "tgi"])

    def no_drop(db: sqlite3.Connection) -> None:
        raise AssertionError("dropped, not brought up to date")

    monkeypatch.setattr(name_hits, "_drop", no_drop)
    write_files(root, {"inbox/li/2026-08-01-d.md": "# d\n\n- BOLE 再提速 1.2×\n",
                       "inbox/jay/2026-07-30-a.md": "# a\n\n- 无关 3 条\n- TGI 2.0 吞吐 2×\n"})
    (root / "inbox/jay/2026-07-30-b.md").unlink()
    got, want = memo(root, ["bole", "tgi"])
    assert [(p, line) for p, line, _ in got] == [("inbox/jay/2026-07-30-a.md", 4), ("inbox/li/2026-08-01-d.md", 3),
                                                 ("inbox/tom/2026-07-31-c.md", 3)]  # its JSON: entity:tgi
    assert got == want
    patterns, hits = memo_rows(root)
    assert patterns == ["%bole%", "%tgi%"]  # brought up to date, not dropped
    assert ("%bole%", "inbox/jay/2026-07-30-b.md") not in hits
    db = sqlite3.connect(root / ".kb" / "kb.sqlite")
    try:
        assert dict(db.execute("SELECT path, hash FROM name_files")) == dict(db.execute("SELECT path, hash FROM files"))
    finally:
        db.close()


def test_a_new_config_drops_the_memo(tmp_path: Path) -> None:
    root = write_files(tmp_path / "kb", FILES)
    memo(root, ["bole"])
    write_files(root, {"kb.yaml": FILES["kb.yaml"] + "  Bole: [BoleX]\n"})  # every file is parsed again
    got, want = memo(root, ["text generation inference"])
    assert got == want and [(p, line) for p, line, _ in got] == [("inbox/tom/2026-07-31-c.md", 3)]
    assert memo_rows(root)[0] == ["%text_generation_inference%"]


def test_the_oldest_patterns_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(name_hits, "MEMO_MAX", 2)
    root = write_files(tmp_path / "kb", FILES)
    memo(root, ["bole"])
    memo(root, ["tgi"])
    memo(root, ["tgi", "eagle 3"])
    got, want = memo(root, ["eagle 3"])
    assert got == want
    patterns, hits = memo_rows(root)
    assert patterns == ["%eagle_3%", "%tgi%"]
    assert {p for p, _ in hits} == {"%eagle_3%", "%tgi%"}
    got, want = memo(root, ["bole"])  # memoised again, from a scan
    assert got == want and len(got) == 3


def test_a_store_that_cannot_be_written_scans(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_files(tmp_path / "kb", FILES)

    def refuse(store: object, patterns: list[str]) -> None:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(name_hits, "_update", refuse)
    got, want = memo(root, ["bole"])
    assert got == want and len(got) == 3
    assert memo_rows(root) == ([], [])


def test_a_large_change_drops_the_memo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = write_files(tmp_path / "kb", FILES)
    memo(root, ["bole", "tgi", "eagle 3"])
    # 3 patterns × the 3 claims of the changed file > the 7 claims of the store: dropped, not rescanned
    write_files(root, {"inbox/jay/2026-07-30-a.md": "# a\n\n- Bole 3×\n- 吞吐 2.1×\n- TTFT 降低 9%\n"})

    def no_rescan(db: sqlite3.Connection, changed: list[str]) -> None:
        raise AssertionError("rescanned, not dropped")

    monkeypatch.setattr(name_hits, "_rescan", no_rescan)
    got, want = memo(root, ["tgi"])
    assert got == want and [(p, line) for p, line, _ in got] == [
        ("inbox/jay/2026-07-30-b.md", 4), ("inbox/tom/2026-07-31-c.md", 3)]
    assert memo_rows(root)[0] == ["%tgi%"]
