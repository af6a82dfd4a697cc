"""Text folding that keeps every offset: full-width forms and minus signs to ASCII
(:func:`normalise`), lower case of the same length (:func:`lower_same_length`). Every extractor
reads folded text and reports spans into the text as written.
"""

from __future__ import annotations

import re

# Full-width ASCII (U+FF01-U+FF5E) to ASCII, U+2212 MINUS SIGN and non-breaking hyphens to
# '-', ideographic, no-break, figure, thin and narrow no-break spaces to ' ' (1 234 tok/s with a
# thin space is 1 234 with a space), U+2215 DIVISION SLASH to '/' (tok∕s), the Arabic decimal and
# thousands separators to '.' and ',' (٣٫٥ is 3.5, ١٬٢٣٤ is 1,234), ￥ to ¥: one code point
# to one, so offsets do not move. En and em dashes are left alone: they separate a range and are
# never a sign (C17).
_NORMALISE = str.maketrans(
    {**{c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}, 0x2212: "-", 0x2010: "-", 0x2011: "-",
     0xFE63: "-", 0x3000: " ", 0x00A0: " ", 0x2007: " ", 0x2009: " ", 0x202F: " ", 0x2215: "/", 0xFFE5: "¥",
     0x066B: ".", 0x066C: ","}
)


def normalise(text: str) -> str:
    """Fold full-width forms and minus signs to ASCII, keeping every offset.

    :param text: any text.
    :returns: a string of the same length; character *i* is character *i* of ``text``, folded
        (``４２％`` → ``42%``, ``−67.6`` → ``-67.6``, ``，`` → ``,``, ``（`` → ``(``).
    """
    if text.isascii():
        return text
    # only the characters to fold are visited (str.translate looks every CJK character up), and
    # each distinct one is replaced once, in C (no Python call per character: a unit holds one or
    # two ，（）). Exact: every character maps to one character that is itself no key of the table.
    found = _FOLD_RE.findall(text)
    for ch in set(found) if len(found) > 1 else found:
        text = text.replace(ch, _FOLD[ch])
    return text


_FOLD = {chr(k): v if isinstance(v, str) else chr(v) for k, v in _NORMALISE.items()}
_FOLD_RE = re.compile("[" + "".join(re.escape(c) for c in sorted(_FOLD)) + "]")


def lower_same_length(norm: str) -> str:
    """``norm.lower()``, except that a character whose lower case is longer stays as it is.

    The last text and its result are kept: a unit's text is lowered by the metric scan, the
    cue matcher and the mood finder in turn (the same string object), and is lowered once.

    :param norm: text (usually folded by :func:`normalise`).
    :returns: a string of the same length, for :attr:`kb.extract.metrics.MetricVocab.pattern`.
    """
    global _LOWERED
    last = _LOWERED
    if last[0] is norm:
        return last[1]
    low = norm.lower()
    if len(low) != len(norm):
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in norm)
    _LOWERED = (norm, low)
    return low


_LOWERED: tuple[str | None, str] = (None, "")
"""The last ``(text, lower_same_length(text))`` (one tuple: replaced whole, never half-written)."""
