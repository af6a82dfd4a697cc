"""Numbers no float holds (``9e999999``, ``1e309``, ``1e-400``, ``2×10^999``, an integer of 309 digits):
never a quantity; the parser reports each (:mod:`kb.extract.unread`, docs/claims.md).

:func:`out_of_range` finds them in a text, :func:`in_range` tells one written number,
:func:`has_exponent_hint` is the quick test before the scan.
"""

from __future__ import annotations

import re

from kb.extract.numbers import _EXPONENT_RE, _e_form


def out_of_range(text: str, exponent: bool | None = None) -> list[tuple[int, int]]:
    """Spans of the numbers of ``text`` written with an exponent that no float holds (``9e999999``,
    ``1e309``, ``1e-400``, ``2×10^999``) or with more digits than a float holds (an integer of 309
    digits or more): never a quantity (:func:`in_range` is False for them);
    the parser reports each as a warning, the text keeps it (docs/claims.md).

    :param text: any text (ASCII digits: full-width ones are read by the finder, not reported here).
    :param exponent: :func:`has_exponent_hint` of ``text`` when the caller has it (None: asked here).
    :returns: ``(start, end)`` offsets into ``text``, in order.
    """
    long = [m.span() for m in _LONG_RE.finditer(text) if not in_range(m.group())] if len(text) > 308 else []
    if not (has_exponent_hint(text) if exponent is None else exponent) and "10^" not in text \
            and ("10" not in text or text.isascii() or _SUPERSCRIPT_TEN_RE.search(text) is None):
        return long  # most texts: every number reported below holds an exponent or a power of ten
    return sorted({*long, *(m.span() for m in _EXPONENT_RE.finditer(text) if not in_range(m.group()))})


# an integer of more digits than a float holds (309 and more: 1e309 is past the largest float)
_LONG_RE = re.compile(r"(?<![A-Za-z0-9_.])\d{309,}(?:\.\d+)?(?![\d.eE])")


#: An ``e``/``E`` right after a digit: with ``"10"`` in the text, what every number
#: :func:`out_of_range` reports holds (an exponent, ``1e309``; a power of ten, ``2×10^999``), so
#: most texts skip its scan (27k -> 9k instructions a unit, callgrind; tests/test_unit_prechecks.py
#: checks the two agree). (``[eE]`` first: re skips to one.)
_EXPONENT_HINT_RE = re.compile(r"[eE](?<=\d[eE])")
#: A power of ten written with superscripts (``10⁶``, ``10⁻³``): with ``10^`` and an exponent, what
#: every number :func:`out_of_range` reports holds (led by the literal ``10``: re finds it fast)
_SUPERSCRIPT_TEN_RE = re.compile("10[⁻⁺⁰¹²³⁴⁵⁶⁷⁸⁹]")


def has_exponent_hint(text: str) -> bool:
    """Whether :data:`_EXPONENT_HINT_RE` matches in ``text`` (an ``e``/``E`` right after a digit):
    one search per letter, each only when the text holds that letter at all."""
    return ("e" in text and _E_HINT.search(text) is not None) or ("E" in text and _E_UPPER_HINT.search(text) is not None)


_E_HINT, _E_UPPER_HINT = re.compile(r"e(?<=\de)"), re.compile(r"E(?<=\dE)")
"""_EXPONENT_HINT_RE led by each letter (a literal is found fast, a class scan costs four: callgrind)."""


def in_range(written: str) -> bool:
    """Whether a number written with digits and perhaps an exponent (``1e6``, ``3.2×10^-2``) fits
    a float: neither infinite (``1e309``) nor a non-zero number read as zero (``1e-400``)."""
    d = _e_form(written.replace(",", ""))
    mantissa, _, exp = d.lower().partition("e")
    if exp and len(exp.lstrip("+-").lstrip("0")) > 6:
        return float(mantissa.strip(".0") or 0) == 0  # 9e999999: no float; 0e9999999 is zero
    v = float(d)
    return v == v and abs(v) != float("inf") and (v != 0 or float(mantissa or 0) == 0)
