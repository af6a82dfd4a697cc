"""What a fact is: the :class:`Fact` record the diff compares, and the one rule of which values
a claim states are facts (:func:`is_fact`), read by the Attributor and lint's paper facts; the
brief's wider reading of what a row states is here too (:func:`stated_values`).

A fact is a number with a metric or a unit, or a date with a date metric, stated as a figure:

* not a plan, a forecast or a value quoted to dispute it (``mood``);
* not a rating (``votes``) and not a date metric written as a number;
* not a count of things named right after it (``共 8 个模块``);
* not the set-up a figure was measured under (``8×H200``, ``8 卡``, ``并发 32``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kb.core.claims import Claim, DateRef, Quantity
from kb.extract.metrics import SETUP_METRICS
from kb.extract.qualifiers import CONDITION_METRICS
from kb.extract.settings import settings_of
from kb.extract.vocab.metrics import DATE_METRICS
from kb.extract.vocab.units import COUNTERS

RATING_METRICS = frozenset({"votes"})
_NOUN_AFTER_RE = re.compile(r"\s*[\u4e00-\u9fff]")
_SETUP_UNITS = frozenset({"devices", "卡", "台"})


@dataclass(frozen=True, slots=True)
class Fact:
    """One comparable value: a number with a metric or unit, or a date with a date metric."""

    subject: str
    group: str
    metric: str | None
    qualifier: str | None
    unit: str | None
    value: float | None
    low: float | None
    high: float | None
    date: str | None
    precision: str | None
    raw: str
    kind: str
    claim_id: str
    path: str
    line: int
    bound: str | None = None
    """``>``, ``≥``, ``<``, ``≤``, ``~`` as stated (:class:`kb.core.claims.Quantity`), read by
    :func:`kb.facts.values.same_value`: ``>80%`` is the same value as ``85%``."""
    transition: str | None = None
    """``from`` or ``to`` for an end of a change ``A → B`` (:attr:`kb.core.claims.Quantity.transition`):
    a ``from`` value is stated (it matches the doc's) but is no new value."""
    setting: str | None = None
    """The setting the value was stated under (``突发流量``, ``steady load``:
    :func:`kb.extract.settings.settings_of`), else None: values of two settings never conflict
    (:func:`kb.facts.same.comparable`)."""

    @property
    def source(self) -> str:
        """``path:line``."""
        return f"{self.path}:{self.line}"

    @property
    def is_date(self) -> bool:
        return self.date is not None

    @property
    def value_out(self) -> float | str:
        """The ISO date, the number, or a range's lower end."""
        if self.date is not None:
            return self.date
        return self.value if self.value is not None else (self.low if self.low is not None else 0.0)


def _is_number_fact(text: str, q: Quantity) -> bool:
    if (q.metric is None and q.unit is None) or q.metric in RATING_METRICS or q.metric in DATE_METRICS:
        return False
    if q.mood is not None:
        return False  # a plan or forecast is no figure; a value quoted to dispute it is no value
    if q.metric is None and q.unit in COUNTERS and _NOUN_AFTER_RE.match(text, q.end):
        return False  # "共 8 个模块": a count of things named after it, not a figure of the subject
    # 8×H200, 8 卡, 并发 32: the set-up a figure was measured under, not a figure
    return q.unit not in _SETUP_UNITS and q.metric not in CONDITION_METRICS


def _is_date_fact(d: DateRef) -> bool:
    return d.metric in DATE_METRICS and d.mood is None


def is_fact(claim: Claim, value: Quantity | DateRef) -> bool:
    """Whether ``value``, a quantity or date of ``claim``, states a fact (the rules in this
    module's docstring); the text of ``claim`` tells a count from a figure."""
    if isinstance(value, DateRef):
        return _is_date_fact(value)
    return _is_number_fact(claim.text, value)


def facts_of(claim: Claim, owners: Sequence[str | None], quals: Sequence[str | None],
             group: Callable[[str], str]) -> list[Fact]:
    """The facts ``claim`` states, quantities first, then dates.

    :param owners: per quantity, then per date: the subject it belongs to.
    :param quals: per quantity: what it is conditional on.
    :param group: subject key -> the key its values are compared under.
    """
    text = claim.text
    p = claim.provenance
    out: list[Fact] = []
    n = len(claim.quantities)
    numbers = [i for i, q in enumerate(claim.quantities) if _is_number_fact(text, q)]
    settings = settings_of(text, [(claim.quantities[i].start, claim.quantities[i].end) for i in numbers])
    for i, setting in zip(numbers, settings):
        q = claim.quantities[i]
        subj = owners[i] or ""
        out.append(Fact(subj, group(subj), q.metric, quals[i], q.unit, q.value, q.low, q.high,
                        None, None, q.raw, claim.kind, claim.id, p.path, p.line, q.bound, q.transition,
                        setting))
    for i, d in enumerate(claim.dates):
        if not _is_date_fact(d):
            continue
        subj = owners[n + i] or ""
        out.append(Fact(subj, group(subj), d.metric, None, None, None, None, None, d.value, d.precision,
                        d.raw, claim.kind, claim.id, p.path, p.line))
    return out


_COUNT_UNITS = (None, "个", "+")
"""Units of a bare count: a number with only these is no measured value of its own."""


def stated_values(claim: Claim) -> tuple[tuple[Any, ...], ...]:
    """What the brief lists a claim for under a subject (:mod:`kb.brief.context`): ``(metric,
    value, unit)`` of its measured quantities (a metric, or a unit that is more than a count:
    ``2.6 个百分点`` yes, ``8 个`` and a bare ``3,800`` no) and of all its dates, sorted; a set-up
    size (``128K 上下文``) is a condition, no value. Two claims of one subject with the same
    non-empty values state one fact.

    Wider than :func:`is_fact` (the diff's facts), on purpose of the brief's golden files: a
    plan or forecast, a rating (``votes``), a device count and a date without a date metric
    are values here, so a row stating only those is listed, not counted as a plain mention.
    """
    out = {(q.metric, q.value if q.value is not None else (q.low, q.high), q.unit)
           for q in claim.quantities if (q.metric or q.unit not in _COUNT_UNITS) and q.metric not in SETUP_METRICS}
    out |= {(d.metric, d.value, None) for d in claim.dates}
    return tuple(sorted(out, key=repr))
