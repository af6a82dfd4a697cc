"""How a quantity is written: the one pattern of a number with its magnitude, unit and range
separator (:data:`_QTY_RE`), the unit it names (kb's own words, else pint's), and
:func:`parse_number`.

The word lists (units, magnitudes, counters) are data in :mod:`kb.extract.vocab.units`; what
the words around a number mean is :mod:`kb.extract.number_words`; the finder that puts it all
together is :mod:`kb.extract.quantities`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from kb.extract import units as _units
from kb.extract.fold import _FOLD, _FOLD_RE, normalise
from kb.extract.zh_numerals import ZH_DIGITS, ZH_POINT, zh_value
from kb.extract.vocab.quantities import TO_VERBS_ZH, TO_WORDS_ZH
from kb.extract.vocab.units import (
    ASCII_UNITS_CI,
    ASCII_UNITS_CS,
    CJK_UNITS,
    CJK_UNITS_GUARDED,
    COUNTER_CHARS,
    COUNTERS,
    KB_OWN,
    MAGNITUDES,
    NOT_HYPHENATED,
    PER_DEVICE_NOUNS,
    PER_STREAM_NOUNS,
    RATE_WORD,
    REQUEST_RATE,
    TOKEN_RATE,
)

# Everything below runs on text folded by metrics.normalise (same length, same offsets):
# ASCII digits, '-' for U+2212, ',' '.' '%' '(' ':' for their full-width forms.

_UNIT_OF = {**CJK_UNITS, **CJK_UNITS_GUARDED, **{c: c for c in COUNTERS}, **ASCII_UNITS_CS, "×": "×", "x": "×", "X": "×"}


def _alt(forms: Sequence[str]) -> str:
    """Regex alternation of literal forms, longest first."""
    return "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))


_W = "(?![A-Za-z0-9_])"  # end of an ASCII word
# exponent notation is part of the number (issue 24: 1e6, 1E-3, 1.5e10), never a unit; so is a power
# of ten written out (3.2×10^-2, 1.5 x 10^6, 4×10⁻³; 2×10 alone is arithmetic)
_POW10 = r"[ \t]?[×xX*][ \t]?10(?:\^[-+]?\d{1,3}|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})(?![\d⁰¹²³⁴⁵⁶⁷⁸⁹])"
# a power of ten alone (10^6, 10⁶, 10^-3): a number (1e6), as after a mantissa (3.2×10^6)
_BARE_POW10 = r"10(?:\^[-+]?\d{1,3}|[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})(?![\d⁰¹²³⁴⁵⁶⁷⁸⁹])"
# a power of ten after a number and a times sign is that number's (1.2×10^3×10^3: two powers in a
# chain, unread; no part of it is a number of its own)
_AFTER_TIMES = "".join(rf"(?<![\d⁰¹²³⁴⁵⁶⁷⁸⁹]{a}[×xX*]{b})" for a in ("", "[ \t]") for b in ("", "[ \t]"))
# digits grouped in threes by a space or an apostrophe before a unit (12 345 tok/s: ISO 80000-1's
# grouping, a thin or no-break space folded to one; 1'234 tok/s, the Swiss one) are one number;
# so is an exponent glued to a unit (1.2e3tok/s, as 1200tok/s is); _UNIT_AHEAD is filled in below
_NUM = (r"(?>(?=10[\^⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹])" + _AFTER_TIMES + _BARE_POW10 + r"|(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ '’]\d{3})+(?={_UNIT_AHEAD})|\d+)(?:\.\d+)?"
        r"(?:[eE][-+]?\d{1,3}(?:(?=[xX](?![\dA-Za-z]))|(?![\dA-Za-z])|(?={_UNIT_AHEAD}))|" + _POW10 + r")?)"
        r"(?![\d^⁰¹²³⁴⁵⁶⁷⁸⁹]|[.,]\d|[ \t]?[×xX*][ \t]?10(?:\^|[⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹]))")
_TIMES_TEN = re.compile(r"[ \t]?[×xX*][ \t]?10\^?")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
# a one-character zh unit that begins many words (升级, 克隆, 米哈游): not before another ideograph
_GUARD = "(?![\u4e00-\u9fff](?<![的以之左内多]))"
_MAG = rf"[kKMBT]{_W}|[ \t]?(?:万亿|百万|千万|万|亿|千)|[ \t](?i:thousand|million|billion|trillion){_W}"
# x/X only glued to the number (8 x A100 is a product); × not before a digit (2×10 is arithmetic); a
# unit of kb's words may be hyphenated (32K-token, 3-fold, 10-ms; not 2-day: vocab.units.NOT_HYPHENATED).
# The case-insensitive units all start with a letter: the look-ahead (?i:[a-z]) is the union of
# their first characters, so that re skips their ~60 alternatives at once before anything else
# (it tries a literal alternative only when its first character is there, but enters every
# case-insensitive one; the unit is tried up to four times per number as the range backtracks).
_UNIT = (
    rf"[xX]{_W}|[ \t]?(?:{_alt(list(CJK_UNITS))}|(?:{_alt(list(CJK_UNITS_GUARDED))}){_GUARD}|×(?!\d)|[{COUNTER_CHARS}]"
    rf"|(?=(?i:[a-z]))(?i:{TOKEN_RATE}|{REQUEST_RATE}|{_alt(list(ASCII_UNITS_CI))}){_W}|(?:{_alt(list(ASCII_UNITS_CS))}){_W}"
    rf"|-(?:(?i:{_alt([w for w, u in ASCII_UNITS_CI.items() if u not in NOT_HYPHENATED])})|{_alt([w for w, u in ASCII_UNITS_CS.items() if u not in NOT_HYPHENATED])}){_W})"
)
_NUM = _NUM.replace("{_UNIT_AHEAD}", "(?:" + _UNIT + ")")
_UNIT_RE = re.compile(_UNIT)
# an exponent too large or too small for a float (9e999999, 1e-400): out of range, no quantity
# (a glued x/X is the ratio sign, 1e-400x, a glued unit its unit, 9e999tok/s; any other glued
# letter or digit makes it no number)
_EXPONENT_RE = re.compile(r"(?<![A-Za-z0-9_.^])(?:" + _BARE_POW10.replace("{1,3}", "+") + r"|\d+(?:\.\d+)?(?:[eE][-+]?\d+|"
                          + _POW10.replace("{1,3}", "+") + r"))(?:(?=[xX](?![\dA-Za-z]))|(?![\dA-Za-z])|(?=" + _UNIT + "))")
# The rest of a mixed Chinese number after 万 or 亿 (C22: 3万4000, 25万6千, 1亿5000万), or one digit
# after 千 (3千5, 3千5百: 3,500); either end of a range may have one (1万2-1万5, 3千5-4千). None after a
# decimal (2.5千5, 1.2万3), before a date's 年/月/日 (1月3万2月4万) or, after 千, before 万/亿 (3千5万).
_TAIL = (r"(?<!\.\d[万亿千])(?<!\.\d\d[万亿千])(?:(?<=[万亿])\d{1,4}(?:[千百]|(?<=\d)万(?!亿))?"
         r"|(?<=千)\d百?(?![ \t]?[万亿萬億]))(?![\d.,年月日号])")
# A change verb ending in 到/至/为 between two numbers (提到, 降至, 缩短到, 减小至, 更正为): A → B (see
# _is_transition).
_TO_VERB = r"(?:" + "|".join(TO_VERBS_ZH) + r")(?:到|至|为)|" + "|".join(TO_WORDS_ZH)
_ARROW = r"→|->|➝|⟶|➔"
_SEP = rf"[ \t]?(?:[-–—~]|至|到)[ \t]?|[ \t]to[ \t]|[ \t]*(?:{_ARROW})[ \t]*|[ \t]?(?:{_TO_VERB})[ \t]?"
# Not a quantity when glued to an identifier, version, section or path: a letter, digit, '.',
# '§', '#', '@', '\', 'x/' or 'x-' (GPT-5.6, Qwen3-32B, v0.5.16, §2.13, C116, paper_cards/681,
# 2026-03-21's "-03"), after "1," (a broken thousands group), after "10:" (a clock time's minutes:
# 10:00 is no quantity), after 第 (an ordinal), after ±, after a number and 点 (3点5倍, 一百点123: its decimals),
# glued after digits and a magnitude (the 5万 of 3千5万, the 3 of 1.2万3: a rest _TAIL does not read); a sign
# right after a numeral is a range's dash (100万三千-100万五千: no −1,000,000).
_LEAD = (r"(?<![A-Za-z0-9_.§#@^\\])(?<![A-Za-z0-9_][/\-])(?<!\d,)(?<!\d:)(?<!§ )(?<!第)(?<!第 )(?<!±)"
         rf"(?<![\d{ZH_DIGITS}十百千][{ZH_POINT}])(?<!\d[千万亿])(?![-+](?<=[{ZH_DIGITS}十百千万亿][-+]))")
# a currency sign set apart from its number (成本 $ 0.8); not one closing a formula ($f(x)$ 3, $$ 3; x$ 3: _LEAD)
# nor before a formula's number (where $ 3 < x $, $ 2 \times 10^6 $) or a year (cost in $ 2024 prices)
_CUR_GAP = r"(?:(?<=[$¥£€])(?<![)}\]$][$¥£€])[ \t](?!\d[\d,.]*[ \t]*[<>=+*/\\^_$]|(?:19|20)\d\d(?![\d.,])))?"
_QTY_RE = re.compile(
    r"(?=[-+$¥£€\d])"  # cheap first test, before the lookbehinds
    + _LEAD
    + rf"(?P<sign>[-+])?(?P<cur>[$¥£€])?{_CUR_GAP}(?P<n1>{_NUM})(?P<m1>{_MAG})?(?P<tail>{_TAIL})?"
    + rf"(?:(?P<u1>{_UNIT})?(?P<sep>{_SEP})"
    + rf"(?P<sign2>[-+])?(?P<cur2>[$¥£€])?{_CUR_GAP}(?P<n2>{_NUM})(?P<m2>{_MAG})?(?P<tail2>{_TAIL})?(?P<u2>{_UNIT})?"
    + rf"|(?P<pm>[ \t]?±[ \t]?{_NUM})?(?P<u>{_UNIT})?)"
    + rf"(?P<plus>\+(?![\d+])(?P<u3>{_UNIT})?)?"  # 2000+ tokens/秒: at least 2000 tok/s
)
_PARSE_RE = re.compile(
    r"\s*(?P<sign>[-+])?(?P<n>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d{1,3}|" + _POW10 + r")?)"
    r"\s*(?P<m>万亿|百万|千万|[kKMBT千万亿]|(?i:thousand|million|billion|trillion))?\s*"
)


def _fold(text: str) -> str:
    """``text`` folded as the rules below read it, in one pass, offsets kept: a full-width
    comma after anything but a full-width digit ends a clause (``；``: ``3.1 → 4.4，1.38×`` is
    not "4.4,1"), between full-width digits it stays a thousands separator (``１，３００万``);
    then :func:`~kb.extract.fold.normalise`."""
    if text.isascii():
        return text
    if "，" not in text:  # the one character _fold_one folds otherwise than normalise: the same string
        return normalised(text)
    return _FOLD_RE.sub(_fold_one, text)


def normalised(text: str) -> str:
    """:func:`~kb.extract.fold.normalise` of ``text``, the last text's kept: a unit's text is
    folded by :func:`kb.extract.unread.unread_numbers`, then by :func:`_fold` (one string, so
    :func:`number_runs` finds its own last answer too). Exact: a pure function of ``text``,
    kept with ``text`` itself (an ``is`` test cannot meet another string at a reused id)."""
    global _NORMALISED
    last = _NORMALISED
    if last[0] is text:
        return last[1]
    norm = normalise(text)
    _NORMALISED = (text, norm)
    return norm


_NORMALISED: tuple[str | None, str] = (None, "")
"""The last ``(text, normalise(text))`` of :func:`normalised` (one tuple: replaced whole, never half-written)."""


def _fold_one(m: re.Match[str]) -> str:
    """The folded form of one character :func:`_fold` replaces."""
    c = m.group()
    if c == "，":
        i = m.start()
        return "," if i and "０" <= m.string[i - 1] <= "９" else ";"
    return _FOLD[c]


# Any other unit written after a number, for pint (kb.extract.units): letters (µ, Ω, °, ℃
# too) with an optional power (s-1, s⁻¹, m^2), joined by '/', '·', '*' or, when the next
# part has a power, a space (km s-1, erg cm-2 s-1).
_POW = r"(?:\^?-?\d(?!\d)|[⁻¹²³]+)"
_PART = rf"(?:[A-Za-zµμΩ][A-Za-zµμΩ]*|°[CF]|℃){_POW}?"
_PINT_TOKEN = re.compile(rf"[ \t]?(?P<t>(?:square|sq|cubic)[ \t]+[A-Za-z]+|(?i:degrees?[ \t]+(?:fahrenheit|celsius))|{_PART}(?:(?:[/·*]|[ \t](?=[A-Za-zµμ]+{_POW})){_PART})*)(?![A-Za-z0-9_])")


# The first two or three letters of an English month name: cut short at a line's end they are a
# truncated date, never a unit (issue 21: "Thu, 12 Ma" is no 12 megayears).
_MONTH_STUBS = frozenset(m[:k] for m in ("January", "February", "March", "April", "May", "June", "July", "August",
                                         "September", "October", "November", "December") for k in (2, 3))


def _pint_unit(norm: str, e: int) -> tuple[_units.Canonical, int] | None:
    """A physical or data unit written at ``norm[e:]`` that kb's vocabulary does not know,
    read by pint, and the offset after it; None when the text there is no unit. A lower-case
    ``m`` glued to the number is a million (``5m users``), not a metre: see _single."""
    t = _PINT_TOKEN.match(norm, e)
    if t is None:
        return None
    if t["t"] in _MONTH_STUBS and (t.end() == len(norm) or norm[t.end()] in "\n\r…."):
        return None  # Thu, 12 Ma: a date cut short at the line's end, no megayear
    c = _units.canonical(t["t"])
    per = per_unit(norm, t.end(), t["t"]) if c is not None and t.group() != "m" else None  # 188 miles an hour: a speed
    return (per[0], per[1]) if per and per[0] else (c, t.end()) if c is not None else None


_PER_RE = re.compile(r"[ \t]?/[ \t]?|" + RATE_WORD)  # a slash, or a rate word before a time (3 GB per second)


def per_unit(norm: str, e: int, unit: str | None) -> tuple[_units.Canonical | None, int] | None:
    """A unit per a unit written on after a number and its unit ``unit`` (normalised: ``h``, ``GB``, or
    pint's: ``miles``; it ends at ``norm[e]``), by a slash or a rate word (``per``/``a``/``an`` before a time:
    vocab.units.RATE_WORD): ``(canonical, end)`` of the whole when it is one (``3 GB/h``, ``3 GB per hour`` →
    ``B/s``), ``(None, end)`` when both are units and the whole is none kb stores (``3 h/s``, ``5 ms/GB``: a time
    per time is no time; unread, :func:`kb.extract.unread.unread_numbers`; by a word None: ``30 min an hour``),
    None when no unit follows (``25 ms/token``: a latency per token is that latency) or
    ``unit`` is kb's own (``%``, ``tok/s``: read as they are). Units: pint's (:mod:`kb.extract.units`)."""
    if unit is None or (p := _PER_RE.match(norm, e)) is None or (own := _canonical(unit)) is None:
        return None
    if "/" not in p.group() and "/" in own.unit:
        return None  # 3 GB/s per second, 3 Gbps a second: a rate word after a rate is no second denominator
    if (u := _UNIT_RE.match(norm, p.end())) is not None and u.group()[:1] not in " \t" \
            and (den := _unit_of(u.group())) is not None and den not in KB_OWN:
        end = u.end()
    elif (t := _PINT_TOKEN.match(norm, p.end())) is not None and t.group()[:1] not in " \t" \
            and _units.canonical(den := t["t"]) is not None:
        end = t.end()
    else:
        return None
    whole = _units.canonical(f"{unit}/{den}")  # ms/GB: none (pint's bit has no dimension); 30 min an hour: 30 min
    return (whole, end) if whole is not None and whole.unit != own.unit else (None, end) if "/" in p.group() else None


# a run of three or more plain numbers set apart by spaces (1 2 3 tok/s: which one is the figure?);
# never digits grouped in threes (1 000 000, one number: ISO 80000-1)
_RUN_RE = re.compile(r"(?<![A-Za-z0-9_.,:/\-])(?>\d+(?:\.\d+)?(?:[ \t]\d+(?:\.\d+)?){2,})(?![A-Za-z0-9_.,:/^]|[-–~]\d)")
_RUN_HINT = re.compile(r"[ \t](?<=\d[ \t])\d+(?:\.\d+)?[ \t]\d")
# _RUN_HINT led by a space, then by a tab: a literal is found fast, a class scan costs four (callgrind)
_RUN_HINT_SPACE, _RUN_HINT_TAB = (re.compile(c + rf"(?<=\d{c})\d+(?:\.\d+)?[ \t]\d") for c in (" ", "\t"))
_SPACED_POINT_RE = re.compile(r"(?<![A-Za-z0-9_.,])\d+(?: \. \d+)+(?![\d.])")
_GROUPED_RE = re.compile(r"\d{1,3}(?:[ \t]\d{3})+(?:\.\d+)?")


def number_runs(norm: str) -> list[tuple[int, int]]:
    """Spans of the runs of three or more plain numbers set apart by spaces in ``norm`` (``1 2 3
    tok/s``) or of a decimal written with spaces round its point (``6 . 2 %``, tokenised text: the 2
    alone is a figure not written): no number (:func:`kb.extract.quantities.find_quantities` reads
    none of them; before a unit :func:`kb.extract.unread.unread_numbers` warns). Digits grouped in
    threes are one number. Spans in text order."""
    global _RUNS
    last = _RUNS
    if last[0] is norm:  # the same unit's text asked again (unread_numbers, then find_quantities)
        return list(last[1])
    if _RUN_HINT_SPACE.search(norm) is None and ("\t" not in norm or _RUN_HINT_TAB.search(norm) is None):
        runs: tuple[tuple[int, int], ...] = ()
    else:
        runs = tuple(m.span() for m in _RUN_RE.finditer(norm) if not _GROUPED_RE.fullmatch(m.group()))
    if " . " in norm and (points := tuple(m.span() for m in _SPACED_POINT_RE.finditer(norm))):
        runs = tuple(sorted(runs + points))
    _RUNS = (norm, runs)
    return list(runs)


_RUNS: tuple[str | None, tuple[tuple[int, int], ...]] = (None, ())
"""The last ``(norm, number_runs(norm))``, kept with ``norm`` itself (an ``is`` test is exact) in one
tuple, replaced whole."""


def _canonical(unit: str | None) -> _units.Canonical | None:
    """pint's canonical form of one of kb's convertible units (ms, GB, month …), else None."""
    if unit is None or unit in KB_OWN:
        return None
    return _units.canonical(unit)


@lru_cache(maxsize=1024)
def _unit_of(written: str | None) -> str | None:
    """Normalised unit of a written unit (leading space allowed), or None (cached: a text
    writes a handful of units again and again, ``%``, ``×``, `` ms``)."""
    if not written:
        return None
    w = written.strip().lstrip("-")  # 32K-token: a hyphenated token count
    if (u := _UNIT_OF.get(w) or ASCII_UNITS_CI.get(w.lower())) is not None:
        return u
    if _REQUEST_RATE_RE.fullmatch(w):
        return "req/s"  # 500 requests per second
    if _TOKEN_RATE_RE.fullmatch(w):
        return "tok/s/GPU" if (low := w.lower()).endswith(PER_DEVICE_NOUNS) else "tok/s/user" if low.endswith(PER_STREAM_NOUNS) else "tok/s"
    return None


_TOKEN_RATE_RE, _REQUEST_RATE_RE = (re.compile(rate, re.IGNORECASE) for rate in (TOKEN_RATE, REQUEST_RATE))


def _e_form(d: str) -> str:
    """Digits as ``float`` reads them: a power of ten written out in e-notation (``3.2×10^-2`` →
    ``3.2e-2``, ``10⁶`` → ``1e6``), grouping spaces dropped (``12 345`` → ``12345``)."""
    if (t := _TIMES_TEN.search(d)) is not None:
        d = (d[:t.start()] + "e" + d[t.end():]).translate(_SUPERSCRIPTS)  # 3.2×10^-2 → 3.2e-2
    elif (t := _BARE_TEN_RE.match(d)) is not None:
        d = ("1e" + d[t.end():]).translate(_SUPERSCRIPTS)  # 10^6 → 1e6
    return d.translate(_GROUPING) if " " in d or "'" in d or "’" in d else d


_GROUPING = str.maketrans("", "", " '’")
_BARE_TEN_RE = re.compile(r"10(?:\^|(?=[⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹]))")


def _number(sign: str | None, digits: str, mag: str | None) -> float:
    """Value of ``digits`` (thousands separators allowed) times a magnitude, signed."""
    d = digits.replace(",", "") if "," in digits else digits
    if "10" in d:
        d = _e_form(d)
    elif " " in d or "'" in d or "’" in d:
        d = d.translate(_GROUPING)  # 12 345 tok/s, 1'234 tok/s
    if mag:
        mag = mag.strip()
        power = MAGNITUDES.get(mag) or MAGNITUDES[mag.lower()]
        if "e" in d or "E" in d:  # 1e3M: the exponent and the magnitude add
            base, _, exp = d.lower().partition("e")
            power += int(exp)
            d = base
        v = float(f"{d}e{power}")
    else:
        v = float(d)
    return -v if sign == "-" else v


_ZH_SIGNED_RE = re.compile(rf"\s*(?P<sign>负|-)?(?P<n>[\d.{ZH_DIGITS}{ZH_POINT}十百千万亿萬億]*)\s*")


def parse_number(raw: str) -> float:
    """Parse one number as written: sign, thousands separators, decimals, magnitude.

    ``"1,300 万"`` → 13000000.0, ``"−67.6"`` → -67.6, ``"６.２k"`` → 6200.0, ``"2.8T"`` →
    2.8e12, ``"13M"`` → 1.3e7, ``"1.5B"`` → 1.5e9, ``"3 亿"`` → 3e8. Full-width digits and
    U+2212 MINUS SIGN are folded first (C17: ``float("−67.6")`` raises on Python 3.11).
    Magnitudes: k/K 10³, M 10⁶, B 10⁹, T 10¹², 千 10³, 万 10⁴, 百万 10⁶, 千万 10⁷, 亿 10⁸,
    万亿 10¹²; the value is computed in decimal, so ``6.2k`` is exactly 6200. Exponent notation is
    a number (issue 24): ``1e6`` → 1e6, ``1E-3`` → 0.001. Chinese numerals and digits with
    Chinese magnitudes are read by :func:`kb.extract.zh_numerals.zh_value` (issue 21), signed by
    ``负`` or ``-``: ``三千二百`` → 3200, ``负十五`` → -15, ``3万2千5百`` → 32500, ``2千零50`` → 2050,
    ``20万万`` → 2e9, ``1.6萬億`` → 1.6e12.

    :param raw: the number alone; surrounding whitespace is ignored. Units (``%``, ``×``) are
        not part of a number.
    :returns: the value as a float.
    :raises ValueError: ``raw`` is not one number in that form (the message quotes it).
    """
    if not isinstance(raw, str):
        raise ValueError(f"parse_number: expected a string, got {type(raw).__name__}")
    m = _PARSE_RE.fullmatch(normalise(raw))
    if m is None:
        zh = _ZH_SIGNED_RE.fullmatch(normalise(raw))
        if zh is not None and zh["n"]:
            try:
                v = zh_value(zh["n"])
            except ValueError:
                pass
            else:
                return -v if zh["sign"] else v
        raise ValueError(
            f"not a number: {raw!r}; expected digits with an optional sign, thousands separators "
            "(1,918), decimals and one magnitude (k, M, B, T, 万, 亿), e.g. '−67.6', '1,300 万', '2.5K'"
        )
    return _number(m["sign"], m["n"], m["m"])


def _tail(sign: str | None, tail: str | None, mag: str | None = None) -> float:
    """Value of the rest of a mixed Chinese number (``4000`` of 3万4000, ``6千`` of 25万6千,
    ``5000万`` of 1亿5000万), signed like the number; 0 when there is none. A single digit with
    no magnitude after it is the place below ``mag``, the magnitude before it, as it is said
    (``2`` of 1万2 is 2,000: 一万二; of 1亿2, 20,000,000), as 3千5 is 3,500."""
    if not tail:
        return 0.0
    if len(tail) == 1 and mag:
        v = float(f"{tail}e{MAGNITUDES[mag.strip()] - 1}")
        return -v if sign == "-" else v
    exp = {"千": 3, "百": 2, "万": 4}.get(tail[-1], 0)
    v = float(f"{tail.rstrip('千百万')}e{exp}")
    return -v if sign == "-" else v
