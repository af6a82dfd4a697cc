"""arXiv's answers read: a strict check of an Atom feed, an ``arxiv.Result`` as a SourceRecord, wire ids.

What comes back from arXiv is judged here and nowhere else: :func:`check_feed` refuses a
truncated or non-Atom body (the ``arxiv`` client would read it as "no such ids"),
:func:`to_record` turns each ``arxiv.Result`` into a :class:`~kb.core.records.SourceRecord`
at once (or None for an entry that is no paper), and :func:`wire_id` gives an id the form arXiv
answers with. The client that asks is :mod:`kb.verify.arxiv`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kb.core.records import SourceRecord

if TYPE_CHECKING:  # the client is imported when kb asks arXiv (offline runs never do)
    import arxiv

_SHORT_ID_RE = re.compile(r"(?P<id>.+?)(?:v(?P<v>\d+))?")
_ATOM = "{http://www.w3.org/2005/Atom}"
_SUBJECT_CLASS_RE = re.compile(r"^([a-z]+(?:-[a-z]+)?)\.[A-Za-z][A-Za-z-]*/")


class MalformedFeed(Exception):
    """A response that is not a well-formed Atom feed; ``detail`` says how."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def check_feed(content: bytes) -> int:
    """The number of ``<entry>`` elements of a well-formed Atom feed.

    :raises MalformedFeed: not well-formed XML, a document type declaration (``<!DOCTYPE …>``:
        arXiv's feeds have none; its entities are never expanded, and a title made of one,
        ``<title>&x;</title>``, would read as no title, so as "no such paper"), or not an
        Atom ``<feed>``.
    """
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=False, load_dtd=False)
    try:
        root = etree.fromstring(content, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise MalformedFeed(f"not well-formed XML ({exc})") from None
    if root is not None and (root.getroottree().docinfo.internalDTD is not None or root.getroottree().docinfo.doctype):
        raise MalformedFeed("a document type declaration (<!DOCTYPE …>, entities), which an Atom feed of arXiv never has")
    if root is None or root.tag != f"{_ATOM}feed":
        raise MalformedFeed(f"not an Atom feed (root element {getattr(root, 'tag', None)!r})")
    return len(root.findall(f"{_ATOM}entry"))


def wire_id(arxiv_id: str) -> str:
    """The id as arXiv knows it: an old-style id loses its subject class (``math.GT/0309136v2``
    -> ``math/0309136v2``); other ids are unchanged."""
    return _SUBJECT_CLASS_RE.sub(r"\1/", arxiv_id, count=1)


def to_record(result: arxiv.Result) -> SourceRecord | None:
    """A :class:`SourceRecord` from one ``arxiv.Result``; None for an entry that is no paper.

    No paper: an entry without an abs-URL id, without a title or ``published``, or titled
    "Error" (arXiv answers some bad queries with such an entry, issue 12).
    """
    if "arxiv.org/abs/" not in (result.entry_id or ""):
        return None
    title = (result.title or "").strip()
    if not title or title == "Error" or result.published is None:
        return None
    short = result.get_short_id()
    m = _SHORT_ID_RE.fullmatch(short)
    if m is None:
        return None
    return SourceRecord(
        id=m.group("id"),
        version=int(m.group("v")) if m.group("v") else None,
        short_id=short,
        title=title,
        authors=[a.name for a in result.authors],
        published=result.published,
        updated=result.updated,
        primary_category=result.primary_category or "",
        categories=list(result.categories),
        comment=result.comment or None,
        journal_ref=result.journal_ref or None,
        doi=result.doi or None,
    )

