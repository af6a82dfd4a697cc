"""The claims a brief prints and the helpers every section of its context shares.

Every claim a template may print is in the context's ``claims``, numbered (1-based ``i``) in the
order the brief first uses it (:class:`Registry`), so an undefined attribute can be reported
with its claim index (CASES.md C15).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kb.core.claims import Claim

INCREMENT_OUTCOMES = ("net-new", "update", "conflict")
#: Subject keys of papers (an arXiv id, a paper known by title only): the subjects a card is
#: written for; any other subject (a vendor's price page, an engine in a blog's table) is none.
PAPER_KEYS = ("arxiv:", "title:")


def hm(iso: str | None) -> str | None:
    """``2026-07-31T05:00:00+08:00`` -> ``2026-07-31 05:00``."""
    return iso[:16].replace("T", " ") if iso else None


class Registry:
    """Claim dicts, numbered in the order the brief first uses them."""

    def __init__(self, secondhand: dict[str, list[str]]) -> None:
        self.items: list[dict[str, Any]] = []
        self._by_id: dict[str, dict[str, Any]] = {}
        self.secondhand = secondhand

    def get(self, c: Claim) -> dict[str, Any]:
        """The dict of ``c``, numbered at its first use."""
        if c.id not in self._by_id:
            p = c.provenance
            d = {"i": len(self.items) + 1, "id": c.id, "kind": c.kind, "text": c.text, "path": p.path,
                 "line": p.line, "source": f"{p.path}:{p.line}", "secondhand_only": self.secondhand.get(c.id, [])}
            self.items.append(d)
            self._by_id[c.id] = d
        return self._by_id[c.id]


def source_of(c: Claim) -> str:
    """Where ``c`` stands: ``path:line``."""
    return f"{c.provenance.path}:{c.provenance.line}"


def urls_of(claims: Iterable[Claim]) -> list[str]:
    """The http(s) URLs ``claims`` cite, once each, in order."""
    return list(dict.fromkeys(u for c in claims for u in c.sources if u.startswith("http")))
