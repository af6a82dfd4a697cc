"""A literal hint that ignores case (:func:`kb.perf.literals.literal_hint`), searched in lower-cased
text without ignoring case: the same places found, with fewer instructions.

Under ``re.IGNORECASE`` :mod:`re` knows no first character of a literal (it has two cases): it
enters every branch of the hint's alternation at every position (~12 µs for forty bound words
over the forty characters before a number). The same hint compiled without ``IGNORECASE``
(:func:`lowered`) skips in C to its words' first characters and tests one branch there.

Exact on text lower-cased one character for one (``kb.extract.fold.lower_same_length``) that holds
none of :data:`ODD_CASE`: the hint's characters are ASCII lower-case letters or have no case (CJK,
digits, symbols, spaces, ``\\s``/``\\d``/``\\w``). A caseless character matches itself only, and
lowering changes none; an ASCII letter matches, under ``IGNORECASE``, itself, its upper case
and the four characters of :data:`ODD_CASE`, nothing else (every code point tried:
tests/test_caseless.py), and lowering turns its upper case into it and no other character
but ``K`` (KELVIN SIGN) into an ASCII letter. A text holding one of the four is searched as before.
"""

from __future__ import annotations

import re

ODD_CASE = "\u0130\u0131\u017f\u212a"
"""The characters outside ASCII that an ASCII letter matches under ``re.IGNORECASE``: İ ı ſ K."""

_ODD_CASE_RE = re.compile(f"[{ODD_CASE}]")


def lowered(hint: re.Pattern[str] | None) -> re.Pattern[str] | None:
    """``hint`` compiled without ``IGNORECASE``, for lower-cased text (see the module); None when
    ``hint`` is None, does not ignore case, or holds a character that is neither an ASCII
    lower-case letter nor one without case (then search ``hint`` itself).

    :param hint: a pattern of literals (:func:`kb.perf.literals.literal_hint`).
    """
    if hint is None or not hint.flags & re.IGNORECASE:
        return None
    if any(c.isupper() or (not c.isascii() and c.lower() != c.upper()) for c in hint.pattern):
        return None
    return re.compile(hint.pattern, hint.flags & ~re.IGNORECASE)


def may_lower(text: str) -> bool:
    """Whether a :func:`lowered` hint finds, in ``text`` lower-cased, what its hint finds in
    ``text``: it holds none of :data:`ODD_CASE`."""
    return text.isascii() or _ODD_CASE_RE.search(text) is None
