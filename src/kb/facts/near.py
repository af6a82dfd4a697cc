"""Which stated values may be the same value, found without comparing every pair.

:func:`kb.facts.values.same_value` decides whether two values are the same; comparing each of
``n`` values with every other is ``n²`` calls (issue 24: ``kb digest`` with 40,000 values of one
subject took minutes, ``kb sources`` over 1,200 files 206 s). :class:`NearIndex` keeps values of
one unit sorted by magnitude and answers, for a value, the few it may be the same as: a
superset of those :func:`~kb.facts.values.same_value` accepts, which the caller then asks it
about. It relies on one property of those rules, checked by ``tests/test_robust_speed.py``:

* two points are the same only when within the relative tolerance:
  ``b`` in ``[a·(1−tol), a/(1−tol)]``;
* any two values that are the same have widened intervals that overlap
  (``[lo·(1−tol), hi·(1+tol)]``: ranges, bounds, a point in a range);
* two dates are the same only when they share the year;
* a byte size written with a decimal prefix (``0.75 GB``) may be read binary (×1.024ᵖ), so it
  is filed as the interval of its two readings (``0.75 GB`` and ``768 MB`` are the same).

Ranges and bounds are kept apart and scanned (a KB states few); values without a number never
match and are not kept.
"""

from __future__ import annotations

import bisect
import math
from collections import defaultdict
from collections.abc import Hashable, Iterator
from typing import Any

from kb.facts.values import Stated, byte_scales


def _shape(x: Stated) -> tuple[str, Any]:
    """``("date", year)``, ``("point", magnitude)``, ``("wide", (lo, hi))`` or ``("none", None)``:
    what :func:`kb.facts.values.same_value` reads of ``x``, as the index files it."""
    d = getattr(x, "date", None)
    if d is None:
        v = getattr(x, "value", None)
        d = v if isinstance(v, str) else None
    if d is not None:
        return "date", str(d)[:4]
    v = getattr(x, "value", None)
    binary = byte_scales(x)[1] if getattr(x, "unit", None) == "B" else 1.0
    if isinstance(v, (int, float)):
        if isinstance(v, float) and math.isnan(v):
            return "none", None
        m = abs(v)
        if getattr(x, "bound", None) in (">", "≥", "<", "≤"):
            return "wide", (0.0, m * binary) if getattr(x, "bound", None) in ("<", "≤") else (m, math.inf)
        return ("point", m) if binary == 1.0 else ("wide", (m, m * binary))
    if x.low is not None and x.high is not None:
        lo, hi = sorted((abs(x.low), abs(x.high)))
        return "wide", (lo, hi * binary)
    return "none", None


class NearIndex:
    """Values (``Stated``: a fact, a quantity) with an item each, by unit and magnitude.

    :param tol: the relative tolerance of :func:`kb.facts.values.same_value` (``kb.yaml``).
    ``add(x, item)`` files a value; ``near(x)`` yields the items of values of ``x``'s unit
    (its ``key``, by default the unit) that may be the same as ``x`` (each once per time it was
    added), in no particular order. Adding is ``O(log n)`` search plus a list insert; a query
    costs the values within the tolerance of ``x``, plus the ranges and bounds of its key.
    """

    def __init__(self, tol: float) -> None:
        self.tol = tol
        self._mags: dict[Hashable, list[float]] = defaultdict(list)
        self._items: dict[Hashable, list[Any]] = defaultdict(list)
        self._wide: dict[Hashable, list[tuple[float, float, Any]]] = defaultdict(list)
        self._dates: dict[tuple[Hashable, str], list[Any]] = defaultdict(list)

    def add(self, x: Stated, item: Any, key: Hashable = ...) -> None:
        """File ``x`` (with ``item``) under ``key`` (default: ``x.unit``)."""
        key = x.unit if key is ... else key
        kind, what = _shape(x)
        if kind == "point":
            mags = self._mags[key]
            i = bisect.bisect_right(mags, what)
            mags.insert(i, what)
            self._items[key].insert(i, item)
        elif kind == "wide":
            self._wide[key].append((what[0], what[1], item))
        elif kind == "date":
            self._dates[(key, what)].append(item)

    def near(self, x: Stated, key: Hashable = ...) -> Iterator[Any]:
        """Items of the values filed under ``key`` (default ``x.unit``) that may be the same
        value as ``x`` (a superset: ask :func:`kb.facts.values.same_value` of each)."""
        key = x.unit if key is ... else key
        kind, what = _shape(x)
        tol = self.tol
        if kind == "date":
            yield from self._dates.get((key, what), ())
            return
        if kind == "none":
            return
        if kind == "point":
            lo, hi = what * (1 - tol), (what / (1 - tol) if tol < 1 else math.inf)
            wlo, whi = what * (1 - tol), what * (1 + tol)
        else:
            wlo, whi = what[0] * (1 - tol), what[1] * (1 + tol)
            lo, hi = wlo / (1 + tol), (whi / (1 - tol) if tol < 1 else math.inf)
        mags = self._mags.get(key)
        if mags:
            items = self._items[key]
            yield from items[bisect.bisect_left(mags, lo):bisect.bisect_right(mags, hi)]
        for rlo, rhi, item in self._wide.get(key, ()):
            if rlo * (1 - tol) <= whi and wlo <= rhi * (1 + tol):
                yield item
