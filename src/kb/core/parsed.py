"""What the parser gives of one file (:class:`ParsedFile` and its parts), in a module of its
own: the store hands the same shapes back (:func:`kb.store.parsed.stored_parse`) to commands that
must not load the Markdown parser and extractors to read a file ingest has already parsed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kb.core.claims import Claim, Kind, Role
from kb.core.textio import Problem


@dataclass(slots=True)
class Heading:
    """A heading of a file: level 1–6, plain text, 1-based line, its ``§`` number if any."""

    level: int
    text: str
    line: int
    section: str | None
    subjects: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Mention:
    """One arXiv id written in a file (claims, headings and front matter alike)."""

    id: str
    version: int | None
    raw: str
    line: int
    column: int | None
    claim_id: str | None
    kind: Kind | None


@dataclass(slots=True)
class ParsedFile:
    """Everything kb keeps of one file.

    ``front`` is the front matter as loaded (for cards: card, arxiv (raw text), title …),
    with ``arxiv`` replaced by its text as written (DESIGN.md §3 float pitfall).
    """

    path: str
    role: Role
    author: str | None
    written_at: str | None
    front: dict[str, Any]
    claims: list[Claim]
    mentions: list[Mention]
    headings: list[Heading]
    problems: list[Problem]
    invalid_ids: list[tuple[int, int, str, str]] = field(default_factory=list)
    """Id-shaped text that is no arXiv id: ``(line, column, raw, reason)``."""
    front_lines: dict[str, int] = field(default_factory=dict)
    """Front-matter key -> its 1-based file line."""
    front_end: int = 0
    """Line of the closing ``---`` of the front matter (0 without front matter)."""
    streamed: int = 0
    """Claims handed to the ``sink`` of :meth:`Parser.parse_bytes` (not in ``claims``)."""

    @property
    def n_claims(self) -> int:
        """Claims of the file: those in ``claims`` and those streamed to a sink."""
        return len(self.claims) + self.streamed
