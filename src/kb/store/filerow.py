"""A ``files`` row of the store as Python values: every column decoded and checked in one place.

kb writes every row it keeps (:class:`kb.store.writer.FileWriter`), so a row that does not decode
(``front`` that is no JSON object, a ``written_at`` that is no ISO time, an unknown ``role``) was
changed by something else and is never trusted (as a claim row: ``Store._claim``). Every reader
of a ``files`` column goes through :func:`decoded_row` or :func:`decoded_json`, which raise
:class:`kb.core.errors.InputError` (exit 2) naming the store, the file, the column and why;
:func:`undecodable` finds every such row (after anything but kb changed the table: the
``files_checked`` memo), so that ``kb ingest`` parses those files again with a note.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from kb.core.errors import InputError
from kb.core.textio import Severity
from kb.store.writer import FileRow

if TYPE_CHECKING:
    from kb.store.base import StoreBase

#: The columns of the ``files`` table, in order (:data:`kb.store.schema.SCHEMA`).
COLUMNS = ("path", "hash", "mtime_ns", "ctime_ns", "size", "role", "author", "written_at", "front", "headings",
           "problems", "invalid_ids", "n_claims")
#: The roles a file row may have: :data:`kb.core.claims.Role`'s values (not imported: the
#: no-change path of ``kb ingest`` imports no claim model, issue 11; a test pins them equal).
ROLES = frozenset(("inbox", "card", "living-doc", "other"))
_SEVERITIES = frozenset(get_args(Severity))


class _Bad(Exception):
    """One column does not decode: ``args`` = (column, why)."""


def file_row_error(store_path: Path | str, path: object, column: str, why: str) -> InputError:
    """The error of a ``files`` row that does not decode (exit 2): names the store, the file,
    the column and why, and how to rebuild the store (a cache of the KB's files)."""
    return InputError(f"a file row ({path}) does not decode ({column}: {why}); kb did not write it. The store is a "
                      "cache of the KB's files: delete it and run `kb ingest` to rebuild it", str(store_path))


def decoded_row(store_path: Path | str, r: Sequence[Any]) -> FileRow:
    """The :class:`kb.store.writer.FileRow` of a ``SELECT *`` row of ``files``.

    :raises InputError: (exit 2) a column does not decode (:func:`file_row_error`).
    """
    try:
        return _row(r)
    except _Bad as bad:
        raise file_row_error(store_path, r[0], *bad.args) from None


def decoded_json(store_path: Path | str, path: str, column: str, text: Any) -> Any:
    """One JSON column (``front``, ``headings``, ``problems``, ``invalid_ids``) of the row of
    ``path``, decoded and checked as :func:`decoded_row` does (a reader of that column alone).

    :raises InputError: (exit 2) it does not decode (:func:`file_row_error`).
    """
    try:
        return _JSON_COLUMNS[column](_json(column, text))
    except _Bad as bad:
        raise file_row_error(store_path, path, *bad.args) from None


def decoded_time(store_path: Path | str, path: str, value: Any) -> str | None:
    """The ``written_at`` column of the row of ``path`` (None, or an ISO time as kb writes it),
    checked as :func:`decoded_row` does (a reader of that column alone: the span of the KB).

    :raises InputError: (exit 2) it is no such time (:func:`file_row_error`).
    """
    if value is not None:
        try:
            _time(value)
        except _Bad as bad:
            raise file_row_error(store_path, path, *bad.args) from None
    return value


def row_fault(r: Sequence[Any]) -> tuple[str, str] | None:
    """``(column, why)`` of the first column of a ``SELECT *`` row of ``files`` that does not
    decode, else None."""
    try:
        _row(r)
    except _Bad as bad:
        return bad.args[0], bad.args[1]
    return None


def undecodable(st: StoreBase) -> list[tuple[str, str, str]]:
    """``(path, column, why)`` of every ``files`` row that does not decode, by path.

    Every row is read only when the table changed since it was last found sound (``meta`` key
    ``files_checked``: the write and times generations, which a trigger raises on any change
    of any column, :data:`kb.store.schema.GENERATIONS`, and the highest claim rowid, which an
    inserted claim row raises: :func:`_generations`); :func:`mark_checked` records a state kb
    wrote itself. ~0.3 s for 12k files, after a change by anything but kb only."""
    gens = _generations(st.db)
    if st.meta("files_checked") == gens:
        return []
    bad = [(str(r[0]), *fault) for r in st.db.execute("SELECT * FROM files ORDER BY path")
           if (fault := row_fault(r)) is not None]
    faulty = {path for path, _, _ in bad}
    bad += [(path, "claims", why) for path, why in _claim_faults(st.db) if path not in faulty]
    if not bad:
        mark_checked(st)
    return bad


def mark_checked(st: StoreBase) -> None:
    """Record that every ``files`` row decodes in the table's present state (after
    :func:`undecodable` found none, or an ingest that started from such a state and wrote the
    rest itself). A store that cannot be written records nothing (checked again next time)."""
    gens = _generations(st.db)
    if st.db.in_transaction or st.meta("files_checked") == gens:  # (no write when nothing changed)
        return
    try:
        st.db.execute("INSERT OR REPLACE INTO meta VALUES ('files_checked', ?)", (gens,))
    except sqlite3.OperationalError:  # read-only or busy
        pass


def _generations(db: sqlite3.Connection) -> str:
    """The tables' state as kb last found it sound: the generations the triggers raise (a row of
    ``files`` changed; a claim row deleted or changed) and the highest claim rowid, which a row
    inserted by hand raises (SQLite gives a new row the highest rowid + 1; an insert trigger would
    cost every row of a cold ingest, the look-up is one step of the rowid b-tree)."""
    values = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('files_gen', 'stat_gen', 'claims_gen')"))
    (top,) = db.execute("SELECT max(rowid) FROM claims").fetchone()
    return json.dumps([values.get("files_gen"), values.get("stat_gen"), values.get("claims_gen"), top])


# The claim rows of a file that kb did not write as they are: fewer or more than its file row
# counts (rows deleted by hand), or a column that is not what the row's JSON says (a changed
# written_at or role took claims out of every window, silently)
_COUNT_FAULTS = """SELECT f.path, ifnull(c.n, 0), f.n_claims FROM files f
    LEFT JOIN (SELECT path, count(*) AS n FROM claims GROUP BY path) c ON c.path = f.path
    WHERE ifnull(c.n, 0) != f.n_claims"""
_COLUMN_FAULTS = """SELECT DISTINCT path FROM claims WHERE NOT json_valid(json)
    OR id IS NOT json_extract(json, '$.id') OR kind IS NOT json_extract(json, '$.kind')
    OR role IS NOT ifnull(json_extract(json, '$.role'), 'other')
    OR path IS NOT json_extract(json, '$.provenance.path') OR line IS NOT json_extract(json, '$.provenance.line')
    OR author IS NOT json_extract(json, '$.provenance.author')
    OR written_at IS NOT json_extract(json, '$.provenance.written_at')"""


def _claim_faults(db: sqlite3.Connection) -> list[tuple[str, str]]:
    """``(path, why)`` of each file whose claim rows kb did not write as they are (run only when
    the tables changed since they were last found sound: ~50 ms for 18k claims)."""
    out = [(str(path), f"{n} rows where the file row counts {want}") for path, n, want in db.execute(_COUNT_FAULTS)]
    counted = {path for path, _ in out}
    out += [(str(path), "a row's columns are not its JSON's") for (path,) in db.execute(_COLUMN_FAULTS)
            if path not in counted]
    return out


def _row(r: Sequence[Any]) -> FileRow:
    if len(r) != len(COLUMNS):
        raise _Bad("files", f"{len(r)} columns, not {len(COLUMNS)}")
    path, digest, mtime_ns, ctime_ns, size, role, author, written_at, front, headings, problems, invalid, n = r
    for column, value in (("path", path), ("hash", digest)):
        if not isinstance(value, str) or not value:
            raise _Bad(column, f"{_shown(value)} is no text")
    for column, value in (("mtime_ns", mtime_ns), ("ctime_ns", ctime_ns), ("size", size), ("n_claims", n)):
        if not isinstance(value, int) or (value < 0 and column in ("size", "n_claims")):
            raise _Bad(column, f"{_shown(value)} is no {'count' if column in ('size', 'n_claims') else 'time'}")
    if role not in ROLES:
        raise _Bad("role", f"{_shown(role)} is none of {', '.join(sorted(ROLES))}")
    if author is not None and not isinstance(author, str):
        raise _Bad("author", f"{_shown(author)} is no text")
    if written_at is not None:
        _time(written_at)
    return FileRow(path, digest, mtime_ns, ctime_ns, size, role, author, written_at,
                   *(_JSON_COLUMNS[c](_json(c, v)) for c, v in (("front", front), ("headings", headings),
                                                                ("problems", problems), ("invalid_ids", invalid))),
                   n)


def _time(value: Any) -> None:
    """``written_at`` as kb writes it: ``datetime.isoformat()`` (compared as text by the queries)."""
    try:
        ok = isinstance(value, str) and datetime.fromisoformat(value).isoformat() == value
    except ValueError:
        ok = False
    if not ok:
        raise _Bad("written_at", f"{_shown(value)} is no ISO time")


def _json(column: str, text: Any) -> Any:
    if not isinstance(text, str):
        raise _Bad(column, f"{_shown(text)} is no JSON text")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise _Bad(column, f"not JSON: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None


def _front(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _Bad("front", "not a JSON object")
    return value


def _headings(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise _Bad("headings", "not a JSON array")
    for h in value:
        if not (isinstance(h, dict) and _int(h.get("level")) and _int(h.get("line")) and isinstance(h.get("text"), str)
                and (h.get("section") is None or isinstance(h.get("section"), str))
                and isinstance(h.get("subjects"), list) and all(isinstance(s, str) for s in h["subjects"])):
            raise _Bad("headings", f"{_shown(h)} is no heading")
    return value


def _problems(value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        raise _Bad("problems", "not a JSON array")
    for p in value:
        if not (isinstance(p, dict) and set(p) <= {"path", "line", "message", "severity", "column", "code"}
                and isinstance(p.get("path"), str) and _int(p.get("line")) and isinstance(p.get("message"), str)
                and p.get("severity", "error") in _SEVERITIES
                and (p.get("column") is None or _int(p["column"]))
                and (p.get("code") is None or isinstance(p["code"], str))):
            raise _Bad("problems", f"{_shown(p)} is no problem")
    return value


def _invalid_ids(value: Any) -> list[list[Any]]:
    if not isinstance(value, list):
        raise _Bad("invalid_ids", "not a JSON array")
    for x in value:
        if not (isinstance(x, list) and len(x) == 4 and _int(x[0]) and (x[1] is None or _int(x[1]))
                and isinstance(x[2], str) and isinstance(x[3], str)):
            raise _Bad("invalid_ids", f"{_shown(x)} is no (line, column, id, reason)")
    return value


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


_JSON_COLUMNS = {"front": _front, "headings": _headings, "problems": _problems, "invalid_ids": _invalid_ids}
