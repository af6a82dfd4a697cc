"""Which written numbers kb cannot read, and why: :func:`unread_numbers`, the one source of the
parser's ``number-unread`` warnings (:mod:`kb.read.unit`; docs/claims.md). A form reported here
gives no quantity, and no part of it is read as another number (the parser skips its span).

How a number kb does read is written is :mod:`kb.extract.numbers`; the patterns here are built on
its own (:data:`~kb.extract.numbers._NUM`, its units), so the two never disagree on where a number
ends.
"""

from __future__ import annotations

import re

from kb.extract.numbers import (
    _BARE_POW10,
    _MAG,
    _NUM,
    _POW10,
    _UNIT,
    _UNIT_RE,
    _unit_of,
    normalised,
    number_runs,
    per_unit,
)
from kb.extract.overflow import has_exponent_hint, out_of_range
from kb.perf.led import led_matches


def unread_numbers(text: str, row: bool = False) -> list[tuple[int, int, str]]:
    """The numbers of ``text`` that kb reads as no quantity although a reader wrote one, each
    with why, for the parser to warn of (docs/claims.md): an exponent no float holds
    (:func:`out_of_range`: ``9e999999``, ``1e-400x``), and before a unit a number written in a
    form kb does not read: more than one decimal point (``1.2.3 tok/s``, ``1.000.000 tok/s``), a
    decimal comma or a grouping other than threes (``3,5 tok/s``, ``1,23,456 tok/s``), underscores
    (``1_000 tok/s``), no digit before the point (``.5 s``), a power of another base than ten (``2^10
    tok/s``, ``2**10 tok/s``), hexadecimal (``0x10 tok/s``), an exponent and a magnitude together
    (``1e3k tok/s``: 1e3 or 1.3k?); and a number whose unit of kb's words is raised to a power
    (``1200 tok/s^2``, ``5 GB²``: pint's units keep theirs, ``9.8 m/s^2``) or alone in brackets
    before a percentage or a currency (``(3.5)%``: :data:`BRACKET_SIGNED`), or in a unit per a
    unit kb does not store (``3 h/s``: :func:`~kb.extract.numbers.per_unit`), or one of a run of
    plain numbers set apart by spaces (``1 2 3 tok/s``: :func:`~kb.extract.numbers.number_runs`);
    binary and octal as hexadecimal (``0b101 tok/s``); with or without a unit, two powers of ten in
    a chain (``1.2×10^3×10^3``) and two magnitude letters (``1.5kk``). Which value was meant is
    unknown, so none is made up. A version with no unit after it (``vLLM 0.26.0``) is none of
    these.

    A number set apart from another by ``/``, ``¦`` or (in a unit that is no table row, ``row``
    False: a row's cells are joined by `` | ``) ``|`` before the other's unit (``358 / 359 tok/s``,
    ``338 | 339 tok/s``) has no unit of its own: the first is warned, the second read.

    :returns: ``(start, end, reason)`` in text order; ``reason`` ends the warning (``is out of
        range``, ``has more than one decimal point`` …).
    """
    exponent = has_exponent_hint(text)  # (asked once: out_of_range and _may_be_unread both need it)
    huge = out_of_range(text, exponent)
    found = [(a, b, "is out of range") for a, b in huge] if huge else []
    if _may_be_unread(text, exponent):  # (most texts: one quick scan, no unit tried)
        for m in _UNREAD_FORM_RE.finditer(text):
            if m["comma"] is not None and _THOUSANDS_RE.fullmatch(m["comma"]):
                continue  # 1,234 tok/s: read
            why = next(w for k, w in _UNREAD_WHY.items() if m[k] is not None)
            found.append((*m.span(), why))
    if ("^" in text or "**" in text or (not text.isascii() and _has_superscript(text))) \
            and _UNIT_POWER_HINT_RE.search(text) is not None:
        found += [(*m.span(), _UNIT_POWER_WHY) for m in _UNIT_POWER_RE.finditer(text)]
    if _may_be_odd(text, exponent):
        found += [(*m.span(), _ODD_WHY[m.lastgroup or ""]) for m in led_matches(_ODD_START, _ODD_FORM_RE, text)]
    if "10" in text and _CHAIN_HINT.search(text) is not None:  # 1.2×10^3×10^3: two powers of ten
        found += [(*m.span(), _CHAIN_WHY) for m in _CHAIN_RE.finditer(text)]
    norm = normalised(text)  # (kept: find_quantities folds the same text next)
    if ("/" in text or "∕" in text) and _PER_HINT.search(norm) is not None:
        for m in _PER_UNIT_RE.finditer(norm):  # 3 h/s, 5 ms/GB: a unit per a unit kb does not store
            if (per := per_unit(norm, m.end(), _unit_of(m["u"]))) is not None and per[0] is None:
                found.append((m.start(), per[1], _PER_UNIT_WHY))
    for a, b in number_runs(norm):
        if (u := _UNIT_RE.match(text, b)) is not None and _unit_of(u.group()) is not None:
            found.append((a, b, _RUN_WHY))  # 1 2 3 tok/s
    if ("/" in text or "¦" in text or ("|" in text and not row)) \
            and (_SHARED_HINT if not row else _SHARED_ROW_HINT).search(text) is not None:
        for m in (_SHARED_UNIT_RE if not row else _SHARED_UNIT_ROW_RE).finditer(text):
            if (u := _UNIT_RE.match(text, m.end())) is not None and _unit_of(u.group()) is not None:
                found.append((m.start("a"), m.end("a"), SHARED_UNIT_WHY))  # 358 / 359 tok/s: the 358 of what?
    if ")" in text and _BRACKETED_HINT_RE.search(text) is not None:
        for m in _BRACKETED_RE.finditer(text):
            if (u := _UNIT_RE.match(text, m.end())) is not None and _unit_of(u.group()) in BRACKET_SIGNED:
                found.append((m.start(), u.end(), _BRACKETED_WHY))  # (3.5)%: 3.5 % or −3.5 %?
    return sorted(found) if len(found) > 1 else found  # (a fresh list either way)


#: More forms kb reads as no quantity (unread_numbers): ``1⁄0 tok/s``, ``1200 tok/s/s``, ``5 k/s``
#: (thousands of what?), ``1e3万`` and ``1.2万k`` (as ``1e3k``), ``0.`` and 300 zeros before a digit.
_ODD_FORM_RE = re.compile(
    r"(?P<slash>(?<![\w.])\d+[ \t]?⁄[ \t]?\d+)"
    r"|(?P<perper>(?<![\w.])\d[\d,]*(?:\.\d+)?[ \t]?(?:[kKMG][ \t]?)?(?:tok(?:en)?s?|req(?:uest)?s?|[kKMGT]?i?B)/s/s(?![A-Za-z]))"
    r"|(?P<magps>(?<![\w.])\d[\d,]*(?:\.\d+)?[ \t]?[kKM]/s(?![A-Za-z]))"
    r"|(?P<expmag>(?<![\w.])\d+(?:\.\d+)?[eE][-+]?\d+[ \t]?[万亿萬億])"
    r"|(?P<twomag>(?<![\w.])\d+(?:\.\d+)?(?:[ \t]?[万亿萬億][ \t]?[kKMBT]|[kK][kK]|MM)(?![A-Za-z]))"
    r"|(?P<tiny>(?<![\w.])0\.0{300,}\d+)")
_ODD_WHY = {"slash": "is a fraction written with the fraction slash ⁄, which kb does not read",
            "perper": "has a rate per second of a rate (tok/s/s), a unit kb does not read",
            "magps": "has a magnitude per second with no noun (k/s: thousands of what?)",
            "expmag": "has both an exponent and a magnitude (1e3万: 1e3 or 1.3万?)",
            "twomag": "has two magnitudes (1.2万k, 1.5kk)", "tiny": "is out of range (a float reads it as 0)"}
#: What a text holds where a per-second branch of _ODD_FORM_RE may match: ``/s/s`` (perper) or a
#: magnitude letter per second right after a number's last character, a digit or a comma, or one space
#: after it (magps: ``5 k/s``, ``5k/s``); the ``k/s`` of ``tok/s`` has neither. Led by ``/s``: re finds the
#: literal fast (most units with a rate hold ``tok/s``, where ``"/s" in text`` alone scanned every digit)
_PER_SECOND_HINT = re.compile(r"/s(?:(?=/s)|(?<=[\d,][kKM]/s)|(?<=[\d,][ \t][kKM]/s))")
#: What a text holds where a zh branch of _ODD_FORM_RE may match: 万亿萬億 right after a digit or one
#: space or tab after it (``三万``, ``万卡`` have neither), with an exponent in the text (expmag ``1e3万``:
#: :func:`~kb.extract.overflow.has_exponent_hint`) or a magnitude letter after it (twomag ``1.2万k``, the
#: second pattern); a plain ``1.2万`` holds neither
_ZH_MAG_HINT = re.compile(r"[万亿萬億](?:(?<=\d.)|(?<=\d[ \t].))")
_ZH_TWO_MAG_HINT = re.compile(r"[万亿萬億](?:(?<=\d.)|(?<=\d[ \t].))[ \t]?[kKMBT]")


def _may_be_odd(text: str, exponent: bool) -> bool:
    """Whether ``text`` may hold a match of _ODD_FORM_RE (``exponent``: :func:`has_exponent_hint` of
    it): each branch's literal by a substring test first (four for 万亿萬億: a quarter of a class scan,
    callgrind), then what the branch needs around it
    (_PER_SECOND_HINT, _ZH_TWO_MAG_HINT, _ZH_MAG_HINT, _TWO_MAG_HINT); tests/test_unread_prechecks.py
    checks that no text it passes over holds a match."""
    return (("/s" in text and _PER_SECOND_HINT.search(text) is not None) or "⁄" in text or "0.000" in text
            or (not text.isascii() and ("万" in text or "亿" in text or "萬" in text or "億" in text)
                and (_ZH_TWO_MAG_HINT.search(text) is not None or (exponent and _ZH_MAG_HINT.search(text) is not None)))
            or (("kk" in text or "kK" in text or "Kk" in text or "KK" in text or "MM" in text)
                and _TWO_MAG_HINT.search(text) is not None))


#: Where a match of _ODD_FORM_RE may start: each of its branches starts with a digit after no word
#: character or point (``(?<![\w.])\d``); led by the digit, re skips to one in C
#: (:func:`~kb.perf.led.led_matches`), where _ODD_FORM_RE, led by a group of look-behinds, is tried
#: at every position
_ODD_START = re.compile(r"\d(?<![\w.]\d)")
#: Two powers of ten in a chain (``1.2×10^3×10^3``, ``10^3×10^3``): which did the writer mean? (none
#: of it is read: a power after a times sign is its number's, kb.extract.numbers._NUM)
_CHAIN_RE = re.compile(r"(?<![\w.^])(?:\d+(?:\.\d+)?(?:" + _POW10 + "){2,}|" + _BARE_POW10 + "(?:" + _POW10 + ")+)")
_CHAIN_HINT = re.compile(r"[×xX*][ \t]?10[\^⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹]")
_CHAIN_WHY = "has more than one power of ten (1.2×10^3×10^3: kb reads one)"
#: What a text holds where the ASCII two-magnitude form may be (``1.5kk``, ``2MM``)
_TWO_MAG_HINT = re.compile(r"[kKM](?:(?<=[kK])[kK]|(?<=M)M)(?<=\d..)")
r"""(``kk``, ``kK``, ``Kk``, ``KK`` or ``MM`` after a digit; led by one class: re skips to it in C,
where an alternation of a class and a letter gives it no first character)"""
#: A number and its unit of kb's words before a slash: :func:`~kb.extract.numbers.per_unit` tells
#: whether a unit per a unit follows that kb does not store
_PER_UNIT_RE = re.compile(r"(?=\d)(?<![A-Za-z0-9_.])" + _NUM + "(?:" + _MAG + ")?(?P<u>" + _UNIT + r")(?=[ \t]?/)")
#: What a text holds where _PER_UNIT_RE may match: a unit's last letter, a slash, a unit's first
#: letter (``h/s``, ``小时/秒``, ``ms / GB``); the slash first, re skips to it in C
_PER_HINT = re.compile(r"/(?:(?<=[A-Za-z\u4e00-\u9fffµμ][ \t]/)|(?<=[A-Za-z\u4e00-\u9fffµμ]/))[ \t]?[A-Za-z\u4e00-\u9fffµμ]")
_PER_UNIT_WHY = "has a unit per a unit that kb does not read (h/s: a time per time is no time)"
_RUN_WHY = "is a run of numbers set apart by spaces (which one is the figure?)"

#: The units before which a number alone in brackets may be a negative, as accountants write one
#: (``(3.5)%``, ``(1,200) 元``): unread, with a warning; before any other unit the brackets only
#: set it apart (``(1,200) tok/s`` → 1,200 ``tok/s``: :mod:`kb.extract.en_quantities`)
BRACKET_SIGNED = frozenset({"%", "pp", "$", "¥", "£", "€"})
_BRACKETED_RE = re.compile(r"(?<![A-Za-z0-9_.])\((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\)")
_BRACKETED_HINT_RE = re.compile(r"\)(?<=\d\))")
_BRACKETED_WHY = "is in brackets before a percentage or a currency (a negative, as accountants write one?)"


# before a unit, a number in a form kb does not read (unread_numbers)
_UNREAD_FORM_RE = re.compile(
    r"(?=[\d.])(?<![A-Za-z0-9_.,^])(?:(?P<dots>\d+(?:\.\d+){2,}(?:,\d+)?)"
    r"|(?P<comma>\d+(?:\.\d{3})+,\d+|\d{1,3}(?:[ '’]\d{3})+,\d+|\d+(?:,\d+)+(?:\.\d+)?)"
    r"|(?P<under>\d+(?:_\d+)+(?:\.\d+)?)|(?P<lead>\.\d+)|(?P<power>(?!10\^)\d+(?:\^|\*\*)[-+]?\d+)|(?P<hex>0[xX][0-9A-Fa-f]+)"
    r"|(?P<bin>0[bB][01]+)|(?P<oct>0[oO][0-7]+)"
    r"|(?P<expmag>\d+(?:\.\d+)?[eE][-+]?\d+[ \t]?[kKMBT](?![A-Za-z])))(?=" + _UNIT + ")")
#: A number whose unit of kb's own words is raised to a power (``1200 tok/s^2``, ``5 GB²``): not
#: that unit, and kb models no other (pint reads its own units with powers: ``9.8 m/s^2``); a
#: power of 1 is a footnote's mark (``tok/s<sup>1</sup>``), not a power
_UNIT_POWER_RE = re.compile(r"(?=\d)(?<![A-Za-z0-9_.,^])" + _NUM + "(?:" + _MAG + ")?(?:" + _UNIT + r")"
                            r"(?:(?:\^|\*\*)(?:-\d+|\+?(?!1(?!\d))\d+)|[²³⁴⁵⁶⁷⁸⁹⁻])")
#: What every match of _UNIT_POWER_RE holds: a power sign after a unit's last character (the sign
#: first: re skips to it in C), checked only when the text holds a power sign at all
_UNIT_POWER_HINT_RE = re.compile(r"[\^*²³⁴⁵⁶⁷⁸⁹⁻](?<=[A-Za-z\u4e00-\u9fff×%‰][\^*²³⁴⁵⁶⁷⁸⁹⁻])(?:(?<=\*)(?=\*)|(?<!\*))")


def _has_superscript(text: str) -> bool:
    """Whether ``text`` holds one of ``²³⁴⁵⁶⁷⁸⁹⁻`` (the power signs of _UNIT_POWER_HINT_RE besides
    ``^`` and ``*``): substring tests, a third of a class scan (callgrind)."""
    return ("²" in text or "³" in text or "⁴" in text or "⁵" in text or "⁶" in text or "⁷" in text or "⁸" in text
            or "⁹" in text or "⁻" in text)


_UNIT_POWER_WHY = "has a unit raised to a power kb does not read"
#: What every match of _UNREAD_FORM_RE holds (two points or commas in one number, a comma not
#: before three digits, an underscore after a digit, a point with no digit before it), without the
#: unit after it, or a power sign or ``0x`` (:func:`_may_be_unread`): tests/test_robust_unread.py
#: checks they agree.
_UNREAD_HINT_RE = re.compile(r"[.,_](?:(?<=\d[.,_])\d+[.,_]\d|(?<=\d_)|(?<=\d,)(?!\d{3}(?!\d))|(?<![\w.]\.)(?<=\.)\d)")
#: _UNREAD_HINT_RE's matches at a point, a comma, an underscore: its branches that character allows
#: (a class scan costs four literal searches: callgrind; tests/test_number_prechecks.py checks they agree)
_POINT_HINT_RE = re.compile(r"\.(?:(?<=\d\.)\d+[.,_]\d|(?<![\w.]\.)\d)")
_COMMA_HINT_RE = re.compile(r",(?:(?<=\d,)\d+[.,_]\d|(?<=\d,)(?!\d{3}(?!\d)))")
_UNDERSCORE_HINT_RE = re.compile(r"_(?<=\d_)")




def _unread_hint(text: str) -> bool:
    """Whether :data:`_UNREAD_HINT_RE` matches in ``text``, one pattern per character it leads with."""
    return (("." in text and _POINT_HINT_RE.search(text) is not None)
            or ("," in text and _COMMA_HINT_RE.search(text) is not None)
            or ("_" in text and _UNDERSCORE_HINT_RE.search(text) is not None))


_POWER_HINT_RE = re.compile(r"\^(?<=\d\^)[-+]?\d|\*\*(?<=\d\*\*)[-+]?\d")


def _may_be_unread(text: str, exponent: bool | None = None) -> bool:
    """Whether ``text`` may hold a match of _UNREAD_FORM_RE: :data:`_UNREAD_HINT_RE`, or a power
    sign between digits (``2^10``, ``2**10``; a pattern of its own: one more branch of the hint
    costs it its first character, which re skips to in C)."""
    if _unread_hint(text):
        return True
    if "0" in text and _RADIX_HINT.search(text) is not None:  # 0x10 tok/s: hexadecimal; 0b101, 0o17
        return True
    if (has_exponent_hint(text) if exponent is None else exponent) and _EXPMAG_HINT_RE.search(text) is not None:
        return True  # 1e3k tok/s: an exponent and a magnitude
    return ("^" in text or "**" in text) and _POWER_HINT_RE.search(text) is not None
_RADIX_HINT = re.compile("0[xXbBoO]")
"""``0x``, ``0X``, ``0b``, ``0B``, ``0o`` or ``0O``: one search led by the literal ``0`` (six substring tests cost more)."""
_EXPMAG_HINT_RE = re.compile(r"[eE](?<=\d[eE])[-+]?\d+[ \t]?[kKMBT]")
_THOUSANDS_RE = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_UNREAD_WHY = {
    "dots": "has more than one decimal point",
    "comma": "has a decimal comma or digits not grouped in threes",
    "under": "is grouped with underscores",
    "lead": "has no digit before its decimal point",
    "power": "is a power kb does not read (only a power of ten is: 10^6)",
    "hex": "is hexadecimal",
    "bin": "is binary",
    "oct": "is octal",
    "expmag": "has both an exponent and a magnitude (1e3k: 1e3 or 1.3k?)",
}


#: Two numbers set apart by a slash, a broken bar or a pipe, one unit after the second
#: (:func:`unread_numbers`; a row's `` | `` parts its cells: no pipe there).
_SHARED_UNIT_RE = re.compile(r"(?<![\w.,/|¦])(?P<a>\d[\d,]*(?:\.\d+)?)[ \t]*[/|¦][ \t]*\d[\d,]*(?:\.\d+)?[ \t]?")
_SHARED_UNIT_ROW_RE = re.compile(r"(?<![\w.,/|¦])(?P<a>\d[\d,]*(?:\.\d+)?)[ \t]*[/¦][ \t]*\d[\d,]*(?:\.\d+)?[ \t]?")
#: What every match of _SHARED_UNIT_RE (_SHARED_UNIT_ROW_RE) holds: its separator, spaces or tabs, a digit (led
#: by the separator class: re skips to one in C, where the patterns, led by a look-behind, are tried at every
#: position; the slash of ``tok/s`` has no digit after it; tests/test_unread_prechecks.py checks they agree)
_SHARED_HINT, _SHARED_ROW_HINT = re.compile(r"[/|¦][ \t]*\d"), re.compile(r"[/¦][ \t]*\d")
SHARED_UNIT_WHY = "stands before another number's unit with none of its own (which unit is it in?)"
"""Why a number set apart before another's unit is warned: the parser says it only when no list
read it with the unit written once (``throughput 300 / 400 tok/s`` is two throughputs)."""

