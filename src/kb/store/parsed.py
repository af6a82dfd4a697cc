"""A file's parse as the store holds it, read back instead of parsing the file again."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from kb.core import frontmatter
from kb.core.parsed import Heading, Mention, ParsedFile
from kb.core.textio import Problem

if TYPE_CHECKING:
    from kb.store.db import Store


def stored_parse(store: Store, path: str, data: bytes, text: str) -> ParsedFile | None:
    """The parser's result for the KB file ``path`` as the store holds it — claims, mentions,
    headings, problems and invalid ids as ingest stored them, the front matter read again
    from ``text`` (its values keep their YAML types) — when the store's copy is of these very
    bytes (``data``: ingest's content hash, blake2b-128, kb.store.ingest); else None (not ingested,
    changed since, another config: the caller parses). The store is opened for the KB's
    config and kb version (:class:`kb.store.db.Store` fingerprint), so its parse is this parser's.
    """
    row = store.file(path)
    if row is None or row.hash != hashlib.blake2b(data, digest_size=16).hexdigest():
        return None
    fm, _ = frontmatter.split(text, path)
    return ParsedFile(
        path=path, role=row.role, author=row.author, written_at=row.written_at,  # type: ignore[arg-type]
        front=frontmatter.kept(fm),
        claims=list(store.claims(path=path)),
        mentions=[Mention(m.arxiv_id, m.version, m.raw, m.line, m.column, m.claim_id, m.kind)  # type: ignore[arg-type]
                  for m in store.mentions(path=path)],
        headings=[Heading(h["level"], h["text"], h["line"], h["section"], list(h["subjects"])) for h in row.headings],
        problems=[Problem(**p) for p in row.problems],
        invalid_ids=[tuple(x) for x in row.invalid_ids],  # type: ignore[misc]
        front_lines=dict(fm.key_lines),
        front_end=fm.end_line if fm.present else 0,
    )
