"""The no-change check of every command (issue 11): one digest of the files on disk against the
store's, kept between runs (kb.store.base.StoreBase.files_digest), and every add, delete, rename and
in-place edit still found — by ``kb ingest``'s config-free path (kb.store.fresh.unchanged_store)
as by the full one."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from conftest import write_files
from kb.store import base as store_module
from kb.store.ingest import ingest
from kb.core.paths import STORE_DIR
from kb.store.base import files_digest
from kb.store.db import Store
from kb.store.fresh import unchanged_store
from kb.store.walk import iter_kb_files

FILES = {
    "kb.yaml": "topics: [inference]\n",
    "inbox/jay/2026-07-31-a.md": "# a\n\n- OmniServe 吞吐 2.1×\n",
    "inbox/jay/2026-07-31-b.md": "# b\n\n- OmniServe TTFT 降低 20%\n",
    "organized/knowledge/inference.md": "# inference\n\n- 吞吐 2.0×\n",
}


def _meta(root: Path, key: str) -> str | None:
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    try:
        row = db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None
    finally:
        db.close()


def _ready(tmp_path: Path) -> Path:
    root = write_files(tmp_path / "kb", FILES)
    assert ingest(root).parsed == 3
    ingest(root)  # kb.yaml's validated dump kept: the config-free path can answer
    return root


def test_the_digest_is_the_files_as_stored_and_kept_until_a_row_moves(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = _ready(tmp_path)
    found = [(rel, s.st_mtime_ns, s.st_ctime_ns, s.st_size) for rel, s in iter_kb_files(root)]
    assert [f[0] for f in found] == ["inbox/jay/2026-07-31-a.md", "inbox/jay/2026-07-31-b.md",
                                     "organized/knowledge/inference.md"]
    st = Store.current(root, _meta(root, "fingerprint") or "")
    assert st is not None
    try:
        assert st.files_digest() == files_digest(found)
        assert st.files_digest() == files_digest(
            st.db.execute("SELECT path, mtime_ns, ctime_ns, size FROM files ORDER BY path"))
        with monkeypatch.context() as m:  # kept: no row is read again
            m.setattr(store_module, "files_digest", lambda rows: pytest.fail("digest built again"))
            assert st.files_digest() == files_digest(found)
            assert unchanged_store(root) is not None
    finally:
        st.close()


def test_the_digest_tells_apart_what_a_joined_text_would_not() -> None:
    one = files_digest([("a.md", 1, 2, 3)])
    assert one == files_digest([("a.md", 1, 2, 3)])
    assert one != files_digest([("a.md", 1, 2, 4)])
    assert one != files_digest([("a.md", 2, 1, 3)])  # mtime and ctime are not interchangeable
    assert files_digest([("a\x1f1.md", 2, 3, 4)]) != files_digest([("a", 1, 2, 3), (".md", 2, 3, 4)])
    assert files_digest([]) != files_digest([("", 0, 0, 0)])


@pytest.mark.parametrize("change", ["add", "delete", "rename", "edit", "same-size-edit-mtime-restored", "touch"])
def test_every_change_is_found_by_the_no_change_path(tmp_path: Path, change: str) -> None:
    root = _ready(tmp_path)
    assert unchanged_store(root) is not None
    a = root / "inbox/jay/2026-07-31-a.md"
    st = a.stat()
    if change == "add":
        write_files(root, {"inbox/jay/2026-08-01-c.md": "# c\n\n- OmniServe 再快 1.2×\n"})
    elif change == "delete":
        a.unlink()
    elif change == "rename":
        a.rename(root / "inbox/jay/2026-07-31-z.md")
    elif change == "edit":
        a.write_text("# a\n\n- OmniServe 吞吐 2.5× now\n", encoding="utf-8")
    elif change == "same-size-edit-mtime-restored":
        a.write_text(a.read_text(encoding="utf-8").replace("2.1", "2.2"), encoding="utf-8")
        os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns))
        assert (a.stat().st_size, a.stat().st_mtime_ns) == (st.st_size, st.st_mtime_ns)
    else:  # new times, same bytes
        os.utime(a, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000_000))
    assert unchanged_store(root) is None
    report = ingest(root)
    expected = {"add": (1, 0), "delete": (0, 1), "rename": (1, 1), "edit": (1, 0),
                "same-size-edit-mtime-restored": (1, 0), "touch": (0, 0)}[change]
    assert (report.parsed, report.removed) == expected
    again = unchanged_store(root)  # the store now holds the change: the next look finds nothing to do
    assert again is not None and (again.parsed, again.unchanged, again.claims) == (0, report.seen, report.claims)


def test_a_touch_moves_the_times_generation(tmp_path: Path) -> None:
    """Store.touch changes a row's times without a files_gen move; the kept digest is keyed by
    stat_gen as well, so it is built again (else the no-change path would fail every run)."""
    root = _ready(tmp_path)
    assert unchanged_store(root) is not None
    gen, kept = _meta(root, "stat_gen"), _meta(root, "files_digest")
    a = root / "inbox/jay/2026-07-31-a.md"
    os.utime(a, ns=(a.stat().st_atime_ns, a.stat().st_mtime_ns + 5_000_000_000))
    assert (ingest(root).parsed, _meta(root, "files_gen")) == (0, _meta(root, "files_gen"))
    assert _meta(root, "stat_gen") == str(int(gen or 0) + 1)
    assert unchanged_store(root) is not None
    assert _meta(root, "files_digest") != kept


def test_a_store_that_cannot_be_written_still_compares(tmp_path: Path) -> None:
    root = _ready(tmp_path)
    db = sqlite3.connect(root / STORE_DIR / "kb.sqlite")
    db.execute("DELETE FROM meta WHERE key='files_digest'")
    db.commit()
    db.close()
    st = Store(root, _meta(root, "fingerprint") or "")
    try:
        want = st.files_digest()
        st.db.execute("DELETE FROM meta WHERE key='files_digest'")
        st.db.execute("PRAGMA query_only=ON")  # every write fails as on a read-only store
        assert st.files_digest() == want
        assert st.db.execute("SELECT value FROM meta WHERE key='files_digest'").fetchone() is None
    finally:
        st.close()
