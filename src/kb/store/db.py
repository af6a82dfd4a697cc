"""The store's queries: files, claims, mentions and the arXiv cache as the stages above ask for them.

:class:`Store` is the one door to the SQLite store ``.kb/kb.sqlite`` (no SQL outside
``kb.store``): its connection, transactions, writer and memos are :class:`kb.store.base.StoreBase`;
the schema is :mod:`kb.store.schema`, the locks :mod:`kb.store.locks`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from kb.core.claims import Claim
from kb.core.errors import InputError
from kb.core.frontmatter import FRONT_MATTER_UNREAD
from kb.core.records import SourceRecord
from kb.core.textio import Problem
from kb.core.parsed import ParsedFile
from kb.store.base import StoreBase
from kb.store.filerow import decoded_json, decoded_row, decoded_time
from kb.store.name_hits import hits_table, like_pattern
from kb.store.parsed import stored_parse
from kb.store.writer import FileRow


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


class Store(StoreBase):
    """Open (creating or rebuilding) the store of a KB, and ask it (see :class:`kb.store.base.StoreBase`)."""

    def files(self, role: str | None = None) -> list[FileRow]:
        """Stored files, by path; only those of ``role`` when given."""
        sql = "SELECT * FROM files" + (" WHERE role=?" if role else "") + " ORDER BY path"
        return [decoded_row(self.path, r) for r in self.db.execute(sql, (role,) if role else ())]

    def heading_texts(self, role: str) -> list[str]:
        """The heading texts of the stored files of ``role``, by path then line (what
        ``[h["text"] for f in files(role) for h in f.headings]`` gives, reading only the headings)."""
        return [h["text"] for path, js in self.db.execute(
            "SELECT path, headings FROM files WHERE role=? ORDER BY path", (role,))
            for h in decoded_json(self.path, path, "headings", js)]

    def heading_texts_in(self, folder: str, role: str) -> list[str]:
        """:meth:`heading_texts` of the files of ``role`` under ``folder`` (KB-relative, no
        trailing ``/``), read through the primary key's path range instead of every row (the
        living docs' headings of a KB of 12k files: its few files under ``organized/knowledge``)."""
        lo = folder.rstrip("/") + "/"
        return [h["text"] for path, js in self.db.execute(
            "SELECT path, headings FROM files WHERE path >= ? AND path < ? AND role=? ORDER BY path",
            (lo, lo[:-1] + chr(ord("/") + 1), role)) for h in decoded_json(self.path, path, "headings", js)]

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
        return stored_parse(self, path, data, text)

    def unread_front_matter(self) -> list[Problem]:
        """The problems of stored files whose front matter kb did not load (code
        :data:`kb.core.frontmatter.FRONT_MATTER_UNREAD`: invalid YAML, never closed), by path:
        their bodies were read, their front matter (a card's number, title, category, created;
        a briefing's author, topic) not. Kept until the file is fixed, so every command says so
        (``kb digest``, ``kb diff``, ``kb lint`` KB120, the brief's §4), not ``kb ingest`` alone."""
        rows = self.db.execute("SELECT path, problems FROM files WHERE problems LIKE ? ORDER BY path",
                               (f"%{FRONT_MATTER_UNREAD}%",))
        return [Problem(**p) for path, js in rows for p in decoded_json(self.path, path, "problems", js)
                if p.get("code") == FRONT_MATTER_UNREAD]

    def file(self, path: str) -> FileRow | None:
        """One stored file, or None."""
        r = self.db.execute("SELECT * FROM files WHERE path=?", (path,)).fetchone()
        return decoded_row(self.path, r) if r else None

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
            patterns = hits_table(self, text_like)  # the LIKE's answers, kept per name (no scan)
            if patterns is not None:
                marks = ",".join("?" * len(patterns))
                conds.append((f"(c.path, c.id) IN (SELECT h.path, h.claim_id FROM name_hits h "
                              f"WHERE h.pattern IN ({marks}))", tuple(patterns)))
            else:  # a store that cannot be written: the same LIKE over every claim (any number of names)
                conds.append(("EXISTS (SELECT 1 FROM json_each(?) AS n WHERE c.json LIKE n.value ESCAPE '\\')",
                              json.dumps([like_pattern(n) for n in text_like], ensure_ascii=False)))
        if json_has:
            conds.append(("c.json LIKE ? ESCAPE '\\'",
                          "%" + json_has.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"))
        where, args = _where(conds)
        sql = "SELECT c.json FROM claims c" + where + " ORDER BY c.path, c.line, c.rowid"
        for (js,) in self.db.execute(sql, args):
            yield self._claim(js)

    def claim(self, path: str, claim_id: str) -> Claim | None:
        """The claim ``claim_id`` of the file ``path`` (one primary-key seek), else None."""
        row = self.db.execute("SELECT json FROM claims WHERE path=? AND id=?", (path, claim_id)).fetchone()
        if row is None:
            return None
        return self._claim(row[0])

    def _claim(self, js: str) -> Claim:
        """A stored claim row, decoded.

        :raises InputError: (exit 2) naming the store when the row does not decode: kb wrote
            every row it keeps, so a row that does not decode was changed by something else and
            is never trusted; the store is a cache of the KB's files and is rebuilt when deleted.
        """
        try:
            return Claim.model_validate_json(js)
        except (ValueError, RecursionError) as exc:  # pydantic's ValidationError is a ValueError
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise InputError(f"a claim row does not decode ({first}); kb did not write it. The store is a cache "
                             "of the KB's files: delete it and run `kb ingest` to rebuild it", str(self.path)) from None

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
        sql = "SELECT c.json FROM claims c WHERE EXISTS (SELECT 1 FROM json_each(?) AS n WHERE instr(c.json, n.value) > 0)"
        for (js,) in self.db.execute(sql, (json.dumps(list(needles), ensure_ascii=False),)):
            yield self._claim(js)

    def first_mention(self, subject: str, *, outside: str | None = None) -> str | None:
        """Earliest ``written_at`` of any claim about ``subject`` (ISO), else None; with
        ``outside``, of claims in files whose path does not start with it (a living doc's
        ``updated`` time is no mention: ``outside="organized/knowledge/"``)."""
        if outside is not None:
            r = self.db.execute("SELECT min(written_at) FROM subjects WHERE subject=? AND substr(path, 1, ?) != ?",
                                (subject, len(outside), outside)).fetchone()
            return r[0] if r else None
        r = self.db.execute(
            "SELECT min(written_at) FROM subjects WHERE subject=?",  # one index seek (subject, written_at)
            (subject,),
        ).fetchone()
        return r[0] if r else None

    # -- files by role and date (the night's window, the ledger, history, relays) -------------

    def file_info(self, path: str) -> tuple[str, str, str | None, str | None] | None:
        """``(path, role, author, written_at)`` of the stored file ``path``, else None."""
        return self.db.execute("SELECT path, role, author, written_at FROM files WHERE path=?", (path,)).fetchone()

    def file_infos_under(self, prefix: str) -> list[tuple[str, str, str | None, str | None]]:
        """:meth:`file_info` of the files whose path starts with ``prefix``, by path (a range of
        the primary key, not every row)."""
        return self.db.execute("SELECT path, role, author, written_at FROM files WHERE path >= ? AND path < ? "
                               "ORDER BY path", (prefix, prefix + "\U0010ffff")).fetchall()

    def dated_files(self, role: str) -> list[tuple[str, str]]:
        """``(path, written_at)`` of the files of ``role`` that have a ``written_at``, in table order."""
        return self.db.execute("SELECT path, written_at FROM files WHERE role=? AND written_at IS NOT NULL",
                               (role,)).fetchall()

    def undated_files(self, roles: Sequence[str]) -> list[str]:
        """Paths of the files of ``roles`` without a ``written_at``, sorted."""
        marks = ",".join("?" * len(roles))
        return [r[0] for r in self.db.execute(
            f"SELECT path FROM files WHERE written_at IS NULL AND role IN ({marks}) ORDER BY path", tuple(roles))]

    def written_span(self) -> tuple[str | None, str | None]:
        """The earliest and the latest ``written_at`` of any file (``(None, None)``: none has one)."""
        lo, hi = self.db.execute("SELECT min(written_at), max(written_at) FROM files WHERE written_at IS NOT NULL"
                                 ).fetchone()
        for value in (lo, hi):  # (checked: a time kb did not write would end a caller's fromisoformat)
            row = self.db.execute("SELECT path FROM files WHERE written_at=?", (value,)).fetchone()
            decoded_time(self.path, row[0] if row else "?", value)
        return lo, hi

    def newest_files(self, role: str, n: int) -> list[tuple[str, str]]:
        """``(written_at, path)`` of the ``n`` files of ``role`` written last, newest first (then by path)."""
        return self.db.execute("SELECT written_at, path FROM files WHERE role=? AND written_at IS NOT NULL "
                               "ORDER BY written_at DESC, path LIMIT ?", (role, n)).fetchall()

    def paths_written_after(self, role: str, after: str) -> list[str]:
        """Paths of the files of ``role`` written after ``after`` (ISO), sorted."""
        return [r[0] for r in self.db.execute(
            "SELECT path FROM files WHERE role=? AND written_at > ? ORDER BY path", (role, after))]

    def last_written(self, role: str, until: str, *, not_like: str) -> str | None:
        """The latest ``written_at`` at or before ``until`` of the files of ``role`` whose path is
        not SQL-``LIKE`` ``not_like``, else None."""
        row = self.db.execute(
            "SELECT max(written_at) FROM files WHERE role=? AND written_at IS NOT NULL AND written_at <= ? "
            "AND path NOT LIKE ?", (role, until, not_like)).fetchone()
        return row[0] if row and row[0] else None

    def like(self, text: str, pattern: str) -> bool:
        """``text LIKE pattern`` as SQLite answers it (``%``, ``_``, ASCII case folded): what the
        queries on paths above decide, decided alike for a path already read."""
        return bool(self.db.execute("SELECT ? LIKE ?", (text, pattern)).fetchone()[0])

    def claim_counts(self, since: str, until: str, roles: Sequence[str]) -> list[tuple[str, str, int]]:
        """``(written_at, path, claims)`` of the claims of ``roles`` written in ``[since, until)``,
        one row per file and time (a night of 10k files, not 200k claims)."""
        marks = ",".join("?" * len(roles))
        return self.db.execute(
            "SELECT written_at, path, COUNT(*) FROM claims WHERE written_at >= ? AND written_at < ? "
            f"AND role IN ({marks}) GROUP BY written_at, path", (since, until, *roles)).fetchall()

    # -- arXiv cache ---------------------------------------------------------------------------

    def cache_get(self, arxiv_id: str) -> tuple[str, str, dict[str, Any] | None] | None:
        """``(fetched_at, status, data)`` cached for an id (with version if asked so), else None.

        A row that does not decode (not JSON, not a :class:`kb.core.records.SourceRecord`, an
        unknown status, a bad ``fetched_at``) is no answer: it is dropped, and the id is asked
        again (offline: unverified), never trusted (issue 24)."""
        r = self.db.execute("SELECT fetched_at, status, json FROM arxiv_cache WHERE id=?", (arxiv_id,)).fetchone()
        if r is None:
            return None
        data = _cached_data(r[0], r[1], r[2])
        if data is False:
            self.cache_dropped.add(arxiv_id)
            if not self.db.in_transaction:
                try:
                    with self.tx():
                        self.db.execute("DELETE FROM arxiv_cache WHERE id=?", (arxiv_id,))
                except sqlite3.OperationalError:  # read-only or busy: skipped again next time
                    pass
            return None
        return r[0], r[1], data

    def cache_put(self, arxiv_id: str, fetched_at: str, status: str, data: dict[str, Any] | None) -> None:
        """Cache one arXiv lookup result (its own short transaction)."""
        with self.tx():
            self.db.execute(
                "INSERT OR REPLACE INTO arxiv_cache VALUES (?,?,?,?)",
                (arxiv_id, fetched_at, status, json.dumps(data, ensure_ascii=False) if data is not None else None),
            )

    def cache_found(self) -> list[tuple[str, str | None]]:
        """``(id, JSON data)`` of every cached look-up that found its paper, by id; a row whose
        JSON is no object is left out (:meth:`cache_get` drops it when the id is next asked)."""
        rows = self.db.execute("SELECT id, json FROM arxiv_cache WHERE status='found' ORDER BY id").fetchall()
        return [(i, text) for i, text in rows if _json_object(text)]


def _json_object(text: str | None) -> bool:
    """Whether ``text`` is a JSON object."""
    try:
        return isinstance(json.loads(text), dict) if text else False
    except (ValueError, RecursionError):
        return False


def _cached_data(fetched_at: Any, status: Any, text: str | None) -> dict[str, Any] | None | Literal[False]:
    """The data of one ``arxiv_cache`` row: a dict for a found paper, None for a not-found; False
    when the row does not decode (see :meth:`Store.cache_get`)."""
    try:
        datetime.fromisoformat(fetched_at)
    except (TypeError, ValueError):
        return False
    if status == "not-found":
        return None if text is None else (None if _json_object(text) or text == "null" else False)
    if status != "found" or not text:
        return False
    try:
        data = json.loads(text)
        rec = SourceRecord.model_validate(data)
    except (ValueError, RecursionError):  # pydantic's ValidationError is a ValueError
        return False
    if rec.version is not None and rec.version < 1:  # arXiv numbers versions from 1
        return False
    return data if isinstance(data, dict) else False


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

