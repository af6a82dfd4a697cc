"""One parsed file as the store's table rows (built in this process or in a parsing worker)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from kb.core.claims import Claim
from kb.store.writer import FileRow, FileRows

if TYPE_CHECKING:
    from kb.core.parsed import Mention, ParsedFile


def to_rows(parsed: ParsedFile, digest: str, mtime_ns: int, size: int, ctime_ns: int = 0) -> FileRows:
    """Table rows of one parsed file (see :meth:`kb.store.base.StoreBase.put`)."""
    claims, subjects, quantities = claim_rows(parsed.path, parsed.claims)
    return FileRows(file_row(parsed, digest, mtime_ns, size, ctime_ns), claims, subjects, quantities,
                    mention_rows(parsed.path, parsed.mentions, parsed.written_at))


def file_row(parsed: ParsedFile, digest: str, mtime_ns: int, size: int, ctime_ns: int = 0) -> FileRow:
    """The ``files`` row of one parsed file (``n_claims`` counts streamed claims too)."""
    return FileRow(
        path=parsed.path, hash=digest, mtime_ns=mtime_ns, ctime_ns=ctime_ns, size=size, role=parsed.role,
        author=parsed.author, written_at=parsed.written_at, front=parsed.front,
        headings=[{"level": h.level, "text": h.text, "line": h.line, "section": h.section, "subjects": h.subjects}
                  for h in parsed.headings],
        problems=[asdict(p) for p in parsed.problems],
        invalid_ids=[list(x) for x in parsed.invalid_ids],
        n_claims=parsed.n_claims,
    )


def claim_rows(path: str, claims: Iterable[Claim]
               ) -> tuple[list[tuple[Any, ...]], list[tuple[str, str, str, str | None]], list[tuple[Any, ...]]]:
    """``(claims, subjects, quantities)`` rows of claims of the file ``path``, in order.

    A claim row's last value, its JSON, is the UTF-8 text pydantic writes
    (``model_dump_json(exclude_defaults=True)``) as a ``bytearray``, never decoded here: the
    writer stores it as TEXT (:meth:`kb.store.writer.FileWriter.add`), the same text a ``str``
    would be. (A ``bytearray``, not the ``bytes`` pydantic gives: sqlite3 binds a ``bytearray``,
    ``str``, ``int`` or ``float`` as it is and first looks any other value up in its adapters,
    ~3,000 instructions a value.)
    """
    to_json = Claim.__pydantic_serializer__.to_json  # model_dump_json(exclude_defaults=True), without its wrapper
    rows: list[tuple[Any, ...]] = []
    subjects: list[tuple[str, str, str, str | None]] = []
    quantities: list[tuple[Any, ...]] = []
    for c in claims:
        p = c.provenance
        cid, written_at, subs = c.id, p.written_at, c.subjects
        js = bytearray(to_json(c, exclude_defaults=True))
        rows.append((cid, path, p.line, c.kind, c.role, p.author, written_at, js))
        if subs:
            subjects += [(cid, path, s, written_at) for s in subs]  # written_at: first mentions
        if c.quantities:
            default_subject = subs[0] if subs else None
            quantities += [(cid, path, q.subject or default_subject, q.metric, q.value, q.low, q.high, q.unit, q.raw)
                           for q in c.quantities]
    return rows, subjects, quantities


def mention_rows(path: str, mentions: Iterable[Mention], written_at: str | None) -> list[tuple[Any, ...]]:
    """``mentions`` rows of the file ``path`` (its ``written_at`` on each)."""
    return [(path, m.line, m.column, m.id, m.version, m.raw, m.claim_id, m.kind, written_at) for m in mentions]
