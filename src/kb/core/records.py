"""Records of papers as kb reports them: an arXiv record (:class:`SourceRecord`, what the arXiv
API or the cache says of an id) and a place that depends on a paper (:class:`Dependent`)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

#: The highest version an arXiv record may state (arXiv's papers have a few dozen at most).
MAX_VERSION = 999


class SourceRecord(BaseModel):
    """What an upstream source says about one paper (one version of it), as plain data.

    Built straight from the client's object (``arxiv.Result``) so nothing else in kb ever
    sees a third-party type; stored as JSON in the store's ``arxiv_cache`` table.
    """

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    """Canonical id without version: ``2607.26627``, ``hep-ex/0406020``."""
    version: Annotated[int, Field(ge=1, le=MAX_VERSION)] | None
    """Version of the entry the source returned (``2607.26627v2`` -> 2), None if unstated; arXiv
    numbers versions from 1, and a version past :data:`MAX_VERSION` is no record's (a cache row
    holding one does not decode)."""
    short_id: str
    """The id as the source returned it (``result.get_short_id()``), version included."""
    title: str
    """Title with runs of whitespace collapsed; may legitimately be ``"0"``."""
    authors: list[str]
    published: datetime
    """First publication (v1), UTC."""
    updated: datetime
    """Last update of the returned version, UTC."""
    primary_category: str
    categories: list[str] = []
    comment: str | None = None
    journal_ref: str | None = None
    doi: str | None = None

    @property
    def withdrawn(self) -> bool:
        """True when the comment says the paper (this version) has been withdrawn.

        arXiv keeps the abstract page of a withdrawn paper; only ``<arxiv:comment>`` tells
        (CASES.md C07).
        """
        return bool(self.comment and _WITHDRAWN_RE.search(self.comment))

    def to_cache(self) -> dict[str, Any]:
        """JSON-ready dict for :meth:`kb.store.db.Store.cache_put`."""
        return self.model_dump(mode="json")


_WITHDRAWN_RE = re.compile(r"\bwithdrawn\b", re.IGNORECASE)


class Dependent(BaseModel):
    """A claim or line of the KB that depends on a withdrawn paper (it is about the paper,
    as ``kb claims --subject`` sees it, or names its id)."""

    path: str
    line: int
    end_line: int
    role: str
    """``living-doc``, ``card``, ``inbox`` or ``other``."""
    kind: str | None = None
    """Kind of the claim; None for a heading or front matter naming the id."""
    text: str = ""
