"""What ``kb verify`` answers: statuses, checks, the per-id result (its JSON) and the run's tally.

Issue 4 and docs/verify.md give the statuses, checks and JSON; :mod:`kb.verify.verifier`
decides them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel

from kb.core.errors import ExitCode
from kb.core.records import Dependent

Status = Literal["ok", "mismatch", "not-found", "invalid", "withdrawn", "unverified"]
STATUS_ORDER: tuple[Status, ...] = ("invalid", "not-found", "mismatch", "withdrawn", "unverified", "ok")
"""Worst first: the order of the summary table, and which status wins when several apply."""
Level = Literal["error", "warning", "info"]


class Check(BaseModel):
    """One finding about one id. ``error`` decides the status, ``warning`` fails only ``--strict``."""

    level: Level
    code: str
    """Stable short name: ``title-mismatch``, ``card-name``, ``latest-withdrawn``, ``unavailable`` …"""
    message: str
    status: Status | None = None
    """The status an ``error`` implies (``mismatch``, ``withdrawn`` …)."""


class ArxivInfo(BaseModel):
    """arXiv's metadata as used for the checks."""

    title: str
    authors: list[str]
    published: str
    updated: str
    version: int | None
    """Version of the entry arXiv returned."""
    latest_version: int | None
    """arXiv's latest version; None when a specific version was asked (the API answers for it only)."""
    primary_category: str
    comment: str | None
    journal_ref: str | None
    withdrawn: bool
    fetched_at: str
    cached: bool
    """True when the answer came from the store's cache, not from this run's request."""


class CardInfo(BaseModel):
    """The paper card whose front-matter ``arxiv`` names the id."""

    path: str
    card: int | None
    title: str | None
    similarity: float | None
    """Normalised title similarity card vs arXiv, 0..1 (rapidfuzz ratio / 100); None if unknown."""
    category: str | None


class MentionInfo(BaseModel):
    """One place in the KB that names the id."""

    path: str
    line: int
    column: int | None = None
    kind: str | None = None
    """Kind of the claim the mention is in; None in front matter or headings."""
    version: int | None = None
    raw: str = ""
    written_at: str | None = None


class Pin(BaseModel):
    """A place of the KB pinned to an older version of a revised paper (:mod:`kb.facts.revised`)."""

    path: str
    line: int
    version: int
    """The version it cites (a claim) or was written from (the card)."""
    kind: str | None = None
    """Kind of the claim; None for the card, front matter and headings."""
    card: bool = False
    """True for the paper card written from that version."""
    message: str
    """``paper revised (v1 → v3, 2026-08-20): re-check``."""


class Revised(BaseModel):
    """The paper has a later version than some places of the KB cite."""

    latest_version: int
    latest_date: str | None
    """``YYYY-MM-DD`` of the latest version's ``updated`` (UTC)."""
    pinned: list[Pin]
    """Every place pinned to an older version, the card first, then by path and line."""


class VerifyResult(BaseModel):
    """The verdict on one id: one object of ``kb verify --format json``."""

    input: str
    id: str | None
    version: int | None
    status: Status
    reasons: list[str]
    """Messages of the errors and warnings, most severe first."""
    checks: list[Check]
    arxiv: ArxivInfo | None
    card: CardInfo | None
    mentions: list[MentionInfo]
    named: list[MentionInfo] = []
    """Claims about the paper that name it by title, card alias or short name and not by its id,
    as ``kb claims --subject`` finds them (:func:`kb.facts.query.about`), by path and line; only
    for ids given by hand (not ``--all``)."""
    revised: Revised | None = None
    """Set when arXiv (or its cached answer for the bare id) has a later version than the card
    or some claims cite; None otherwise."""
    dependents: list[Dependent] = []
    """For a withdrawn paper: every claim and line of the KB that depends on it, by path and line."""

    def warned(self) -> bool:
        """Any warning (what ``--strict`` turns into a failure)."""
        return any(c.level == "warning" for c in self.checks)

    def unavailable(self) -> bool:
        """arXiv was needed and neither it nor the cache could answer."""
        return any(c.code == "unavailable" for c in self.checks)


@dataclass(slots=True)
class Tally:
    """Counts over a run, for the exit code and the summary line."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(STATUS_ORDER, 0))
    warned: int = 0
    unavailable: int = 0

    def add(self, r: VerifyResult) -> None:
        self.counts[r.status] += 1
        self.warned += r.status == "ok" and r.warned()
        self.unavailable += r.unavailable()

    def exit_code(self, strict: bool = False) -> ExitCode:
        """1 when any id has a definite finding (``invalid``, ``not-found``, ``mismatch``,
        ``withdrawn``; with ``strict``, a warning too): a problem was found and must be fixed
        whatever the rest says; else 3 when any id could not be checked for want of arXiv
        and cache (CASES.md C05); else 0."""
        definite = sum(n for s, n in self.counts.items() if s not in ("ok", "unverified"))
        if definite or (strict and self.warned):
            return ExitCode.FINDINGS
        if self.unavailable or self.counts.get("unverified"):
            return ExitCode.UNAVAILABLE
        return ExitCode.OK

    def summary(self) -> str:
        """``3 ids: 1 ok, 1 mismatch, 1 not-found (1 with warnings)``."""
        total = sum(self.counts.values())
        parts = [f"{n} {s}" for s, n in self.counts.items() if n]
        ids = "id" if total == 1 else "ids"
        s = f"{total} {ids}: " + ", ".join(parts) if total else "0 ids"
        return s + (f" ({self.warned} ok with warnings)" if self.warned else "")


def sort_worst_first(results: list[VerifyResult]) -> list[VerifyResult]:
    """Results by status (:data:`STATUS_ORDER`), warnings before clean ``ok``, then id/input."""
    return sorted(results, key=lambda r: (STATUS_ORDER.index(r.status), not r.warned(), r.id or "", r.input))

