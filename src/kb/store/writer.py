"""The store's writer: one parsed file's rows (:class:`FileRows`) on their way into the tables,
batch by batch (:class:`FileWriter`), inside one write transaction (:class:`Tx`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kb.store.base import StoreBase

# json.dumps(x, ensure_ascii=False) and json.dumps(x, ensure_ascii=False, default=str), whose
# encoders json.dumps would build again on every call (4 per file)
_JSON = json.JSONEncoder(ensure_ascii=False).encode
_FRONT_JSON = json.JSONEncoder(ensure_ascii=False, default=str).encode


def _null(value: None) -> None:
    """sqlite3's adapter of ``None``: ``None`` (bound as NULL, as without it).

    sqlite3 binds an ``int``, ``float``, ``str`` or ``bytearray`` as it is and hands any other
    value, ``None`` included, to its adapters first; with none registered for ``None`` that
    look-up ends in two failed attribute look-ups (``__adapt__``, ``__conform__``; ~3,300
    instructions a value, ~2,100 more than this call). A cold ingest binds a ``None`` for
    about one value in ten (an author, a quantity's metric, low, high or unit, a mention's
    version). Exact: the adapted value is the same ``None``, bound as NULL; the registry is
    consulted only for values that are no int, float, str or bytearray."""
    return value


sqlite3.register_adapter(type(None), _null)


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
    """One parsed file as table rows, ready for :meth:`kb.store.base.StoreBase.put` (picklable, built in workers)."""

    file: FileRow
    claims: list[tuple[Any, ...]]
    """``(id, path, line, kind, role, author, written_at, JSON)``: the JSON as UTF-8 in a
    ``bytearray`` (:func:`kb.store.rows.claim_rows`) or a ``str``."""
    subjects: list[tuple[str, str, str, str | None]]
    """``(claim id, path, subject, the claim's written_at)``."""
    quantities: list[tuple[Any, ...]]
    mentions: list[tuple[Any, ...]]


class FileWriter:
    """One file's rows on their way into the store (see :meth:`kb.store.base.StoreBase.writer`): :meth:`add`
    any number of batches of rows (in document order: claims keep their ``rowid`` order),
    then :meth:`finish` with the file's row, or :meth:`abort`."""

    def __init__(self, store: StoreBase, path: str, *, replace: bool, savepoint: bool) -> None:
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
        replaces the earlier one, as in one :meth:`kb.store.base.StoreBase.put`)."""
        db = self.db
        if claims:
            # the JSON comes as UTF-8 in a bytearray (kb.store.rows.claim_rows): CAST stores it as TEXT,
            # byte for byte what binding them decoded to a str stores (the store is UTF-8), without
            # a decode here and the encode sqlite3 does again on binding a str (a str binds unchanged)
            _insert(db, "INSERT OR REPLACE INTO claims VALUES ", "(?,?,?,?,?,?,?,CAST(? AS TEXT))", claims)
        if subjects:
            _insert(db, "INSERT INTO subjects VALUES ", "(?,?,?,?)", subjects)
        if quantities:
            _insert(db, "INSERT INTO quantities VALUES ", "(?,?,?,?,?,?,?,?,?)", quantities)
        if mentions:
            _insert(db, "INSERT INTO mentions VALUES ", "(?,?,?,?,?,?,?,?,?)", mentions)

    def finish(self, row: FileRow) -> None:
        """Insert the file's own row (its counts, headings, problems) and keep its rows."""
        values = (row.path, row.hash, row.mtime_ns, row.ctime_ns, row.size, row.role, row.author, row.written_at,
                  _FRONT_JSON(row.front), _JSON(row.headings), _JSON(row.problems), _JSON(row.invalid_ids),
                  row.n_claims)
        self.db.execute("INSERT INTO files VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", values)
        if self.savepoint:
            self.db.execute("RELEASE kb_file")

    def abort(self) -> None:
        """Take back every row this writer added (with a savepoint; else the caller rolls back)."""
        if self.savepoint:
            self.db.execute("ROLLBACK TO kb_file")
            self.db.execute("RELEASE kb_file")


#: Rows one INSERT statement writes (:func:`_insert`; at most 9 values a row: 144 parameters,
#: far below SQLite's least limit of 999).
ROWS_PER_INSERT = 16


def _insert(db: sqlite3.Connection, head: str, row: str, rows: Sequence[tuple[Any, ...]]) -> None:
    """``db.executemany(head + row, rows)``, :data:`ROWS_PER_INSERT` rows to a statement
    (``INSERT … VALUES (…),(…),…``; the rows left over one by one).

    The same rows in the same order (the same rowids): SQLite inserts a VALUES list row by row,
    each with its own conflict resolution (``OR REPLACE`` replaces a row of the same statement
    as one of an earlier one). Each statement executed costs sqlite3 a step, a reset and four
    hand-overs of the GIL besides its rows: ~1,800 instructions a row fewer in groups of 16."""
    whole = len(rows) - len(rows) % ROWS_PER_INSERT
    if whole:
        many = head + ",".join([row] * ROWS_PER_INSERT)
        for k in range(0, whole, ROWS_PER_INSERT):
            db.execute(many, list(chain.from_iterable(rows[k:k + ROWS_PER_INSERT])))
    if whole < len(rows):
        db.executemany(head + row, rows[whole:])


class Tx:
    """A write transaction (``BEGIN IMMEDIATE``): committed when its block ends, rolled back
    when it raises."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
