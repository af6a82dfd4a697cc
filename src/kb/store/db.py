"""The SQLite store ``.kb/kb.sqlite``: files, claims, quantities, mentions, arXiv cache.

A cache, never the truth (DESIGN.md §6): a store of another schema version, or one that
fails to open, is deleted and rebuilt with a note. WAL mode, so readers never block the
nightly writer; writes happen in one ``BEGIN IMMEDIATE`` transaction per batch.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import struct
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.core.paths import LOCK_NAME, READERS_NAME, STORE_DIR, STORE_NAME

if TYPE_CHECKING:  # the claim models are imported when claims are read: `kb ingest` with nothing
    from kb.core.claims import Claim  # changed reads none
    from kb.core.parsed import ParsedFile
SCHEMA_VERSION = 6
#: WAL pages (4 KB each) between automatic checkpoints during a bulk load (:meth:`Store.bulk_checkpoints`).
BULK_CHECKPOINT_PAGES = 10_000

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    role TEXT NOT NULL, author TEXT, written_at TEXT, front TEXT NOT NULL, headings TEXT NOT NULL,
    problems TEXT NOT NULL, invalid_ids TEXT NOT NULL, n_claims INTEGER NOT NULL
);
CREATE TABLE claims (
    id TEXT NOT NULL, path TEXT NOT NULL, line INTEGER NOT NULL, kind TEXT NOT NULL,
    role TEXT NOT NULL, author TEXT, written_at TEXT, json TEXT NOT NULL,
    PRIMARY KEY (path, id)
);
CREATE TABLE subjects (claim_id TEXT NOT NULL, path TEXT NOT NULL, subject TEXT NOT NULL, written_at TEXT);
CREATE TABLE quantities (
    claim_id TEXT NOT NULL, path TEXT NOT NULL, subject TEXT, metric TEXT, value REAL,
    low REAL, high REAL, unit TEXT, raw TEXT NOT NULL
);
CREATE TABLE mentions (
    path TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER, arxiv_id TEXT NOT NULL,
    version INTEGER, raw TEXT NOT NULL, claim_id TEXT, kind TEXT, written_at TEXT
);
CREATE TABLE arxiv_cache (
    id TEXT PRIMARY KEY, fetched_at TEXT NOT NULL, status TEXT NOT NULL, json TEXT
);
"""

# Write generations: every insert, delete or content change of a ``files`` row (of a card's row)
# adds one to ``meta`` ``files_gen`` (``cards_gen``) in the same transaction, so a memo keyed by
# a generation can never match a later state (a stamp of row counts and the highest rowid could:
# remove the newest file, change another, put the newest back). :meth:`Store.touch` (new times,
# same content) changes no generation.
_GENERATIONS = (
    "INSERT OR IGNORE INTO meta VALUES ('files_gen', '0')",
    "INSERT OR IGNORE INTO meta VALUES ('cards_gen', '0')",
    """CREATE TRIGGER IF NOT EXISTS files_gen_insert AFTER INSERT ON files BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'files_gen';
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'cards_gen' AND NEW.role = 'card';
    END""",
    """CREATE TRIGGER IF NOT EXISTS files_gen_delete AFTER DELETE ON files BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'files_gen';
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'cards_gen' AND OLD.role = 'card';
    END""",
    """CREATE TRIGGER IF NOT EXISTS files_gen_update AFTER UPDATE OF path, hash, role, front, headings, n_claims ON files
    BEGIN
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'files_gen';
        UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'cards_gen'
            AND (NEW.role = 'card' OR OLD.role = 'card');
    END""",
)


def _create_schema(db: sqlite3.Connection) -> None:
    """Tables, indexes and write-generation triggers of a new store (inside the caller's transaction)."""
    for statement in (_SCHEMA + _INDEXES).split(";"):
        if statement.strip():
            db.execute(statement)
    for statement in _GENERATIONS:
        db.execute(statement)


# Secondary indexes, dropped during a bulk (cold) load and built once after it.
_INDEXES = """
CREATE INDEX IF NOT EXISTS claims_written ON claims (written_at);
CREATE INDEX IF NOT EXISTS claims_id ON claims (id);
CREATE INDEX IF NOT EXISTS subjects_subject ON subjects (subject, written_at);
CREATE INDEX IF NOT EXISTS subjects_path ON subjects (path);
CREATE INDEX IF NOT EXISTS quantities_path ON quantities (path);
CREATE INDEX IF NOT EXISTS quantities_subject ON quantities (subject, metric);
CREATE INDEX IF NOT EXISTS mentions_id ON mentions (arxiv_id);
CREATE INDEX IF NOT EXISTS mentions_path ON mentions (path);
CREATE INDEX IF NOT EXISTS files_written ON files (written_at);
"""
_INDEX_NAMES = ("claims_written", "claims_id", "subjects_subject", "subjects_path", "quantities_path",
                "quantities_subject", "mentions_id", "mentions_path", "files_written")


@dataclass(frozen=True, slots=True)
class FileRow:
    """What the store knows of one file (the ``files`` table)."""

    path: str
    hash: str
    mtime_ns: int
    ctime_ns: int
    size: int
    role: str
    author: str | None
    written_at: str | None
    front: dict[str, Any]
    headings: list[dict[str, Any]]
    problems: list[dict[str, Any]]
    invalid_ids: list[list[Any]]
    n_claims: int


@dataclass(slots=True)
class FileRows:
    """One parsed file as table rows, ready for :meth:`Store.put` (picklable, built in workers)."""

    file: FileRow
    claims: list[tuple[Any, ...]]
    subjects: list[tuple[str, str, str, str | None]]
    """``(claim id, path, subject, the claim's written_at)``."""
    quantities: list[tuple[Any, ...]]
    mentions: list[tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class MentionRow:
    """One arXiv id written in a file; ``kind`` is that of the claim it is in, if any."""

    path: str
    line: int
    column: int | None
    arxiv_id: str
    version: int | None
    raw: str
    claim_id: str | None
    kind: str | None
    written_at: str | None


class Store:
    """Open (creating or rebuilding) the store of a KB.

    :param root: the KB root; the database lives in ``root/.kb/kb.sqlite``.
    :param fingerprint: text that, when it changes (kb version, config), makes every file
        parse again; stored in ``meta``.
    :ivar notes: human notes about what happened on open (e.g. a rebuild).
    """

    def __init__(self, root: Path, fingerprint: str = "") -> None:
        self.root = root
        self.path = root / STORE_DIR / STORE_NAME
        self.notes: list[str] = []
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = self._open()
        row = self.db.execute("SELECT value FROM meta WHERE key='fingerprint'").fetchone()
        if row is None or row[0] != fingerprint:
            if row is not None:
                self.notes.append("configuration or kb version changed: every file will be parsed again")
            with emptying(root), self.tx():
                for table in ("files", "claims", "subjects", "quantities", "mentions"):
                    self.db.execute(f"DELETE FROM {table}")
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)", (fingerprint,))

    @classmethod
    def current(cls, root: Path, fingerprint: str) -> Store | None:
        """The store of the KB at ``root`` when it exists, is of this schema and was written
        with ``fingerprint``; else None, having changed nothing (opening a :class:`Store` with
        another fingerprint empties it: this never does)."""
        path = root / STORE_DIR / STORE_NAME
        if not path.is_file():
            return None
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=60)
            try:
                if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                    return None
                row = db.execute("SELECT value FROM meta WHERE key='fingerprint'").fetchone()
            finally:
                db.close()
        except sqlite3.Error:
            return None
        if row is None or row[0] != fingerprint:
            return None
        store = cls(root, fingerprint)
        if store.notes:  # (rebuilt meanwhile by another kb)
            store.close()
            return None
        return store

    def _open(self) -> sqlite3.Connection:
        """Connect; create or rebuild the schema inside one write transaction, so that two
        processes opening a new store at once do not trip over each other."""
        try:
            db = self._connect()
            if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                return db
            with emptying(self.root):  # a store of another schema is dropped: not under a reader
                db.execute("BEGIN IMMEDIATE")
                try:
                    version = db.execute("PRAGMA user_version").fetchone()[0]
                    if version != SCHEMA_VERSION:
                        tables = [r[0] for r in db.execute(
                            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
                        if tables:
                            self.notes.append(f"store schema {version} is not {SCHEMA_VERSION}: rebuilt {self.path}")
                            for name in tables:
                                db.execute(f'DROP TABLE "{name}"')
                        _create_schema(db)
                        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            return db
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
                raise
            self.notes.append(f"store {self.path} could not be opened ({exc}): rebuilt")
            self._delete()
            db = self._connect()
            db.execute("BEGIN IMMEDIATE")
            _create_schema(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
            return db

    def drop_indexes(self) -> None:
        """Drop secondary indexes before a bulk load (see :meth:`create_indexes`)."""
        for name in _INDEX_NAMES:
            self.db.execute(f"DROP INDEX IF EXISTS {name}")

    def create_indexes(self) -> None:
        """(Re)create the secondary indexes; a no-op when they exist."""
        self.db.executescript(_INDEXES)

    def bulk_checkpoints(self, bulk: bool) -> None:
        """WAL checkpoints of a bulk (cold) load: with ``bulk``, SQLite copies the WAL into the
        database every :data:`BULK_CHECKPOINT_PAGES` pages instead of every 1,000 (its default,
        4 MB), so a cold ingest's ~40 MB per 1,500 files are checkpointed (and synced) a few
        times, not every few hundred files; without, back to SQLite's default. Commits, crash
        safety (``kill -9``: committed batches are in the WAL, replayed on the next open) and
        ``synchronous=NORMAL`` are unchanged; the WAL file may grow to ~40 MB. Cold store writes
        of 1,505 files with the index build (this shared machine's disk, 9 paired runs): median wall
        2.0 s -> 1.3 s, 8 of 9 faster; CPU about the same; the index build itself, reading a
        bigger WAL, 0.3 -> 0.5 s of that."""
        self.db.execute(f"PRAGMA wal_autocheckpoint={BULK_CHECKPOINT_PAGES if bulk else 1000}")

    def missing_indexes(self) -> list[str]:
        """Secondary indexes that do not exist (a bulk load killed before it rebuilt them)."""
        have = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        return [name for name in _INDEX_NAMES if name not in have]

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        db.execute("PRAGMA busy_timeout=60000")
        for attempt in range(50):  # switching a new file to WAL takes a lock the busy handler skips
            try:
                db.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or attempt == 49:
                    raise
                time.sleep(0.05)
        db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _delete(self) -> None:
        for suffix in ("", "-wal", "-shm"):
            p = self.path.with_name(self.path.name + suffix)
            if p.exists():
                p.unlink()

    def close(self) -> None:
        """Close the connection."""
        self.db.close()

    def discard(self) -> None:
        """Close and delete the database files (the next :class:`Store` starts empty)."""
        self.db.close()
        self._delete()

    def tx(self) -> _Tx:
        """A write transaction (``BEGIN IMMEDIATE``), committed on success, rolled back on error."""
        return _Tx(self.db)

    # -- files ---------------------------------------------------------------------------------

    def file_stats(self) -> dict[str, tuple[str, int, int, int]]:
        """``path -> (hash, mtime_ns, ctime_ns, size)`` of every stored file."""
        return {r[0]: r[1:] for r in self.db.execute("SELECT path, hash, mtime_ns, ctime_ns, size FROM files")}

    def files_digest(self) -> str:
        """:func:`files_digest` of every stored file's ``(path, mtime_ns, ctime_ns, size)``: a
        no-change ingest compares it with the digest of the files on disk (:func:`kb.store.ingest.unchanged`)
        instead of each file's row. Kept in ``meta`` (``files_digest``) keyed by the write
        generation of the rows (``files_gen``, raised by a trigger on every insert, delete or
        content change: :data:`_GENERATIONS`) and the times generation (``stat_gen``, raised by
        :meth:`touch`, the one other writer of a row's times and size), both read in the same
        snapshot as the rows, so a kept digest never stands for another state of the table.
        Built from the rows (~20 ms for 12k files) only when either moved; a store that cannot
        be written builds it each time."""
        db = self.db
        own = not db.in_transaction
        if own:
            db.execute("BEGIN")  # one snapshot: the generations and the rows they stand for
        try:
            values = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('files_gen', 'stat_gen', 'files_digest')"))
            gens, kept = json.dumps([values.get("files_gen"), values.get("stat_gen")]), values.get("files_digest")
            try:
                got = json.loads(kept) if kept else None
            except ValueError:
                got = None
            if isinstance(got, list) and len(got) == 2 and got[0] == gens and isinstance(got[1], str):
                return got[1]
            digest = files_digest(db.execute("SELECT path, mtime_ns, ctime_ns, size FROM files ORDER BY path"))
        finally:
            if own:
                db.execute("COMMIT")
        if own:
            try:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('files_digest', ?)", (json.dumps([gens, digest]),))
            except sqlite3.OperationalError:  # a store that cannot be written: built each time
                pass
        return digest

    def touch(self, path: str, mtime_ns: int, ctime_ns: int, size: int) -> None:
        """Record new times for a file whose content hash did not change."""
        self.db.execute("UPDATE files SET mtime_ns=?, ctime_ns=?, size=? WHERE path=?", (mtime_ns, ctime_ns, size, path))
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('stat_gen', '0')")  # (see files_digest)
        self.db.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'stat_gen'")

    def remove(self, paths: Iterable[str]) -> None:
        """Forget files and everything parsed from them."""
        rows = [(p,) for p in paths]
        for table in ("files", "claims", "subjects", "quantities", "mentions"):
            self.db.executemany(f"DELETE FROM {table} WHERE path=?", rows)

    def put(self, rows: "FileRows", *, replace: bool = True) -> None:
        """Store one parsed file (call inside :meth:`tx`); ``replace`` first removes what
        was stored for its path. Without it, a path that another process stored meanwhile
        is still replaced, never duplicated (the ``files`` primary key says so)."""
        w = self.writer(rows.file.path, replace=replace, savepoint=False)
        w.add(rows.claims, rows.subjects, rows.quantities, rows.mentions)
        w.finish(rows.file)

    def writer(self, path: str, *, replace: bool = True, savepoint: bool = True) -> FileWriter:
        """Store one file's rows as they are parsed, batch by batch (call inside :meth:`tx`),
        so that a big file's claims never are all in memory at once (issue 12).

        Removes what was stored for ``path`` first (when ``replace``, or when a ``files`` row
        for it exists: another process stored it meanwhile). With ``savepoint``, the file's
        rows are written under a SAVEPOINT: :meth:`FileWriter.abort` takes back exactly them,
        and the batch transaction around them goes on.
        """
        return FileWriter(self, path, replace=replace, savepoint=savepoint)

    def files(self, role: str | None = None) -> list[FileRow]:
        """Stored files, by path; only those of ``role`` when given."""
        sql = "SELECT * FROM files" + (" WHERE role=?" if role else "") + " ORDER BY path"
        return [_file_row(r) for r in self.db.execute(sql, (role,) if role else ())]

    def heading_texts(self, role: str) -> list[str]:
        """The heading texts of the stored files of ``role``, by path then line (what
        ``[h["text"] for f in files(role) for h in f.headings]`` gives, reading only the headings)."""
        return [h.get("text", "") for (js,) in self.db.execute(
            "SELECT headings FROM files WHERE role=? ORDER BY path", (role,)) for h in json.loads(js)]

    def heading_texts_in(self, folder: str, role: str) -> list[str]:
        """:meth:`heading_texts` of the files of ``role`` under ``folder`` (KB-relative, no
        trailing ``/``), read through the primary key's path range instead of every row (the
        living docs' headings of a KB of 12k files: its few files under ``organized/knowledge``)."""
        lo = folder.rstrip("/") + "/"
        return [h.get("text", "") for (js,) in self.db.execute(
            "SELECT headings FROM files WHERE path >= ? AND path < ? AND role=? ORDER BY path",
            (lo, lo[:-1] + chr(ord("/") + 1), role)) for h in json.loads(js)]

    def files_written(self, since: str, until: str, roles: Sequence[str]) -> list[tuple[str, str, str | None, str | None, int]]:
        """``(path, role, author, written_at, n_claims)`` of the files of ``roles`` written in
        ``[since, until)`` (ISO, compared with ``written_at``), by path: read through the index
        ``files_written`` (a night's few files of a KB of 12k, not every row)."""
        marks = ",".join("?" * len(roles))
        return self.db.execute(
            "SELECT path, role, author, written_at, n_claims FROM files "
            f"WHERE written_at >= ? AND written_at < ? AND role IN ({marks}) ORDER BY path",
            (since, until, *roles)).fetchall()

    def parsed_file(self, path: str, data: bytes, text: str) -> ParsedFile | None:
        """The parser's result for ``path`` as this store holds it, when it holds these very
        bytes (:func:`kb.store.parsed.stored_parse`); else None."""
        from kb.store.parsed import stored_parse

        return stored_parse(self, path, data, text)

    def file(self, path: str) -> FileRow | None:
        """One stored file, or None."""
        r = self.db.execute("SELECT * FROM files WHERE path=?", (path,)).fetchone()
        return _file_row(r) if r else None

    # -- claims --------------------------------------------------------------------------------

    def claims(self, *, kind: str | None = None, subject: Sequence[str] | None = None,
               author: str | None = None, since: str | None = None, until: str | None = None,
               path: str | None = None, role: str | None = None,
               text_like: Sequence[str] | None = None, json_has: str | None = None) -> Iterator[Claim]:
        """Claims matching every given filter, ordered by path then line.

        :param subject: subject keys; a claim matches when it has any of them.
        :param text_like: names; a claim matches when its JSON holds any of them (case-insensitive
            for ASCII; a space matches any one character, as :class:`kb.extract.names.NameMatcher`
            folds ``-`` and ``_`` to spaces: ``eagle 3`` finds ``EAGLE-3``; a coarse
            pre-filter, the caller decides).
        :param json_has: a text the claim's JSON must hold as written (a coarse pre-filter:
            ``'"metric":"ttft"'``, the caller decides).
        :param since: ISO time, inclusive, compared with ``written_at``; :param until: exclusive.
        :param path: a KB-relative path, or a prefix ending in ``/``.
        """
        conds: list[tuple[str, Any]] = [
            ("c.kind=?", kind), ("lower(c.author)=lower(?)", author), ("c.written_at >= ?", since),
            ("c.written_at < ?", until), ("c.role=?", role),
        ]
        if path:
            prefix = path.replace("%", "\\%").replace("_", "\\_") + "%"
            conds.append(("c.path LIKE ? ESCAPE '\\'", prefix) if path.endswith("/") else ("c.path=?", path))
        if subject:
            marks = ",".join("?" * len(subject))
            # the subject's rows first (index subjects_subject), then their claims by primary key:
            # a correlated EXISTS made SQLite scan every claim (7 s on 217k claims, now ms)
            conds.append((f"(c.path, c.id) IN (SELECT s.path, s.claim_id FROM subjects s "
                          f"WHERE s.subject IN ({marks}))", tuple(subject)))
        if text_like:
            from kb.store.name_hits import hits_table, like_pattern

            patterns = hits_table(self, text_like)  # the LIKE's answers, kept per name (no scan)
            if patterns is not None:
                marks = ",".join("?" * len(patterns))
                conds.append((f"(c.path, c.id) IN (SELECT h.path, h.claim_id FROM name_hits h "
                              f"WHERE h.pattern IN ({marks}))", tuple(patterns)))
            else:  # a store that cannot be written: the same LIKE over every claim
                likes = " OR ".join("c.json LIKE ? ESCAPE '\\'" for _ in text_like)
                conds.append((f"({likes})", tuple(like_pattern(n) for n in text_like)))
        if json_has:
            conds.append(("c.json LIKE ? ESCAPE '\\'",
                          "%" + json_has.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"))
        where, args = _where(conds)
        sql = "SELECT c.json FROM claims c" + where + " ORDER BY c.path, c.line, c.rowid"
        from kb.core.claims import Claim

        for (js,) in self.db.execute(sql, args):
            yield Claim.model_validate_json(js)

    def claim(self, path: str, claim_id: str) -> Claim | None:
        """The claim ``claim_id`` of the file ``path`` (one primary-key seek), else None."""
        row = self.db.execute("SELECT json FROM claims WHERE path=? AND id=?", (path, claim_id)).fetchone()
        if row is None:
            return None
        from kb.core.claims import Claim

        return Claim.model_validate_json(row[0])

    def count_claims(self) -> int:
        """Number of stored claims; counted once per :meth:`files_stamp` (kept in ``meta``, as
        ``claims_count``), so a run that changed nothing does not count 200k rows again."""
        stamp = self.files_stamp()
        row = self.db.execute("SELECT value FROM meta WHERE key='claims_count'").fetchone()
        kept = json.loads(row[0]) if row is not None else None
        if isinstance(kept, list) and len(kept) == 2 and kept[0] == stamp:
            return int(kept[1])
        n = self.db.execute("SELECT count(*) FROM claims").fetchone()[0]
        if not self.db.in_transaction:
            try:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('claims_count', ?)", (json.dumps([stamp, n]),))
            except sqlite3.OperationalError:  # a store that cannot be written: counted each time
                pass
        return n

    def files_stamp(self) -> str:
        """Text that changes whenever the stored claims may have: the parser fingerprint and the
        write generation of the ``files`` table (``meta`` ``files_gen``, raised by a trigger on
        every insert, delete or content change of a row: see :data:`_GENERATIONS`), so a state
        once left never comes back under the same stamp. :meth:`touch` (same content) leaves it
        alone. Memos of what the claims say (:meth:`count_claims`, :mod:`kb.store.name_hits`) are keyed by it."""
        return json.dumps([self.meta("fingerprint"), self.meta("files_gen")])

    def cards_generation(self) -> str | None:
        """The write generation of the card rows (``meta`` ``cards_gen``; see :meth:`files_stamp`)."""
        return self.meta("cards_gen")

    def kept(self, name: str, inputs: Any, build: Callable[[], Any]) -> Any:
        """A value derived from ``inputs``, kept between runs in ``meta`` key ``name``.

        The memo is keyed by a digest of the inputs themselves (their JSON text), not by a
        stamp of the store, so it cannot outlive what it was built from: any change of an input
        (a card, an alias, a link text, a heading) is another digest, and the value is built
        again. ``build()`` must return a JSON-able value that depends on ``inputs`` only (and on
        the code that builds it: put a digest of that code into ``inputs``); what comes back from
        the store is its JSON round trip (tuples read back as lists). A store that cannot be
        written (read-only, busy, inside a transaction) keeps nothing: the value is built each time.

        :param name: the ``meta`` key (one memo per name: the last inputs win).
        :param inputs: any JSON-able value (keys in the order given).
        """
        digest = hashlib.blake2b(json.dumps(inputs, separators=(",", ":")).encode(), digest_size=16).hexdigest()
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (name,)).fetchone()
        if row is not None and row[0].startswith(f'["{digest}",'):
            kept = json.loads(row[0])
            if isinstance(kept, list) and len(kept) == 2 and kept[0] == digest:
                return kept[1]
        text = json.dumps([digest, build()], ensure_ascii=False, separators=(",", ":"))
        if not self.db.in_transaction:
            try:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, text))
            except sqlite3.OperationalError:  # read-only or busy: built again next time
                pass
        return json.loads(text)[1]  # as a later run reads it back, so both runs see one shape

    def meta(self, key: str) -> str | None:
        """One ``meta`` value, else None."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def mentions(self, arxiv_id: str | None = None, *, since: str | None = None,
                 until: str | None = None, path: str | None = None) -> list[MentionRow]:
        """arXiv id mentions (all, or of one canonical id), by path and line; those of one
        file (``path``) in the order the parser gave them (front matter first)."""
        where, args = _where([("arxiv_id=?", arxiv_id), ("written_at >= ?", since), ("written_at < ?", until),
                              ("path=?", path)])
        sql = ("SELECT path, line, col, arxiv_id, version, raw, claim_id, kind, written_at FROM mentions"
               + where + (" ORDER BY rowid" if path is not None else " ORDER BY path, line, col"))
        return [MentionRow(*r) for r in self.db.execute(sql, args)]

    def claims_containing(self, needles: Sequence[str]) -> Iterator[Claim]:
        """Claims whose stored JSON contains any of ``needles`` (a cheap SQL pre-filter, e.g.
        for the candidates of :func:`kb.core.claims.is_derived`; callers decide on the claims)."""
        if not needles:
            return
        where = " OR ".join("instr(json, ?) > 0" for _ in needles)
        from kb.core.claims import Claim

        for (js,) in self.db.execute(f"SELECT json FROM claims WHERE {where}", tuple(needles)):
            yield Claim.model_validate_json(js)

    def first_mention(self, subject: str) -> str | None:
        """Earliest ``written_at`` of any claim about ``subject`` (ISO), else None."""
        r = self.db.execute(
            "SELECT min(written_at) FROM subjects WHERE subject=?",  # one index seek (subject, written_at)
            (subject,),
        ).fetchone()
        return r[0] if r else None

    # -- arXiv cache ---------------------------------------------------------------------------

    def cache_get(self, arxiv_id: str) -> tuple[str, str, dict[str, Any] | None] | None:
        """``(fetched_at, status, data)`` cached for an id (with version if asked so), else None."""
        r = self.db.execute("SELECT fetched_at, status, json FROM arxiv_cache WHERE id=?", (arxiv_id,)).fetchone()
        if r is None:
            return None
        return r[0], r[1], json.loads(r[2]) if r[2] else None

    def cache_put(self, arxiv_id: str, fetched_at: str, status: str, data: dict[str, Any] | None) -> None:
        """Cache one arXiv lookup result (its own short transaction)."""
        with self.tx():
            self.db.execute(
                "INSERT OR REPLACE INTO arxiv_cache VALUES (?,?,?,?)",
                (arxiv_id, fetched_at, status, json.dumps(data, ensure_ascii=False) if data is not None else None),
            )


@contextmanager
def writer_lock(root: Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the KB's ingest lock (``root/.kb/ingest.lock``, an exclusive ``flock``) while the
    store is brought up to date, so that a second ``kb`` run waits for the first instead of
    failing with "database is locked" after SQLite's busy timeout; then it finds nothing left to
    do. The kernel drops the lock when its holder ends, even by ``kill -9``.

    :param on_wait: called once with a message (naming the holder's pid) before blocking, when
        another process holds the lock.
    Without ``fcntl`` (Windows) or when ``.kb/`` cannot be written, nothing is locked (opening
    the store then reports the real problem).
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    path = root / STORE_DIR / LOCK_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                try:
                    holder = (os.pread(fd, 32, 0).decode("ascii", "replace").split() or ["?"])[0]
                except OSError:
                    holder = "?"
                on_wait(f"another kb (pid {holder}) is updating the store {root / STORE_DIR / STORE_NAME}; "
                        "waiting for it to finish…")
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:  # a fixed-width record, written in place: no truncation (ext4 flushes a file
            # truncated to 0 and rewritten when it is closed: up to 0.1 s of a no-change run)
            os.pwrite(fd, f"{os.getpid():<20}\n".encode(), 0)
        except OSError:
            pass
        yield
    finally:
        os.close(fd)  # releases the lock


_READERS: dict[str, int] = {}
"""KB root -> this process's descriptor of its ``.kb/readers.lock``, held shared (:func:`hold_readers`)."""
_READERS_MAX = 32
EMPTY_WAIT_S = 60.0
"""How long emptying the store waits for other kb runs still reading it (:func:`emptying`)."""


def _readers_fd(root: Path) -> int | None:
    path = root / STORE_DIR / READERS_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None


def hold_readers(root: Path) -> None:
    """Hold the KB's readers lock (``.kb/readers.lock``, a shared ``flock``) until this process
    ends: a kb with another ``kb.yaml`` or another version must not empty the store while this
    one still reads it (breaker6: ``kb diff`` printed no subjects, exit 0). Called under the
    ingest lock once the store is up to date, so it never waits on a store being emptied.
    Without ``fcntl`` or a writable ``.kb/``, nothing is held."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        return
    key = str(root.resolve())
    if key in _READERS:
        return
    fd = _readers_fd(root)
    if fd is None:
        return
    fcntl.flock(fd, fcntl.LOCK_SH)
    if len(_READERS) >= _READERS_MAX:  # many KBs in one process (tests): let the oldest go
        os.close(_READERS.pop(next(iter(_READERS))))
    _READERS[key] = fd


@contextmanager
def emptying(root: Path) -> Iterator[None]:
    """The readers lock held exclusively while the store is emptied (another fingerprint):
    waits, saying so once on stderr, until no other kb reads the store, at most
    :data:`EMPTY_WAIT_S` (then :class:`~kb.core.errors.InputError`: never a store emptied under a
    reader). This process's own shared hold is turned exclusive and back.

    :raises InputError: other kb runs still read the store after the wait.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on POSIX
        yield
        return
    key = str(root.resolve())
    own = _READERS.get(key)
    fd = own if own is not None else _readers_fd(root)
    if fd is None:
        yield
        return
    try:
        deadline = time.monotonic() + EMPTY_WAIT_S
        told = False
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    from kb.core.errors import InputError

                    raise InputError(f"another kb still reads the store {root / STORE_DIR / STORE_NAME} (made with "
                                     "another kb.yaml or kb version); run again when it has finished") from None
                if not told:
                    import sys

                    print("kb: another kb is reading the store with another kb.yaml or kb version; waiting for it "
                          "before the store is rebuilt…", file=sys.stderr, flush=True)
                    told = True
                time.sleep(0.05)
        yield
    finally:
        if own is not None:
            fcntl.flock(fd, fcntl.LOCK_SH)
        else:
            os.close(fd)


_DIGEST_ROW = struct.Struct("<Iqqq")


def files_digest(rows: Iterable[tuple[str, int, int, int]]) -> str:
    """The digest (hex, 32 digits) of files given as ``(KB-relative path, mtime_ns, ctime_ns,
    size)`` in path order: what :meth:`Store.files_digest` keeps for the stored files and
    :func:`kb.store.ingest.unchanged` computes for the files on disk (the one definition of both).
    Each file is its path's UTF-8 length, times and size packed, then the path: no name can
    make two lists of files read alike.

    :raises struct.error: a time or size outside 64 bits.
    """
    pack = _DIGEST_ROW.pack
    parts: list[bytes] = []
    add = parts.append
    for path, mtime_ns, ctime_ns, size in rows:
        name = path.encode("utf-8", "surrogateescape")
        add(pack(len(name), mtime_ns, ctime_ns, size))
        add(name)
    return hashlib.blake2b(b"".join(parts), digest_size=16).hexdigest()


class FileWriter:
    """One file's rows on their way into the store (see :meth:`Store.writer`): :meth:`add`
    any number of batches of rows (in document order: claims keep their ``rowid`` order),
    then :meth:`finish` with the file's row, or :meth:`abort`."""

    def __init__(self, store: Store, path: str, *, replace: bool, savepoint: bool) -> None:
        self.db = store.db
        self.path = path
        self.savepoint = savepoint
        if savepoint:
            self.db.execute("SAVEPOINT kb_file")
        if replace or self.db.execute("SELECT 1 FROM files WHERE path=?", (path,)).fetchone():
            store.remove([path])

    def add(self, claims: Sequence[tuple[Any, ...]], subjects: Sequence[tuple[str, str, str, str | None]],
            quantities: Sequence[tuple[Any, ...]], mentions: Sequence[tuple[Any, ...]]) -> None:
        """Insert rows of the shapes of :class:`FileRows` (a repeated claim id of the path
        replaces the earlier one, as in one :meth:`Store.put`)."""
        db = self.db
        if claims:
            db.executemany("INSERT OR REPLACE INTO claims VALUES (?,?,?,?,?,?,?,?)", claims)
        if subjects:
            db.executemany("INSERT INTO subjects VALUES (?,?,?,?)", subjects)
        if quantities:
            db.executemany("INSERT INTO quantities VALUES (?,?,?,?,?,?,?,?,?)", quantities)
        if mentions:
            db.executemany("INSERT INTO mentions VALUES (?,?,?,?,?,?,?,?,?)", mentions)

    def finish(self, row: FileRow) -> None:
        """Insert the file's own row (its counts, headings, problems) and keep its rows."""
        values = (row.path, row.hash, row.mtime_ns, row.ctime_ns, row.size, row.role, row.author, row.written_at,
                  json.dumps(row.front, ensure_ascii=False, default=str), json.dumps(row.headings, ensure_ascii=False),
                  json.dumps(row.problems, ensure_ascii=False), json.dumps(row.invalid_ids, ensure_ascii=False),
                  row.n_claims)
        self.db.execute("INSERT INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", values)
        if self.savepoint:
            self.db.execute("RELEASE kb_file")

    def abort(self) -> None:
        """Take back every row this writer added (with a savepoint; else the caller rolls back)."""
        if self.savepoint:
            self.db.execute("ROLLBACK TO kb_file")
            self.db.execute("RELEASE kb_file")


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _where(conds: Iterable[tuple[str, Any]]) -> tuple[str, list[Any]]:
    """`` WHERE a AND b`` and its arguments from ``(sql, value)`` pairs; a falsy value drops
    its condition, a tuple value fills several ``?``."""
    sql: list[str] = []
    args: list[Any] = []
    for clause, value in conds:
        if value:
            sql.append(clause)
            args.extend(value if isinstance(value, tuple) else (value,))
    return (" WHERE " + " AND ".join(sql) if sql else ""), args


def _file_row(r: Sequence[Any]) -> FileRow:
    return FileRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], json.loads(r[8]), json.loads(r[9]),
                   json.loads(r[10]), json.loads(r[11]), r[12])
