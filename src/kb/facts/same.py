"""Whether two facts, values or set-ups are the same: the one module that decides it.

:func:`kb.facts.values.same_value` compares two values; on top of it, here:

* :func:`same_fact`: a fact repeats another (the diff's support and coverage, the ledger, the
  brief's one row per fact); :class:`SameFacts` asks it of many facts at once;
* :func:`same_setup` and :func:`comparable`: two qualifiers, two facts that could conflict
  (the diff's conflicts, :func:`disjoint_from`); :func:`comparable_key` is that comparison's
  key, which lint KB111 groups a document's values by;
* :func:`compatible`: a fact a relay may repeat (:mod:`kb.facts.relay`);
* :func:`supports`: a paper card's number supports a value (lint KB108).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from kb.core.claims import DateRef, Quantity
from kb.extract.vocab.metrics import PERCENTILE
from kb.facts.fact import Fact
from kb.facts.near import NearIndex
from kb.facts.values import Stated, same_value


def same_fact(a: Fact, b: Fact, tol: float) -> bool:
    """Same metric, unit and value (qualifiers ignored: the same number is the same fact). A
    value whose metric no word names (a bare ``1.4×``, issue 8) repeats any fact of that value."""
    return (a.metric == b.metric or a.metric is None or b.metric is None) and a.unit == b.unit \
        and same_value(a, b, tol)


class SameFacts:
    """Facts filed by unit and value (:class:`kb.facts.near.NearIndex`) to ask, for many facts,
    which of them repeats each (:func:`same_fact`) without trying every pair: a living doc of
    8,000 rows against a window of 8,000 values was 64 million calls.

    :param facts: the facts to look in, in order.
    :param tol: the relative tolerance of :func:`same_fact`."""

    __slots__ = ("_facts", "_near", "_tol")

    def __init__(self, facts: Sequence[Fact], tol: float) -> None:
        self._facts, self._tol, self._near = list(facts), tol, NearIndex(tol)
        for i, f in enumerate(self._facts):
            self._near.add(f, i)

    def holds(self, f: Fact) -> bool:
        """Whether any filed fact is the same fact as ``f``: ``any(same_fact(f, d, tol) for d in facts)``."""
        return any(same_fact(f, self._facts[i], self._tol) for i in self._near.near(f))

    def first(self, f: Fact) -> int | None:
        """The position of the first filed fact that is the same fact as ``f``, else None."""
        return min((i for i in self._near.near(f) if same_fact(f, self._facts[i], self._tol)), default=None)


def comparable(a: Fact, b: Fact) -> bool:
    """Two facts that could conflict: same metric, unit, setting and qualifier (DESIGN.md §3:
    "1.29× in memory" and "2.06× with offload on an RTX 5090" are two facts; an unstated
    qualifier only matches an unstated one; issue 20: a value under a setting the other does not
    state, ``突发流量下 64%`` against ``82% at steady load`` or a plain ``82%``, is another
    setting's value, :attr:`kb.facts.fact.Fact.setting`)."""
    return (a.metric is not None and a.metric == b.metric and a.unit == b.unit and a.is_date == b.is_date
            and a.setting == b.setting and same_setup(a.qualifier, b.qualifier))


class Grouped:
    """One source's facts with a metric, grouped by :func:`comparable_key` (``by_key``), by that
    key without the qualifier (``by_any``), and the qualifiers stated per such key (``quals``).
    Built once per source and reused for every pair it is compared in (a subject named in 60
    window files is compared in 3,600 pairs)."""

    __slots__ = ("facts", "by_key", "by_any", "quals")

    def __init__(self, facts: Sequence[Fact]) -> None:
        self.facts = facts
        self.by_key: dict[tuple[Any, ...], list[Fact]] = defaultdict(list)
        self.by_any: dict[tuple[Any, ...], list[Fact]] = defaultdict(list)
        for f in facts:
            if f.metric is not None:
                key = comparable_key(f)
                self.by_key[key].append(f)
                self.by_any[key[:-1]].append(f)
        self.quals: dict[tuple[Any, ...], list[str | None]] = defaultdict(list)
        for k in self.by_key:
            self.quals[k[:-1]].append(k[-1])


def disjoint_from(mine: Sequence[Fact] | Grouped, theirs: Sequence[Fact] | Grouped, tol: float) -> list[Fact]:
    """Facts of one source that conflict with another source's: per metric and qualifier, the
    two sources state values and share none, under any qualifier (a source that also states
    the other's value, whatever set-up it names, is taken to state several conditions, not a
    conflict).

    Facts are grouped by what makes them comparable first (:class:`Grouped`, which callers
    comparing one source many times pass in built), so a file with thousands of figures costs
    one pass per group, not a comparison of every pair (a 50,000-row table took minutes)."""
    mine = mine if isinstance(mine, Grouped) else Grouped(mine)
    theirs = theirs if isinstance(theirs, Grouped) else Grouped(theirs)
    if theirs.by_any.keys().isdisjoint(mine.by_any.keys()):
        return []
    out: list[Fact] = []
    for key, peers in mine.by_key.items():
        quals = theirs.quals.get(key[:-1], ())
        if len(quals) > 64:  # a huge table of set-ups: exact qualifiers only (stays linear)
            rivals = theirs.by_key.get(key, [])
        else:
            rivals = [t for q in quals if same_setup(q, key[-1]) for t in theirs.by_key[(*key[:-1], q)]]
        # the other source states the same value under another set-up: the same fact, no conflict
        if rivals and not any(same_value(g, t, tol) for g in mine.by_any[key[:-1]] for t in theirs.by_any[key[:-1]]):
            out.extend(peers)
    if len(out) < 2:
        return out
    order = {id(f): i for i, f in enumerate(mine.facts)}
    return sorted(out, key=lambda f: order[id(f)])


_STATISTIC = re.compile(PERCENTILE, re.IGNORECASE)
"""A condition token that names a statistic of a distribution, not a set-up (``p50``, ``p99.9``)."""


def same_setup(a: str | None, b: str | None) -> bool:
    """Two qualifiers under which values can conflict: equal, or both stated and one holds all
    the other's conditions (``batch1+rtx4090`` ~ ``batch1+int4+rtx4090``); an unstated one
    matches only an unstated one (DESIGN.md §3: "1.29× in memory" and "2.06× with offload on an
    RTX 5090" are two facts). Two statistics (condition tokens that are a percentile,
    :data:`~kb.extract.vocab.metrics.PERCENTILE`: P50, P75, P99.9 …) never conflict: a P99 TTFT and a P50 TTFT are two facts, while a TTFT of no
    stated percentile may be either (``TPOT 中位数 45 ms`` against a release note's ``38 ms TPOT``)."""
    if a == b:
        return True
    if not a or not b:
        return False
    sa, sb = set(a.split("+")), set(b.split("+"))
    ta, tb = {t for t in sa if _STATISTIC.fullmatch(t)}, {t for t in sb if _STATISTIC.fullmatch(t)}
    return (sa <= sb or sb <= sa) and (not ta or not tb or ta == tb)


def comparable_key(x: Fact | Quantity | DateRef) -> tuple[Any, ...]:
    """What :func:`comparable` compares, as a dictionary key: ``(metric, unit, is a date,
    setting, qualifier)`` of a fact, a quantity or a date (a date has no unit and no qualifier;
    a quantity's setting is read with its fact, None here). The qualifier is last: callers
    group by the key without it (:class:`Grouped`)."""
    if isinstance(x, Fact):
        return (x.metric, x.unit, x.is_date, x.setting, x.qualifier)
    if isinstance(x, DateRef):
        return (x.metric, None, True, None, None)
    return (x.metric, x.unit, False, None, x.qualifier)


def compatible(a: Fact, b: Fact) -> bool:
    """A fact a relay may repeat: same metric, and qualifiers that can describe one set-up: one
    unstated, or one holding all the other's conditions (:func:`same_setup`): a relay often
    drops conditions (``TurboKV 的 KV 显存从 16.4 GB 降到 4.1 GB`` citing ``Llama-3.1-8B 128K
    上下文的 KV 显存…``). Unlike :func:`comparable`, an unstated qualifier matches any."""
    return a.metric == b.metric and (a.qualifier is None or b.qualifier is None or same_setup(a.qualifier, b.qualifier))


def supports(card: Stated, q: Quantity, tol: float) -> bool:
    """A paper card's number ``card`` supports ``q`` (lint KB108): the same metric when both
    name one (× ratios excepted: ``吞吐 31×`` is a speedup) and the same value
    (:func:`kb.facts.values.same_value`: units converted, ranges, bounds, tolerance). Unlike
    :func:`same_fact`, units need only convert (``120 ms`` supports ``0.12 s``)."""
    metric = getattr(card, "metric", None)
    if metric and q.metric and metric != q.metric and q.unit != "×":
        return False
    return same_value(q, card, tol)
