"""The store ``.kb/kb.sqlite`` opened: its connection, transactions, files as rows, meta and memos.

A cache, never the truth (DESIGN.md §6): a store of another schema version, or one that
fails to open, is deleted and rebuilt with a note. WAL mode, so readers never block the
nightly writer; writes happen in one ``BEGIN IMMEDIATE`` transaction per batch.

:class:`StoreBase` is what ``kb ingest`` with nothing changed needs (no claim model is
imported: issue 11); :class:`kb.store.db.Store` adds the queries that read claims.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import struct
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Self

import kb
from kb.core.paths import STORE_DIR, STORE_NAME
from kb.store.locks import emptying
from kb.store.memos import check_memo, decoded
from kb.store.schema import INDEX_NAMES, INDEXES, SCHEMA, SCHEMA_VERSION, create_schema
from kb.store.writer import FileRows, FileWriter, Tx

#: WAL pages (4 KB each) between automatic checkpoints during a bulk load (:meth:`StoreBase.bulk_checkpoints`).
BULK_CHECKPOINT_PAGES = 10_000

_DIGEST_ROW = struct.Struct("<Iqqq")


def files_digest(rows: Iterable[tuple[str, int, int, int]]) -> str:
    """The digest (hex, 32 digits) of files given as ``(KB-relative path, mtime_ns, ctime_ns,
    size)`` in path order: what :meth:`StoreBase.files_digest` keeps for the stored files and
    :func:`kb.store.fresh.unchanged` computes for the files on disk (the one definition of both).
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


class StoreBase:
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
        self.cache_dropped: set[str] = set()
        """arXiv ids whose cache row did not decode and was dropped this run (``Store.cache_get``)."""
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
    def current(cls, root: Path, fingerprint: str) -> Self | None:
        """The store of the KB at ``root`` when it exists, is of this schema and was written
        with ``fingerprint``; else None, having changed nothing (opening a store with
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
            if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION and not _missing(db):
                return db
            with emptying(self.root):  # a store of another schema is dropped: not under a reader
                db.execute("BEGIN IMMEDIATE")
                try:
                    version = db.execute("PRAGMA user_version").fetchone()[0]
                    missing = _missing(db) if version == SCHEMA_VERSION else []
                    if version != SCHEMA_VERSION or missing:
                        tables = [r[0] for r in db.execute(
                            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'")]
                        if missing:  # a table dropped by hand: nothing of the store is trusted (issue 24)
                            self.notes.append(f"store table {', '.join(missing)} is missing: rebuilt {self.path}")
                        elif tables:
                            self.notes.append(f"store schema {version} is not {SCHEMA_VERSION}: rebuilt {self.path}")
                            for name in tables:
                                db.execute(f'DROP TABLE "{name}"')
                        create_schema(db)
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
            create_schema(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute("COMMIT")
            return db

    def drop_indexes(self) -> None:
        """Drop secondary indexes before a bulk load (see :meth:`create_indexes`)."""
        for name in INDEX_NAMES:
            self.db.execute(f"DROP INDEX IF EXISTS {name}")

    def create_indexes(self) -> None:
        """(Re)create the secondary indexes; a no-op when they exist."""
        self.db.executescript(INDEXES)

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
        return [name for name in INDEX_NAMES if name not in have]

    def _connect(self) -> sqlite3.Connection:
        if Path(self.path).is_symlink():  # kb's own file: never written through a link (a rebuildable cache)
            Path(self.path).unlink()
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
        """Close and delete the database files (the next store opened starts empty)."""
        self.db.close()
        self._delete()

    def tx(self) -> Tx:
        """A write transaction (``BEGIN IMMEDIATE``), committed on success, rolled back on error."""
        return Tx(self.db)


    # -- files ---------------------------------------------------------------------------------

    def file_stats(self) -> dict[str, tuple[str, int, int, int]]:
        """``path -> (hash, mtime_ns, ctime_ns, size)`` of every stored file."""
        return {r[0]: r[1:] for r in self.db.execute("SELECT path, hash, mtime_ns, ctime_ns, size FROM files")}

    def files_digest(self) -> str:
        """:func:`files_digest` of every stored file's ``(path, mtime_ns, ctime_ns, size)``: a
        no-change ingest compares it with the digest of the files on disk (:func:`kb.store.fresh.unchanged`)
        instead of each file's row. Kept in ``meta`` (``files_digest``) keyed by the write
        generation of the rows (``files_gen``, raised by a trigger on every insert, delete or
        content change: :data:`kb.store.schema.GENERATIONS`) and the times generation (``stat_gen``, raised by
        a trigger on a change of a row's times or size alone: :meth:`touch`), both read in the same
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
        # (a trigger raises stat_gen: see files_digest and kb.store.schema.GENERATIONS)

    def remove(self, paths: Iterable[str]) -> None:
        """Forget files and everything parsed from them."""
        rows = [(p,) for p in paths]
        for table in ("files", "claims", "subjects", "quantities", "mentions"):
            self.db.executemany(f"DELETE FROM {table} WHERE path=?", rows)

    def put(self, rows: FileRows, *, replace: bool = True) -> None:
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

    def count_claims(self) -> int:
        """Number of stored claims; counted once per :meth:`files_stamp` (kept in ``meta``, as
        ``claims_count``), so a run that changed nothing does not count 200k rows again."""
        stamp = self.files_stamp()
        row = self.db.execute("SELECT value FROM meta WHERE key='claims_count'").fetchone()
        kept = decoded(row[0]) if row is not None else None
        if isinstance(kept, list) and len(kept) == 2 and kept[0] == stamp and isinstance(kept[1], int):
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
        every insert, delete or content change of a row: see :data:`kb.store.schema.GENERATIONS`), so a state
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

        :param name: the ``meta`` key (one memo per name: the last inputs win), one of
            :data:`kb.store.memos.MEMOS`.
        :param inputs: any JSON-able value (keys in the order given).
        :raises ValueError: ``name`` is not in :data:`kb.store.memos.MEMOS`.
        """
        check_memo(name)
        digest = hashlib.blake2b(json.dumps(inputs, separators=(",", ":")).encode(), digest_size=16).hexdigest()
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (name,)).fetchone()
        head = f'["{digest}","'
        if row is not None and row[0].startswith(head):
            # [digest, seal, value]: the value is trusted only when its seal verifies (issue 24: a
            # memo edited in the store is built again, never read)
            got_seal, body = row[0][len(head):len(head) + 32], row[0][len(head) + 34:-1]
            if row[0][len(head) + 32:len(head) + 34] == '",' and got_seal == _memo_seal(digest, body):
                try:
                    return json.loads(body)
                except ValueError:
                    pass
        body = json.dumps(build(), ensure_ascii=False, separators=(",", ":"))
        text = f'{head}{_memo_seal(digest, body)}",{body}]'
        if not self.db.in_transaction:
            try:
                self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (name, text))
            except sqlite3.OperationalError:  # read-only or busy: built again next time
                pass
        return json.loads(body)  # as a later run reads it back, so both runs see one shape

    def meta(self, key: str) -> str | None:
        """One ``meta`` value, else None."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None


_TABLES = tuple(re.findall(r"CREATE TABLE (\w+)", SCHEMA))
"""The tables of the store's schema (:data:`kb.store.schema.SCHEMA`)."""


def _missing(db: sqlite3.Connection) -> list[str]:
    """Tables of the schema the store lacks (one dropped by hand: ``DROP TABLE arxiv_cache``)."""
    have = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    return [t for t in _TABLES if t not in have]


def _memo_seal(digest: str, body: str) -> str:
    """The seal of a memo of :meth:`StoreBase.kept`: BLAKE2b (16 bytes, hex) of kb's version, the
    inputs' digest and the value's JSON text as stored; an edited value or key does not verify."""
    return hashlib.blake2b(f"{kb.__version__}\0{digest}\0{body}".encode("utf-8", "surrogatepass"),
                           digest_size=16).hexdigest()
