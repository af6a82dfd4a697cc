"""Upstream sources of paper metadata: the SourceRecord model and the name -> backend registry."""

from __future__ import annotations

from collections.abc import Callable

from kb.core.errors import UsageError
from kb.core.records import SourceRecord


def _arxiv_fetch(ref: str) -> SourceRecord | None:
    from kb.verify.arxiv import fetch

    return fetch(ref)


SOURCES: dict[str, Callable[[str], SourceRecord | None]] = {"arxiv": _arxiv_fetch}
"""Source name -> ``fetch(ref) -> SourceRecord | None`` (None: the source has no such paper)."""


def get_source(name: str) -> Callable[[str], SourceRecord | None]:
    """The fetch function of source ``name``.

    :raises UsageError: unknown name; the message lists the known ones.
    """
    try:
        return SOURCES[name]
    except KeyError:
        raise UsageError(f"unknown source {name!r}; known sources: {', '.join(sorted(SOURCES))}") from None
