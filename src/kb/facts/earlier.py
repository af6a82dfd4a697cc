"""What a hop relaying a shared source is compared with (rule 4 of :mod:`kb.facts.relay`),
found without comparing every pair of hops: the hops of other files citing one of its sources
directly (no ``via``) and written before it; for a hop that read the source through a reprint,
those written at any time. A hop that cites a primary source itself (no ``via``: the repository,
the paper, the official blog; :func:`kb.facts.firsthand.primary_source`) is a first-hand reading,
compared with nothing: two readings of one README that disagree are a conflict, and neither reader
is where the value changed.

``kb trace`` over 2,400 files citing five sites compared each hop with every hop of its source
(``n²`` order keys and value comparisons, 2.95× per doubling). :class:`References` keeps, per
source, its direct hops in time order (a bisect finds the earlier ones) and a
:class:`kb.facts.near.NearIndex` of their values (the first earlier one of the same value is
among the few it names); a source whose hops state values in several units, and a reprint's
hop, are compared one by one as before.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from kb.facts.firsthand import primary_source
from kb.facts.near import NearIndex
from kb.facts.values import same_value


class References:
    """The references of the hops ``members`` (of one chain, sorted by ``order``; each with
    ``order``, ``via``, ``origins``, ``fact`` and ``claim.provenance.path``: a
    :class:`kb.facts.relay.Hop`), under the relative tolerance ``tol``."""

    def __init__(self, members: Sequence[Any], tol: float) -> None:
        self.members, self.tol = members, tol
        self._pos = {id(x): i for i, x in enumerate(members)}
        self._direct: dict[str, list[Any]] = defaultdict(list)
        for x in members:
            if not x.via:
                for o in dict.fromkeys(x.origins):
                    self._direct[o].append(x)
        self._orders = {o: [x.order for x in hops] for o, hops in self._direct.items()}
        self._index: dict[str, NearIndex | None] = {}

    def compare(self, h: Any) -> tuple[Any | None, Any] | None:
        """``(the first reference of h's value or None, the first reference)`` of hop ``h``
        (its references in time order), else None when it has none to compare with."""
        path = h.claim.provenance.path
        if not h.via and any(o.startswith("url:") and primary_source("https://" + o[4:]) for o in h.origins):
            return None  # a first-hand reading relays nothing
        if h.via:  # a reprint's hop: any time, earlier first (few; compared one by one)
            direct = [x for x in self.members if x is not h and not x.via and x.claim.provenance.path != path
                      and set(x.origins) & set(h.origins)]
            refs = [x for x in direct if x.order < h.order] or direct
            return (next((r for r in refs if same_value(r.fact, h.fact, self.tol)), None), refs[0]) if refs else None
        first: Any = None
        same: Any = None
        for o in dict.fromkeys(h.origins):
            hops = self._direct.get(o, [])
            k = bisect_left(self._orders.get(o, []), h.order)  # hops[:k]: written before h
            at = 0 if not hops or hops[0].claim.provenance.path != path else self._run(hops, 0)
            if at < k and (first is None or self._pos[id(hops[at])] < self._pos[id(first)]):
                first = hops[at]
            for j in self._candidates(o, h, k):
                x = hops[j]
                if (x.claim.provenance.path != path and (same is None or self._pos[id(x)] < self._pos[id(same)])
                        and same_value(x.fact, h.fact, self.tol)):
                    same = x
        return (same, first) if first is not None else None

    @staticmethod
    def _run(hops: Sequence[Any], j: int) -> int:
        """The first index after ``j`` whose hop is of another file (a file's hops are adjacent
        in time order: one time, one path)."""
        path = hops[j].claim.provenance.path
        while j < len(hops) and hops[j].claim.provenance.path == path:
            j += 1
        return j

    def _candidates(self, o: str, h: Any, k: int) -> list[int]:
        """Indexes below ``k`` of source ``o``'s hops that may state ``h``'s value: those its
        value index names, or all when the source's values are of several units (or not of
        ``h``'s: a conversion may make them the same)."""
        if o not in self._index:
            hops = self._direct.get(o, [])
            units = {x.fact.unit for x in hops}
            index = NearIndex(self.tol) if len(units) == 1 else None
            for j, x in enumerate(hops if index is not None else ()):
                index.add(x.fact, j)  # type: ignore[union-attr]
            self._index[o] = index
        index = self._index[o]
        hops = self._direct.get(o, [])
        if index is None or not hops or hops[0].fact.unit != h.fact.unit:
            return list(range(k))
        return sorted(j for j in index.near(h.fact) if j < k)
