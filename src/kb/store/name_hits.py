"""The store's memo of which claims hold a name: ``kb claims --subject`` without a scan of every claim.

:meth:`kb.store.db.Store.claims` with ``text_like`` (the names of a subject, from
:func:`kb.facts.query.candidates`) matches claims whose stored JSON holds a name, with SQL ``LIKE``
(:func:`like_pattern`). No index serves a ``LIKE '%…%'``: on a 12k-file KB (217k claims,
130 MB of JSON) each such query read every claim, 0.5–0.7 s of a 1.2 s ``kb claims --subject ID``
(issue 11). This module keeps, in the store, the answer of that same ``LIKE`` per name:

* ``name_hits(pattern, path, claim_id)``: the claims whose JSON matches ``pattern``;
* ``name_memo(pattern, used)``: the patterns whose hits are complete, and when each was last
  memoised or asked for together with a new one (a look-up the memo answers writes nothing);
* ``name_files(path, hash)``: the files (and their content hashes) the hits were computed from;
* ``meta`` key ``name_hits_stamp``: :meth:`kb.store.db.Store.files_stamp` when the memo was last
  brought up to date (the parser fingerprint, and a stamp any insert, delete or replace of a
  ``files`` row changes).

So a hit set is never guessed: it is what ``LIKE`` answered, on the same rows. What invalidates it:

* a new, changed or removed file (its ``files`` row changes the stamp): the files whose
  ``(path, hash)`` differ from ``name_files`` are scanned again for every memoised pattern,
  and only they; when that would test more than one scan of every claim (a cold or large
  ingest) the memo is dropped instead;
* a new parser or ``kb.yaml`` (the store's fingerprint, which re-parses every file): dropped;
* a new card or alias needs nothing: it brings names, hence patterns, the memo has never seen,
  and a pattern not yet memoised is answered by one scan of the claims (as before), then kept.

At most :data:`MEMO_MAX` patterns are kept (the longest unrefreshed go first). On a store that cannot
be written (read-only, busy) :func:`hits_table` answers None and the caller scans as before.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kb.store.memos import decoded

if TYPE_CHECKING:
    from kb.store.db import Store

MEMO_MAX = 64
"""Patterns kept in the memo (a subject has a few names: title, its head, aliases)."""
RESCAN_FACTOR = 1.0
"""The memo is brought up to date while (memoised patterns × claims of the changed files) stays
within this many times the store's claims, else dropped (see :func:`_rescan_costs_more`)."""

_TABLES = """
CREATE TABLE IF NOT EXISTS name_memo (pattern TEXT PRIMARY KEY, used INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS name_hits (pattern TEXT NOT NULL, path TEXT NOT NULL, claim_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS name_hits_pattern ON name_hits (pattern);
CREATE INDEX IF NOT EXISTS name_hits_path ON name_hits (path);
CREATE TABLE IF NOT EXISTS name_files (path TEXT PRIMARY KEY, hash TEXT NOT NULL);
"""


#: Names looked up in one pass over the claims: SQLite parses ``a OR b OR …`` as a tree as deep as
#: its terms and refuses one deeper than 1,000 (an entity of 999 aliases was a traceback).
_PER_PASS = 200


def like_pattern(name: str) -> str:
    """The ``LIKE … ESCAPE '\\'`` pattern of one name: ``%name%``, ``%``/``_``/``\\`` escaped, and a
    space matching any one character (``eagle 3`` finds ``EAGLE-3``: names are folded as
    :class:`kb.extract.names.NameMatcher` folds them). Case-insensitive for ASCII, as SQLite's LIKE."""
    return "%" + name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_").replace(" ", "_") + "%"


def _has_tables(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='index' AND name='name_hits_path'").fetchone() is not None


def hits_table(store: Store, names: Sequence[str]) -> list[str] | None:
    """Make the memo hold the hits of every name of ``names`` for the store as it is now.

    :returns: the patterns (:func:`like_pattern`) to select from ``name_hits``; None when the
        memo cannot be used (the store cannot be written): the caller runs the ``LIKE`` itself.
    """
    db = store.db
    patterns = list(dict.fromkeys(like_pattern(n) for n in names))
    try:
        if _has_tables(db) and _fresh(store, patterns):
            return patterns  # the common case: nothing to write
        db.execute("BEGIN IMMEDIATE")
        try:
            _update(store, patterns)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError:  # read-only, locked past the timeout: scan as before
        return None
    return patterns


def _fresh(store: Store, patterns: list[str]) -> bool:
    """The memo is up to date for the store and holds every pattern."""
    db = store.db
    row = db.execute("SELECT value FROM meta WHERE key='name_hits_stamp'").fetchone()
    if row is None or row[0] != store.files_stamp():
        return False
    marks = ",".join("?" * len(patterns))
    have = db.execute(f"SELECT count(*) FROM name_memo WHERE pattern IN ({marks})", patterns).fetchone()[0]
    return bool(have == len(patterns))


def _update(store: Store, patterns: list[str]) -> None:
    """Inside a write transaction: bring the memo up to date, then add ``patterns``."""
    db = store.db
    for statement in _TABLES.split(";"):
        if statement.strip():
            db.execute(statement)
    stamp = store.files_stamp()
    row = db.execute("SELECT value FROM meta WHERE key='name_hits_stamp'").fetchone()
    got = decoded(row[0]) if row else None
    old_fp = got[0] if isinstance(got, list) and got else None
    if row is None or old_fp != json.loads(stamp)[0]:
        _drop(db)
    elif row[0] != stamp:
        changed = [r[0] for r in db.execute(
            "SELECT f.path FROM files f LEFT JOIN name_files n ON n.path = f.path "
            "WHERE n.hash IS NULL OR n.hash != f.hash "
            "UNION SELECT n.path FROM name_files n WHERE NOT EXISTS (SELECT 1 FROM files f WHERE f.path = n.path)")]
        if changed and _rescan_costs_more(db, changed):
            _drop(db)
        elif changed:
            _rescan(db, changed)
    tick = (db.execute("SELECT max(used) FROM name_memo").fetchone()[0] or 0) + 1
    marks = ",".join("?" * len(patterns))
    have = {r[0] for r in db.execute(f"SELECT pattern FROM name_memo WHERE pattern IN ({marks})", patterns)}
    new = [p for p in patterns if p not in have]
    rows = []
    for at in range(0, len(new), _PER_PASS):  # one pass over every claim for up to _PER_PASS new patterns
        part = new[at:at + _PER_PASS]
        likes = " OR ".join("json LIKE ? ESCAPE '\\'" for _ in part)
        flags = ", ".join("json LIKE ? ESCAPE '\\'" for _ in part)
        for path, claim_id, *hit in db.execute(f"SELECT path, id, {flags} FROM claims WHERE {likes}", part + part):
            rows.extend((p, path, claim_id) for p, h in zip(part, hit) if h)
    if rows:
        db.executemany("INSERT INTO name_hits VALUES (?,?,?)", rows)
    db.executemany("INSERT OR REPLACE INTO name_memo VALUES (?,?)", [(p, tick) for p in patterns])
    stale = [r[0] for r in db.execute("SELECT pattern FROM name_memo ORDER BY used DESC, pattern LIMIT -1 OFFSET ?",
                                      (MEMO_MAX,))]
    if stale:
        db.executemany("DELETE FROM name_hits WHERE pattern=?", [(p,) for p in stale])
        db.executemany("DELETE FROM name_memo WHERE pattern=?", [(p,) for p in stale])
    db.execute("INSERT OR REPLACE INTO meta VALUES ('name_hits_stamp', ?)", (stamp,))


def _drop(db: sqlite3.Connection) -> None:
    """Forget every hit; the memo starts from the files as they are now."""
    db.execute("DELETE FROM name_hits")
    db.execute("DELETE FROM name_memo")
    db.execute("DELETE FROM name_files")
    db.execute("INSERT INTO name_files SELECT path, hash FROM files")


def _rescan_costs_more(db: sqlite3.Connection, changed: list[str]) -> bool:
    """Matching every memoised pattern against the changed files' claims would take more
    ``LIKE`` tests than one scan of every claim (a cold or large ingest): then the memo is
    dropped, and each name is found again by a scan when it is next asked for."""
    patterns = db.execute("SELECT count(*) FROM name_memo").fetchone()[0]
    total = db.execute("SELECT coalesce(sum(n_claims), 0) FROM files").fetchone()[0]
    changed_claims = 0
    for i in range(0, len(changed), 500):
        chunk = changed[i:i + 500]
        changed_claims += db.execute(f"SELECT coalesce(sum(n_claims), 0) FROM files WHERE path IN "
                                     f"({','.join('?' * len(chunk))})", chunk).fetchone()[0]
    return bool(patterns * changed_claims > RESCAN_FACTOR * total)


def _rescan(db: sqlite3.Connection, changed: list[str]) -> None:
    """The hits of every memoised pattern in the files ``changed`` (new, changed or removed)."""
    patterns = [r[0] for r in db.execute("SELECT pattern FROM name_memo")]
    for i in range(0, len(changed), 500):
        chunk = changed[i:i + 500]
        marks = ",".join("?" * len(chunk))
        db.execute(f"DELETE FROM name_hits WHERE path IN ({marks})", chunk)
        db.execute(f"DELETE FROM name_files WHERE path IN ({marks})", chunk)
        db.execute(f"INSERT INTO name_files SELECT path, hash FROM files WHERE path IN ({marks})", chunk)
        for p in patterns:  # the same LIKE, over the changed files' claims only (primary key by path)
            db.execute(f"INSERT INTO name_hits SELECT ?, path, id FROM claims WHERE path IN ({marks}) "
                       "AND json LIKE ? ESCAPE '\\'", (p, *chunk, p))
