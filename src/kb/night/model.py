"""Output models of the diff: the JSON of ``kb diff --format json`` (issue 3 shape + extras)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

OUTCOMES = ("net-new", "update", "conflict", "covered", "supplement", "adjacent")
"""Outcomes in the order the brief and ``kb diff`` list them."""


class ValueOut(BaseModel):
    """One value of a conflict, with every source that states it."""

    raw: str
    value: float | str
    """Number (the lower end for a range) or ISO date at its stated precision."""
    high: float | None = None
    """Upper end of a range, else None."""
    kinds: list[str]
    sources: list[str]
    """``path:line`` of each statement."""
    origin: list[str]
    """``living-doc`` and/or ``window``."""


class ConflictOut(BaseModel):
    """Same subject, metric and (compatible) qualifier, different values."""

    subject: str
    metric: str
    qualifier: str | None = None
    against: list[str]
    """``living-doc`` (window vs doc) and/or ``window`` (two window sources disagree)."""
    values: list[ValueOut]


class SecondhandOut(BaseModel):
    """A number whose only support is secondhand (no paper-fact with same subject, metric, value).
    ``cited``: the primary source of a living-doc line stating the same value
    (:mod:`kb.facts.firsthand`), else None: such a number is first-hand cited by the doc."""

    subject: str
    metric: str | None
    raw: str
    source: str
    claim: str
    cited: str | None = None


class SubjectOut(BaseModel):
    """One subject of the window and its outcome."""

    key: str
    label: str
    outcome: str
    section_hint: str | None
    claims: list[str]
    reason: str
    """Why this outcome, in words a reviewer can check (rule of DESIGN.md §3 that fired)."""
    rule: str = ""
    """Code of that rule: ``doc-conflict``, ``doc-new-values``, ``doc-in-passing``, ``doc-covered``,
    ``card-also``, ``mentioned-before``, ``card-category``, ``no-card-on-topic`` (net-new, no card
    yet: a card candidate), ``no-card``."""
    detail: str = ""
    """The rule's argument: values, first-mention time, card category, or where the topic is
    named (``heading``, ``file``, ``front matter``, ``row``)."""
    doc_sections: list[str] = Field(default_factory=list)
    """Living-doc sections that mention the subject (node sections first)."""
    card: str | None = None
    """Path of the subject's paper card, if any."""
    new_values: list[str] = Field(default_factory=list)
    """Raw values stated in the window that the doc lacks (for ``update``)."""
    in_window_conflict: bool = False


class SourceOut(BaseModel):
    """One file of the window: its claims and what became of them."""

    path: str
    claims: int
    role: str = "inbox"
    outcomes: dict[str, str] = Field(default_factory=dict)
    """Subject key -> outcome, for the listed subjects this file speaks about."""
    unlisted: int = 0
    """Claims of this file about no listed subject (other topics, no subject)."""


class MismatchOut(BaseModel):
    """A card title or alias written next to a different arXiv id (likely a mistyped id)."""

    claim: str
    source: str
    name: str
    card_subject: str
    cited: str


class DiffResult(BaseModel):
    """What ``kb diff --format json`` prints (issue 3 shape, plus extra fields)."""

    topic: str
    window: dict[str, str]
    baseline: dict[str, Any]
    subjects: list[SubjectOut]
    conflicts: list[ConflictOut]
    secondhand_only: list[SecondhandOut]
    sources_checked: list[SourceOut]
    id_mismatches: list[MismatchOut] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
