"""The bound each value the brief lists is shown with (``≥80%``, ``~4.1 tok/s``): its own claim's.

The brief's lists hold raws (``80%``), the keys every step matches values by; the bound is put
on once, on the finished context (:func:`bounded`). A raw is shown with the bound the statement
it comes from writes (claims.md: "Each end keeps its bound"), never with another subject's:
``Ladder 接受率不低于 80%`` makes Ladder's ``80%`` a ``≥80%``, while EAGLE3's ``从 80% 提升到
83%`` in the same file stays ``80%``. The statement is known by where a value is listed:

* under a claim row (a dict with ``id`` and ``text``, or a ``row_secondhand`` entry): that claim's;
* under a subject (a dict whose ``key`` or ``subject`` is a subject key: an increment, a §2 or
  §6 row): the statements of that subject's values (the Attributor's owners, as the diff reads
  them);
* elsewhere, or a raw its scope does not state: the bound every statement of that raw in the
  night agrees on, else none.
"""

from __future__ import annotations

import re
from typing import Any

from kb.core.claims import Claim
from kb.extract.vocab.units import CJK_UNITS, COUNTER_CHARS, MAGNITUDES

BOUNDS = {">": ">", "≥": "≥", "<": "<", "≤": "≤", "~": "~"}
_LISTS = ("raws", "new_values", "secondhand_only", "contested", "setup", "opinion")
_ZH_MAGS = sorted((m for m in MAGNITUDES if re.fullmatch(r"[\u4e00-\u9fff]+", m)), key=len, reverse=True)
_ZH_VALUE_RE = re.compile(r"(?P<pre>[~≥≤<>]?)(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<mag>" + "|".join(_ZH_MAGS)
                          + r")?\s*(?P<unit>\S*)")
_ZH_DATE_RE = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?")


def in_english(shown: str) -> str:
    """A value kb lists, in the en brief's words: a Chinese magnitude as a number (``~1,200 万`` →
    ``~12M``, ``59 万`` → ``590,000``), a zh unit by its symbol (``3.4 个百分点`` → ``3.4 pp``,
    ``2 倍`` → ``2×``), a counter dropped (``64 个`` → ``64``), a zh date as ISO (``2025 年 12 月``
    → ``2025-12``); the words of ``kb.extract.vocab.units``. Anything else is returned as is."""
    if not re.search(r"[\u4e00-\u9fff]", shown):
        return shown
    if d := _ZH_DATE_RE.fullmatch(shown.strip()):
        return "-".join([d.group(1), *(f"{int(x):02d}" for x in d.groups()[1:] if x)])
    m = _ZH_VALUE_RE.fullmatch(shown.strip())
    unit = m.group("unit") if m else ""
    if m is None or (unit and unit not in CJK_UNITS and unit not in COUNTER_CHARS and re.search(r"[\u4e00-\u9fff]", unit)):
        return shown
    num = m.group("num")
    if m.group("mag"):
        v = float(num.replace(",", "")) * 10 ** MAGNITUDES[m.group("mag")]
        num = f"{v / 1e9:g}B" if v >= 1e9 else f"{v / 1e6:g}M" if v >= 1e6 else f"{v:,.0f}"
    unit = "" if unit in COUNTER_CHARS else CJK_UNITS.get(unit, unit)
    unit += "s" if unit in ("day", "week", "month", "year") and num != "1" else ""  # 8 周: 8 weeks
    return m.group("pre") + num + ("" if not unit or unit in "×%‰" else " ") + unit


class Bounds:
    """How each raw is shown, per claim, per subject and night-wide (see the module).

    :param claims: ``(claim, owners)`` of the night's window and living-doc claims; ``owners``
        per quantity: the subject key it belongs to (``None``: the claim's first subject, or none).
    """

    __slots__ = ("by_claim", "by_subject", "night", "english")

    def __init__(self, claims: list[tuple[Claim, list[str | None]]], english: bool = False) -> None:
        self.english = english  # the en brief: every shown value in English words (:func:`in_english`)
        self.by_claim: dict[str, dict[str, str]] = {}
        self.by_subject: dict[str, dict[str, str]] = {}
        every: dict[str, set[str]] = {}
        for c, owners in claims:
            mine = self.by_claim.setdefault(c.id, {})
            for q, owner in zip(c.quantities, owners):
                shown = f"{BOUNDS[q.bound]}{q.raw}" if q.bound in BOUNDS else q.raw
                _keep(mine, q.raw, shown)
                if owner is not None:
                    _keep(self.by_subject.setdefault(owner, {}), q.raw, shown)
                every.setdefault(q.raw, set()).add(shown)
        self.night = {raw: next(iter(s)) for raw, s in every.items() if len(s) == 1}

    def show(self, raw: str, scope: dict[str, str] | None) -> str:
        """``raw`` as the brief prints it under ``scope`` (a claim's or subject's raws, or None)."""
        shown = scope[raw] if scope is not None and raw in scope else self.night.get(raw, raw)
        return in_english(shown) if self.english else shown

    def scope_of(self, value: dict[str, Any], scope: dict[str, str] | None) -> dict[str, str] | None:
        """The scope a context dict lists its values under: its claim's, its subject's, else ``scope``."""
        ident = value.get("id")
        if isinstance(ident, str) and "text" in value and ident in self.by_claim:
            return self.by_claim[ident]
        for k in ("key", "subject"):
            key = value.get(k)
            if isinstance(key, str) and key in self.by_subject:
                return self.by_subject[key]
        return scope


def _keep(shown_of: dict[str, str], raw: str, shown: str) -> None:
    """File ``shown`` for ``raw``; a bound written once in the scope wins over a plain repeat."""
    if shown_of.get(raw, raw) == raw:
        shown_of[raw] = shown


def bounded(value: Any, bounds: Bounds, scope: dict[str, str] | None = None) -> Any:
    """``value`` (the context) with every listed raw value shown with its own bound (``>40%``,
    :class:`Bounds`): lists under ``raws``, ``new_values``, ``secondhand_only``, ``contested``,
    ``setup``, ``opinion``, the ``raw`` of a value, an increment's ``detail`` and
    ``row_secondhand``. Mutates in place."""
    if isinstance(value, dict):
        scope = bounds.scope_of(value, scope)
        for k, v in value.items():
            if k in _LISTS and isinstance(v, list):
                value[k] = [bounds.show(x, scope) if isinstance(x, str) else x for x in v]
            elif k == "raw" and isinstance(v, str):
                value[k] = bounds.show(v, scope)
            elif k == "detail" and isinstance(v, str) and value.get("rule") in ("doc-new-values", "doc-conflict"):
                value[k] = ", ".join(bounds.show(x, scope) for x in v.split(", ")) if v else v
            elif k == "row_secondhand" and isinstance(v, dict):
                value[k] = {i: [bounds.show(x, bounds.by_claim.get(i, scope)) for x in xs] for i, xs in v.items()}
            else:
                bounded(v, bounds, scope)
    elif isinstance(value, list):
        for v in value:
            bounded(v, bounds, scope)
    return value
