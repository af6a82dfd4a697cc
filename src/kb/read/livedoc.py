"""Living documents: front matter, ``§`` sections, the subjects and values they hold, citations.

A living document is ``organized/knowledge/<topic>.md`` (DESIGN.md §1) with front matter
``topic``, ``version``, ``updated`` and optionally ``citations``; its earlier versions (history
snapshots, git) are read by :mod:`kb.read.versions`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kb.core import frontmatter
from kb.core.claims import Claim, DateRef, Quantity
from kb.core.parsed import Heading, ParsedFile
from kb.core.paths import doc_path, read_inside
from kb.core.textio import Problem, decode
from kb.extract.arxiv_ids import scan_arxiv
from kb.extract.names import NameMatcher
from kb.extract.refs import find_dois, find_kb_paths, find_urls

if TYPE_CHECKING:
    from kb.core.config import KbConfig
    from kb.read.parse import Parser


@dataclass(slots=True)
class Section:
    """One heading's section: from its line to the line before the next heading of any level.

    ``number`` is the ``§`` number as written (``2.13``), or ``#<n>`` (position among all
    headings, 1-based) for a heading without ``§`` — such headings are noted on the doc.
    """

    number: str
    title: str
    level: int
    line: int
    end_line: int
    numbered: bool
    heading_subjects: list[str] = field(default_factory=list)
    subjects: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``§2.13`` for numbered sections, else the title."""
        return f"§{self.number}" if self.numbered else self.title


#: The highest front-matter ``version`` kb reads (as :data:`kb.read.cards.MAX_CARD` for card numbers):
#: a doc bumped every night reaches it in 2,700 years, so a version past it is a typo.
MAX_DOC_VERSION = 999_999


def version_problem(value: object) -> str | None:
    """Why a front-matter ``version`` is none kb reads, else None: the one rule of a living doc's
    version (a whole number from 1 to :data:`MAX_DOC_VERSION`; not ``True``, not ``1.0``), for the
    doc read (:attr:`LivingDoc.version`), the parser's warning, lint KB101 and ``kb bump``.

    :returns: the end of a message after ``'version'``: ``must be a positive integer such as 45,
        got 'v45'``, ``is 100,000,000 …, over 999,999, …``.
    """
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return f"must be a positive integer such as 45, got {value!r}"
    if value > MAX_DOC_VERSION:
        return f"is {value:,}, over {MAX_DOC_VERSION:,}, the highest version kb reads (a typo?)"
    return None


def add_version(snapshots: Iterable[int]) -> str:
    """What to write when a living doc has no ``version:``: one above its newest history
    snapshot (``history/<topic>/v3.md`` -> ``add `version: 4```), ``version: 1`` with none — never
    a version at or below a snapshot's (kb bump would then write history backwards). Lint KB101,
    ``kb bump`` and the night's note say this one wording."""
    newest = max(snapshots, default=None)
    if newest is None:
        return "add `version: 1`"
    return f"add `version: {newest + 1}` (one above the newest snapshot in history, v{newest})"


def behind_history(version: int, snapshots: Iterable[int], folder: str) -> str | None:
    """Why ``version`` cannot be the living doc's, given the versions of its history snapshots
    in ``folder`` (``history/inference``): not above the newest (``version 1 is not greater than
    the newest snapshot history/inference/v3.md: set `version: 4```), else None. The one rule
    of lint KB102 and ``kb bump`` (which refuses, exit 2: its snapshot would go back in time)."""
    newest = max(snapshots, default=None)
    if newest is None or version > newest:
        return None
    return (f"version {version} is not greater than the newest snapshot {folder}/v{newest}.md: "
            f"set `version: {newest + 1}`")


NO_VERSION = "(no version)"
"""How a version of a living doc whose front matter gives none kb reads is shown (never ``vNone``, ``v0``)."""


def version_label(version: int | None) -> str:
    """``v45``, or :data:`NO_VERSION` when the version is unknown (``version:`` missing or not
    one kb reads: :func:`version_problem`): every command that names a doc version
    (``kb history``, ``kb diff --from/--to``, ``kb history --as-of``, the history plot)."""
    return f"v{version}" if version is not None else NO_VERSION


def unknown_version_note(path: str, shown: int | None = None) -> str:
    """The note naming a living doc or snapshot at ``path`` whose front matter gives no version
    kb reads, and how it is shown (``shown``: the number of its ``vN.md`` file name, else
    :data:`NO_VERSION`)."""
    return (f"{path}: no `version:` kb reads in its front matter (a whole number from 1 to {MAX_DOC_VERSION:,}); "
            f"shown as {version_label(shown)}" + (", its file name's" if shown is not None else ""))


@dataclass(slots=True)
class LivingDoc:
    """A parsed living document.

    :ivar version: front-matter ``version`` (int) or None when missing or invalid (:func:`version_problem`).
    :ivar updated: front-matter ``updated`` as an aware datetime, or None.
    :ivar citations: front-matter ``citations`` (int) or None.
    :ivar notes: remarks such as headings without ``§`` numbered by position.
    """

    path: str
    topic: str | None
    version: int | None
    updated: datetime | None
    citations: int | None
    front: dict[str, Any]
    front_lines: dict[str, int]
    front_present: bool
    sections: list[Section]
    claims: list[Claim]
    headings: list[Heading]
    parsed: ParsedFile
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    text: str = ""

    # -- lookups --------------------------------------------------------------------------------

    def section_at(self, line: int) -> Section | None:
        """The innermost section holding ``line`` (1-based), else None (text before any heading)."""
        i = bisect_right([s.line for s in self.sections], line)
        return self.sections[i - 1] if i and line <= self.sections[i - 1].end_line else None

    def section(self, number: str) -> Section | None:
        """The section numbered ``number`` (``2.13`` or ``§2.13``), else None."""
        n = number.lstrip("§").strip()
        return next((s for s in self.sections if s.numbered and s.number == n), None)

    def subject_index(self) -> dict[str, list[Section]]:
        """Subject key -> the sections that mention it (heading or body), in document order."""
        index: dict[str, list[Section]] = {}
        for s in self.sections:
            for subj in s.subjects:
                index.setdefault(subj, []).append(s)
        return index

    def has_subject(self, key: str) -> bool:
        """True when the document mentions ``key`` anywhere."""
        return any(key in s.subjects for s in self.sections) or any(key in c.subjects for c in self.claims)

    def node_sections(self, key: str) -> list[Section]:
        """Sections where ``key`` is a node of its own: named in the heading, or leading a
        list item or table row (its first anchor), rather than mentioned in passing."""
        out: list[Section] = []
        for s in self.sections:
            if key in s.heading_subjects or any(c.subjects[:1] == [key] and c.unit in ("list-item", "table-row")
                                                for c in s.claims):
                out.append(s)
        return out

    def values(self, key: str, metric: str | None = None) -> list[tuple[Quantity | DateRef, Claim]]:
        """Quantities and dates the document states about ``key`` (of ``metric`` when given)."""
        out: list[tuple[Quantity | DateRef, Claim]] = []
        for c in self.claims:
            for v in (*c.quantities, *c.dates):
                subj = v.subject or (c.subjects[0] if c.subjects else None)
                if subj != key and not (v.subject is None and key in c.subjects):
                    continue
                if metric is not None and v.metric != metric:
                    continue
                out.append((v, c))
        return out

    def body_text(self) -> str:
        """The body as kb reads it, line numbers kept: front matter and what the parser never reads
        as text blanked (:func:`kb.read.parse.unread_blanked`: code, HTML comments, ``<pre>``)."""
        # (lazy: the Markdown parser is loaded only here)
        from kb.read.parse import unread_blanked

        end = self.parsed.front_end if self.front_present else 0
        lines = self.text.split("\n")
        return unread_blanked("\n" * end + "\n".join(lines[end:]))

    def cited_sources(self) -> set[str]:
        """Distinct sources the body cites anywhere (see :func:`citations_of`)."""
        return citations_of(self.body_text())


_ARXIV_URL_RE = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/", re.IGNORECASE)
_DOI_URL_RE = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\.\d{4,9}/\S+)$", re.IGNORECASE)


class ParsedFiles(Protocol):
    """What the living-doc readers need of the store (:class:`kb.store.db.Store`): the parser's
    result for a file whose bytes it holds as they are, else None."""

    def parsed_file(self, path: str, data: bytes, text: str) -> ParsedFile | None: ...


def citations_of(text: str) -> set[str]:
    """Distinct sources written in ``text`` — the one definition kb uses for "cited sources"
    (KB109's count, ``kb diff --from/--to`` citations, the front-matter ``citations`` figure).

    arXiv ids in any form count as ``arxiv:<id>`` (any version; an arxiv.org link is its id,
    not a URL); DOIs as ``doi:<doi>`` (a doi.org link is its DOI); other http(s) URLs as
    written, a trailing ``/`` ignored; KB paths (``inbox/…``, ``paper_cards/…``) as written.

    :param text: any text; callers blank what must not count (front matter, fenced code).
    :returns: source keys.
    """
    out: set[str] = {f"arxiv:{c.id}" for c in scan_arxiv(text) if c.id}
    if "10." in text:
        out.update(f"doi:{d}" for d, _, _ in find_dois(text))
    for url, _, _ in find_urls(text):
        if _ARXIV_URL_RE.match(url):
            continue
        m = _DOI_URL_RE.match(url)
        out.add(f"doi:{m.group(1).lower()}" if m else url.rstrip("/"))
    if "/" in text:
        out.update(p for p, _, _ in find_kb_paths(text))
    return out


class LazyParser:
    """A :class:`kb.read.parse.Parser` for ``config``, built at its first use: building one costs
    ~30 ms and loads the Markdown parser and every extractor, which a living doc read back
    from the store (:meth:`kb.store.db.Store.parsed_file`) does not need. Has the Parser's ``tz`` and
    ``parse_text``."""

    def __init__(self, config: KbConfig) -> None:
        self.config = config
        self.tz = config.tzinfo
        self._parser: Parser | None = None

    def parse_text(self, *args: Any, **kwargs: Any) -> ParsedFile:
        if self._parser is None:
            from kb.read.parse import Parser

            self._parser = Parser(self.config)
        return self._parser.parse_text(*args, **kwargs)


def parse_living_doc(parser: Parser | LazyParser, path: str, data: bytes | str,
                     aliases: NameMatcher | None = None, *, store: ParsedFiles | None = None) -> LivingDoc:
    """Parse a living document from bytes or text.

    :param path: KB-relative path (for provenance and messages).
    :param aliases: extra names -> subject keys (card titles and aliases) to find in the text.
    :param store: an up-to-date store: when it holds this very file (:meth:`kb.store.db.Store.parsed_file`),
        its parse is used and ``parser`` is not called.
    :returns: :class:`LivingDoc`; problems (front matter, encoding) are collected, not raised.
    """
    parsed: ParsedFile | None = None
    if isinstance(data, bytes):
        dec = decode(data, path)
        text, problems = dec.text, list(dec.problems)
        if store is not None:
            parsed = store.parsed_file(path, data, text)
    else:
        text, problems = data, []
    if parsed is None:
        parsed = parser.parse_text(path, text, problems)
    total_lines = text.count("\n") + 1
    sections: list[Section] = []
    notes: list[str] = []
    unnumbered = 0
    for pos, h in enumerate(parsed.headings, 1):
        if h.section:
            number, numbered = h.section, True
        else:
            number, numbered = f"#{pos}", False
            if h.level > 1:
                unnumbered += 1
        sections.append(Section(number, h.text, h.level, h.line, total_lines, numbered, list(h.subjects)))
    for a, b in zip(sections, sections[1:]):
        a.end_line = b.line - 1
    if unnumbered:
        notes.append(f"{path}: {unnumbered} heading(s) without a § number, numbered by position (#n)")
    starts = [sec.line for sec in sections]
    for c in parsed.claims:
        i = bisect_right(starts, c.provenance.line)
        if i:
            sections[i - 1].claims.append(c)
    for s in sections:
        subj: list[str] = list(s.heading_subjects)
        for c in s.claims:
            subj.extend(c.subjects)
            if aliases:
                subj.extend(k for k, _, _ in aliases.find(c.text))
        if aliases:
            subj.extend(k for k, _, _ in aliases.find(s.title))
        s.subjects = list(dict.fromkeys(subj))
    front = parsed.front
    return LivingDoc(
        path=path,
        topic=_str(front.get("topic")),
        version=front.get("version") if version_problem(front.get("version")) is None else None,
        updated=_dt(front.get("updated"), parser),
        citations=front.get("citations") if isinstance(front.get("citations"), int) else None,
        front=front,
        front_lines=dict(parsed.front_lines),
        front_present=parsed.front_end > 0,
        sections=sections,
        claims=parsed.claims,
        headings=parsed.headings,
        parsed=parsed,
        problems=parsed.problems,
        notes=notes,
        text=text,
    )


def _str(v: Any) -> str | None:
    return str(v) if v is not None else None


def _dt(v: Any, parser: Parser | LazyParser) -> datetime | None:
    return frontmatter.as_datetime(v, parser.tz)


def load_living_doc(root: Path, topic: str, parser: Parser | LazyParser, aliases: NameMatcher | None = None,
                    *, store: ParsedFiles | None = None) -> LivingDoc:
    """The current living document of ``topic`` (from ``store`` when it holds the file as it is:
    :func:`parse_living_doc`).

    :raises FileNotFoundError: ``organized/knowledge/<topic>.md`` does not exist.
    """
    rel = doc_path(topic)
    return parse_living_doc(parser, rel, read_inside(root, rel, what="living document"), aliases, store=store)
