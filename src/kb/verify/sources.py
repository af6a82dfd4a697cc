"""Upstream sources of paper metadata: the name -> backend registry (records: kb.core.records.SourceRecord)."""

from __future__ import annotations

from collections.abc import Callable

from kb.core.errors import UsageError
from kb.core.records import SourceRecord
from kb.verify.arxiv import fetch as fetch_arxiv

SOURCES: dict[str, Callable[[str], SourceRecord | None]] = {"arxiv": fetch_arxiv}
"""Source name -> ``fetch(ref) -> SourceRecord | None`` (None: the source has no such paper)."""


def get_source(name: str) -> Callable[[str], SourceRecord | None]:
    """The fetch function of source ``name``.

    :raises UsageError: unknown name; the message lists the known ones.
    """
    try:
        return SOURCES[name]
    except KeyError:
        raise UsageError(f"unknown source {name!r}; known sources: {', '.join(sorted(SOURCES))}") from None
