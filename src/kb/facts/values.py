"""Whether two stated values are the same value: the one place kb decides it.

``kb diff`` and the brief (conflicts, support, value groups), lint KB111 (conflicting values)
and KB108 (secondhand-only consensus numbers) all ask :func:`same_value`; KB113 and the diff
cut dates with :func:`date_prefix`. Rules (DESIGN.md §2–3):

* **Dates** compare at the precision both state: ``2026-03`` and ``2026-03-21`` are the same,
  ``2025-12`` and ``2026-01`` are not. A date is never the same value as a number.
* **Units** must be the same or convertible (pint, :mod:`kb.extract.units`): ``120 ms`` is
  ``0.12 s``; ``%`` is not ``pp``, ``×`` is not ``%``; no unit only matches no unit.
* **Signs** come from wording (``下降 30%`` is -30) and are compared as magnitudes: ``−30%``
  and ``30%`` say the same thing in two ways.
* **Tolerance** is relative (``tolerance`` in ``kb.yaml``, default 0.02): two points are the
  same when ``|a − b| ≤ tol · max(|a|, |b|)``.
* **Ranges**: a point is the same as a range when it lies in the range widened by ``tol``
  (``75%`` and ``73.6%–77.1%``); two ranges are the same when both ends are (``1.29–2.06×``
  and ``1.3–2.05×``); overlapping ranges with different ends are different statements.
* **Memory sizes** (issue 20): writers use ``GB``/``MB`` for both 10⁹/10⁶ and 2³⁰/2²⁰ bytes. Two
  sizes both written with decimal prefixes (``KB``, ``MB``, ``GB``, ``TB``, ``PB``) are the same
  when they are read both decimal or both binary: ``0.75 GB`` and ``768 MB`` (0.75 GiB = 768 MiB).
  A size written in binary units (``KiB``…``PiB``) is exact, and the other side is then read as
  written: ``80 GB`` and ``74.5 GiB`` are the same, ``40 GB`` and ``40 GiB`` are not (7 % apart,
  mixed-specdec's labelled conflict); neither are ``0.75 GB`` and ``640 MB``, nor ``750 MB`` and
  ``768 MB`` (one prefix: the same ratio either way). The written prefix comes from the value's
  ``raw`` text; a value without one is read as stored.
* **Bounds** (``>80%``, ``至少 7 倍``, ``up to 2×``, :attr:`kb.core.claims.Quantity.bound`): a bound
  is *consistent* with every value it admits, and consistent counts as the same here, so that
  no conflict is raised and the bound supports the value: ``>80%`` and ``85%`` are the same,
  ``>80%`` and ``70%`` are not, ``>80%`` and ``>90%`` are, ``<100`` and ``>200`` are not. The
  bound's end is widened by ``tol`` like any value (``>80%`` and ``80%`` are the same). ``~``
  (about) is a point, with the same tolerance as any point.
"""

from __future__ import annotations

import math
import re
from typing import Protocol

from kb.extract.units import factor

PRECISION_LEN: dict[str, int] = {"year": 4, "month": 7, "day": 10, "minute": 16}
"""Length of an ISO date's text at each precision (``2026-03`` is 7 characters)."""

_LOWER = {">": False, "≥": True}  # bound → closed?
_UPPER = {"<": False, "≤": True}


class Stated(Protocol):
    """What :func:`same_value` reads: a :class:`kb.core.claims.Quantity`, a
    :class:`kb.core.claims.DateRef`, the diff's ``Fact`` or lint's ``PaperFact``. ``bound``,
    ``date`` and ``precision`` are read when present (``getattr``)."""

    unit: str | None
    low: float | None
    high: float | None


def date_prefix(value: str, precision: str | None) -> str:
    """``value`` cut to its stated precision (``2026-03-21``, ``month`` → ``2026-03``); an
    unknown precision keeps the whole text."""
    return value[:PRECISION_LEN.get(precision or "", len(value))]


def same_date(a: str, a_precision: str | None, b: str, b_precision: str | None) -> bool:
    """Two ISO dates agree at the precision both state (the coarser one)."""
    n = min(PRECISION_LEN.get(a_precision or "", len(a)), PRECISION_LEN.get(b_precision or "", len(b)))
    return a[:n] == b[:n]


def _date(x: Stated) -> tuple[str, str | None] | None:
    d = getattr(x, "date", None)
    if d is None:
        v = getattr(x, "value", None)
        d = v if isinstance(v, str) else None
    return (d, getattr(x, "precision", None)) if d is not None else None


def _interval(x: Stated) -> tuple[float, float] | None:
    """Magnitudes ``(low, high)`` a value admits: a point is ``(v, v)``, ``>v`` is ``(v, ∞)``,
    ``<v`` is ``(0, v)``; None when there is no number."""
    v = getattr(x, "value", None)
    if isinstance(v, (int, float)):
        m = abs(v)
        bound = getattr(x, "bound", None)
        if bound in _LOWER:
            return m, math.inf
        if bound in _UPPER:
            return 0.0, m
        return m, m
    if x.low is not None and x.high is not None:
        lo, hi = sorted((abs(x.low), abs(x.high)))
        return lo, hi
    return None


def _is_bound(x: Stated) -> bool:
    return getattr(x, "bound", None) in _LOWER or getattr(x, "bound", None) in _UPPER


def close(a: float, b: float, tol: float) -> bool:
    """Two numbers within relative tolerance: ``|a − b| ≤ tol · max(|a|, |b|)``."""
    return a == b or abs(a - b) <= tol * max(abs(a), abs(b))


#: A decimal byte prefix as written (``0.75 GB``, ``768MB``, ``2 TB``): the size may be binary.
_DECIMAL_BYTES_RE = re.compile(r"(?<![A-Za-z])([kKMGTP])B(?![A-Za-z])")
_POWER = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5}


def byte_scales(x: Stated) -> tuple[float, float]:
    """Factors of a stored byte size under the decimal and the binary reading: ``(1, 1.024ᵖ)``
    when its raw text writes a decimal prefix of power ``p`` (``GB``: p = 3) that may mean the
    binary one, else ``(1, 1)`` (``GiB`` or no prefix: one reading)."""
    raw = getattr(x, "raw", None)
    m = _DECIMAL_BYTES_RE.search(raw) if isinstance(raw, str) and "B" in raw else None
    return (1.0, 1.024 ** _POWER[m.group(1)]) if m else (1.0, 1.0)


def plain_point(x: Stated) -> tuple[str | None, float] | None:
    """``(unit, magnitude)`` of a plain point — a number with no bound, no date, not a byte
    size (whose prefix may be read two ways) — else None. Two plain points of one unit are the
    same value exactly when their magnitudes are :func:`close` (the point rule of
    :func:`same_value`), so a caller comparing many may test that alone."""
    v = getattr(x, "value", None)
    if (getattr(x, "date", None) is not None or not isinstance(v, (int, float)) or _is_bound(x)
            or getattr(x, "unit", None) == "B"):
        return None
    return x.unit, abs(v)


def same_value(a: Stated, b: Stated, tol: float) -> bool:
    """Whether ``a`` and ``b`` state the same value (the rules in this module's docstring).

    :param a: a quantity, date or fact (see :class:`Stated`).
    :param b: another one.
    :param tol: relative tolerance, ``0 <= tol < 1`` (``kb.yaml`` ``tolerance``).
    :returns: True when they are the same value; False for a date against a number, units
        that neither match nor convert, or a value with no number.
    """
    da, db = _date(a), _date(b)
    if da is not None or db is not None:
        return da is not None and db is not None and same_date(da[0], da[1], db[0], db[1])
    ia, ib = _interval(a), _interval(b)
    if ia is None or ib is None:
        return False
    if a.unit != b.unit:
        f = factor(b.unit, a.unit) if a.unit is not None and b.unit is not None else None
        if f is None:
            return False
        scale, offset = f
        ib = tuple(sorted(abs(scale * v + offset) if math.isfinite(v) else v for v in ib))  # type: ignore[assignment]
    if a.unit == "B" and b.unit == "B":
        # both read decimal, or both binary when both write decimal prefixes
        (da, ba), (db, bb) = byte_scales(a), byte_scales(b)
        if ba != 1.0 and bb != 1.0:
            return any(_same_interval(a, b, (ia[0] * x, ia[1] * x), (ib[0] * y, ib[1] * y), tol)
                       for x, y in ((da, db), (ba, bb)))
    return _same_interval(a, b, ia, ib, tol)


def _same_interval(a: Stated, b: Stated, ia: tuple[float, float], ib: tuple[float, float], tol: float) -> bool:
    """The interval rules of :func:`same_value` (points, ranges, bounds) on magnitudes in one unit."""
    if _is_bound(a) or _is_bound(b):
        return ia[0] * (1 - tol) <= ib[1] and ib[0] * (1 - tol) <= ia[1]  # widened intervals overlap
    a_point, b_point = ia[0] == ia[1], ib[0] == ib[1]
    if a_point and b_point:
        return close(ia[0], ib[0], tol)
    if not a_point and not b_point:
        return close(ia[0], ib[0], tol) and close(ia[1], ib[1], tol)
    point, rng = (ia[0], ib) if a_point else (ib[0], ia)
    return rng[0] * (1 - tol) <= point <= rng[1] * (1 + tol)
