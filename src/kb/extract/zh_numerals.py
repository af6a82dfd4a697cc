"""Numbers written with Chinese numerals (``三千二百``, ``三十七点二``, ``六百多万``) or with digits
and Chinese magnitudes (``3万2千5百``, ``2千零50``, ``20万万``, ``1.6萬億``): the one reader,
:func:`zh_value`, a wrapper of the cn2an library.

Why cn2an, and how: cn2an (MIT, kept on PyPI) reads Chinese numerals and the mixed forms people
write (``3万2千5百``, ``2千零50``, ``一亿五千万``, ``3.5亿``) in its ``smart`` mode, which kb needs,
and refuses everything that is no number (``一些``, ``万一``). Its ``strict`` and ``normal`` modes
refuse the mixed forms and ``两``; ``smart`` refuses the prefixes and suffixes people put around a
number (``百分之三十七点二``, ``负``, ``零下``, ``三分之二``, ``六百多万``), a doubled magnitude (``20万万``,
``1.6万亿``) and traditional forms (``萬``, ``億``), so :func:`zh_value` folds those first and the
quantity finder (:mod:`kb.extract.zh_quantities`) reads the words around a number itself.
``cn2an.transform`` rewrites numerals inside running text, but it changes offsets and turns words
such as ``一些``/``统一`` into digits, so kb never uses it. Importing cn2an costs about 0.25 s (it
loads its text-processing helpers), so it is imported on the first Chinese numeral read, never
for digits alone (``3万2千``'s digits and magnitudes are read without it when they are simple).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

ZH_DIGITS = "零〇一二两兩三四五六七八九"
"""Chinese numeral digits (``两`` is 2 before a magnitude or a unit; ``兩`` its traditional form)."""
ZH_POINT = "点點"
"""The decimal point of Chinese numerals (``三点五``, traditional ``三點五``: 3.5)."""
ZH_UNITS = "十百千"
"""Chinese numeral units below 万."""
ZH_MAGS = "万亿萬億"
"""Chinese magnitudes (traditional forms folded by :func:`zh_value`)."""

_TRAD = str.maketrans({"萬": "万", "億": "亿", "兩": "两", "點": "点", "〇": "零"})
_SIMPLE = re.compile(r"(?P<n>\d+(?:\.\d+)?)(?P<m>[万亿]*)")
_MAG_POWER = {"万": 4, "亿": 8}
_DIGIT = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_SMALL = re.compile("([一二两三四五六七八九])?十([一二三四五六七八九])?|([零一二两三四五六七八九])")
_READER: Any = None


def _cn2an(s: str) -> float:
    """cn2an's ``smart`` reading of ``s`` (imported and built on first use)."""
    global _READER
    if _READER is None:
        from cn2an.cn2an import Cn2An

        _READER = Cn2An()
    return float(_READER.cn2an(s, "smart"))


@lru_cache(maxsize=4096)
def zh_value(written: str) -> float:
    """The value of one number written with Chinese numerals or digits and Chinese magnitudes.

    ``三千二百`` → 3200, ``三十七点二`` → 37.2, ``两`` → 2, ``3万2千5百`` → 32500, ``2千零50`` → 2050,
    ``20万万`` → 2e9, ``1.6萬億`` → 1.6e12, ``3.5亿`` → 3.5e8, ``1万2`` → 12000 (as said: 一万二).
    A run of trailing magnitudes multiplies (``万万`` = 10⁸, ``万亿`` = 10¹²). The value is computed
    in decimal where digits carry the magnitudes (``1.6万亿`` is exactly 1.6e12).

    :param written: the number alone, no sign, percent or bound words (the finder reads those).
    :returns: the value.
    :raises ValueError: ``written`` is no number (``一些``, ``万一``, ``""``); the message quotes it.
    """
    s = written.strip().translate(_TRAD)
    small = _SMALL.fullmatch(s)
    if small is not None:  # 两, 十五, 三十七: read here, without importing cn2an
        tens, ones, single = small.groups()
        if single:
            return float(_DIGIT[single])
        return float((_DIGIT[tens] if tens else 1) * 10 + (_DIGIT[ones] if ones else 0))
    m = _SIMPLE.fullmatch(s)
    if m is not None:  # digits, then magnitudes only: no library needed
        return float(f"{m['n']}e{sum(_MAG_POWER[c] for c in m['m'])}")
    power = 0
    while len(s) > 1 and s[-1] in "万亿" and s[-2] in "万亿":
        power += _MAG_POWER[s[-1]]  # 20万万, 1.6万亿, 五十万亿: cn2an reads one magnitude at the end
        s = s[:-1]
    try:
        v = _cn2an(s)
    except Exception as err:  # noqa: BLE001 - cn2an raises ValueError and others for a non-number
        raise ValueError(f"not a number in Chinese numerals: {written!r}") from err
    return float(f"{v:.15g}e{power}") if power else float(f"{v:.15g}")
