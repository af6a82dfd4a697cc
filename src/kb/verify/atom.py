"""arXiv's answers read: a strict check of an Atom feed, an ``arxiv.Result`` as a SourceRecord, wire ids.

What comes back from arXiv is judged here and nowhere else: :func:`check_feed` refuses a
truncated or non-Atom body (the ``arxiv`` client would read it as "no such ids") and any feed
with an entry whose fields do not validate (a date that is no date, a version outside 1 to
:data:`~kb.core.records.MAX_VERSION`: the client would raise inside its parser),
:func:`to_record` turns each ``arxiv.Result`` into a :class:`~kb.core.records.SourceRecord`
at once (or None for an entry that is no paper), and :func:`wire_id` gives an id the form arXiv
answers with. The client that asks is :mod:`kb.verify.arxiv`.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from kb.core.records import SourceRecord
from kb.extract.arxiv_ids import InvalidArxivId, parse_arxiv_id

if TYPE_CHECKING:  # the client is imported when kb asks arXiv (offline runs never do)
    import arxiv

_SHORT_ID_RE = re.compile(r"(?P<id>.+?)(?:v(?P<v>\d+))?")
_ATOM = "{http://www.w3.org/2005/Atom}"
_SUBJECT_CLASS_RE = re.compile(r"^([a-z]+(?:-[a-z]+)?)\.[A-Za-z][A-Za-z-]*/")
_ARXIV_NS = "{http://arxiv.org/schemas/atom}"
_STAMP_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:Z|[+-]\d{2}:\d{2})")
"""An Atom date (RFC 3339 ``date-time``: ``2026-07-30T17:59:59Z``, ``…-04:00``), as arXiv writes it."""


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
    entries = root.findall(f"{_ATOM}entry")
    for number, entry in enumerate(entries, 1):
        problem = _entry_problem(entry)
        if problem:
            ident = (entry.findtext(f"{_ATOM}id") or "").strip()
            named = f" ({_short(ident)})" if ident else ""
            raise MalformedFeed(f"entry {number} of {len(entries)}{named}: {problem}")
    return len(entries)


def _entry_problem(entry: Any) -> str | None:
    """Why one ``<entry>`` does not validate, else None.

    Every field the ``arxiv`` client or :func:`to_record` reads: ``<id>`` present; an abs-URL
    id is an arXiv id (:func:`~kb.extract.arxiv_ids.parse_arxiv_id`: a version from v1 to
    :data:`~kb.core.records.MAX_VERSION` too) written as arXiv writes it; ``<updated>`` and
    ``<published>`` (both required in a paper's entry, not in arXiv's "Error" entry) are Atom
    dates that exist and stay in range in UTC; each ``<author>`` has a ``<name>``; each
    category has a ``term``.
    """
    ident = entry.findtext(f"{_ATOM}id") or ""
    if not ident.strip():
        return "no <id>"
    paper = "arxiv.org/abs/" in ident
    if paper:  # the client's short id: all after the last "arxiv.org/abs/", spaces and all
        problem = _short_id_problem(ident.split("arxiv.org/abs/")[-1])
        if problem:
            return problem
    for tag in ("updated", "published"):
        found = entry.find(f"{_ATOM}{tag}")
        if found is None or not (found.text or "").strip():
            title = (entry.findtext(f"{_ATOM}title") or "").strip()
            if paper and title != "Error":
                return f"no <{tag}>"
            continue
        problem = _stamp_problem(found.text)
        if problem:
            return f"<{tag}> {_short(found.text)} {problem}"
    for author in entry.iterfind(f"{_ATOM}author"):
        if not (author.findtext(f"{_ATOM}name") or "").strip():
            return "an <author> without a <name>"
    for cat in (*entry.iterfind(f"{_ATOM}category"), *entry.iterfind(f"{_ARXIV_NS}primary_category")):
        if not (cat.get("term") or "").strip():
            return f"a <{cat.tag.rsplit('}', 1)[-1]}> without a term"
    return None


def _short_id_problem(short: str) -> str | None:
    """Why the id of an abs URL (``2607.26627v2``) is not an arXiv id as arXiv writes it."""
    try:
        ref = parse_arxiv_id(short)
    except InvalidArxivId as exc:
        return exc.reason
    if ref.id + (f"v{ref.version}" if ref.version is not None else "") != short:
        return "the id is not written as arXiv writes ids"
    return None


def _stamp_problem(text: str) -> str | None:
    """Why ``text`` is no Atom date the client can read (it converts to UTC), else None."""
    stamp = text.strip()
    if not _STAMP_RE.fullmatch(stamp):
        return "is not an RFC 3339 date-time (e.g. 2026-07-30T17:59:59Z)"
    try:
        datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(timezone.utc)
    except (ValueError, OverflowError) as exc:
        return f"is no date ({exc})"
    return None


def _short(text: str, most: int = 60) -> str:
    """``text`` quoted for a message: repr (control characters escaped), cut to ``most``."""
    return repr(text if len(text) <= most else text[:most] + "…")


def wire_id(arxiv_id: str) -> str:
    """The id as arXiv knows it: an old-style id loses its subject class (``math.GT/0309136v2``
    -> ``math/0309136v2``); other ids are unchanged."""
    return _SUBJECT_CLASS_RE.sub(r"\1/", arxiv_id, count=1)


def to_record(result: arxiv.Result) -> SourceRecord | None:
    """A :class:`SourceRecord` from one ``arxiv.Result``; None for an entry that is no paper.

    No paper: an entry without an abs-URL id, without a title or ``published``, or titled
    "Error" (arXiv answers some bad queries with such an entry, issue 12).

    :raises MalformedFeed: the fields do not make a record (:func:`check_feed` refuses such a
        feed first; this holds for a ``Result`` from elsewhere).
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
    try:
        return _record(result, m, title)
    except ValueError as exc:  # pydantic's ValidationError is one
        raise MalformedFeed(f"entry {short!r}: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return "; ".join(lines[:3])


def _record(result: arxiv.Result, m: re.Match[str], title: str) -> SourceRecord:
    return SourceRecord(
        id=m.group("id"),
        version=int(m.group("v")) if m.group("v") else None,
        short_id=result.get_short_id(),
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

