"""Quantities written in forms the main pattern of :mod:`kb.extract.numbers` does not hold, in
digits and English or unit words: ``10- to 20-ms``, ``1 1/2 hours``, ``1½ h``, ``-5C``, ``a
12-week simulation``, ``$1.2 per GPU-hour to $2.1 per GPU-hour``, a duration in parts (``1 h 30
min``, ``1h30m``, ``2 min 30 s``, ``1小时30分``, ``2 s 500 ms``), a ratio led by its sign (``×1.5``,
``x1.5``), a magnitude set apart from its number before a unit or after a currency (``1.2 k tok/s``,
``2 T tokens``, ``$3 M``) or beside a metric or size word (``吞吐 1.2 K``, ``3 B params``), a vulgar fraction or one Roman numeral before a unit (``½ s``, ``Ⅻ tok/s``),
a number alone in brackets before its unit (``(1,200) tok/s``; signed inside them before a
percentage: ``(−3.5)%``).

:func:`en_forms` is called by :func:`kb.extract.zh_quantities.more_quantities`, which merges its
forms with the main pass's quantities (a form replaces the quantities it holds when it is
longer: ``1 h 30 min`` is one 5400 ``s``, not 3600 ``s`` and 1800 ``s``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from kb.extract.number_words import _FROM
from kb.extract.numbers import (
    _CUR_GAP,
    _NUM,
    _UNIT,
    _canonical,
    _number,
    _pint_unit,
    _unit_of,
)
from kb.extract.unread import BRACKET_SIGNED
from kb.extract.vocab.metrics import SIM_WORDS
from kb.extract.vocab.quantities import CHANGE_WORDS_EN, DECREASE_WORDS_EN
from kb.extract.vocab.units import COUNTERS, KB_OWN

_UNIT_AT = re.compile(_UNIT)
_SUSPENDED = re.compile(rf"(?<![\w.])(?P<a>{_NUM})-[ \t]+(?:to|and)[ \t]+(?P<b>{_NUM})-?")
_FRACTION = re.compile(r"(?<![\w.,/])(?P<w>\d+)[ \t]+(?P<n>\d)/(?P<d>\d{1,2})(?![\d/])")
_GLUED_TEMP = re.compile(r"(?<![\w.])(?P<sign>[-+])(?P<n>\d+(?:\.\d+)?)(?P<u>[CF])(?![\w])")
#: What every match of _FRACTION (a digit, a slash, a digit) and of _GLUED_TEMP (a digit before C or F)
#: holds: a text without it is not searched. Led by a digit, these re skips through in C; the two patterns
#: start with a look-behind and are tried at every position of the text.
_FRACTION_HINT = re.compile(r"\d/\d")
_GLUED_TEMP_HINT = re.compile(r"\d[CF]")
# a 12-week simulation: a hyphenated time before a simulation word (kb.extract.bind.setups makes it sim_length)
_SIM_TIME = re.compile(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)-(?P<u>(?i:weeks?|days?|months?|hours?|years?))(?=[ \t]+(?i:"
                       + "|".join(w for w in SIM_WORDS if w.isascii()) + r"))")
_PER_RANGE = re.compile(rf"(?P<c>[$€£])(?P<a>{_NUM})[ \t]+per[ \t]+(?P<w>[\w-]+)[ \t]+to[ \t]+(?P=c)(?P<b>{_NUM})"
                        r"[ \t]+per[ \t]+(?P=w)(?![\w-])")

#: The parts of a duration written in parts, largest first, as seconds (ISO 8601's order of
#: week, day, hour, minute, second; then the millisecond). ``m`` is a minute only inside such a
#: duration (``1h30m``, ``2m30s``); alone it is a metre or a million (kb.extract.numbers); 时 is
#: no part (下午3时30分 is a clock time).
_PART_SECONDS = (("weeks?|wks?|w|周|星期", 604800), ("days?|d|天", 86400), ("hours?|hrs?|h|小时", 3600),
                 ("minutes?|mins?|m|分钟|分", 60), ("seconds?|secs?|s|秒钟|秒", 1),
                 ("milliseconds?|msecs?|ms|毫秒", 0.001))
_PART = (r"(?P<n>\d+(?:\.\d+)?)[ \t]?(?:"
         + "|".join(f"(?P<p{i}>{words})" for i, (words, _) in enumerate(_PART_SECONDS)) + r")(?![A-Za-z])")
_PART_RE = re.compile(_PART)
_UNNAMED_PART = re.sub(r"\(\?P<\w+>", "(?:", _PART)
# two to five parts, each a smaller unit than the one before it (checked in _durations), joined by
# nothing, a space, "and" (1 hour and 30 minutes) or 又 (1小时又30分钟); digits first, their
# look-behind after them (re skips to a digit in C)
_JOINED = r"(?:[ \t]?|[ \t]?,?[ \t]and[ \t]|[ \t]?又[ \t]?)"
_DURATION = re.compile(r"\d(?<![A-Za-z0-9_.]\d)" + _UNNAMED_PART.replace(r"(?:\d+", r"(?:\d*", 1)
                       + r"(?:" + _JOINED + _UNNAMED_PART + "){1,4}(?![A-Za-z0-9_])")
# after a time the main pass read, the next part of a duration (1 h 30 min, 1小时30分, 2 s 500 ms)
_NEXT_PART = re.compile(_JOINED + r"\d")
# a time unit glued between two digits, which the main pass does not read (1h30m, 2m30s, 2分30秒)
_GLUED_PARTS_HINT = re.compile(r"[hm分](?<=\d[hm分])(?=[ \t]?\d)")
# ×1.5, x1.5: a ratio written with its sign first; not after a number (2 × 3 is arithmetic), not
# before a capitalised word or a device (×8 H100, ×8 GPUs: a count); x only with a decimal point
# (x86, x64 are names)
_SIGN_FIRST = re.compile(r"(?<![A-Za-z0-9_.)\]])(?<!\d[ \t])(?:×[ \t]?(?P<n>\d+(?:\.\d+)?)|[xX](?P<d>\d+\.\d+))"
                         r"(?![\d.,%]|[ \t]?(?:[A-Z×xX倍卡张台个]|(?i:gpus?|nodes?|cards?|devices?)(?![a-z])))")
_SIGN_FIRST_HINT = re.compile(r"[×xX](?=[ \t]?\d)")
# a magnitude set apart from its number, before a unit or after a currency: 1.2 k tok/s, 2 T
# tokens, 128 K tokens, $3 M, $ 3 M; a spaced m is a million only before kb's own unit (1.2 m tok/s);
# with no unit, as the glued one, beside a metric word (吞吐 1.2 K, 8 K context; Fig. 3 B is a panel)
_SPACED_MAG = re.compile(r"(?<![A-Za-z0-9_.,])(?P<cur>[$¥£€])?" + _CUR_GAP + r"(?P<n>\d+(?:\.\d+)?)[ \t](?P<m>[kKMBTm])(?!\w|\.\w|[ \t]?[-/])")
# what may follow a spaced size read with the metric word before it: nothing of the clause (吞吐 1.2 K,
# cost 1.2 M.; not 吞吐 3 B 组, throughput 3 B vs 5 A: a label)
_CLOSED = re.compile(r"[ \t]*(?:$|[,.;:!?，。；：！？、)）|\]])")
_SPACED_MAG_HINT = re.compile(r"[kKMBTm](?<=\d[ \t][kKMBTm])(?!\w|\.\w)")
#: What a text holds where one of the three forms hinted above may be: their hints in one scan
#: (one class first: re skips to it in C)
_HINT = re.compile(r"[hmkKMBT×xX分](?:(?<=\d[hm分])(?=[ \t]?\d)|(?<=[×xX])(?=[ \t]?\d)|(?<=\d[ \t][kKMBTm])(?!\w|\.\w))")
# a vulgar fraction, alone or after a whole number (½ s, 1½ h, 2 ¾ days); its value is unicodedata's
_VULGAR = "¼½¾⅐⅑⅒⅓⅔⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞"
# and a Roman numeral of one character (Ⅻ tok/s: 12), never one of several (ⅩⅢ: not composed)
_ROMAN = "\u2160-\u217f"
_VULGAR_RE = re.compile(rf"(?<![A-Za-z0-9_.{_ROMAN}])(?:(?:(?P<w>\d+)[ \t]?)?(?P<f>[{_VULGAR}])|(?P<r>[{_ROMAN}])(?![{_ROMAN}]))")
_VULGAR_HINT = re.compile(f"[{_VULGAR}{_ROMAN}]")
# a number alone in brackets before its unit: (1,200) tok/s; not before a percentage or a currency,
# where brackets may mark a negative (BRACKET_SIGNED: an accountant's (3.5)%, (1,200) 元), unless
# its sign is written inside them ((−3.5)% is −3.5 %: no accountant's negative then)
# a halving: "halves the memory footprint", "cuts TTFT in half", "reduces memory by half" (−50 %:
# the verb is the decrease), "grows by half" (+50 %);
# "half the requests", "split in half" with no change word before are no figure
_HALVES = re.compile(r"(?<![A-Za-z])(?:(?P<v>halv(?:es|ed|ing))|(?:(?P<d>" + "|".join(DECREASE_WORDS_EN) + ")|"
                     + "|".join(CHANGE_WORDS_EN) + r")(?![A-Za-z])[^.,;:!?()\n]{0,40}?[ \t](?:by|in)[ \t]+(?P<h>half))"
                     r"(?![A-Za-z])", re.IGNORECASE)
_BRACKETED = re.compile(rf"(?<![A-Za-z0-9_.])\((?P<sign>[-+])?(?P<n>{_NUM})\)")
_BRACKETED_HINT = re.compile(r"\)(?<=\d\))")
#: What a text holds when one of this module's forms has no number the main pattern reads (x1.5,
#: ½ s): find_quantities does not stop early on it
EN_HINT = re.compile(rf"[xX{_VULGAR}{_ROMAN}hH](?:(?<=[{_VULGAR}{_ROMAN}])|(?<=[xX])(?=\d+\.\d)|(?<=[hH])(?<![A-Za-z][hH])(?=al[fv]))")


def en_forms(norm: str, times: Sequence[tuple[int, int]] = ()) -> list[dict]:
    """The forms of this module in ``norm`` (text folded as the main pass reads it), as the
    fields :func:`kb.extract.zh_quantities.more_quantities` merges: ``start``, ``end``,
    ``value`` (or ``low``/``high``), ``unit`` (canonical, as the main pass stores it: a duration
    in ``s``), and ``signed`` for a temperature written with its sign. ``times`` are the
    ``(start, end)`` of the durations the main pass read (``1 h``, ``30 min``), in text order:
    where a digit follows one, a duration in parts may begin."""
    got: list[dict] = []
    if "-" in norm or "/" in norm or "+" in norm:
        got += _punctuated(norm)
    starts = [a for a, b in times if _NEXT_PART.match(norm, b)]
    hint = _HINT.search(norm)  # most texts: one scan, none of the three forms below
    if hint and _GLUED_PARTS_HINT.search(norm, hint.start()):  # 1h30m, 2m30s: the main pass reads no part of them
        starts += [m.start() for m in _DURATION.finditer(norm)]
    if starts:
        got += _durations(norm, sorted(set(starts)))
    if hint and _SIGN_FIRST_HINT.search(norm, hint.start()):
        got += [{"start": m.start(), "end": m.end(), "unit": "×",
                 "value": float(m["n"] if m["n"] is not None else m["d"])} for m in _SIGN_FIRST.finditer(norm)]
    for m in (_SPACED_MAG.finditer(norm) if hint and _SPACED_MAG_HINT.search(norm, hint.start()) else ()):
        v = _number(None, m["n"], m["m"].upper() if m["m"] == "m" else m["m"])
        if m["cur"]:  # $3 M, $1.2 k
            got.append({"start": m.start(), "end": m.end(), "value": v, "unit": m["cur"]})
        elif (u := _unit_after(norm, m.end())) is not None and (m["m"] != "m" or u[0] in KB_OWN):
            unit, conv, e = u  # (1.2 m tok/s is a million; 100 m s-1 is a speed)
            got.append({"start": m.start(), "end": e, "value": conv.apply(v) if conv else v, "unit": unit})
        elif u is None and m["m"] != "m":  # 吞吐 1.2 K, 3 B params: 1.2K, 3B, with a metric or set-up word beside
            got.append({"start": m.start(), "end": m.end(), "value": v, "unit": None, "bare": "size",
                        "closed": _CLOSED.match(norm, m.end()) is not None})
    for m in (_BRACKETED.finditer(norm) if "(" in norm and _BRACKETED_HINT.search(norm) else ()):
        u = _unit_after(norm, m.end(), ratio=True)  # (1,200) tok/s
        if u is not None and (u[0] not in BRACKET_SIGNED or m["sign"]):
            unit, conv, e = u
            v = _number(m["sign"], m["n"], None)
            got.append({"start": m.start(), "end": e, "value": conv.apply(v) if conv else v, "unit": unit,
                        "signed": m["sign"] is not None})
    if "half" in norm or "halv" in norm or "Half" in norm or "Halv" in norm:
        got += [{"start": m.start(), "end": m.end(), "value": -50.0, "unit": "%", "signed": True} if m["v"]
                else {"start": m.start("h"), "end": m.end("h"), "value": -50.0 if m["d"] else 50.0, "unit": "%",
                      "signed": True} for m in _HALVES.finditer(norm)]
    if not norm.isascii() and _VULGAR_HINT.search(norm):
        for m in _VULGAR_RE.finditer(norm):
            u = _unit_after(norm, m.end(), ratio=True)
            if u is not None:
                unit, conv, e = u
                v = float(f"{int(m['w'] or 0) + unicodedata.numeric(m['f'] or m['r']):.12g}")
                got.append({"start": m.start(), "end": e, "value": conv.apply(v) if conv else v, "unit": unit})
    return got


def _durations(norm: str, starts: Sequence[int]) -> list[dict]:
    """Durations written in parts (``1 h 30 min`` → 5400 ``s``, ``2 s 500 ms`` → 2.5 ``s``) that
    begin at ``starts``: the parts from the first while each is a smaller unit than the one before
    it and only the last has a decimal point (``5 min 10 min`` are two values, ``3 h 2.5 h`` too;
    ``1 h 30 min 1 h 30 min`` two durations)."""
    got: list[dict] = []
    end = -1
    for m in filter(None, (_DURATION.match(norm, a) for a in starts if a >= end)):
        parts = list(_PART_RE.finditer(norm, m.start(), m.end()))
        ranks = [next(i for i in range(len(_PART_SECONDS)) if p[f"p{i}"] is not None) for p in parts]
        k = 1  # the longest run of parts from the first that is one duration (1 h 30 min | 1 h 30 min)
        while k < len(parts) and ranks[k] > ranks[k - 1] and "." not in parts[k - 1]["n"]:
            k += 1
        if k < 2:
            continue
        seconds = sum(float(p["n"]) * _PART_SECONDS[r][1] for p, r in zip(parts[:k], ranks[:k]))
        conv = _canonical("s")
        end = parts[k - 1].end()
        got.append({"start": m.start(), "end": end, "value": float(f"{conv.apply(seconds) if conv else seconds:.12g}"),
                    "unit": conv.unit if conv else "s"})
    return got


def _punctuated(norm: str) -> list[dict]:
    """The forms held together by ``-``, ``/`` or ``+`` (suspended ranges, mixed fractions, glued
    temperatures, hyphenated simulation times, per-unit price ranges)."""
    got: list[dict] = []
    for m in (_SUSPENDED.finditer(norm) if "- to " in norm or "- and " in norm else ()):  # 10- to 20-ms: a range with its unit on the second end
        u = _unit_after(norm, m.end())
        if u is not None:
            unit, conv, e = u
            a, b = _number(None, m["a"], None), _number(None, m["b"], None)
            if conv is not None:
                a, b = conv.apply(a), conv.apply(b)
            got.append({"start": m.start(), "end": e, "value": None, "low": min(a, b), "high": max(a, b),
                        "unit": unit})
    for m in (_FRACTION.finditer(norm) if "/" in norm and _FRACTION_HINT.search(norm) else ()):  # 1 1/2 hours
        u = _unit_after(norm, m.end())
        if u is not None and int(m["d"]) > int(m["n"]) > 0:
            unit, conv, e = u
            v = int(m["w"]) + int(m["n"]) / int(m["d"])
            got.append({"start": m.start(), "end": e, "value": conv.apply(v) if conv else float(f"{v:.12g}"),
                        "unit": unit})
    # -5C: a signed number glued to C or F is a temperature
    for m in (_GLUED_TEMP.finditer(norm) if ("C" in norm or "F" in norm) and _GLUED_TEMP_HINT.search(norm) else ()):
        conv = _canonical("°" + m["u"])
        if conv is not None:
            v = _number(m["sign"], m["n"], None)
            got.append({"start": m.start(), "end": m.end(), "value": conv.apply(v), "unit": conv.unit,
                        "signed": True})
    for m in (_SIM_TIME.finditer(norm) if "imulat" in norm else ()):
        conv = _canonical(_unit_of(m["u"]))
        if conv is not None:
            got.append({"start": m.start(), "end": m.end(), "value": conv.apply(float(m["n"])), "unit": conv.unit})
    for m in (_PER_RANGE.finditer(norm) if " per " in norm else ()):  # $1.2 per GPU-hour to $2.1 per GPU-hour: one range
        if _FROM.search(norm, max(0, m.start() - 12), m.start()):
            continue  # from $1.2 per GPU-hour to $2.1 …: a change A → B, the main pass's two values
        a, b = _number(None, m["a"], None), _number(None, m["b"], None)
        got.append({"start": m.start(), "end": m.end(), "value": None, "low": min(a, b), "high": max(a, b),
                    "unit": m["c"]})
    return got


def _unit_after(norm: str, e: int, ratio: bool = False) -> tuple[str, object, int] | None:
    """``(unit, conversion or None, end)`` of the unit written at ``norm[e:]``, else None; a ratio
    (``×``, ``x``, ``倍``) only with ``ratio``."""
    u = _UNIT_AT.match(norm, e)
    if u is not None and (unit := _unit_of(u.group())) is not None and unit not in COUNTERS and (unit != "×" or ratio):
        conv = _canonical(unit)
        return (conv.unit if conv else unit), conv, u.end()
    p = _pint_unit(norm, e)
    if p is not None:
        return p[0].unit, p[0], p[1]
    return None
